//! The watched history: what the observatory saw change in the memory files of creatures
//! it does not host (OpenSeed creatures, runners of older versions), kept under the
//! platform's state directory, never inside a creature's directory, bounded in size.
//!
//! Per creature (a folder named by a hash of its path): `state.json` (its path, when
//! each file was last seen) and `snap/<file>`, the text last seen, to compare the next
//! with; `changes.jsonl`, one [`DiffRecord`] per change seen (`t`: when it was seen, `since`
//! set when it was made while nothing watched). State that cannot be read is dropped with
//! a message; the creature's own files are only ever read.
//!
//! The store is the operator's alone whatever the umask: its directories (and the state
//! directory `<state dir>/dreamwatch` above it) are made, or made again, mode 0700, its
//! files 0600.

mod running;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::memory::dream_diff::FileChanges;
use crate::memory::dream_diffs::DiffRecord;
use crate::memory::dreams::opt_time;
use crate::memory::moments::{self, After, Moment};
use crate::memory::write;
use running::{Hashed, RunningHashes};

/// The default bound of the whole store.
pub const DEFAULT_LIMIT: u64 = 64 * 1024 * 1024;

#[derive(Debug, Error)]
pub enum HistoryError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("the history store {} is inside the creature's directory: nothing is kept there", store.display())]
    InsideCreature { store: PathBuf },
}

fn io_at(path: &Path) -> impl FnOnce(io::Error) -> HistoryError + '_ {
    move |source| HistoryError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The store: one folder per creature under `root`, all of it at most `limit` bytes.
#[derive(Debug, Clone)]
pub struct History {
    root: PathBuf,
    limit: u64,
    /// The bytes of each creature's folder, the whole store measured at the first write
    /// and then only the folder written: keeping the bound lists the store again only
    /// when it is over (listing it at every write made a garden's first look quadratic).
    /// Shared by the clones of this store; another process writing the same store is
    /// seen at the next listing.
    sizes: Arc<Mutex<Option<HashMap<PathBuf, u64>>>>,
    /// The bytes of each creature's versions (`blobs/`), listed once and then counted as
    /// this store writes and forgets them: a small file's thousands of versions were
    /// listed and stat'ed twice at every change (the CPU an append took grew with the
    /// versions kept). Another process writing the same folder is seen when its versions
    /// are next forgotten, and listed again.
    blobs: Arc<Mutex<HashMap<PathBuf, u64>>>,
    /// The running hash of each large file whose versions are kept.
    running: RunningHashes,
}

/// Two stores are the same store when they keep the same folder within the same bound.
impl PartialEq for History {
    fn eq(&self, other: &Self) -> bool {
        self.root == other.root && self.limit == other.limit
    }
}

impl Eq for History {}

#[derive(Debug, Default, Serialize, Deserialize)]
struct State {
    path: PathBuf,
    /// When this creature was first watched: what came before cannot be known.
    #[serde(default, with = "opt_time")]
    first: Option<DateTime<Utc>>,
    /// When each file's snapshot was taken.
    #[serde(default)]
    seen: BTreeMap<String, Seen>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Seen {
    #[serde(with = "opt_time")]
    t: Option<DateTime<Utc>>,
    /// The file's size and modification time when its snapshot was taken (none from an
    /// older version): the same again at the next start means nothing to read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stamp: Option<Stamp>,
}

/// A file's size and modification time (seconds and nanoseconds), as `stat` gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    pub len: u64,
    pub mtime: (i64, i64),
}

impl Stamp {
    pub fn of(meta: &std::fs::Metadata) -> Self {
        use std::os::unix::fs::MetadataExt;
        Self {
            len: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
        }
    }
}

/// A creature's history as read back at first sight.
#[derive(Debug, Default, PartialEq)]
pub struct Loaded {
    /// When the history of this creature begins.
    pub since: Option<DateTime<Utc>>,
    /// Why the history was dropped (it could not be read), to be shown once.
    pub dropped: Option<String>,
    /// Each file's [`Stamp`] when its snapshot was taken, by name.
    pub stamps: BTreeMap<String, Stamp>,
}

impl History {
    /// `<state dir>/dreamwatch/history` (the data directory where the platform has no
    /// state directory).
    pub fn default_root() -> Option<PathBuf> {
        let dirs = directories::ProjectDirs::from("", "", "dreamwatch")?;
        let base = dirs.state_dir().unwrap_or_else(|| dirs.data_local_dir());
        Some(base.join("history"))
    }

