//! The observatory's side of the watched history: for each creature that keeps no record
//! of its own dreams (no `.sys/dream-diffs.jsonl`: OpenSeed creatures, older runners), the
//! memory files are read when the watcher says they changed and handed to the store.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use crate::history::{History, Loaded};
use crate::memory::creature::Change;
use crate::memory::dream_diffs::{self, DiffRecord, RECORDED};
use crate::memory::layout::FileKind;
use crate::memory::write;

/// The store and what it has looked at since the observatory started.
#[derive(Debug)]
pub struct Watched {
    store: History,
    /// (creature, file) looked at once already: a later difference was seen as it came.
    looked: HashSet<(PathBuf, &'static str)>,
    /// The store failed once: said once, then left alone.
    failed: bool,
}

/// What a look found: records to show, and what to tell the operator.
#[derive(Debug, Default)]
pub struct Seen {
    pub records: Vec<DiffRecord>,
    pub notice: Option<String>,
}

impl Watched {
    pub fn new(store: History) -> Self {
        Self {
            store,
            looked: HashSet::new(),
            failed: false,
        }
    }

    /// A creature that records its dreams itself needs no watched history.
    pub fn records_itself(root: &Path) -> bool {
        dream_diffs::path(root).exists()
    }

    /// The history kept of `root`, read at first sight.
    pub fn load(&self, root: &Path) -> Loaded {
        if Self::records_itself(root) {
            return Loaded::default();
        }
        self.store.load(root)
    }

    /// Looks at the files `changes` touched (every recorded file when `None`, at first
    /// sight), and records what changed since the last look.
    pub fn look(&mut self, root: &Path, changes: Option<&[Change]>, now: DateTime<Utc>) -> Seen {
        let mut seen = Seen::default();
        if self.failed || Self::records_itself(root) {
            return seen;
        }
        for (kind, file) in KINDS {
            if changes.is_some_and(|cs| !cs.iter().any(|c| touches(c, kind))) {
                continue;
            }
            let Ok(Some(bytes)) = write::read_optional(&kind.resolve(root)) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            let first = self.looked.insert((root.to_path_buf(), file));
            match self.store.observe(root, file, &text, now, first) {
                Ok(Some(r)) => seen.records.push(r),
                Ok(None) => {}
                Err(e) => {
                    self.failed = true;
                    seen.notice = Some(format!("the watched history is off: {e}"));
                    break;
                }
            }
        }
        seen
    }
}

/// The recorded files by kind (the names of [`RECORDED`]).
const KINDS: [(FileKind, &str); 5] = [
    (FileKind::Observations, RECORDED[0]),
    (FileKind::Priorities, RECORDED[1]),
    (FileKind::Rules, RECORDED[2]),
    (FileKind::Briefing, RECORDED[3]),
    (FileKind::Diary, RECORDED[4]),
];

fn touches(change: &Change, kind: FileKind) -> bool {
    match change {
        Change::ObservationsAdded(_) | Change::ObservationsRewritten => {
            kind == FileKind::Observations
        }
        Change::Priorities => kind == FileKind::Priorities,
        Change::Rules => kind == FileKind::Rules,
        Change::Briefing => kind == FileKind::Briefing,
        Change::Diary => kind == FileKind::Diary,
        Change::Reset(k) => *k == kind,
        _ => false,
    }
}
