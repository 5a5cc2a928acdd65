use std::io::{self, BufRead, BufReader, Seek, SeekFrom};
use std::ops::Range;
use std::path::Path;

/// Every `STRIDE`-th line's byte offset is kept: 1 GiB of 200-byte lines costs ~1.3 MiB.
const STRIDE: u64 = 64;

/// A sparse index of line offsets for random access into a large append-only file.
/// Checkpoints are (line number, byte offset) pairs, so indexes of consecutive parts of a
/// file (counted in parallel) join by appending.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    checkpoints: Vec<(u64, u64)>,
    lines: u64,
}

impl LineIndex {
    /// Records line `number` starting at `offset`; lines must arrive in order.
    pub fn record(&mut self, number: u64, offset: u64) {
        if self.checkpoints.is_empty() || number.is_multiple_of(STRIDE) {
            self.checkpoints.push((number, offset));
        }
        self.lines = self.lines.max(number + 1);
    }

    /// An index of `lines` lines that are not in the file read (counted elsewhere): lines
    /// recorded or appended after them are numbered from `lines`; they cannot be read.
    pub fn unread(lines: u64) -> Self {
        Self {
            checkpoints: Vec::new(),
            lines,
        }
    }

    /// Appends the index of the part of the file that follows, whose line numbers start
    /// at 0; they become `self.len()`, `self.len() + 1`, ...
    pub fn append(&mut self, later: &LineIndex) {
        let base = self.lines;
        self.checkpoints
            .extend(later.checkpoints.iter().map(|&(n, off)| (n + base, off)));
        self.lines += later.lines;
    }

    /// This index, of a part of a file that begins at line `line`, byte `offset`, as an
    /// index of the file from its start to the part's end: the lines before the part read
    /// on from `before`, line starts `(number, offset)` known of the file, in order.
    pub fn within(&self, before: &[(u64, u64)], line: u64, offset: u64) -> LineIndex {
        let mut checkpoints = vec![(0, 0)];
        checkpoints.extend(
            before
                .iter()
                .copied()
                .filter(|&(n, o)| n > 0 && n < line && o < offset),
        );
        if line > 0 {
            checkpoints.push((line, offset));
        }
        checkpoints.extend(
            self.checkpoints
                .iter()
                .filter(|&&(n, _)| n > 0)
                .map(|&(n, o)| (n + line, o + offset)),
        );
        LineIndex {
            checkpoints,
            lines: line + self.lines,
        }
    }

    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// Lines recorded.
    pub fn len(&self) -> u64 {
        self.lines
    }

    pub fn is_empty(&self) -> bool {
        self.lines == 0
    }

    /// Reads the lines in `range` (clamped to what was recorded) from `path`.
    pub fn read(&self, path: &Path, range: Range<u64>) -> io::Result<Vec<(u64, Vec<u8>)>> {
        let end = range.end.min(self.lines);
        if range.start >= end {
            return Ok(Vec::new());
        }
        let at = self.checkpoints.partition_point(|&(n, _)| n <= range.start);
        let Some(&(mut number, offset)) = at.checked_sub(1).and_then(|i| self.checkpoints.get(i))
        else {
            return Ok(Vec::new());
        };
        let mut reader = BufReader::with_capacity(64 << 10, super::open_regular(path)?);
        reader.seek(SeekFrom::Start(offset))?;
        let mut out = Vec::with_capacity((end - range.start) as usize);
        let mut buf = Vec::new();
        while number < end {
            buf.clear();
            if reader.read_until(b'\n', &mut buf)? == 0 {
                break;
            }
            if number >= range.start {
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                }
                out.push((number, std::mem::take(&mut buf)));
            }
            number += 1;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tail::{TailEvent, Tailer};

    fn index(tailer: &mut Tailer) -> LineIndex {
        let mut index = LineIndex::default();
        tailer
            .poll(&mut |e| {
                if let TailEvent::Line { number, offset, .. } = e {
                    index.record(number, offset);
                }
            })
            .unwrap();
        index
    }

    fn texts(lines: Vec<(u64, Vec<u8>)>) -> Vec<(u64, String)> {
        lines
            .into_iter()
            .map(|(n, l)| (n, String::from_utf8_lossy(&l).into_owned()))
            .collect()
    }

    #[test]
    fn a_part_s_index_reads_the_whole_file_through_known_line_starts() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("log");
        let text: String = (0..500).map(|i| format!("line {i}\n")).collect();
        std::fs::write(&p, &text).unwrap();
        // The part from line 300 on, indexed on its own; line 100's start known before it.
        let at = |n: usize| {
            text.lines()
                .take(n)
                .map(|l| l.len() as u64 + 1)
                .sum::<u64>()
        };
        let part = dir.path().join("part");
        std::fs::write(&part, &text[at(300) as usize..]).unwrap();
        let whole = index(&mut Tailer::new(&part)).within(&[(100, at(100))], 300, at(300));
        assert_eq!(whole.len(), 500);
        assert_eq!(
            texts(whole.read(&p, 150..152).unwrap()),
            vec![(150, "line 150".into()), (151, "line 151".into())]
        );
        assert_eq!(
            texts(whole.read(&p, 420..421).unwrap()),
            vec![(420, "line 420".into())]
        );
        assert_eq!(
            texts(whole.read(&p, 0..1).unwrap()),
            vec![(0, "line 0".into())]
        );
    }

    #[test]
    fn random_access_matches_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("log");
        let text: String = (0..500).map(|i| format!("line {i}\n")).collect();
        std::fs::write(&p, text).unwrap();
        let index = index(&mut Tailer::new(&p));
        assert_eq!(index.len(), 500);
        assert_eq!(
            texts(index.read(&p, 130..133).unwrap()),
            vec![
                (130, "line 130".into()),
                (131, "line 131".into()),
                (132, "line 132".into())
            ]
        );
        assert_eq!(index.read(&p, 499..600).unwrap().len(), 1);
        assert!(index.read(&p, 600..700).unwrap().is_empty());
    }

    #[test]
    fn parts_join_by_appending() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("log");
        let text: String = (0..300).map(|i| format!("line {i}\n")).collect();
        std::fs::write(&p, &text).unwrap();
        let split = text.find("line 101\n").unwrap() as u64;
        let mut head = index(&mut Tailer::bounded(&p, split));
        let tail = index(&mut Tailer::starting_at(&p, split));
        head.append(&tail);
        assert_eq!(head.len(), 300);
        for probe in [0, 63, 64, 100, 101, 150, 299] {
            assert_eq!(
                texts(head.read(&p, probe..probe + 1).unwrap()),
                vec![(probe, format!("line {probe}"))]
            );
        }
    }
}
