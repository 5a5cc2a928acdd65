//! The far side's counts of conversations' heads, kept between runs in its machine's cache
//! directory (`dreamwatch/heads/`, one small file per conversation): a far side started
//! again (an observatory opened again, a connection made again) counts a conversation
//! only when it changed since a far side last counted it, instead of reading every
//! creature's log again before its garden's first snapshot can be complete.
//!
//! A count is taken back whole for the very file it was made of (device, inode, size,
//! modification time), up to the same line and after the same last dream. A file that
//! grew since (the same device and inode, larger, the bytes before the count's end the
//! same) has only its lines past that end counted, added to the kept count (an active
//! creature's conversation grows between runs). Anything else is counted again. The store is bounded: counts of many calls are
//! not kept, and past [`MAX_ENTRIES`] the oldest go when a far side starts.

use std::cell::RefCell;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::memory::far_head::FarHead;
use crate::memory::streams::{count_far_head, count_far_head_from};

/// Counts kept at most (a far side follows up to a thousand creatures; a machine may
/// serve a few gardens).
pub const MAX_ENTRIES: usize = 4000;
/// A count carrying more tool calls than this is not kept (its file would be large).
const MAX_KEPT_CALLS: usize = 4096;

/// Where counts are kept.
#[derive(Debug)]
pub struct HeadCache {
    dir: PathBuf,
    /// Counts made and not kept yet: kept by [`HeadCache::keep_some`], when the far side
    /// has nothing else to do (writing a thousand files would hold up its first snapshot).
    pending: RefCell<Vec<(PathBuf, Entry)>>,
}

/// The file a count was made of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Made {
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    pub mtime: (i64, i64),
}

impl Made {
    pub fn of(meta: &std::fs::Metadata) -> Self {
        Self {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
        }
    }
}

/// The counts kept of one conversation file: those a far side makes of it (all its lines
/// in a first snapshot, those before its window after).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    path: PathBuf,
    made: Made,
    counts: Vec<Counted>,
}

/// One count: of the lines before `end`, fatigue after `last_dream`.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Counted {
    end: u64,
    last_dream: Option<DateTime<Utc>>,
    head: FarHead,
    /// A digest of the [`SEALED`] bytes before `end`: a file grown since is that file
    /// grown (not one written again in its place) while they are the same.
    #[serde(default)]
    seal: Option<String>,
}

/// Bytes before a count's end its seal is made of.
const SEALED: u64 = 4096;

/// The seal of the bytes of the file at `path` before `end`.
fn seal(path: &Path, end: u64) -> Option<String> {
    use std::io::{Read, Seek, SeekFrom};
    let start = end.saturating_sub(SEALED);
    let mut file = std::fs::File::open(path).ok()?;
    file.seek(SeekFrom::Start(start)).ok()?;
    let mut bytes = Vec::with_capacity((end - start) as usize);
    file.take(end - start).read_to_end(&mut bytes).ok()?;
    if bytes.len() as u64 != end - start {
        return None;
    }
    let digest = Sha256::digest(&bytes);
    Some(crate::text::hex(&digest[..16]))
}

/// Counts kept of one file at most.
const COUNTS_KEPT: usize = 2;

impl HeadCache {
    /// The cache directory's store (`None` where the system names no cache directory).
    pub fn in_cache_dir() -> Option<Self> {
        let dir = directories::BaseDirs::new()?
            .cache_dir()
            .join("dreamwatch")
            .join("heads");
        Some(Self::at(dir))
    }

    /// The store in `dir` (made when a count is first kept), its oldest counts let go of
    /// when it holds more than [`MAX_ENTRIES`].
    pub fn at(dir: PathBuf) -> Self {
        let cache = Self {
            dir,
            pending: RefCell::default(),
        };
        cache.prune();
        cache
    }

