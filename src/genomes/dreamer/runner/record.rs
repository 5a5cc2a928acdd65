//! The dreamer's record of what each dream changed (`.sys/dream-diffs.jsonl`, see
//! `memory::dream_diffs`): the files' text before and after each write of a dream, kept
//! as the changed lines only.

use chrono::{DateTime, Utc};

use crate::memory::dream_diff::FileChanges;
use crate::memory::dream_diffs::{self, DiffRecord};
use crate::memory::write::{self, SeedPaths};

/// Which dream the next writes belong to.
#[derive(Debug, Default)]
pub struct DreamRecorder {
    /// Valid lines of `dreams.jsonl` so far.
    dreams: u64,
    /// The dream being written: its number and time (set by its commit).
    current: Option<(u64, Option<DateTime<Utc>>)>,
}

impl DreamRecorder {
    pub fn restored(dreams: u64) -> Self {
        Self {
            dreams,
            current: None,
        }
    }

    /// A dream was committed: the writes that follow (a deep sleep's) are its own.
    pub fn committed(&mut self, t: Option<DateTime<Utc>>) {
        self.dreams += 1;
        self.current = Some((self.dreams, t));
    }

    /// Records what the current dream changed in `file` (a name in `.self/`); nothing
    /// when it changed nothing. A failure to record is logged: the dream stands.
    pub fn record(&self, paths: &SeedPaths, file: &str, before: &str, after: &str) {
        let Some((dream, t)) = self.current else {
            return;
        };
        let changes = FileChanges::between(file, before, after);
        if changes.is_empty() {
            return;
        }
        let record = DiffRecord {
            review: None,
            dream: Some(dream),
            t,
            file: file.to_string(),
            since: None,
            changes,
        };
        let path = dream_diffs::path(&paths.root);
        let written = std::fs::create_dir_all(paths.sys_dir())
            .and_then(|()| write::append_json(&path, &record));
        if let Err(e) = written {
            tracing::warn!(error = %e, "{}: the dream's changes were not recorded", path.display());
        }
    }
}
