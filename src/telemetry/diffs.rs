//! The dream-diff records written since the last look (`.sys/dream-diffs.jsonl`), read
//! from an offset: whole lines only, a bounded read at a time.

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
        for line in crate::tail::lines_since(&self.path, &mut self.offset, MAX_READ) {
            if let Ok(record) = serde_json::from_slice::<DiffRecord>(&line) {
                records.push(record);
            }
        }
    }
}
