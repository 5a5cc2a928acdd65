//! The flight recorder's own record of a life (`.sys/recorder/`, written by dreamwatch's
//! runner; the same format in the observatory's watched history): at each moment, the
//! text of every rewritten memory document, content-addressed, and the length of every
//! append-only log.
//!
//! `moments.jsonl`, one [`Moment`] a line: `{"t", "after": "start"|"wake"|"asleep"|"sleep"|"exit"|"seen",
//! "full": true, "docs": {".self/observations.md": "<sha256>", ...}, "logs":
//! {".sys/events.jsonl": 12345, ...}}`. `docs` maps a path (relative to the creature's
//! root) to the SHA-256 of its text, kept once in `blobs/<sha256>`; `null` is a file that
//! was not there (or too large to keep). A `full` moment names every document, so one
//! missing from it was not there; a partial one (the watched history's) only those it saw.
//! `.sys/dream-diffs.jsonl` keeps changed lines without their places, which cannot give a
//! file back exactly: this keeps the texts. The watched history keeps a text that only
//! grew as the text before it and what was added ([`grown`]).

pub mod grown;

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::write;

/// Where the runner keeps the record, relative to the creature's root.
pub const RECORDER_DIR: &str = ".sys/recorder";
/// The moments, in `RECORDER_DIR` (or a watched history's folder).
pub const MOMENTS: &str = "moments.jsonl";
/// The texts, one file per SHA-256, in `RECORDER_DIR`.
pub const BLOBS: &str = "blobs";

/// A document larger than this is not kept (its moments say `null`).
pub const MAX_DOC: u64 = 4 << 20;
/// The blobs of one record are kept within this many bytes: past it, new texts are no
/// longer kept (their moments say `null`, and what cannot be known is said).
pub const MAX_BLOBS: u64 = 256 << 20;
/// `moments.jsonl` is kept within this share of its store's bound (a sixteenth, as the
/// watched history keeps its versions): past it, the older half is forgotten.
pub const MOMENTS_SHARE: u64 = 16;

/// When a moment was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum After {
    /// A run began (before anything of it was written).
    Start,
    /// A wake began (before anything of it was written).
    Wake,
    /// A sleep began (before its work).
    Asleep,
    /// A sleep's work ended (its dream consolidated, if it dreamt).
    Sleep,
    /// The run ended.
    Exit,
    /// The observatory saw a change (the watched history).
    Seen,
}

/// One moment of a life.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Moment {
    #[serde(with = "super::dreams::opt_time")]
    pub t: Option<DateTime<Utc>>,
    pub after: After,
    /// Every document is named (one not named was not there).
    #[serde(default)]
    pub full: bool,
    #[serde(default)]
    pub docs: BTreeMap<String, Option<String>>,
    #[serde(default)]
    pub logs: BTreeMap<String, u64>,
    /// Dreams consolidated by then, as the runner counts them (every genome's, whether or
    /// not its events log says so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dreams: Option<u64>,
}

/// The SHA-256 of `bytes`, in hex.
pub fn hash(bytes: &[u8]) -> String {
    crate::text::hex(&Sha256::digest(bytes))
}

/// A text kept by [`Store::keep_within`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    pub hash: String,
    /// Bytes of the blob written now (none when the text was kept before).
    pub written: u64,
}

/// A record: `moments.jsonl` and `blobs/` in one folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    dir: PathBuf,
    /// The bound of its blobs, in bytes.
    limit: u64,
}

