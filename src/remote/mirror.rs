//! The near side's copy of a far garden: each creature a directory under one mirror
//! root, each file written as the far side reports it (a put replaces the file by a
//! rename, so the local tailer sees a new file; an append appends), so that the local
//! watcher and memory model read it as they read any creature. A far runner's lock is
//! held on the copy while the far side says one runs, so the model's probe says so too.
//!
//! The far side is trusted with nothing: a creature id must be a plain name, and a file
//! one of the paths the memory model reads (never `..`, never absolute). Nor is it trusted
//! to window its logs: a copy grown past twice [`WINDOW`] is cut to its last `WINDOW`
//! bytes from a line start (by a rename, as a put), as the far side does, so a copy never
//! holds more than `2 * WINDOW` of one file whatever the far side sends.

use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use std::os::unix::fs::MetadataExt;

use super::follow::sent_files;
use super::wire::{FileOp, Report, WINDOW};
use crate::memory::far_head::{self, FarHead};
use crate::memory::layout::FileKind;
use crate::memory::runner_lock;

/// Why a report could not be applied.
#[derive(Debug, thiserror::Error)]
pub enum MirrorError {
    #[error("the far side named a creature {0:?}: not a plain directory name")]
    BadId(String),
    #[error("the far side sent {0:?}: not a file dreamwatch reads")]
    BadFile(String),
    #[error("the far side named a creature it had not announced: {0:?}")]
    Unknown(String),
    #[error("the far side sent bytes that are not base64")]
    BadBytes,
    #[error("the far side sent a count of {0:?} no far side makes (too many calls or problems)")]
    BadHead(String),
    #[error("the far side left {0:?} for later without a count of its lines")]
    Uncounted(String),
    #[error("{}: {source}", .path.display())]
    Io { path: PathBuf, source: io::Error },
}

#[derive(Debug, Default)]
struct Copy {
    /// Held while the far side says a runner holds the creature's lock.
    lock: Option<File>,
}

/// One far garden's copy.
#[derive(Debug)]
pub struct Mirror {
    root: PathBuf,
    creatures: HashMap<String, Copy>,
    /// During a snapshot: the creatures whose runner was reported in it.
    runners_seen: Option<std::collections::HashSet<String>>,
    /// Heads' counts (by creature and file) for the put that follows each.
    heads: HashMap<(String, String), FarHead>,
    /// The conversations (by creature and file) sent [`FileOp::Later`] whose windows
    /// have not come yet.
    later: HashSet<(String, String)>,
    /// Until the first snapshot is complete its copies are written in [`LANDING`] and
    /// moved into the copy then: the garden reads each creature once, whole, instead of
    /// again at every file of a snapshot of thousands.
    landing: bool,
    /// The creatures last run left (set aside in [`LANDING`]): their files are written
    /// only where they changed.
    kept: HashSet<String>,
    /// During a snapshot: the files it sent (those of its creatures it did not are gone).
    sent: Option<HashSet<(String, String)>>,
}

/// Where the first snapshot is written: a directory of the copy that is no creature
/// (a dot name), its subdirectories not watched by the garden. What last run left in the
/// copy is set aside there before the garden opens it ([`super::place`]).
pub const LANDING: &str = ".landing";

impl Drop for Mirror {
    fn drop(&mut self) {
        far_head::withdraw_under(&self.root);
    }
}

