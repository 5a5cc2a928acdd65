use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Bytes read per `read` call: small enough to stay in L2 while lines are split.
const CHUNK: usize = 128 << 10;
/// A line longer than this is skipped (reported), not held in memory.
pub const MAX_LINE: usize = 32 << 20;

/// What a [`Tailer::poll`] passes to its callback, in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TailEvent<'a> {
    /// The file was truncated, replaced or deleted: drop everything derived from it; the
    /// lines that follow are the file's content from its start.
    Reset,
    /// A complete line (without its `\n`), its 0-based number and byte offset.
    Line {
        number: u64,
        offset: u64,
        bytes: &'a [u8],
    },
}

/// What one [`Tailer::poll`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Poll {
    /// The file was truncated or replaced: everything derived from it must be dropped
    /// (the lines passed in this same poll are the file's new content from its start).
    pub reset: bool,
    /// The file does not exist (now).
    pub missing: bool,
    /// Complete lines passed to the callback.
    pub lines: u64,
    /// Lines longer than `MAX_LINE` (32 MiB), skipped.
    pub oversized: u64,
}

/// Follows one append-only file.
#[derive(Debug)]
pub struct Tailer {
    path: PathBuf,
    identity: Option<(u64, u64)>,
    /// Bytes consumed: up to the end of the last complete line (plus the held partial).
    offset: u64,
    /// Start offset of the held partial line.
    partial_start: u64,
    partial: Vec<u8>,
    /// Skipping the rest of an oversized line.
    skipping: bool,
    next_line: u64,
    /// Read no further than this offset (a background scan of a file's head).
    limit: Option<u64>,
}