impl Store {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            limit: MAX_BLOBS,
        }
    }

    /// A store whose blobs are kept within `limit` bytes.
    pub fn with_limit(dir: impl Into<PathBuf>, limit: u64) -> Self {
        Self {
            dir: dir.into(),
            limit,
        }
    }

    /// The runner's record of the creature at `root`.
    pub fn of_creature(root: &Path) -> Self {
        Self::new(root.join(RECORDER_DIR))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn blob_path(&self, hash: &str) -> PathBuf {
        self.dir.join(BLOBS).join(hash)
    }

    /// Keeps `bytes` (once per text) and gives its hash; `None` when the text is too
    /// large or the store is full.
    pub fn keep(&self, bytes: &[u8]) -> io::Result<Option<String>> {
        let kept = self.keep_within(bytes, || self.blob_bytes())?;
        Ok(kept.map(|k| k.hash))
    }

    /// [`Store::keep`], the bytes the blobs hold now told by `held` (asked only for a
    /// new text): a caller that counts them itself need not list the blobs at every
    /// keep (thousands of versions of a small file, stat'ed at every change).
    pub fn keep_within(
        &self,
        bytes: &[u8],
        held: impl FnOnce() -> u64,
    ) -> io::Result<Option<Kept>> {
        if bytes.len() as u64 > MAX_DOC {
            return Ok(None);
        }
        self.keep_hashed(bytes, hash(bytes), held)
    }

    /// [`Store::keep_within`] of a text whose [`hash`] is `h` (a caller that may try
    /// twice, forgetting in between, hashes a large text once).
    pub fn keep_hashed(
        &self,
        bytes: &[u8],
        h: String,
        held: impl FnOnce() -> u64,
    ) -> io::Result<Option<Kept>> {
        if bytes.len() as u64 > MAX_DOC {
            return Ok(None);
        }
        let path = self.blob_path(&h);
        self.write_blob(h, &path, bytes, held)
    }

    /// Keeps the text whose [`hash`] is `h` as the text `base` it grew from (a text
    /// kept here, `base_len` bytes long) and the bytes `added` to it ([`grown`]); `None`
    /// when the whole text is too large, the store is full, or `base` is not kept (the
    /// caller keeps the text whole).
    pub fn keep_grown(
        &self,
        h: String,
        base: &str,
        base_len: u64,
        added: &[u8],
        held: impl FnOnce() -> u64,
    ) -> io::Result<Option<Kept>> {
        let blobs = self.dir.join(BLOBS);
        if base_len + added.len() as u64 > MAX_DOC || !grown::is_kept(&blobs, base)? {
            return Ok(None);
        }
        let path = grown::path(&blobs, &h);
        self.write_blob(h, &path, &grown::contents(base, added), held)
    }

    /// Writes `bytes` to `path` in `blobs/`, the text `h` (nothing when that text is
    /// kept already, whole or grown); `None` when the store has no room for them.
    fn write_blob(
        &self,
        h: String,
        path: &Path,
        bytes: &[u8],
        held: impl FnOnce() -> u64,
    ) -> io::Result<Option<Kept>> {
        let blobs = self.dir.join(BLOBS);
        if grown::is_kept(&blobs, &h)? {
            return Ok(Some(Kept {
                hash: h,
                written: 0,
            }));
        }
        std::fs::create_dir_all(&blobs)?;
        if held() + bytes.len() as u64 > self.limit {
            return Ok(None);
        }
        // Mode 0600 (a temp file's), renamed into place: a reader sees all of it or none.
        let mut tmp = tempfile::NamedTempFile::new_in(&blobs)?;
        io::Write::write_all(&mut tmp, bytes)?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(Some(Kept {
            hash: h,
            written: bytes.len() as u64,
        }))
    }

    /// Bytes of the blobs kept.
    pub fn blob_bytes(&self) -> u64 {
        std::fs::read_dir(self.dir.join(BLOBS))
            .map(|entries| {
                entries
                    .flatten()
                    .filter_map(|e| e.metadata().ok())
                    .map(|m| m.len())
                    .sum()
            })
            .unwrap_or(0)
    }

    /// The text kept under `hash`, whole or grown (`None`: not kept, or no longer).
    /// Only a hash names a blob: nothing else is read from here.
    pub fn text(&self, hash: &str) -> Option<Vec<u8>> {
        grown::text(&self.dir.join(BLOBS), hash, None)
    }

    /// [`Store::text`], read from `known` (a text read before, by its hash) when it grew
    /// from it: the versions read in order, each costs what was added to it.
    pub fn text_after(&self, hash: &str, known: Option<(&str, &[u8])>) -> Option<Vec<u8>> {
        grown::text(&self.dir.join(BLOBS), hash, known)
    }

    /// Forgets the older half of the moments, and the texts only they named (a text a
    /// grown one still named grew from stays).
    pub fn forget_older_half(&self) -> io::Result<()> {
        let moments = self.moments();
        let kept = &moments[moments.len() / 2..];
        let mut text = Vec::new();
        for m in kept {
            text.extend(serde_json::to_vec(m).map_err(io::Error::other)?);
            text.push(b'\n');
        }
        let path = self.dir.join(MOMENTS);
        let mut tmp = tempfile::NamedTempFile::new_in(&self.dir)?;
        io::Write::write_all(&mut tmp, &text)?;
        tmp.persist(&path).map_err(|e| e.error)?;
        let blobs = self.dir.join(BLOBS);
        let named = grown::with_bases(&blobs, kept.iter().flat_map(|m| m.docs.values().flatten()));
        for entry in std::fs::read_dir(&blobs)?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !named.contains(grown::hash_of_file(&name)) {
                std::fs::remove_file(entry.path())?;
            }
        }
        Ok(())
    }

    /// Bytes of `moments.jsonl`.
    pub fn moments_bytes(&self) -> u64 {
        std::fs::metadata(self.dir.join(MOMENTS)).map_or(0, |m| m.len())
    }

    pub fn append(&self, moment: &Moment) -> io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        write::append_json(&self.dir.join(MOMENTS), moment).map(drop)
    }

    /// [`Store::append`], then `moments.jsonl` kept within a [`MOMENTS_SHARE`]th of the
    /// store's bound: past it, the older half of the moments (and the texts only they
    /// named) is forgotten, as the watched history forgets its oldest versions. What they
    /// said is then not known, and said so.
    pub fn append_bounded(&self, moment: &Moment) -> io::Result<()> {
        self.append(moment)?;
        if self.moments_bytes() > self.limit / MOMENTS_SHARE {
            self.forget_older_half()?;
        }
        Ok(())
    }

    /// Every moment recorded, in order (lines that cannot be read are skipped).
    pub fn moments(&self) -> Vec<Moment> {
        let Ok(Some(bytes)) = crate::tail::read_bounded(&self.dir.join(MOMENTS), 256 << 20) else {
            return Vec::new();
        };
        bytes
            .split(|b| *b == b'\n')
            .filter_map(|l| serde_json::from_slice(l).ok())
            .collect()
    }
}