impl Mirror {
    /// A mirror in `root` (an existing directory this process owns), with the creatures
    /// last run left in its [`LANDING`].
    pub fn new(root: PathBuf) -> Self {
        let kept = std::fs::read_dir(root.join(LANDING))
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        Self {
            root,
            creatures: HashMap::new(),
            runners_seen: None,
            heads: HashMap::new(),
            later: HashSet::new(),
            landing: true,
            kept,
            sent: Some(HashSet::new()),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The copy of the creature `id` (in [`LANDING`] until the first snapshot is complete).
    pub fn dir(&self, id: &str) -> PathBuf {
        if self.landing {
            self.root.join(LANDING).join(id)
        } else {
            self.root.join(id)
        }
    }

    /// Whether the creature `id` is followed.
    pub fn has(&self, id: &str) -> bool {
        self.creatures.contains_key(id)
    }

    /// How many creatures are followed.
    pub fn len(&self) -> usize {
        self.creatures.len()
    }

    pub fn is_empty(&self) -> bool {
        self.creatures.is_empty()
    }

    /// How many conversations' windows are still to come (their copies empty, their
    /// lines counted).
    pub fn windows_left(&self) -> usize {
        self.later.len()
    }

    /// The id of the creature whose copy is at `dir`.
    pub fn id_of(&self, dir: &Path) -> Option<String> {
        let id = dir.strip_prefix(&self.root).ok()?.to_str()?;
        self.creatures.contains_key(id).then(|| id.to_string())
    }

    /// A new snapshot begins (a new far side, which reports only runners that run):
    /// what it does not announce again is gone, and a runner it does not report has gone.
    pub fn begin_snapshot(&mut self) -> Vec<String> {
        self.runners_seen = Some(Default::default());
        self.sent = Some(HashSet::new());
        // A new far side sends every file again.
        self.later.clear();
        self.creatures.keys().cloned().collect()
    }

    /// The snapshot is complete: removes the copies of creatures the far side no longer
    /// has (`stale`), and releases the locks of runners it did not report.
    pub fn end_snapshot(&mut self, stale: &[String]) -> Result<(), MirrorError> {
        for id in stale {
            self.remove(id)?;
        }
        self.remove_unsent()?;
        let seen = self.runners_seen.take().unwrap_or_default();
        for (id, copy) in &mut self.creatures {
            if !seen.contains(id) {
                copy.lock = None;
            }
        }
        if self.landing {
            self.land()?;
        }
        Ok(())
    }

    /// Removes the files of the copies (those kept from last run, or any after a new far
    /// side's snapshot) that the snapshot did not send: gone while no one looked.
    fn remove_unsent(&mut self) -> Result<(), MirrorError> {
        let Some(sent) = self.sent.take() else {
            return Ok(());
        };
        let written_before = |id: &String| !self.landing || self.kept.contains(id);
        for id in self.creatures.keys().filter(|id| written_before(id)) {
            let dir = self.dir(id);
            for file in sent_files() {
                if sent.contains(&(id.clone(), file.to_string())) {
                    continue;
                }
                let path = dir.join(file);
                match std::fs::remove_file(&path) {
                    Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(io_at(&path)(e)),
                    Ok(()) => far_head::withdraw(&path),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Moves the first snapshot's copies into the copy, each creature whole; those last
    /// run left that the far side no longer has are removed.
    fn land(&mut self) -> Result<(), MirrorError> {
        let landing = self.root.join(LANDING);
        for id in self
            .kept
            .iter()
            .filter(|id| !self.creatures.contains_key(*id))
        {
            let dir = landing.join(id);
            match std::fs::remove_dir_all(&dir) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(io_at(&dir)(e)),
                _ => {}
            }
        }
        self.kept.clear();
        let mut ids: Vec<&String> = self.creatures.keys().collect();
        ids.sort();
        for id in ids {
            let (from, to) = (landing.join(id), self.root.join(id));
            match std::fs::rename(&from, &to) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(io_at(&to)(e)),
                _ => {}
            }
        }
        // Every count offered at once (one look through them, not one a creature).
        far_head::moved(&landing, &self.root);
        self.landing = false;
        match std::fs::remove_dir(&landing) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(io_at(&landing)(e)),
            _ => Ok(()),
        }
    }

    pub fn apply(&mut self, report: &Report) -> Result<(), MirrorError> {
        match report {
            Report::Creature { id, .. } => {
                plain(id)?;
                let dir = self.dir(id);
                // Known to the model as a creature from the start (it has `.self/`).
                std::fs::create_dir_all(dir.join(".self")).map_err(io_at(&dir))?;
                self.creatures.entry(id.clone()).or_default();
                Ok(())
            }
            Report::Gone { id } => self.remove(id),
            Report::File { id, file, op } => {
                self.known(id)?;
                if !sent_files().any(|f| f == file) {
                    return Err(MirrorError::BadFile(file.clone()));
                }
                let path = self.dir(id).join(file);
                let key = (id.clone(), file.clone());
                if let Some(sent) = self.sent.as_mut()
                    && !matches!(op, FileOp::Delete)
                {
                    sent.insert(key.clone());
                }
                let head = self.heads.remove(&key);
                if head.is_none() && matches!(op, FileOp::Put { .. } | FileOp::Delete) {
                    far_head::withdraw(&path);
                }
                match op {
                    FileOp::Later { .. } if head.is_some() => self.later.insert(key),
                    // Nothing stands for its lines: no later window is waited for.
                    FileOp::Later { .. } => return Err(MirrorError::Uncounted(file.clone())),
                    FileOp::Put { .. } | FileOp::Delete => self.later.remove(&key),
                    FileOp::Append { .. } => false,
                };
                // The landing is not read by the garden: its files are written in place.
                write_op(&path, op, head, self.landing)
            }
            Report::Head { id, file, head } => {
                self.known(id)?;
                if !FileKind::Conversation.candidates().contains(&file.as_str()) {
                    return Err(MirrorError::BadFile(file.clone()));
                }
                if !head.is_bounded() {
                    return Err(MirrorError::BadHead(file.clone()));
                }
                self.heads.insert((id.clone(), file.clone()), head.clone());
                Ok(())
            }
            Report::Runner { id, alive, .. } => {
                self.known(id)?;
                let path = runner_lock::path(&self.dir(id));
                if let Some(seen) = self.runners_seen.as_mut() {
                    seen.insert(id.clone());
                }
                let copy = self.creatures.entry(id.clone()).or_default();
                copy.lock = match (alive, copy.lock.take()) {
                    // Held already (reported again after a reconnect).
                    (true, Some(held)) => Some(held),
                    (true, None) => Some(hold(&path).map_err(io_at(&path))?),
                    (false, _) => None,
                };
                Ok(())
            }
            Report::Hello { .. }
            | Report::Ready
            | Report::Reply { .. }
            | Report::OpenSeed { .. }
            | Report::Error { .. } => Ok(()),
        }
    }

    fn known(&self, id: &str) -> Result<(), MirrorError> {
        if self.creatures.contains_key(id) {
            Ok(())
        } else {
            Err(MirrorError::Unknown(id.to_string()))
        }
    }

    fn remove(&mut self, id: &str) -> Result<(), MirrorError> {
        if self.creatures.remove(id).is_some() {
            let dir = self.dir(id);
            far_head::withdraw_under(&dir);
            self.heads.retain(|(of, _), _| of != id);
            self.later.retain(|(of, _)| of != id);
            std::fs::remove_dir_all(&dir).map_err(io_at(&dir))?;
        }
        Ok(())
    }
}

fn io_at(path: &Path) -> impl Fn(io::Error) -> MirrorError + '_ {
    move |source| MirrorError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// An id is one normal path component.
fn plain(id: &str) -> Result<(), MirrorError> {
    let mut parts = Path::new(id).components();
    match (parts.next(), parts.next()) {
        (Some(std::path::Component::Normal(_)), None) if !id.starts_with('.') => Ok(()),
        _ => Err(MirrorError::BadId(id.to_string())),
    }
}

/// Writes `op` to the copy at `path`; a put's window with the count of its `head`. A put
/// the copy holds already is not written again; `in_place`, one it does not hold is
/// written into the file that is there (no new file: none is reading it).
fn write_op(
    path: &Path,
    op: &FileOp,
    head: Option<FarHead>,
    in_place: bool,
) -> Result<(), MirrorError> {
    let dir = path.parent().unwrap_or(path);
    // The directory is made when the write finds it missing, not looked for at every
    // write (a snapshot writes thousands of files).
    match write_in(dir, path, op, head.as_ref(), in_place) {
        Err(MirrorError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(io_at(dir))?;
            write_in(dir, path, op, head.as_ref(), in_place)
        }
        done => done,
    }
}

fn write_in(
    dir: &Path,
    path: &Path,
    op: &FileOp,
    head: Option<&FarHead>,
    in_place: bool,
) -> Result<(), MirrorError> {
    match op {
        FileOp::Put { bytes, .. } => {
            let bytes = bytes.decode().ok_or(MirrorError::BadBytes)?;
            let (kept, head) = if bytes.len() as u64 > 2 * WINDOW {
                (window_of(&bytes), None)
            } else {
                (&bytes[..], head)
            };
            put(dir, path, kept, head, in_place)
        }
        FileOp::Append { bytes } => {
            let bytes = bytes.decode().ok_or(MirrorError::BadBytes)?;
            let len = match std::fs::metadata(path) {
                Ok(m) => m.len(),
                Err(e) if e.kind() == io::ErrorKind::NotFound => 0,
                Err(e) => return Err(io_at(path)(e)),
            };
            if len + bytes.len() as u64 > 2 * WINDOW {
                // Past twice the window: the copy becomes its last window, at once.
                return rewindow(dir, path, len, &bytes);
            }
            OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)
                .and_then(|mut f| f.write_all(&bytes))
                .map_err(io_at(path))
        }
        // An empty copy, its lines counted by `head`.
        FileOp::Later { .. } => put(dir, path, &[], head, in_place),
        FileOp::Delete => match std::fs::remove_file(path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(io_at(path)(e)),
            _ => Ok(()),
        },
    }
}

/// Makes the file at `path` (in `dir`) hold `bytes`, the count of the lines before them
/// offered for it: written in place (or made there) when `in_place`, else by [`replace`]
/// unless it holds them and no count comes with them (a count is for a new file only).
fn put(
    dir: &Path,
    path: &Path,
    bytes: &[u8],
    head: Option<&FarHead>,
    in_place: bool,
) -> Result<(), MirrorError> {
    if !in_place && head.is_some() {
        return replace(dir, path, bytes, head);
    }
    let file = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(mut file) => {
            if !holds(&mut file, bytes).map_err(io_at(path))? {
                if !in_place {
                    return replace(dir, path, bytes, head);
                }
                use std::io::{Seek, SeekFrom};
                file.seek(SeekFrom::Start(0))
                    .and_then(|_| file.set_len(0))
                    .and_then(|_| file.write_all(bytes))
                    .map_err(io_at(path))?;
            }
            file
        }
        // Nothing reads the landing: a new file is written where it goes, not renamed.
        Err(e) if e.kind() == io::ErrorKind::NotFound && in_place => {
            let mut file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(io_at(path))?;
            file.write_all(bytes).map_err(io_at(path))?;
            file
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => return replace(dir, path, bytes, head),
        Err(e) => return Err(io_at(path)(e)),
    };
    if let Some(head) = head {
        let inode = file.metadata().map_err(io_at(path))?.ino();
        far_head::offer(path, inode, head.clone());
    }
    Ok(())
}

/// Whether `file` holds exactly `bytes`.
fn holds(file: &mut File, bytes: &[u8]) -> io::Result<bool> {
    use std::io::Read;
    if file.metadata()?.len() != bytes.len() as u64 {
        return Ok(false);
    }
    let mut there = Vec::with_capacity(bytes.len());
    file.take(bytes.len() as u64 + 1).read_to_end(&mut there)?;
    Ok(there == bytes)
}

/// Replaces the file at `path` (in `dir`) by `bytes`, by a rename; the count of the lines
/// before them offered for the new file before it is there to be read.
fn replace(
    dir: &Path,
    path: &Path,
    bytes: &[u8],
    head: Option<&FarHead>,
) -> Result<(), MirrorError> {
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io_at(dir))?;
    tmp.write_all(bytes).map_err(io_at(path))?;
    if let Some(head) = head {
        let inode = tmp.as_file().metadata().map_err(io_at(path))?.ino();
        far_head::offer(path, inode, head.clone());
    }
    tmp.persist(path).map_err(|e| MirrorError::Io {
        path: path.to_path_buf(),
        source: e.error,
    })?;
    Ok(())
}

/// The last [`WINDOW`] bytes, from the first line start in them (all of them when no line
/// ends there).
fn window_of(bytes: &[u8]) -> &[u8] {
    let window = &bytes[bytes.len().saturating_sub(WINDOW as usize)..];
    match memchr::memchr(b'\n', window) {
        Some(i) if i + 1 < window.len() => &window[i + 1..],
        _ => window,
    }
}

/// Replaces the copy at `path` (`len` bytes long) and the bytes `added` to it by the last
/// window of both.
fn rewindow(dir: &Path, path: &Path, len: u64, added: &[u8]) -> Result<(), MirrorError> {
    use std::io::{Read, Seek, SeekFrom};
    let keep = WINDOW.saturating_sub(added.len() as u64);
    let mut bytes = Vec::with_capacity(keep as usize + added.len());
    if keep > 0 && len > 0 {
        File::open(path)
            .and_then(|mut f| {
                f.seek(SeekFrom::Start(len.saturating_sub(keep)))?;
                f.take(keep).read_to_end(&mut bytes)
            })
            .map_err(io_at(path))?;
    }
    bytes.extend_from_slice(added);
    tracing::debug!(
        "{}: the copy would pass {} MiB: cut to its last {} MiB",
        path.display(),
        (2 * WINDOW) >> 20,
        WINDOW >> 20
    );
    replace(dir, path, window_of(&bytes), None)
}

/// Takes the exclusive lock a runner holds on its creature's lock file.
fn hold(path: &Path) -> io::Result<File> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)?;
    // Released when `file` is closed.
    file.try_lock()?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::remote::wire::Bytes;

    fn creature(id: &str) -> Report {
        Report::Creature {
            id: id.into(),
            path: format!("/far/{id}"),
        }
    }

    fn counted(id: &str, file: &str, head: &FarHead) -> Report {
        Report::Head {
            id: id.into(),
            file: file.into(),
            head: head.clone(),
        }
    }

    fn file(id: &str, file: &str, op: FileOp) -> Report {
        Report::File {
            id: id.into(),
            file: file.into(),
            op,
        }
    }

    #[test]
    fn reports_become_files_a_runner_lock_and_nothing_outside() {
        let dir = tempfile::tempdir().unwrap();
        let mut m = Mirror::new(dir.path().to_path_buf());
        m.apply(&creature("sprout")).unwrap();
        m.end_snapshot(&[]).unwrap();
        let obs = ".self/observations.md";
        let put = FileOp::Put {
            base: 0,
            size: 2,
            bytes: Bytes::of(b"a\n"),
        };
        m.apply(&file("sprout", obs, put)).unwrap();
        let append = FileOp::Append {
            bytes: Bytes::of(b"b\n"),
        };
        m.apply(&file("sprout", obs, append)).unwrap();
        let copy = dir.path().join("sprout");
        assert_eq!(std::fs::read_to_string(copy.join(obs)).unwrap(), "a\nb\n");
        assert!(!runner_lock::is_held(&copy));
        let runner = |alive| Report::Runner {
            id: "sprout".into(),
            alive,
            listening: alive,
        };
        m.apply(&runner(true)).unwrap();
        assert!(runner_lock::is_held(&copy));
        // A new far side reports the runner again: still held, no error.
        m.begin_snapshot();
        m.apply(&runner(true)).unwrap();
        m.end_snapshot(&[]).unwrap();
        assert!(runner_lock::is_held(&copy));
        // One that does not report it: the runner went while the connection was down.
        m.begin_snapshot();
        m.end_snapshot(&[]).unwrap();
        assert!(!runner_lock::is_held(&copy));
        m.apply(&runner(true)).unwrap();
        m.apply(&runner(false)).unwrap();
        assert!(!runner_lock::is_held(&copy));
        for bad in ["../x", "/etc/passwd", ".bashrc", "MESSAGES.md"] {
            let op = FileOp::Delete;
            assert!(matches!(
                m.apply(&file("sprout", bad, op)),
                Err(MirrorError::BadFile(_))
            ));
        }
        for bad in ["..", "a/b", ".hidden", ""] {
            let r = Report::Creature {
                id: bad.into(),
                path: String::new(),
            };
            assert!(matches!(m.apply(&r), Err(MirrorError::BadId(_))), "{bad}");
        }
        m.apply(&Report::Gone {
            id: "sprout".into(),
        })
        .unwrap();
        assert!(!copy.exists());
    }

    #[test]
    fn a_copy_is_windowed_whatever_the_far_side_sends() {
        let dir = tempfile::tempdir().unwrap();
        let mut m = Mirror::new(dir.path().to_path_buf());
        m.apply(&creature("sprout")).unwrap();
        m.end_snapshot(&[]).unwrap();
        let conv = ".self/conversation.jsonl";
        let path = dir.path().join("sprout").join(conv);
        let line = format!("{{\"n\":\"{}\"}}\n", "y".repeat(1000));
        let chunk = line.repeat(1024);
        // 40 MiB of appends, never windowed by the far side.
        for _ in 0..40 {
            let op = FileOp::Append {
                bytes: Bytes::of(chunk.as_bytes()),
            };
            m.apply(&file("sprout", conv, op)).unwrap();
            let len = std::fs::metadata(&path).unwrap().len();
            assert!(len <= 2 * WINDOW, "{len}");
        }
        let kept = std::fs::read(&path).unwrap();
        assert!(kept.starts_with(b"{\"n\"") && kept.ends_with(b"}\n"));
        assert_eq!(kept.len() % line.len(), 0, "whole lines");
        // A put larger than the bound: its last window only.
        let op = FileOp::Put {
            base: 0,
            size: 0,
            bytes: Bytes::of(line.repeat(20 * 1024).as_bytes()),
        };
        m.apply(&file("sprout", conv, op)).unwrap();
        let len = std::fs::metadata(&path).unwrap().len();
        assert!(
            len <= WINDOW && len.is_multiple_of(line.len() as u64),
            "{len}"
        );
    }

    #[test]
    fn the_first_snapshot_lands_whole_with_its_heads_counts() {
        let dir = tempfile::tempdir().unwrap();
        let mut m = Mirror::new(dir.path().to_path_buf());
        m.begin_snapshot();
        m.apply(&creature("sprout")).unwrap();
        let conv = ".self/conversation.jsonl";
        let head = FarHead {
            lines: 40,
            entries: 39,
            bad: 1,
            ..FarHead::default()
        };
        m.apply(&counted("sprout", conv, &head)).unwrap();
        let put = FileOp::Put {
            base: 4000,
            size: 4010,
            bytes: Bytes::of(b"{\"n\":1}\n"),
        };
        m.apply(&file("sprout", conv, put)).unwrap();
        let copy = dir.path().join("sprout");
        // Nothing of it in the copy the garden reads until the snapshot is complete.
        assert!(!copy.exists());
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "only the landing"
        );
        m.end_snapshot(&[]).unwrap();
        assert_eq!(
            std::fs::read_to_string(copy.join(conv)).unwrap(),
            "{\"n\":1}\n"
        );
        assert!(!dir.path().join(LANDING).exists());
        assert_eq!(far_head::find(&copy.join(conv)).as_deref(), Some(&head));
        // Later changes go straight to the copy.
        let append = FileOp::Append {
            bytes: Bytes::of(b"{\"n\":2}\n"),
        };
        m.apply(&file("sprout", conv, append)).unwrap();
        assert!(
            std::fs::read_to_string(copy.join(conv))
                .unwrap()
                .ends_with("2}\n")
        );
        // A head's count is only for a conversation.
        let bad = Report::Head {
            id: "sprout".into(),
            file: ".self/observations.md".into(),
            head,
        };
        assert!(matches!(m.apply(&bad), Err(MirrorError::BadFile(_))));
        let flood = Report::Head {
            id: "sprout".into(),
            file: conv.into(),
            head: FarHead {
                lines: 1,
                entries: 5,
                ..FarHead::default()
            },
        };
        assert!(matches!(m.apply(&flood), Err(MirrorError::BadHead(_))));
    }

    #[test]
    fn a_conversation_left_for_later_is_an_empty_copy_counted_until_its_window_comes() {
        let dir = tempfile::tempdir().unwrap();
        let mut m = Mirror::new(dir.path().to_path_buf());
        m.apply(&creature("sprout")).unwrap();
        m.apply(&creature("moss")).unwrap();
        let conv = ".self/conversation.jsonl";
        let later = FileOp::Later { size: 4096 };
        // Nothing counted stands for its lines: refused.
        assert!(matches!(
            m.apply(&file("sprout", conv, later.clone())),
            Err(MirrorError::Uncounted(_))
        ));
        let head = |id: &str| Report::Head {
            id: id.into(),
            file: conv.into(),
            head: FarHead {
                lines: 40,
                entries: 40,
                ..FarHead::default()
            },
        };
        for id in ["sprout", "moss"] {
            m.apply(&head(id)).unwrap();
            m.apply(&file(id, conv, later.clone())).unwrap();
        }
        assert_eq!(m.windows_left(), 2);
        m.end_snapshot(&[]).unwrap();
        let copy = dir.path().join("sprout").join(conv);
        assert_eq!(std::fs::read(&copy).unwrap(), b"");
        assert_eq!(far_head::find(&copy).map(|h| h.lines), Some(40));
        // Its window: no longer waited for; an append is not a window.
        let append = FileOp::Append {
            bytes: Bytes::of(b"{}\n"),
        };
        m.apply(&file("moss", conv, append)).unwrap();
        assert_eq!(m.windows_left(), 2);
        m.apply(&head("sprout")).unwrap();
        let put = FileOp::Put {
            base: 4000,
            size: 4096,
            bytes: Bytes::of(b"{}\n"),
        };
        m.apply(&file("sprout", conv, put)).unwrap();
        assert_eq!(m.windows_left(), 1);
        // A creature gone is not waited for; a new far side sends every file again.
        m.apply(&Report::Gone { id: "moss".into() }).unwrap();
        assert_eq!(m.windows_left(), 0);
        m.apply(&head("sprout")).unwrap();
        m.apply(&file("sprout", conv, later)).unwrap();
        assert_eq!(m.windows_left(), 1);
        m.begin_snapshot();
        assert_eq!(m.windows_left(), 0);
    }

    #[test]
    fn what_last_run_left_is_written_only_where_it_changed_and_removed_where_it_is_gone() {
        let dir = tempfile::tempdir().unwrap();
        let landing = dir.path().join(LANDING);
        let (obs, birth, dreams) = (".self/observations.md", "BIRTH.json", ".self/dreams.jsonl");
        let conv = ".self/conversation.jsonl";
        // Last run's copy, set aside: sprout (four files), moss (gone since).
        for (path, text) in [
            (format!("sprout/{obs}"), "a\n"),
            (format!("sprout/{birth}"), "{}"),
            (format!("sprout/{dreams}"), "{}\n"),
            (format!("sprout/{conv}"), "{\"old\":1}\n"),
            ("moss/BIRTH.json".to_string(), "{}"),
        ] {
            let path = landing.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let inode = |file: &str| {
            let path = landing.join("sprout").join(file);
            std::fs::metadata(path).unwrap().ino()
        };
        let before = [inode(obs), inode(birth), inode(conv)];
        let mtime = std::fs::metadata(landing.join("sprout").join(birth))
            .unwrap()
            .modified()
            .unwrap();
        let mut m = Mirror::new(dir.path().to_path_buf());
        m.begin_snapshot();
        m.apply(&creature("sprout")).unwrap();
        let put = |text: &str| FileOp::Put {
            base: 0,
            size: text.len() as u64,
            bytes: Bytes::of(text.as_bytes()),
        };
        m.apply(&file("sprout", birth, put("{}"))).unwrap();
        m.apply(&file("sprout", obs, put("a\nb\n"))).unwrap();
        let head = FarHead {
            lines: 9,
            entries: 9,
            ..FarHead::default()
        };
        m.apply(&counted("sprout", conv, &head)).unwrap();
        m.apply(&file("sprout", conv, FileOp::Later { size: 900 }))
            .unwrap();
        // No dreams sent: gone on the far side.
        assert!(
            !dir.path().join("sprout").exists(),
            "not shown before it lands"
        );
        m.end_snapshot(&[]).unwrap();
        let copy = dir.path().join("sprout");
        let inode = |file: &str| std::fs::metadata(copy.join(file)).unwrap().ino();
        assert_eq!(
            [inode(obs), inode(birth), inode(conv)],
            before,
            "no new files"
        );
        let unchanged = std::fs::metadata(copy.join(birth))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(
            unchanged, mtime,
            "what it holds already is not written again"
        );
        assert_eq!(std::fs::read_to_string(copy.join(obs)).unwrap(), "a\nb\n");
        assert_eq!(std::fs::read(copy.join(conv)).unwrap(), b"");
        assert_eq!(far_head::find(&copy.join(conv)).as_deref(), Some(&head));
        assert!(!copy.join(dreams).exists(), "gone while no one looked");
        assert!(!dir.path().join("moss").exists() && !landing.exists());
        // A new far side's snapshot: a put it holds is not written; one it does not
        // replaces the file (the garden reads it: a new file); one not sent is removed.
        m.begin_snapshot();
        m.apply(&file("sprout", birth, put("{}"))).unwrap();
        m.apply(&file("sprout", obs, put("c\n"))).unwrap();
        m.end_snapshot(&[]).unwrap();
        assert_eq!(inode(birth), before[1]);
        assert_ne!(inode(obs), before[0]);
        assert_eq!(std::fs::read_to_string(copy.join(obs)).unwrap(), "c\n");
        assert!(!copy.join(conv).exists());
    }
}
