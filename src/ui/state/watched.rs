//! The observatory's side of the watched history: for each creature that keeps no record
//! of its own dreams (no `.sys/dream-diffs.jsonl`: OpenSeed creatures, older runners), the
//! memory files are read when the watcher says they changed and handed to the store.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use crate::history::{History, Loaded, Stamp};
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
    /// What [`Watched::load`] read of each file's stamp, until the first look uses it.
    stamps: HashMap<PathBuf, BTreeMap<String, Stamp>>,
    /// Creatures taken in while the garden loads, their first look left until every row
    /// is in: on a first run it writes the store's files of each, which would hold the
    /// rows back.
    deferred: Vec<PathBuf>,
    /// Creatures whose files changed, with the recorded files that did, in the order they
    /// came: looked at after the frame that shows the change ([`Watched::take_changed`]),
    /// not before it (a look reads, compares and keeps the whole file: milliseconds on a
    /// large `observations.md`, at every append).
    changed: Vec<(PathBuf, Vec<FileKind>)>,
}

/// What a look found: records to show, and what to tell the operator.
#[derive(Debug, Default)]
pub struct Seen {
    pub records: Vec<DiffRecord>,
    pub notice: Option<String>,
}

impl super::App {
    /// The watched history's store, where one is kept (a source of the flight recorder).
    pub(in crate::ui) fn history_store(&self) -> Option<History> {
        self.watched.as_ref().map(|w| w.store().clone())
    }
}

impl Watched {
    pub fn new(store: History) -> Self {
        Self {
            store,
            looked: HashSet::new(),
            failed: false,
            stamps: HashMap::new(),
            deferred: Vec::new(),
            changed: Vec::new(),
        }
    }

    /// Leaves the look at what `changes` touched of `root`'s recorded files for after the
    /// next frame; changes of a creature already waiting join its look.
    pub fn queue(&mut self, root: &Path, changes: &[Change]) {
        let kinds = KINDS
            .iter()
            .map(|(kind, _)| *kind)
            .filter(|kind| changes.iter().any(|c| touches(c, *kind)));
        match self.changed.iter_mut().find(|(p, _)| p == root) {
            Some((_, waiting)) => {
                for kind in kinds {
                    if !waiting.contains(&kind) {
                        waiting.push(kind);
                    }
                }
            }
            None => {
                let kinds: Vec<FileKind> = kinds.collect();
                if !kinds.is_empty() {
                    self.changed.push((root.to_path_buf(), kinds));
                }
            }
        }
    }

    /// Whether looks at changes wait.
    pub fn has_changed(&self) -> bool {
        !self.changed.is_empty()
    }

    /// The looks at changes that wait, in the order they came, no longer waiting.
    pub fn take_changed(&mut self) -> Vec<(PathBuf, Vec<FileKind>)> {
        std::mem::take(&mut self.changed)
    }

    /// Leaves the first look at `root` for later ([`Watched::take_deferred`]).
    pub fn defer(&mut self, root: &Path) {
        self.deferred.push(root.to_path_buf());
    }

    /// Whether first looks wait.
    pub fn has_deferred(&self) -> bool {
        !self.deferred.is_empty()
    }

    /// Up to `count` of the creatures whose first look waits, no longer waiting.
    pub fn take_deferred(&mut self, count: usize) -> Vec<PathBuf> {
        let keep = self.deferred.len().saturating_sub(count);
        self.deferred.split_off(keep)
    }

    /// `root`'s first look no longer waits; whether it did.
    pub fn undefer(&mut self, root: &Path) -> bool {
        let before = self.deferred.len();
        self.deferred.retain(|p| p != root);
        self.deferred.len() != before
    }

    /// `root` is gone: nothing of it waits.
    pub fn forget(&mut self, root: &Path) {
        self.undefer(root);
        self.changed.retain(|(p, _)| p != root);
    }

    /// The store (the flight recorder reads its versions: blame, the time cursor's past).
    pub fn store(&self) -> &History {
        &self.store
    }

    /// A creature that records its dreams itself needs no watched history.
    pub fn records_itself(root: &Path) -> bool {
        dream_diffs::path(root).exists()
    }

