//! `dreams.jsonl` as the views need it: every dream counted; the recent ones kept as rows
//! (what the list and the strip show, with where each line is in the file), their
//! reflections left on disk and read back for the one dream shown in full. A file of
//! millions of lines (valid or not), or of long reflections, costs memory for
//! [`RECENT_DREAMS`] small rows.

use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use chrono::{DateTime, Utc};

use super::dreams::Dream;
use super::json::LineError;
use super::recent::Recent;

/// Dreams kept as rows for the views (about a year of a creature dreaming every ten
/// minutes); the counts cover every dream.
pub const RECENT_DREAMS: usize = 10_000;
/// Full dreams of one read handed out as changes: a large read reports its last ones.
pub const FRESH_DREAMS: usize = 64;
/// Characters of a priority kept in a row (newer OpenSeed cuts priorities at 200).
const ROW_PRIORITY: usize = 200;

/// One dream without its reflection: what the dreams list and the strip show.
#[derive(Debug, Clone, PartialEq)]
pub struct DreamRow {
    pub t: Option<DateTime<Utc>>,
    pub deep: bool,
    pub actions: u64,
    pub observations: u64,
    /// At most [`ROW_PRIORITY`] characters of it.
    pub priority: String,
    /// Where its line starts in the file.
    offset: u64,
}

/// Dreams read so far: counts over all of them, the last [`RECENT_DREAMS`] as rows.
#[derive(Debug)]
pub struct DreamLog {
    rows: Recent<DreamRow>,
    /// The last dream, whole (the summary's "last dream").
    last: Option<Dream>,
    /// Dreams read since [`DreamLog::take_fresh`], the last [`FRESH_DREAMS`] of them.
    fresh: Recent<Dream>,
    count: u64,
    deep: u64,
    /// 1-based numbers of the two last deep dreams (the earlier one first).
    last_deep: (Option<u64>, Option<u64>),
    /// The time of the last dream that has one.
    last_t: Option<DateTime<Utc>>,
}

impl Default for DreamLog {
    fn default() -> Self {
        Self {
            rows: Recent::new(RECENT_DREAMS),
            last: None,
            fresh: Recent::new(FRESH_DREAMS),
            count: 0,
            deep: 0,
            last_deep: (None, None),
            last_t: None,
        }
    }
}

impl DreamLog {
    /// Counts `dream`, read from the line at `offset`.
    pub fn push(&mut self, dream: Dream, offset: u64) {
        self.count += 1;
        if dream.deep {
            self.deep += 1;
            self.last_deep = (self.last_deep.1, Some(self.count));
        }
        if dream.t.is_some() {
            self.last_t = dream.t;
        }
        self.rows.push(DreamRow {
            t: dream.t,
            deep: dream.deep,
            actions: dream.actions,
            observations: dream.observations,
            priority: dream.priority.chars().take(ROW_PRIORITY).collect(),
            offset,
        });
        self.fresh.push(dream.clone());
        self.last = Some(dream);
    }

    /// The dreams read since the last call (the last [`FRESH_DREAMS`] of them), whole.
    pub fn take_fresh(&mut self) -> Vec<Dream> {
        let fresh = self.fresh.as_slice().to_vec();
        self.fresh.clear();
        fresh
    }

    /// The last dreams, at most [`RECENT_DREAMS`], oldest first.
    pub fn rows(&self) -> &[DreamRow] {
        self.rows.as_slice()
    }

    /// Row `i` of [`DreamLog::rows`] whole, read back from `path` (the file it was read
    /// from). A line that is no longer the dream of the row (the file was rewritten
    /// meanwhile) is an error, never another dream.
    pub fn read(&self, path: &Path, i: usize) -> Result<Dream, LineError> {
        let unreadable = |reason: String| LineError::Unreadable {
            path: path.display().to_string(),
            reason,
        };
        let row = self
            .rows()
            .get(i)
            .ok_or_else(|| unreadable(format!("no dream {}", i + 1)))?;
        let mut file = crate::tail::open_regular(path).map_err(|e| unreadable(e.to_string()))?;
        file.seek(SeekFrom::Start(row.offset))
            .map_err(|e| unreadable(e.to_string()))?;
        let mut line = Vec::new();
        BufReader::new(file)
            .take(crate::tail::MAX_LINE as u64)
            .read_until(b'\n', &mut line)
            .map_err(|e| unreadable(e.to_string()))?;
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        let dream = Dream::parse(&line)?;
        if (dream.t, dream.deep, dream.actions) != (row.t, row.deep, row.actions) {
            return Err(unreadable("the file changed since it was read".into()));
        }
        Ok(dream)
    }

    /// Every dream read.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Deep sleeps among them.
    pub fn deep_count(&self) -> u64 {
        self.deep
    }

    /// 1-based numbers of the two last deep dreams, the earlier first.
    pub fn last_deep(&self) -> (Option<u64>, Option<u64>) {
        self.last_deep
    }

    /// The last dream, whole.
    pub fn last(&self) -> Option<&Dream> {
        self.last.as_ref()
    }

    /// The time of the last dream that has one.
    pub fn last_time(&self) -> Option<DateTime<Utc>> {
        self.last_t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dream(deep: bool) -> Dream {
        Dream {
            t: None,
            actions: 0,
            reflection: String::new(),
            priority: String::new(),
            observations: 0,
            deep,
        }
    }

    #[test]
    fn counts_cover_everything_and_memory_only_the_recent() {
        let mut log = DreamLog::default();
        for i in 0..(5 * RECENT_DREAMS as u64 + 3) {
            log.push(dream(i % 5 == 4), i);
        }
        assert_eq!(log.count(), 5 * RECENT_DREAMS as u64 + 3);
        assert_eq!(log.deep_count(), RECENT_DREAMS as u64);
        assert_eq!(
            log.last_deep(),
            (
                Some(5 * RECENT_DREAMS as u64 - 5),
                Some(5 * RECENT_DREAMS as u64)
            )
        );
        assert_eq!(log.rows().len(), RECENT_DREAMS);
        assert_eq!(log.take_fresh().len(), FRESH_DREAMS);
        assert!(log.take_fresh().is_empty());
    }

    #[test]
    fn a_row_is_read_back_whole_from_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dreams.jsonl");
        let lines = [
            r#"{"t":"2026-03-01T10:00:00Z","actions":5,"reflection":"first\nsecond","priority":"p","deep":false}"#,
            "not json",
            r#"{"t":"2026-03-01T10:10:00Z","actions":7,"reflection":"later","priority":"q","deep":true}"#,
        ];
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let mut log = DreamLog::default();
        let mut offset = 0;
        for l in lines {
            if let Ok(d) = Dream::parse(l.as_bytes()) {
                log.push(d, offset);
            }
            offset += l.len() as u64 + 1;
        }
        assert_eq!(log.rows().len(), 2);
        assert_eq!(log.read(&path, 0).unwrap().reflection, "first\nsecond");
        assert_eq!(log.read(&path, 1).unwrap().reflection, "later");
        assert!(log.read(&path, 2).is_err());
        // Rewritten meanwhile: an error, not another dream.
        std::fs::write(&path, lines[2]).unwrap();
        assert!(log.read(&path, 0).is_err());
    }
}