    pub fn new(root: PathBuf, limit: u64) -> Self {
        Self {
            root,
            limit,
            sizes: Arc::default(),
            blobs: Arc::default(),
            running: RunningHashes::default(),
        }
    }

    /// The folder of the creature at `creature`.
    fn dir_of(&self, creature: &Path) -> PathBuf {
        let hash = Sha256::digest(creature.as_os_str().as_encoded_bytes());
        let name = crate::text::hex(&hash[..8]);
        self.root.join(name)
    }

    /// Takes in `text`, the content of `file` (a name in `.self/`) of `creature` seen at
    /// `now`. When it differs from what was seen last, the change is recorded and
    /// returned; `first` says this is the first look since the observatory started, so a
    /// difference was made while nothing watched. The first look at a file ever records
    /// nothing: what came before cannot be known.
    pub fn observe(
        &self,
        creature: &Path,
        file: &str,
        text: &str,
        now: DateTime<Utc>,
        first: bool,
    ) -> Result<Option<DiffRecord>, HistoryError> {
        self.observe_stamped(creature, file, text, None, now, first)
    }

    /// [`History::observe`], keeping the file's `stamp` with its snapshot (handed back by
    /// [`History::load`]: a file whose stamp is the same at the next start needs no look).
    pub fn observe_stamped(
        &self,
        creature: &Path,
        file: &str,
        text: &str,
        stamp: Option<Stamp>,
        now: DateTime<Utc>,
        first: bool,
    ) -> Result<Option<DiffRecord>, HistoryError> {
        if self.root.starts_with(creature) {
            return Err(HistoryError::InsideCreature {
                store: self.root.clone(),
            });
        }
        let dir = self.dir_of(creature);
        let snap_dir = dir.join("snap");
        self.private_dirs(&snap_dir).map_err(io_at(&snap_dir))?;
        let state_path = dir.join("state.json");
        let mut state = read_state(&state_path).unwrap_or_default();
        state.path = creature.to_path_buf();
        state.first = state.first.or(Some(now));
        let snap = snap_dir.join(file);
        // The snapshot as text, and whether it is that text byte for byte.
        let (before, exact) = match write::read_optional(&snap).map_err(io_at(&snap))? {
            Some(bytes) => match String::from_utf8(bytes) {
                Ok(text) => (Some(text), true),
                Err(e) => (
                    Some(String::from_utf8_lossy(e.as_bytes()).into_owned()),
                    false,
                ),
            },
            None => (None, false),
        };
        let since = state.seen.get(file).and_then(|s| s.t);
        let record = before.as_deref().and_then(|before| {
            let changes = FileChanges::between(file, before, text);
            (!changes.is_empty()).then(|| DiffRecord {
                review: None,
                dream: None,
                t: Some(now),
                file: file.to_string(),
                since: if first { since } else { None },
                changes,
            })
        });
        if let Some(r) = &record {
            let changes = dir.join("changes.jsonl");
            append_private(&changes, r).map_err(io_at(&changes))?;
        }
        let changed = before.as_deref() != Some(text);
        let version = if changed {
            let key = (dir.clone(), file.to_string());
            let hashed = self.running.hash(key, before.as_deref(), text);
            self.keep_version(&dir, file, text, hashed, now)?
        } else {
            None
        };
        // A file too large for its share of the store is not kept: its next change is
        // not shown (said in docs/observatory.md).
        if (text.len() as u64) <= self.limit / 8 {
            // The same text (a file rewritten as it was: a far copy made again) is not
            // written again; only its stamp is. A text kept whole as a version is the
            // snapshot too (another name of the same file: its bytes written once), where
            // the filesystem links files; a text that only grew is appended to it.
            let grew = before
                .as_deref()
                .filter(|b| exact && text.starts_with(b))
                .map(str::len);
            if changed {
                match (version, grew) {
                    (Some(v), _) => link_over(&v, &snap),
                    (None, Some(len)) => append_in_place(&snap, len, &text.as_bytes()[len..]),
                    (None, None) => Err(io::ErrorKind::Other.into()),
                }
                .or_else(|_| replace(&snap, text.as_bytes()))
                .map_err(io_at(&snap))?;
            }
            state.seen.insert(
                file.to_string(),
                Seen {
                    t: Some(now),
                    stamp,
                },
            );
        } else {
            let _ = std::fs::remove_file(&snap);
            state.seen.remove(file);
        }
        let json = serde_json::to_vec(&state).unwrap_or_default();
        replace(&state_path, &json).map_err(io_at(&state_path))?;
        self.bound(&dir)?;
        Ok(record)
    }

