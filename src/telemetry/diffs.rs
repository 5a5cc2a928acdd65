//! The dream-diff records written since the last look (`.sys/dream-diffs.jsonl`), read
//! from an offset: whole lines only, a bounded read at a time.

use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;

use crate::memory::dream_diffs::DiffRecord;

/// The most bytes read at one look.
const MAX_READ: u64 = 4 << 20;

#[derive(Debug)]
pub struct DiffTail {
    path: PathBuf,
    /// Where the next unread line begins.
    pub offset: u64,
}

impl DiffTail {
    pub fn new(path: PathBuf, offset: u64) -> Self {
        Self { path, offset }
    }

    /// Reads the lines written since into `records`; a line that is not a record is
    /// skipped.
    pub fn read(&mut self, records: &mut Vec<DiffRecord>) {
        let Ok(mut file) = crate::tail::open_regular(&self.path) else {
            return;
        };
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        if len < self.offset {
            // Replaced by a shorter file: read it anew.
            self.offset = 0;
        }
        if len == self.offset || file.seek(SeekFrom::Start(self.offset)).is_err() {
            return;
        }
        let mut bytes = Vec::new();
        if file.take(MAX_READ).read_to_end(&mut bytes).is_err() {
            return;
        }
        let Some(end) = memchr::memrchr(b'\n', &bytes) else {
            return;
        };
        for line in bytes[..end].split(|b| *b == b'\n') {
            if let Ok(record) = serde_json::from_slice::<DiffRecord>(line) {
                records.push(record);
            }
        }
        self.offset += end as u64 + 1;
    }
}
