//! Reading a log from its end, bounded: at most so many bytes from the end, and no line
//! longer than a cap held in memory (such a line is skipped and counted).

use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use super::open::open_regular;

const CHUNK: u64 = 64 * 1024;

/// What [`read_back`] found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Back {
    /// The lines kept, oldest first (without their `\n`; blank lines left out).
    pub lines: Vec<Vec<u8>>,
    /// The start of the file was reached.
    pub whole: bool,
    /// Lines longer than the cap, skipped.
    pub oversized: u64,
}

/// Lines of `path` from the end backwards, while `keep` says so, reading at most
/// `max_bytes` from the end; a line longer than `max_line` is skipped (counted in
/// [`Back::oversized`]), never held whole. A missing file has no lines; a FIFO or a
/// device is an error, never a hang.
pub fn read_back(
    path: &Path,
    max_bytes: u64,
    max_line: usize,
    mut keep: impl FnMut(&[u8]) -> bool,
) -> io::Result<Back> {
    let mut file = match open_regular(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(Back {
                whole: true,
                ..Back::default()
            });
        }
        Err(e) => return Err(e),
    };
    let len = file.metadata()?.len();
    let floor = len.saturating_sub(max_bytes);
    let mut pos = len;
    // The bytes after the last line end seen, before the part read: a line's end.
    let mut carry: Vec<u8> = Vec::new();
    // The line being read is longer than `max_line`: skipped until its start.
    let mut skipping = false;
    let mut back = Back::default();
    let finish = |mut back: Back, whole: bool| {
        back.lines.reverse();
        back.whole = whole;
        Ok(back)
    };
    while pos > floor {
        let start = pos.saturating_sub(CHUNK).max(floor);
        let mut buf = vec![0u8; (pos - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut buf)?;
        let mut end = buf.len();
        while let Some(nl) = memchr::memrchr(b'\n', &buf[..end]) {
            if std::mem::take(&mut skipping) {
                back.oversized += 1;
            } else {
                let mut line = buf[nl + 1..end].to_vec();
                line.append(&mut carry);
                if line.len() > max_line {
                    back.oversized += 1;
                } else if !line.iter().all(u8::is_ascii_whitespace) {
                    if !keep(&line) {
                        return finish(back, false);
                    }
                    back.lines.push(line);
                }
            }
            carry.clear();
            end = nl;
        }
        if !skipping {
            if carry.len() + end > max_line {
                carry = Vec::new();
                skipping = true;
            } else {
                let mut head = buf[..end].to_vec();
                head.append(&mut carry);
                carry = head;
            }
        }
        pos = start;
    }
    if pos == 0 {
        if skipping {
            back.oversized += 1;
        } else if !carry.iter().all(u8::is_ascii_whitespace) {
            if !keep(&carry) {
                return finish(back, false);
            }
            back.lines.push(carry);
        }
    }
    finish(back, pos == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_from_the_end_across_chunks() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("log");
        let mut body = String::new();
        for i in 0..20_000 {
            body.push_str(&format!("line {i}\n"));
        }
        body.push_str("last");
        std::fs::write(&p, &body).unwrap();
        let mut n = 0;
        let b = read_back(&p, u64::MAX, 100, |_| {
            n += 1;
            n <= 3
        })
        .unwrap();
        assert_eq!(b.lines, [&b"line 19998"[..], b"line 19999", b"last"]);
        assert!(!b.whole);
        let all = read_back(&p, u64::MAX, 100, |_| true).unwrap();
        assert_eq!(all.lines.len(), 20_001);
        assert_eq!(all.lines[0], b"line 0");
        assert!(all.whole);
        assert_eq!(all.oversized, 0);
    }

    #[test]
    fn long_lines_are_skipped_and_counted_never_held() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("log");
        let long = "x".repeat(300_000);
        std::fs::write(&p, format!("{long}\nshort\n{long}\nend\n{long}")).unwrap();
        let b = read_back(&p, u64::MAX, 1000, |_| true).unwrap();
        assert_eq!(b.lines, [&b"short"[..], b"end"]);
        assert_eq!(b.oversized, 3);
        assert!(b.whole);
        // A long line just under the cap is kept.
        std::fs::write(&p, format!("a\n{}\n", "y".repeat(999))).unwrap();
        let b = read_back(&p, u64::MAX, 1000, |_| true).unwrap();
        assert_eq!(b.lines.len(), 2);
        assert_eq!(b.oversized, 0);
    }

    #[test]
    fn a_fifo_or_a_device_is_refused_and_a_missing_file_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .unwrap();
        assert!(made.success());
        assert!(read_back(&p, 1024, 10, |_| true).is_err());
        let zero = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert!(read_back(&zero, 1024, 10, |_| true).is_err());
        let none = read_back(&dir.path().join("none"), 10, 10, |_| true).unwrap();
        assert!(none.whole && none.lines.is_empty());
    }
}