    /// Keeps the text of `file` seen at `now` (the flight recorder's versions: a partial
    /// moment in `moments.jsonl`, the text in `blobs/`, each within a sixteenth of the
    /// bound, the oldest forgotten first): as the text it grew from and what was added
    /// when `hashed` says it grew from a text kept, else whole. The file the text is kept
    /// in whole, when it is.
    fn keep_version(
        &self,
        dir: &Path,
        file: &str,
        text: &str,
        hashed: Hashed,
        now: DateTime<Utc>,
    ) -> Result<Option<PathBuf>, HistoryError> {
        let store = self.versions(dir);
        let blobs = dir.join(moments::BLOBS);
        self.private_dirs(&blobs).map_err(io_at(&blobs))?;
        let share = self.limit / 16;
        let hash = hashed.hash;
        let keep = || -> Result<Option<String>, HistoryError> {
            let held = || self.blob_bytes(dir, &store);
            let grown = match &hashed.grew_from {
                Some(from) => store.keep_grown(
                    hash.clone(),
                    &from.hash,
                    from.len as u64,
                    &text.as_bytes()[from.len..],
                    held,
                ),
                None => Ok(None),
            };
            let kept = match grown.map_err(io_at(&blobs))? {
                Some(kept) => Some(kept),
                None => store
                    .keep_hashed(text.as_bytes(), hash.clone(), held)
                    .map_err(io_at(&blobs))?,
            };
            Ok(kept.map(|k| {
                self.count_blobs(dir, |held| *held += k.written);
                k.hash
            }))
        };
        let forget_older_half = || -> Result<(), HistoryError> {
            let forgotten = store.forget_older_half();
            self.uncount_blobs(dir);
            forgotten.map_err(io_at(&blobs))
        };
        let mut kept = keep()?;
        // No room: the oldest versions go (what they said is then not known).
        if kept.is_none() && (text.len() as u64) <= share {
            forget_older_half()?;
            kept = keep()?;
        }
        if store.moments_bytes() > share {
            forget_older_half()?;
        }
        // Kept whole, the text's file: where it could have grown, its growths count again.
        let path = kept
            .as_deref()
            .map(|h| store.blob_path(h))
            .filter(|p| p.is_file());
        if path.is_some() && hashed.grew_from.is_some() {
            self.running
                .kept_whole(&(dir.to_path_buf(), file.to_string()));
        }
        let moment = Moment {
            t: Some(now),
            after: After::Seen,
            full: false,
            docs: [(format!(".self/{file}"), kept)].into(),
            logs: Default::default(),
            dreams: None,
        };
        let moments = dir.join(moments::MOMENTS);
        append_private(&moments, &moment).map_err(io_at(&moments))?;
        Ok(path)
    }

    /// The bytes of the versions kept in `dir` (its `store`), listed when not counted.
    fn blob_bytes(&self, dir: &Path, store: &moments::Store) -> u64 {
        let mut blobs = self.blobs.lock().unwrap_or_else(PoisonError::into_inner);
        *blobs
            .entry(dir.to_path_buf())
            .or_insert_with(|| store.blob_bytes())
    }

    /// Changes the count of the bytes of the versions kept in `dir`, when counted.
    fn count_blobs(&self, dir: &Path, change: impl FnOnce(&mut u64)) {
        let mut blobs = self.blobs.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(held) = blobs.get_mut(dir) {
            change(held);
        }
    }

    /// Lets the count of the versions kept in `dir` go (listed again when next needed):
    /// they were forgotten, or the folder removed.
    fn uncount_blobs(&self, dir: &Path) {
        let mut blobs = self.blobs.lock().unwrap_or_else(PoisonError::into_inner);
        blobs.remove(dir);
    }

    /// The bytes of a creature's folder: [`size_of`], its versions as counted.
    fn folder_size(&self, dir: &Path) -> u64 {
        files_size(dir) + files_size(&dir.join("snap")) + self.blob_bytes(dir, &self.versions(dir))
    }

