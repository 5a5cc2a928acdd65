//! Texts kept as the text they grew from and what was added to it: a file that is only
//! appended to (an `observations.md` of thousands of lines) costs its store the bytes
//! appended at each change, not a copy of the whole file.
//!
//! `blobs/<sha256>.grown` holds the SHA-256 of the text it grew from (a whole blob or
//! another grown one), a newline, then the bytes added; `<sha256>` is still the hash of
//! the whole text, so a moment names a grown text as it names any other.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

use super::MAX_DOC;

/// The name's end of a grown text in `blobs/`.
pub const GROWN: &str = ".grown";
/// The most grown texts read through to the whole one: a text further from it is not
/// known (the watched history keeps a text whole well before: see `history`).
pub const MAX_CHAIN: usize = 1024;

/// Whether `name` can name a text: a SHA-256 in hex, nothing else is read.
pub fn is_hash(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The file of the grown text `hash` in `blobs`.
pub fn path(blobs: &Path, hash: &str) -> PathBuf {
    blobs.join(format!("{hash}{GROWN}"))
}

/// What a grown text's file holds: the hash it grew from, then what was added.
pub fn contents(base: &str, added: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(base.len() + 1 + added.len());
    bytes.extend_from_slice(base.as_bytes());
    bytes.push(b'\n');
    bytes.extend_from_slice(added);
    bytes
}

/// The hash a grown text's file says it grew from, and what was added.
fn split(bytes: &[u8]) -> Option<(&str, &[u8])> {
    let nl = memchr::memchr(b'\n', bytes)?;
    let base = std::str::from_utf8(&bytes[..nl])
        .ok()
        .filter(|b| is_hash(b))?;
    Some((base, &bytes[nl + 1..]))
}

fn read(file: &Path) -> Option<Vec<u8>> {
    crate::tail::read_bounded(file, MAX_DOC).ok().flatten()
}

/// The whole text `hash` in `blobs`: kept whole, or grown from one that is (through at
/// most [`MAX_CHAIN`] grown texts), or from `known` (a text read before, by its hash: a
/// reader of the versions in order reads each from the one before). `None` when it is
/// not kept, or no longer.
pub fn text(blobs: &Path, hash: &str, known: Option<(&str, &[u8])>) -> Option<Vec<u8>> {
    let mut added: Vec<Vec<u8>> = Vec::new();
    let mut at = hash.to_string();
    loop {
        if !is_hash(&at) {
            return None;
        }
        let whole = match known {
            Some((h, bytes)) if h == at => Some(bytes.to_vec()),
            _ => read(&blobs.join(&at)),
        };
        if let Some(mut whole) = whole {
            for bytes in added.iter().rev() {
                whole.extend_from_slice(bytes);
                if whole.len() as u64 > MAX_DOC {
                    return None;
                }
            }
            return Some(whole);
        }
        if added.len() == MAX_CHAIN {
            return None;
        }
        let bytes = read(&path(blobs, &at))?;
        let (base, more) = split(&bytes)?;
        let base = base.to_string();
        added.push(more.to_vec());
        at = base;
    }
}

/// `named` and every text a grown one among them grew from, through to the whole ones:
/// what forgetting must keep.
pub fn with_bases<'a>(
    blobs: &Path,
    named: impl IntoIterator<Item = &'a String>,
) -> HashSet<String> {
    let mut keep: HashSet<String> = HashSet::new();
    let mut next: Vec<String> = named.into_iter().cloned().collect();
    while let Some(hash) = next.pop() {
        if !is_hash(&hash) || !keep.insert(hash.clone()) {
            continue;
        }
        if let Some(bytes) = read(&path(blobs, &hash))
            && let Some((base, _)) = split(&bytes)
        {
            next.push(base.to_string());
        }
    }
    keep
}

/// The hash a file of `blobs/` keeps the text of (its name, without [`GROWN`]).
pub fn hash_of_file(name: &str) -> &str {
    name.strip_suffix(GROWN).unwrap_or(name)
}

/// Whether the text `hash` is kept in `blobs`, whole or grown.
pub fn is_kept(blobs: &Path, hash: &str) -> io::Result<bool> {
    Ok(blobs.join(hash).try_exists()? || path(blobs, hash).try_exists()?)
}

#[cfg(test)]
mod tests {
    use super::super::{After, Moment, Store, hash};
    use super::*;

    fn moment(h: &str) -> Moment {
        Moment {
            t: None,
            after: After::Seen,
            full: false,
            docs: [(".self/observations.md".to_string(), Some(h.to_string()))].into(),
            logs: Default::default(),
            dreams: None,
        }
    }

    /// Texts kept as what they grew from are read back whole; forgetting the older
    /// moments keeps the texts the newer ones grew from; a grown text that says nothing
    /// of a hash, or is too far from a whole one, is not known.
    #[test]
    fn grown_texts_are_read_back_through_what_they_grew_from() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::new(tmp.path());
        let blobs = tmp.path().join(super::super::BLOBS);
        let mut texts = vec!["RED a\n".to_string()];
        let first = store.keep(texts[0].as_bytes()).unwrap().unwrap();
        store.append(&moment(&first)).unwrap();
        for n in 1..6 {
            let before = texts[n - 1].clone();
            let text = format!("{before}GRN {n}\n");
            let (h, base) = (hash(text.as_bytes()), hash(before.as_bytes()));
            let kept = store
                .keep_grown(
                    h.clone(),
                    &base,
                    before.len() as u64,
                    &text.as_bytes()[before.len()..],
                    || 0,
                )
                .unwrap()
                .unwrap();
            assert_eq!(kept.written, 64 + 1 + 6);
            store.append(&moment(&h)).unwrap();
            texts.push(text);
        }
        for t in &texts {
            assert_eq!(store.text(&hash(t.as_bytes())).unwrap(), t.as_bytes());
        }
        // Read from a text read before: the whole one is not read again.
        let (h1, h2) = (hash(texts[1].as_bytes()), hash(texts[2].as_bytes()));
        let t1 = store.text(&h1).unwrap();
        std::fs::rename(blobs.join(&first), tmp.path().join("away")).unwrap();
        assert_eq!(store.text(&h2), None);
        assert_eq!(
            store.text_after(&h2, Some((&h1, &t1))).unwrap(),
            texts[2].as_bytes()
        );
        std::fs::rename(tmp.path().join("away"), blobs.join(&first)).unwrap();
        // The older half forgotten: the newer texts still read back whole.
        store.forget_older_half().unwrap();
        for t in &texts[3..] {
            assert_eq!(store.text(&hash(t.as_bytes())).unwrap(), t.as_bytes());
        }
        // Nothing grows from a text not kept.
        let stranger = hash(b"not kept");
        assert_eq!(
            store
                .keep_grown(hash(b"x"), &stranger, 8, b"more", || 0)
                .unwrap(),
            None
        );
        // A grown text naming no hash, or a chain longer than read.
        std::fs::write(path(&blobs, &stranger), "../../etc/passwd\nmore").unwrap();
        assert_eq!(store.text(&stranger), None);
        let mut at = hash(texts[5].as_bytes());
        for n in 0..=MAX_CHAIN {
            let next = hash(format!("link {n}").as_bytes());
            std::fs::write(path(&blobs, &next), contents(&at, b"+")).unwrap();
            at = next;
        }
        assert_eq!(store.text(&at), None);
    }
}
