//! The whole lines a file gained since an offset, for readers that keep only an offset
//! between looks (the export's cursors): no identity or partial-line state, as a
//! [`super::Tailer`] keeps.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use super::open_regular;

/// The whole lines of `path` written after `offset` (at most `max` bytes of them), which
/// moves past them; a file shorter than `offset` (replaced) is read from its start. An
/// unreadable or non-regular file gives none.
pub fn lines_since(path: &Path, offset: &mut u64, max: u64) -> Vec<Vec<u8>> {
    let Ok(mut file) = open_regular(path) else {
        return Vec::new();
    };
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len < *offset {
        *offset = 0;
    }
    if len == *offset || file.seek(SeekFrom::Start(*offset)).is_err() {
        return Vec::new();
    }
    let mut bytes = Vec::new();
    if file.take(max).read_to_end(&mut bytes).is_err() {
        return Vec::new();
    }
    let Some(end) = memchr::memrchr(b'\n', &bytes) else {
        return Vec::new();
    };
    *offset += end as u64 + 1;
    bytes[..end]
        .split(|b| *b == b'\n')
        .map(<[u8]>::to_vec)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_lines_only_and_a_replaced_file_from_its_start() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        std::fs::write(&path, "a\nb\npart").unwrap();
        let mut offset = 0;
        assert_eq!(
            lines_since(&path, &mut offset, 1 << 20),
            [b"a".to_vec(), b"b".to_vec()]
        );
        assert_eq!(offset, 4);
        assert!(lines_since(&path, &mut offset, 1 << 20).is_empty());
        std::fs::write(&path, "x\n").unwrap();
        assert_eq!(lines_since(&path, &mut offset, 1 << 20), [b"x".to_vec()]);
        assert_eq!(offset, 2);
    }
}
