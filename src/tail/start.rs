//! Where to start following a large log: near its end, at a line start, so the first
//! frame reads what the screen shows and the rest is counted behind it.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// The first line start in the last `window` bytes of the log at `path`; `None` when the
/// log is no larger than `above` or no line starts there.
pub fn tail_start(path: &Path, above: u64, window: u64) -> Option<u64> {
    let mut file = super::open_regular(path).ok()?;
    let len = file.metadata().ok()?.len();
    if len <= above || window == 0 {
        return None;
    }
    let from = len.saturating_sub(window);
    file.seek(SeekFrom::Start(from)).ok()?;
    // Read until the newline only (a line is rarely longer than a chunk): the tail is
    // read again as it is followed.
    let mut chunk = vec![0u8; (64 << 10).min(window as usize)];
    let mut read = 0u64;
    while read < window {
        let want = (window - read).min(chunk.len() as u64) as usize;
        let n = file.read(&mut chunk[..want]).ok()?;
        if n == 0 {
            return None;
        }
        if let Some(newline) = memchr::memchr(b'\n', &chunk[..n]) {
            return Some(from + read + newline as u64 + 1);
        }
        read += n as u64;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tail_starts_at_a_line_start_of_a_large_log_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        let line = "x".repeat(99) + "\n";
        std::fs::write(&path, line.repeat(100)).unwrap();
        assert_eq!(
            tail_start(&path, 10_000, 250),
            None,
            "not larger than `above`"
        );
        let start = tail_start(&path, 1000, 250).unwrap();
        assert_eq!(
            start,
            10_000 - 200,
            "the first line start in the last 250 bytes"
        );
        // A last line longer than the window: the file's end (nothing of it read at once).
        std::fs::write(&path, "y".repeat(5000) + "\n").unwrap();
        assert_eq!(tail_start(&path, 1000, 250), Some(5001));
        // No line starts in the window at all.
        std::fs::write(&path, "z".repeat(5000)).unwrap();
        assert_eq!(tail_start(&path, 1000, 250), None);
        assert_eq!(tail_start(&dir.path().join("gone"), 0, 250), None);
    }
}