    /// The count of the lines of the conversation at `path` (the file `made`) before
    /// `end`, fatigue counted after `last_dream`: the kept one when it is of that very
    /// file, else counted now (and kept by [`HeadCache::keep_some`]).
    pub fn count(
        &self,
        path: &Path,
        made: &Made,
        end: u64,
        last_dream: Option<DateTime<Utc>>,
    ) -> FarHead {
        let file = self.dir.join(key(path));
        let mut pending = self.pending.borrow_mut();
        // What is kept of this very file: waiting to be written, else on disk.
        let waiting = pending.iter().position(|(f, _)| *f == file);
        let entry = match waiting {
            Some(at) => Some(pending[at].1.clone()),
            None => std::fs::read(&file)
                .ok()
                .and_then(|bytes| serde_json::from_slice::<Entry>(&bytes).ok()),
        }
        .filter(|e| e.path == path && e.made.dev == made.dev && e.made.ino == made.ino);
        let same_file = entry.as_ref().is_some_and(|e| e.made == *made);
        let kept = entry.as_ref().filter(|_| same_file).and_then(|e| {
            e.counts
                .iter()
                .find(|c| c.end == end && c.last_dream == last_dream && c.head.is_bounded())
        });
        if let Some(counted) = kept {
            return counted.head.clone();
        }
        // The file grown since: only what follows the latest count that still holds.
        let grown_from = entry
            .as_ref()
            .filter(|e| !same_file && e.made.size <= made.size)
            .and_then(|e| {
                e.counts
                    .iter()
                    .filter(|c| c.end <= end && c.last_dream <= last_dream)
                    .filter(|c| c.head.is_bounded() && !c.head.stopped())
                    .filter(|c| c.seal.is_some() && c.seal == seal(path, c.end))
                    .max_by_key(|c| c.end)
            });
        let head = match grown_from {
            Some(c) => count_far_head_from(path, &c.head, c.end, end, last_dream),
            None => count_far_head(path, end, last_dream),
        };
        if head.calls.len() <= MAX_KEPT_CALLS {
            let mut entry = match entry {
                // Counts of the file before it grew still hold (their seals say so).
                Some(e) if same_file || grown_from.is_some() => e,
                _ => Entry {
                    path: path.to_path_buf(),
                    made: made.clone(),
                    counts: Vec::new(),
                },
            };
            entry.made = made.clone();
            if entry.counts.len() >= COUNTS_KEPT {
                entry.counts.remove(0);
            }
            entry.counts.push(Counted {
                end,
                last_dream,
                head: head.clone(),
                seal: seal(path, end),
            });
            match waiting {
                Some(at) => pending[at].1 = entry,
                None => pending.push((file, entry)),
            }
        }
        head
    }

    /// Whether counts wait to be kept.
    pub fn has_pending(&self) -> bool {
        !self.pending.borrow().is_empty()
    }

    /// Keeps up to `count` of the counts made (each a small file).
    pub fn keep_some(&self, count: usize) {
        let mut pending = self.pending.borrow_mut();
        let take = count.min(pending.len());
        for (file, entry) in pending.drain(..take) {
            if let Err(e) = self.keep(&file, &entry) {
                tracing::debug!("{}: count not kept: {e}", file.display());
            }
        }
    }