/// Whether a path of `.self/` is a rewritten document (not an append-only log).
pub fn is_document(name: &str) -> bool {
    !name.ends_with(".jsonl") && !name.starts_with('.') && !name.ends_with(".tmp")
}

/// The documents and logs of the creature at `root` as they are now, as a full moment
/// (texts kept in `store`): every regular file of `.self/` that is not a `.jsonl` log, and
/// `PURPOSE.md`; the length of every `.jsonl` of `.self/` and `.sys/`.
pub fn take(root: &Path, store: &Store, t: DateTime<Utc>, after: After) -> io::Result<Moment> {
    let mut docs = BTreeMap::new();
    // The blobs' bytes, listed once for the moment (at the first new text) and counted
    // from there.
    let mut held = None;
    let mut logs = BTreeMap::new();
    for dir in [".self", ".sys"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
                continue;
            };
            if !meta.is_file() {
                continue;
            }
            let rel = format!("{dir}/{name}");
            if name.ends_with(".jsonl") {
                logs.insert(rel, meta.len());
            } else if dir == ".self" && is_document(&name) {
                docs.insert(rel, keep_file(&entry.path(), store, &mut held)?);
            }
        }
    }
    let purpose = root.join("PURPOSE.md");
    if purpose.is_file() {
        docs.insert("PURPOSE.md".into(), keep_file(&purpose, store, &mut held)?);
    }
    Ok(Moment {
        t: Some(t),
        after,
        full: true,
        docs,
        logs,
        dreams: None,
    })
}