    fn versions(&self, dir: &Path) -> moments::Store {
        moments::Store::with_limit(dir, self.limit / 16)
    }

    /// The texts of `creature`'s memory files as they were seen (the flight recorder
    /// reads them as it reads a runner's record).
    pub fn versions_of(&self, creature: &Path) -> moments::Store {
        self.versions(&self.dir_of(creature))
    }

    /// What was recorded of `creature`, only read: history that cannot be read is left
    /// as it is (the observatory drops it at its next look), and said.
    pub fn records_of(&self, creature: &Path) -> Result<Vec<DiffRecord>, String> {
        let dir = self.dir_of(creature);
        if !dir.exists() {
            return Ok(Vec::new());
        }
        read_records(&dir)
    }

    /// The size and modification time of `creature`'s record of changes (none while it
    /// has none), to read it again only when it changed.
    pub fn changes_stamp(&self, creature: &Path) -> Option<Stamp> {
        let path = self.dir_of(creature).join("changes.jsonl");
        std::fs::metadata(path).ok().map(|m| Stamp::of(&m))
    }

    /// When the history of `creature` begins (before it, nothing can be known).
    pub fn since(&self, creature: &Path) -> Option<DateTime<Utc>> {
        read_state(&self.dir_of(creature).join("state.json")).and_then(|s| s.first)
    }

    /// Makes `dir` and every directory between it and the store's root (and the state
    /// directory `<state dir>/dreamwatch` above the default root), each mode 0700, made so
    /// again if it was not.
    fn private_dirs(&self, dir: &Path) -> io::Result<()> {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
        // The umask may have taken bits off, and an older version made them 0755. The
        // store's own directories, and the state directory above it when it is the
        // default one (`<state dir>/dreamwatch/history`), never a directory of the user's.
        let top = self
            .root
            .parent()
            .filter(|p| p.file_name().is_some_and(|n| n == "dreamwatch"))
            .unwrap_or(&self.root);
        for d in dir.ancestors().take_while(|d| d.starts_with(top)) {
            let meta = std::fs::symlink_metadata(d)?;
            if meta.is_dir() && meta.permissions().mode() & 0o777 != 0o700 {
                std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o700))?;
            }
        }
        Ok(())
    }

    /// When `creature`'s history begins and each file's stamp (its record of changes is
    /// read only when asked for: [`History::records_or_drop`]); a state that cannot be
    /// read is removed, and said so.
    pub fn load(&self, creature: &Path) -> Loaded {
        let dir = self.dir_of(creature);
        let path = dir.join("state.json");
        if !path.exists() {
            return Loaded::default();
        }
        let Some(state) = read_state(&path) else {
            return Loaded {
                dropped: Some(
                    self.drop_unreadable(creature, "state.json is not what it should be"),
                ),
                ..Loaded::default()
            };
        };
        let stamps = state
            .seen
            .iter()
            .filter_map(|(file, seen)| Some((file.clone(), seen.stamp?)))
            .collect();
        Loaded {
            since: state.first,
            dropped: None,
            stamps,
        }
    }

    /// What was recorded of `creature`; history that cannot be read is removed, and the
    /// error is what to say of it.
    pub fn records_or_drop(&self, creature: &Path) -> Result<Vec<DiffRecord>, String> {
        self.records_of(creature)
            .map_err(|why| self.drop_unreadable(creature, &why))
    }

    /// Removes `creature`'s history, which cannot be read (`why`); what to say of it.
    fn drop_unreadable(&self, creature: &Path, why: &str) -> String {
        let dir = self.dir_of(creature);
        self.uncount_blobs(&dir);
        let tail = match std::fs::remove_dir_all(&dir) {
            Ok(()) => "it was dropped".to_string(),
            Err(e) => format!("it could not be removed either: {e}"),
        };
        format!(
            "the watched history of {} could not be read ({why}); {tail}, the creature's files are untouched",
            creature.display()
        )
    }

    /// Keeps the store within its bound: a creature's changes past an eighth of it lose
    /// their oldest half; past the whole bound, the folders touched longest ago go.
    fn bound(&self, dir: &Path) -> Result<(), HistoryError> {
        let changes = dir.join("changes.jsonl");
        let len = std::fs::metadata(&changes).map_or(0, |m| m.len());
        if len > self.limit / 8 {
            let text = std::fs::read_to_string(&changes).map_err(io_at(&changes))?;
            let lines: Vec<&str> = text.lines().collect();
            let mut kept = lines[lines.len() / 2..].join("\n");
            kept.push('\n');
            replace(&changes, kept.as_bytes()).map_err(io_at(&changes))?;
        }
        let mut sizes = self.sizes.lock().unwrap_or_else(PoisonError::into_inner);
        let known = match sizes.as_mut() {
            Some(known) => known,
            None => sizes.insert(self.measure()?),
        };
        known.insert(dir.to_path_buf(), self.folder_size(dir));
        if known.values().sum::<u64>() <= self.limit {
            return Ok(());
        }
        // Over: the folders touched longest ago go, the store listed again to choose.
        *sizes = None;
        let mut folders: Vec<(std::time::SystemTime, u64, PathBuf)> = Vec::new();
        let entries = std::fs::read_dir(&self.root).map_err(io_at(&self.root))?;
        for entry in entries.flatten() {
            let path = entry.path();
            let touched = std::fs::metadata(path.join("state.json"))
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            folders.push((touched, size_of(&path), path));
        }
        let mut total: u64 = folders.iter().map(|f| f.1).sum();
        folders.sort();
        for (_, size, path) in folders {
            if total <= self.limit {
                break;
            }
            if path != dir && std::fs::remove_dir_all(&path).is_ok() {
                total -= size;
                self.uncount_blobs(&path);
            }
        }
        Ok(())
    }

    /// The bytes of every creature's folder in the store.
    fn measure(&self) -> Result<HashMap<PathBuf, u64>, HistoryError> {
        let entries = std::fs::read_dir(&self.root).map_err(io_at(&self.root))?;
        Ok(entries
            .flatten()
            .map(|e| e.path())
            .map(|path| {
                let size = size_of(&path);
                (path, size)
            })
            .collect())
    }
}