    /// The history kept of `root`, read at first sight.
    pub fn load(&mut self, root: &Path) -> Loaded {
        if Self::records_itself(root) {
            return Loaded::default();
        }
        let loaded = self.store.load(root);
        self.stamps
            .insert(root.to_path_buf(), loaded.stamps.clone());
        loaded
    }

    /// Looks at the recorded files of the `changed` kinds (every recorded file when
    /// `None`, at first sight: those whose size and modification time are what the store
    /// last took in are not read), and records what changed since the last look.
    pub fn look(&mut self, root: &Path, changed: Option<&[FileKind]>, now: DateTime<Utc>) -> Seen {
        let mut seen = Seen::default();
        if self.failed || Self::records_itself(root) {
            return seen;
        }
        let known = match changed {
            None => self.stamps.remove(root).unwrap_or_default(),
            Some(_) => BTreeMap::new(),
        };
        for (kind, file) in KINDS {
            if changed.is_some_and(|kinds| !kinds.contains(&kind)) {
                continue;
            }
            let path = kind.resolve(root);
            let stamp = std::fs::metadata(&path).ok().map(|m| Stamp::of(&m));
            if stamp.is_some() && known.get(file) == stamp.as_ref() {
                self.looked.insert((root.to_path_buf(), file));
                continue;
            }
            let Ok(Some(bytes)) = write::read_optional(&path) else {
                continue;
            };
            let text = crate::text::lossy(&bytes);
            let first = self.looked.insert((root.to_path_buf(), file));
            match self
                .store
                .observe_stamped(root, file, &text, stamp, now, first)
            {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_wait_merged_by_creature_and_only_for_recorded_files() {
        let store = tempfile::tempdir().unwrap();
        let mut w = Watched::new(History::new(store.path().to_path_buf(), 1 << 20));
        let (a, b) = (Path::new("/g/a"), Path::new("/g/b"));
        w.queue(a, &[Change::Conversation { new_entries: 3 }]);
        assert!(
            !w.has_changed(),
            "a change to no recorded file waits for a look"
        );
        w.queue(a, &[Change::ObservationsRewritten]);
        w.queue(b, &[Change::Rules]);
        w.queue(a, &[Change::Diary, Change::ObservationsAdded(Vec::new())]);
        assert_eq!(
            w.take_changed(),
            [
                (
                    a.to_path_buf(),
                    vec![FileKind::Observations, FileKind::Diary]
                ),
                (b.to_path_buf(), vec![FileKind::Rules]),
            ]
        );
        assert!(!w.has_changed());
        w.queue(b, &[Change::Briefing]);
        w.forget(b);
        assert!(!w.has_changed(), "a creature gone has nothing waiting");
    }

    #[test]
    fn files_unchanged_since_the_last_start_are_not_read_again() {
        let store = tempfile::tempdir().unwrap();
        let creature = tempfile::tempdir().unwrap();
        let root = creature.path();
        std::fs::create_dir_all(root.join(".self")).unwrap();
        std::fs::write(FileKind::Rules.resolve(root), "- NEVER: x\n").unwrap();
        std::fs::write(FileKind::Priorities.resolve(root), "- a\n").unwrap();
        let history = History::new(store.path().join("history"), crate::history::DEFAULT_LIMIT);
        let now = Utc::now();
        let mut first = Watched::new(history.clone());
        first.load(root);
        assert!(first.look(root, None, now).records.is_empty());
        // The snapshots go: a look that read a file would take it in again.
        let snaps: Vec<PathBuf> = std::fs::read_dir(store.path().join("history"))
            .unwrap()
            .map(|e| e.unwrap().path().join("snap"))
            .collect();
        assert_eq!(snaps.len(), 1);
        std::fs::remove_dir_all(&snaps[0]).unwrap();
        std::fs::write(FileKind::Priorities.resolve(root), "- a\n- b, longer\n").unwrap();
        let mut again = Watched::new(history);
        again.load(root);
        again.look(root, None, now);
        let taken: Vec<String> = std::fs::read_dir(&snaps[0])
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(taken, ["priorities.md"], "only the changed file is read");
    }
}
