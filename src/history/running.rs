//! The running SHA-256 of each large file the watched history keeps versions of: a file
//! that only grew (an observations.md appended to) is hashed from where it was, not from
//! its start at every change, and kept as the text it grew from and what was added.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use sha2::{Digest, Sha256};
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

/// Texts shorter than this are hashed whole (at once, and nothing kept for them).
pub const RUNNING_FROM: usize = 64 << 10;
/// A text grown from another this many times since its last whole copy is kept whole
/// again: reading a version back reads at most this many grown texts.
pub const WHOLE_EVERY: usize = 256;

/// A SHA-256 that has taken in a text of `len` bytes, with the XXH3 of that text (the
/// text read back from the snapshot is known to be it before the hash goes on from it),
/// and the times it grew since it was last kept whole.
struct Running {
    sha: Sha256,
    check: Xxh3,
    len: usize,
    grown: usize,
}

/// A new text's [`moments::hash`](crate::memory::moments::hash), and the text it grew
/// from when it only added to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hashed {
    pub hash: String,
    pub grew_from: Option<GrewFrom>,
}

/// The text a new one grew from: its hash and length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrewFrom {
    pub hash: String,
    pub len: usize,
}

/// The running hashes, by a creature's folder and a file's name; shared by the clones of
/// one store.
#[derive(Default, Clone)]
pub struct RunningHashes {
    by_file: Arc<Mutex<HashMap<(PathBuf, String), Running>>>,
}

impl std::fmt::Debug for RunningHashes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let files = self.by_file.lock().map_or(0, |m| m.len());
        f.debug_struct("RunningHashes")
            .field("files", &files)
            .finish()
    }
}

impl RunningHashes {
    /// The hash of `text`, the new text of the file `key`: when it only added to `before`
    /// (the snapshot read back, the text last hashed) and has grown fewer than
    /// [`WHOLE_EVERY`] times, it goes on from that text's and says what it grew from. A
    /// large text's running hash is kept for the next.
    pub fn hash(&self, key: (PathBuf, String), before: Option<&str>, text: &str) -> Hashed {
        let mut by_file = self.by_file.lock().unwrap_or_else(PoisonError::into_inner);
        let mut grew_from = None;
        let went_on = by_file.remove(&key).and_then(|mut r| {
            let before = before?.as_bytes();
            let grown = r.len == before.len()
                && text.as_bytes().starts_with(before)
                && r.check.digest() == xxh3_64(before);
            grown.then(|| {
                if r.grown + 1 < WHOLE_EVERY {
                    grew_from = Some(GrewFrom {
                        hash: crate::text::hex(&r.sha.clone().finalize()),
                        len: r.len,
                    });
                }
                let added = &text.as_bytes()[before.len()..];
                r.sha.update(added);
                r.check.update(added);
                r.len = text.len();
                r.grown = (r.grown + 1) % WHOLE_EVERY;
                r
            })
        });
        let r = went_on.unwrap_or_else(|| {
            let mut check = Xxh3::new();
            check.update(text.as_bytes());
            Running {
                sha: Sha256::new_with_prefix(text.as_bytes()),
                check,
                len: text.len(),
                grown: 0,
            }
        });
        let hash = crate::text::hex(&r.sha.clone().finalize());
        if text.len() >= RUNNING_FROM {
            by_file.insert(key, r);
        }
        Hashed { hash, grew_from }
    }

    /// The text of `key` hashed last was kept whole after all (the one it grew from was
    /// no longer kept): the count of its growths starts again.
    pub fn kept_whole(&self, key: &(PathBuf, String)) {
        let mut by_file = self.by_file.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(r) = by_file.get_mut(key) {
            r.grown = 0;
        }
    }

    /// The bytes of the text of `key` hashed last, when a running hash is kept for it.
    #[cfg(test)]
    pub fn len_of(&self, key: &(PathBuf, String)) -> Option<usize> {
        let by_file = self.by_file.lock().unwrap_or_else(PoisonError::into_inner);
        by_file.get(key).map(|r| r.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file that keeps growing is said to grow from the text before it, but for every
    /// [`WHOLE_EVERY`]th change (kept whole, so a version is never far from a whole
    /// text), and again after a text kept whole after all.
    #[test]
    fn a_growing_text_is_kept_whole_every_so_often() {
        let hashes = RunningHashes::default();
        let key = (PathBuf::from("/c"), "observations.md".to_string());
        let mut text = "x".repeat(RUNNING_FROM);
        let first = hashes.hash(key.clone(), None, &text);
        assert_eq!(first.grew_from, None);
        let mut wholes = Vec::new();
        for n in 1..=2 * WHOLE_EVERY {
            let before = text.clone();
            text.push_str("GRN more\n");
            let hashed = hashes.hash(key.clone(), Some(&before), &text);
            assert_eq!(hashed.hash, crate::memory::moments::hash(text.as_bytes()));
            match hashed.grew_from {
                Some(from) => {
                    assert_eq!(from.len, before.len());
                    assert_eq!(from.hash, crate::memory::moments::hash(before.as_bytes()));
                }
                None => wholes.push(n),
            }
        }
        assert_eq!(wholes, [WHOLE_EVERY, 2 * WHOLE_EVERY]);
        // Kept whole after all: the count starts again.
        hashes.kept_whole(&key);
        let before = text.clone();
        text.push_str("GRN more\n");
        let hashed = hashes.hash(key.clone(), Some(&before), &text);
        assert!(hashed.grew_from.is_some());
        // A text that did not only grow is hashed whole.
        let rewritten = text.replacen('x', "y", 1);
        let hashed = hashes.hash(key, Some(&text), &rewritten);
        assert_eq!(hashed.grew_from, None);
        assert_eq!(
            hashed.hash,
            crate::memory::moments::hash(rewritten.as_bytes())
        );
    }
}