/// Replaces a file by renaming a new one (mode 0600) over it. Not synced to disk: the
/// store is the observatory's cache, and a torn file is dropped like any corrupt state.
fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(0o600))?;
    io::Write::write_all(&mut tmp, bytes)?;
    tmp.persist(path).map(drop).map_err(|e| e.error)
}

/// Makes `path` another name of the file `from` (mode 0600 as the store's files are),
/// by a rename over it: a reader sees the old file or the new, whole.
fn link_over(from: &Path, path: &Path) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let tmp = tempfile::Builder::new().make_in(dir, |tmp| std::fs::hard_link(from, tmp))?;
    tmp.persist(path).map(drop).map_err(|e| e.error)
}

/// Appends `added` to the snapshot at `path` when it is still the `len` bytes read and
/// no other name of its file (not a version's blob): an error else, to write it anew.
fn append_in_place(path: &Path, len: usize, added: &[u8]) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    let meta = file.metadata()?;
    if meta.nlink() != 1 || meta.len() != len as u64 {
        return Err(io::ErrorKind::Other.into());
    }
    io::Write::write_all(&mut file, added)
}

/// Appends `value` as one JSON line to `path`, a file mode 0600 whatever the umask (made
/// so again if it was not); never through a symlink.
fn append_private<T: Serialize>(path: &Path, value: &T) -> io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let mut line = serde_json::to_vec(value).map_err(io::Error::other)?;
    line.push(b'\n');
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    if file.metadata()?.permissions().mode() & 0o777 != 0o600 {
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    io::Write::write_all(&mut file, &line)
}

fn read_state(path: &Path) -> Option<State> {
    let bytes = std::fs::read(path).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Every record of a creature's folder, or why it cannot be trusted.
fn read_records(dir: &Path) -> Result<Vec<DiffRecord>, String> {
    let state = dir.join("state.json");
    if state.exists() && read_state(&state).is_none() {
        return Err("state.json is not what it should be".into());
    }
    let text = match std::fs::read(dir.join("changes.jsonl")) {
        Ok(b) => String::from_utf8(b).map_err(|_| "changes.jsonl is not text".to_string())?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("changes.jsonl: {e}")),
    };
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| format!("changes.jsonl line {}: {e}", i + 1))
        })
        .collect()
}

/// Bytes of the files directly in `dir` and in its `snap/`.
fn size_of(dir: &Path) -> u64 {
    files_size(dir) + files_size(&dir.join("snap")) + files_size(&dir.join(moments::BLOBS))
}

/// The bytes of the files directly in `dir`.
fn files_size(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| e.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}