impl Tailer {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            identity: None,
            offset: 0,
            partial_start: 0,
            partial: Vec::new(),
            skipping: false,
            next_line: 0,
            limit: None,
        }
    }

    /// Whether it has read nothing and seen no file yet (following a missing file): such a
    /// tailer need not be kept, a new one does the same.
    pub fn is_fresh(&self) -> bool {
        self.identity.is_none()
            && self.offset == self.partial_start
            && self.partial.is_empty()
            && self.next_line == 0
            && !self.skipping
            && self.limit.is_none()
    }

    /// Follows the file from `offset` (a line start); line numbers count from there.
    pub fn starting_at(path: impl Into<PathBuf>, offset: u64) -> Self {
        Self {
            offset,
            partial_start: offset,
            ..Self::new(path)
        }
    }

    /// Reads the file from its start up to `end` (a line start) only.
    pub fn bounded(path: impl Into<PathBuf>, end: u64) -> Self {
        Self::range(path, 0, end)
    }

    /// Reads bytes `start..end` (both line starts) only; line numbers count from `start`.
    pub fn range(path: impl Into<PathBuf>, start: u64, end: u64) -> Self {
        Self {
            limit: Some(end),
            ..Self::starting_at(path, start)
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes of the file consumed so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Stats the file and passes a reset, if any, then each newly completed line.
    pub fn poll(&mut self, on: &mut dyn FnMut(TailEvent<'_>)) -> io::Result<Poll> {
        let mut result = Poll::default();
        let mut file = match super::open_regular(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                result.missing = true;
                if self.identity.is_some() {
                    self.restart();
                    result.reset = true;
                    on(TailEvent::Reset);
                }
                return Ok(result);
            }
            Err(e) => return Err(e),
        };
        let meta = file.metadata()?;
        let identity = (meta.dev(), meta.ino());
        if self.identity.is_some_and(|id| id != identity) || meta.len() < self.offset {
            self.restart();
            result.reset = true;
            on(TailEvent::Reset);
        }
        self.identity = Some(identity);
        if meta.len() == self.offset || self.limit == Some(self.offset) {
            return Ok(result);
        }
        file.seek(SeekFrom::Start(self.offset))?;
        let mut buf = vec![0u8; CHUNK];
        loop {
            let want = self
                .limit
                .map_or(CHUNK, |l| CHUNK.min((l - self.offset) as usize));
            if want == 0 {
                break;
            }
            let n = match file.read(&mut buf[..want]) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            self.consume(&buf[..n], &mut result, on);
        }
        Ok(result)
    }

    fn restart(&mut self) {
        self.identity = None;
        self.offset = 0;
        self.partial_start = 0;
        self.partial.clear();
        self.skipping = false;
        self.next_line = 0;
    }

    fn consume(&mut self, data: &[u8], result: &mut Poll, on: &mut dyn FnMut(TailEvent<'_>)) {
        let base = self.offset;
        let mut start = 0usize;
        for nl in memchr::memchr_iter(b'\n', data) {
            let piece = &data[start..nl];
            if self.skipping {
                self.skipping = false;
                result.oversized += 1;
            } else if self.partial.is_empty() {
                on(TailEvent::Line {
                    number: self.next_line,
                    offset: base + start as u64,
                    bytes: piece,
                });
                result.lines += 1;
            } else {
                self.partial.extend_from_slice(piece);
                let line = std::mem::take(&mut self.partial);
                on(TailEvent::Line {
                    number: self.next_line,
                    offset: self.partial_start,
                    bytes: &line,
                });
                result.lines += 1;
            }
            self.next_line += 1;
            start = nl + 1;
        }
        let rest = &data[start..];
        if !rest.is_empty() && !self.skipping {
            if self.partial.is_empty() {
                self.partial_start = base + start as u64;
            }
            if self.partial.len() + rest.len() > MAX_LINE {
                self.partial = Vec::new();
                self.skipping = true;
            } else {
                self.partial.extend_from_slice(rest);
            }
        }
        self.offset = base + data.len() as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn collect(t: &mut Tailer) -> (Poll, Vec<(u64, String)>) {
        let mut lines = Vec::new();
        let p = t
            .poll(&mut |e| {
                if let TailEvent::Line { number, bytes, .. } = e {
                    lines.push((number, String::from_utf8_lossy(bytes).into_owned()));
                }
            })
            .unwrap();
        (p, lines)
    }

    fn append(path: &Path, s: &str) {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        f.write_all(s.as_bytes()).unwrap();
    }

    #[test]
    fn appends_and_partial_lines() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.jsonl");
        let mut t = Tailer::new(&p);
        assert!(collect(&mut t).0.missing);
        append(&p, "one\ntw");
        let (_, lines) = collect(&mut t);
        assert_eq!(lines, vec![(0, "one".to_string())]);
        append(&p, "o\nthree\n");
        let (_, lines) = collect(&mut t);
        assert_eq!(lines, vec![(1, "two".into()), (2, "three".into())]);
        let (p2, lines) = collect(&mut t);
        assert_eq!((p2.lines, lines.len()), (0, 0));
    }

    #[test]
    fn offsets_point_at_line_starts() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a");
        append(&p, "ab\ncd");
        let mut t = Tailer::new(&p);
        let mut offs = Vec::new();
        let mut record = |e: TailEvent<'_>| {
            if let TailEvent::Line { offset, .. } = e {
                offs.push(offset);
            }
        };
        t.poll(&mut record).unwrap();
        append(&p, "e\nf\n");
        t.poll(&mut record).unwrap();
        assert_eq!(offs, vec![0, 3, 7]);
    }

    #[test]
    fn truncate_rereads() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a");
        append(&p, "one\ntwo\n");
        let mut t = Tailer::new(&p);
        collect(&mut t);
        std::fs::write(&p, "x\n").unwrap();
        let (poll, lines) = collect(&mut t);
        assert!(poll.reset);
        assert_eq!(lines, vec![(0, "x".into())]);
    }

    #[test]
    fn rename_replace_rereads_even_when_longer() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a");
        append(&p, "one\n");
        let mut t = Tailer::new(&p);
        collect(&mut t);
        let tmp = dir.path().join("a.tmp");
        std::fs::write(&tmp, "new1\nnew2\n").unwrap();
        std::fs::rename(&tmp, &p).unwrap();
        let (poll, lines) = collect(&mut t);
        assert!(poll.reset);
        assert_eq!(lines, vec![(0, "new1".into()), (1, "new2".into())]);
    }

    #[test]
    fn delete_then_recreate() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a");
        append(&p, "one\n");
        let mut t = Tailer::new(&p);
        collect(&mut t);
        std::fs::remove_file(&p).unwrap();
        let (poll, _) = collect(&mut t);
        assert!(poll.reset && poll.missing);
        append(&p, "again\n");
        let (poll, lines) = collect(&mut t);
        assert!(!poll.reset);
        assert_eq!(lines, vec![(0, "again".into())]);
    }

    #[test]
    fn starting_at_and_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a");
        append(&p, "one\ntwo\nthree\n");
        let mut tail = Tailer::starting_at(&p, 8);
        assert_eq!(collect(&mut tail).1, vec![(0, "three".to_string())]);
        let mut head = Tailer::bounded(&p, 8);
        assert_eq!(
            collect(&mut head).1,
            vec![(0, "one".to_string()), (1, "two".to_string())]
        );
        append(&p, "four\n");
        assert!(collect(&mut head).1.is_empty());
        assert_eq!(collect(&mut tail).1, vec![(1, "four".to_string())]);
    }

    #[test]
    fn long_lines_span_chunks() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a");
        let long = "x".repeat(3 * CHUNK + 17);
        append(&p, &format!("{long}\nshort\n"));
        let mut t = Tailer::new(&p);
        let (_, lines) = collect(&mut t);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].1.len(), long.len());
        assert_eq!(lines[1].1, "short");
    }
}