/// Keeps the text of the file at `path` in `store`, whose blobs hold `held` bytes when
/// known (listed when not, and counted on).
fn keep_file(path: &Path, store: &Store, held: &mut Option<u64>) -> io::Result<Option<String>> {
    match crate::tail::read_bounded(path, MAX_DOC) {
        Ok(Some(bytes)) => {
            let kept =
                store.keep_within(&bytes, || *held.get_or_insert_with(|| store.blob_bytes()))?;
            if let (Some(k), Some(held)) = (&kept, held.as_mut()) {
                *held += k.written;
            }
            Ok(kept.map(|k| k.hash))
        }
        Ok(None) => Ok(None),
        // Too large, or not a regular file: not kept, said as unknown.
        Err(_) => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moment_keeps_documents_once_and_logs_by_length() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join(".self")).unwrap();
        std::fs::create_dir_all(root.join(".sys")).unwrap();
        std::fs::write(root.join(".self/observations.md"), "# a\n- one\n").unwrap();
        std::fs::write(root.join(".self/journal.jsonl"), "{}\n{}\n").unwrap();
        std::fs::write(root.join(".sys/events.jsonl"), "{}\n").unwrap();
        let store = Store::of_creature(root);
        let t = crate::memory::time::parse_time("2026-03-01T10:00:00Z").unwrap();
        let m = take(root, &store, t, After::Sleep).unwrap();
        let h = m.docs[".self/observations.md"].clone().unwrap();
        assert_eq!(store.text(&h).unwrap(), b"# a\n- one\n");
        assert_eq!(m.logs[".self/journal.jsonl"], 6);
        assert_eq!(m.logs[".sys/events.jsonl"], 3);
        store.append(&m).unwrap();
        store.append(&m).unwrap();
        assert_eq!(store.moments(), vec![m.clone(), m]);
        assert!(store.text("../../etc/passwd").is_none());
    }

    /// The blobs are listed once a moment and counted on: two new texts that the bound
    /// holds only one of keep one.
    #[test]
    fn a_moment_keeps_its_new_texts_within_the_bound() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join(".self")).unwrap();
        std::fs::write(root.join(".self/a.md"), "12345678").unwrap();
        std::fs::write(root.join(".self/b.md"), "abcdefgh").unwrap();
        let store = Store::with_limit(root.join("recorder"), 10);
        let t = crate::memory::time::parse_time("2026-03-01T10:00:00Z").unwrap();
        let m = take(root, &store, t, After::Sleep).unwrap();
        let kept = m.docs.values().filter(|h| h.is_some()).count();
        assert_eq!((kept, m.docs.len()), (1, 2), "{m:?}");
        assert_eq!(store.blob_bytes(), 8);
    }

    /// The runner's record is bounded as the watched history is: its moments within a
    /// sixteenth of the store's bound, the oldest half forgotten past it, with the texts
    /// only they named; the newest moments and their texts stay.
    #[test]
    fn the_moments_are_kept_within_a_sixteenth_of_the_bound() {
        let tmp = tempfile::tempdir().unwrap();
        let limit = 64 << 10;
        let store = Store::with_limit(tmp.path().join("recorder"), limit);
        let t = crate::memory::time::parse_time("2026-03-01T10:00:00Z").unwrap();
        let mut last = None;
        for i in 0..200u64 {
            let h = store.keep(format!("text {i}\n").as_bytes()).unwrap();
            let m = Moment {
                t: Some(t + chrono::TimeDelta::seconds(i as i64)),
                after: After::Sleep,
                full: true,
                docs: [(".self/observations.md".to_string(), h)].into(),
                logs: [(".sys/events.jsonl".to_string(), i * 100)].into(),
                dreams: Some(i),
            };
            store.append_bounded(&m).unwrap();
            assert!(store.moments_bytes() <= limit / MOMENTS_SHARE, "{i}");
            last = Some(m);
        }
        let kept = store.moments();
        assert!(kept.len() < 200 && kept.len() > 1);
        assert_eq!(kept.last(), last.as_ref());
        assert_eq!(store.text(&hash(b"text 199\n")).unwrap(), b"text 199\n");
        // The first moment's text went with it.
        assert!(store.text(&hash(b"text 0\n")).is_none());
    }
}