    fn keep(&self, file: &Path, entry: &Entry) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let mut tmp = tempfile::NamedTempFile::new_in(&self.dir)?;
        serde_json::to_writer(&mut tmp, entry)?;
        tmp.flush()?;
        tmp.persist(file).map_err(|e| e.error)?;
        Ok(())
    }

    /// Lets the oldest counts go while more than [`MAX_ENTRIES`] are kept.
    fn prune(&self) {
        let Ok(read) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut entries: Vec<(std::time::SystemTime, PathBuf)> = read
            .flatten()
            .filter_map(|e| {
                let modified = e.metadata().ok()?.modified().ok()?;
                Some((modified, e.path()))
            })
            .collect();
        if entries.len() <= MAX_ENTRIES {
            return;
        }
        entries.sort();
        let excess = entries.len() - MAX_ENTRIES;
        for (_, path) in entries.into_iter().take(excess) {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// A conversation's file name in the store: a digest of its path.
fn key(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let digest = Sha256::digest(path.as_os_str().as_bytes());
    let hex = crate::text::hex(&digest[..16]);
    format!("{hex}.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(i: usize) -> String {
        format!(
            "{{\"t\":\"2026-03-01T00:00:{:02}Z\",\"role\":\"assistant\",\"content\":[{{\"type\":\"tool_use\",\"id\":\"c{i}\",\"name\":\"bash\",\"input\":{{}}}}]}}\n",
            i % 60
        )
    }

    #[test]
    fn a_count_is_taken_back_only_for_the_very_file_it_was_made_of() {
        let dir = tempfile::tempdir().unwrap();
        let conv = dir.path().join("conversation.jsonl");
        let text: String = (0..50).map(line).collect();
        std::fs::write(&conv, &text).unwrap();
        let cache = HeadCache::at(dir.path().join("heads"));
        let made = || Made::of(&std::fs::metadata(&conv).unwrap());
        let end = text.len() as u64;
        let first = cache.count(&conv, &made(), end, None);
        assert_eq!((first.lines, first.calls.len()), (50, 50));
        assert!(cache.has_pending());
        cache.keep_some(10);
        assert!(!cache.has_pending());
        // Kept: a count that is not the file's is taken back while the file is the same
        // (a kept count is trusted for its figures only).
        let file = dir.path().join("heads").join(key(&conv));
        let mut entry: Entry = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        entry.counts[0].head.lines = 7;
        entry.counts[0].head.entries = 7;
        std::fs::write(&file, serde_json::to_vec(&entry).unwrap()).unwrap();
        assert_eq!(cache.count(&conv, &made(), end, None).lines, 7);
        assert!(!cache.has_pending(), "nothing new to keep");
        // Another end (a window's start): counted, and kept beside the first.
        let before_last = end - line(49).len() as u64;
        assert_eq!(cache.count(&conv, &made(), before_last, None).lines, 49);
        cache.keep_some(10);
        assert_eq!(cache.count(&conv, &made(), end, None).lines, 7, "both kept");
        entry = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        entry.counts[1].head.lines = 9;
        entry.counts[1].head.entries = 9;
        std::fs::write(&file, serde_json::to_vec(&entry).unwrap()).unwrap();
        assert_eq!(cache.count(&conv, &made(), before_last, None).lines, 9);
        // Another last dream: the calls after it, of the kept count.
        let dream = "2026-03-01T00:00:30Z".parse().ok();
        assert_eq!(cache.count(&conv, &made(), end, dream).calls.len(), 19);
        cache.keep_some(10);
        // The file grew: only its new line counted, added to the latest count that holds
        // (the tampered 9 lines before `before_last`, fatigue after no dream).
        std::fs::write(&conv, format!("{text}{}", line(50))).unwrap();
        let grown = end + line(50).len() as u64;
        let head = cache.count(&conv, &made(), grown, None);
        assert_eq!((head.lines, head.calls.len()), (9 + 2, 50 + 1));
        cache.keep_some(10);
        entry = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        assert_eq!(
            entry.counts.len(),
            2,
            "the counts before it grew still hold"
        );
        // Written again in its place (not grown: other bytes before the counts' ends):
        // counted again, the counts before let go.
        let other: String = (0..52).map(|i| line(i).replace("bash", "grep")).collect();
        std::fs::write(&conv, &other).unwrap();
        let rewritten = other.len() as u64;
        assert_eq!(cache.count(&conv, &made(), rewritten, None).lines, 52);
        cache.keep_some(10);
        entry = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        assert_eq!(entry.counts.len(), 1);
        // A store that is not JSON is counted past.
        std::fs::write(&file, "{not json").unwrap();
        assert_eq!(cache.count(&conv, &made(), rewritten, None).lines, 52);
    }

    #[test]
    fn the_oldest_counts_go_past_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let heads = dir.path().join("heads");
        std::fs::create_dir_all(&heads).unwrap();
        for i in 0..MAX_ENTRIES + 5 {
            std::fs::write(heads.join(format!("{i}.json")), "{}").unwrap();
        }
        HeadCache::at(heads.clone());
        assert_eq!(std::fs::read_dir(&heads).unwrap().count(), MAX_ENTRIES);
    }
}
