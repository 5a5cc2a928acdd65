//! A creature as it was at a moment: which length of each log, which text of each
//! document, and what cannot be known; and that past written out as a directory (what
//! `inspect --at`, `export` and `run --fork` read).
//!
//! Where the past comes from, best first: the runner's own record (`.sys/recorder/`, exact
//! at every wake and sleep of a hosted life); the creature's git history; the observatory's
//! watched history (the texts it saw); a file not modified since the moment. Logs are
//! append-only: cut at the record's lengths, or after their last line by the moment's time.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::history::History;
use crate::memory::layout::FileKind;
use crate::memory::moments::{self, After, Moment, Store};

use super::at::At;
use super::cut;
use super::git;
use super::index::TimeIndex;

/// Where a document's text at the moment came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The runner's record.
    Runner,
    /// A commit of the creature's git history.
    Git(String),
    /// The observatory's watched history.
    Watched,
    /// The file as it is now, not modified since.
    Unchanged,
}

/// One document at the moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Doc {
    pub source: Source,
    /// When that text was recorded.
    #[serde(with = "crate::memory::dreams::opt_time")]
    pub since: Option<DateTime<Utc>>,
    /// `None`: the file was not there.
    #[serde(skip)]
    pub text: Option<Vec<u8>>,
}

/// A creature at a moment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Past {
    pub at: String,
    #[serde(with = "crate::memory::dreams::opt_time")]
    pub t: Option<DateTime<Utc>>,
    /// Dreams consolidated by then.
    pub dreams: usize,
    /// Wakes begun by then.
    pub wakes: usize,
    /// The runner's record has this moment as it was (every file exact).
    pub exact: bool,
    /// Each log's length then, by its path in the creature's directory.
    pub logs: BTreeMap<String, u64>,
    pub docs: BTreeMap<String, Doc>,
    /// What cannot be known, said (a document whose text then no record has).
    pub unknown: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum PastError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{at}: the creature has lived {have} of them")]
    NotYet { at: At, have: usize },
}

/// Where to look beside the creature's own directory.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// The observatory's watched history.
    pub history: Option<History>,
}

impl Sources {
    /// The watched history at its default place.
    pub fn default_places() -> Self {
        Self {
            history: History::default_root()
                .map(|r| History::new(r, crate::history::DEFAULT_LIMIT)),
        }
    }
}

fn io_at(path: &Path) -> impl FnOnce(io::Error) -> PastError + '_ {
    move |source| PastError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The path of the events log relative to `root`.
fn events_rel(root: &Path) -> String {
    rel(root, &FileKind::Events.resolve(root))
}

fn rel(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// The creature at `root` as it was `at` (`now`: what "now" is, for a moment not reached
/// by any later mark).
pub fn resolve(
    root: &Path,
    at: At,
    sources: &Sources,
    now: DateTime<Utc>,
) -> Result<Past, PastError> {
    let index = TimeIndex::build(root).map_err(io_at(root))?;
    resolve_indexed(root, at, sources, now, &index)
}

/// [`resolve`] with the life's time index already built (the observatory's time cursor
/// keeps it: a move does not index the life again).
pub fn resolve_indexed(
    root: &Path,
    at: At,
    sources: &Sources,
    now: DateTime<Utc>,
    index: &TimeIndex,
) -> Result<Past, PastError> {
    let store = Store::of_creature(root);
    let recorded = store.moments();
    let events = events_rel(root);
    let events_len = |m: &Moment| m.logs.get(&events).copied().unwrap_or(0);
    // The moment's time, the events log's cut where the index knows it, and the runner's
    // moment that is exactly it.
    let (t, events_cut, exact) = match at {
        At::Dream(n) => {
            // The runner's record counts every genome's dreams: once dream N's sleep is
            // over (a moment at a sleep's start is not its end).
            let by_record = recorded
                .iter()
                .position(|m| {
                    matches!(m.after, After::Sleep | After::Exit | After::Wake)
                        && m.dreams.is_some_and(|d| d >= n)
                })
                // Only where the record still holds a moment before dream N (its oldest
                // moments may have been forgotten: it is bounded).
                .filter(|&i| {
                    recorded[..i]
                        .iter()
                        .any(|m| m.dreams.is_some_and(|d| d < n))
                });
            let recorded_dreams = recorded.iter().filter_map(|m| m.dreams).max().unwrap_or(0);
            match by_record {
                Some(i) => {
                    // A wake's moment holds its wake event: dream N's end is before it.
                    let len = events_len(&recorded[i]);
                    let cut = match recorded[i].after {
                        After::Wake => index
                            .wakes
                            .iter()
                            .find(|w| w.end == len)
                            .map_or(len, |w| w.start),
                        _ => len,
                    };
                    (recorded[i].t, Some(cut), Some(i))
                }
                None if (index.dreams.len() as u64) < n => {
                    return Err(PastError::NotYet {
                        at,
                        have: index.dreams.len().max(recorded_dreams as usize),
                    });
                }
                None => dream_by_index(index, at, n, now)?,
            }
        }
        At::Wake(n) => {
            let w = *index.wakes.get(n as usize - 1).ok_or(PastError::NotYet {
                at,
                have: index.wakes.len(),
            })?;
            // The runner's moment at the wake event (a record of an older runner: just
            // before it, as a sleep ended).
            let exact = recorded
                .iter()
                .rposition(|m| m.after == After::Wake && events_len(m) == w.end)
                .or_else(|| {
                    recorded
                        .iter()
                        .rposition(|m| m.after != After::Seen && events_len(m) <= w.start)
                        .filter(|&i| recorded[i].after == After::Wake)
                });
            (w.t, Some(w.end), exact)
        }
        At::Time(t) => (Some(t), None, None),
    };
    let t = t.unwrap_or(now);
    let mut past = Past {
        at: at.to_string(),
        t: Some(t),
        dreams: 0,
        wakes: 0,
        exact: exact.is_some(),
        logs: BTreeMap::new(),
        docs: BTreeMap::new(),
        unknown: Vec::new(),
    };
    // Logs.
    let mut names: Vec<String> = present(root).logs;
    if let Some(i) = exact {
        names.extend(recorded[i].logs.keys().cloned());
    }
    names.sort();
    names.dedup();
    for name in names {
        let len = match (exact, &events_cut) {
            (_, Some(cut)) if name == events => *cut,
            (Some(i), _) => recorded[i].logs.get(&name).copied().unwrap_or(0),
            (None, _) => cut::offset_at(&root.join(&name), t).map_err(io_at(&root.join(&name)))?,
        };
        past.logs.insert(name, len);
    }
    let cut_events = past.logs.get(&events).copied().unwrap_or(0);
    let recorded_dreams = exact.and_then(|i| recorded[i].dreams);
    past.dreams = if let Some(d) = recorded_dreams {
        d as usize
    } else if index.checkpoints.is_empty() || index.dreams_by(index.bytes) == 0 {
        index
            .dreams
            .iter()
            .filter(|d| d.t.is_some_and(|dt| dt <= t))
            .count()
    } else {
        index.dreams_by(cut_events)
    };
    past.wakes = index.wakes.partition_point(|w| w.end <= cut_events);
    // Documents.
    match exact {
        Some(i) => {
            for (name, hash) in fold(&recorded[..=i]) {
                let text = hash.as_deref().and_then(|h| store.text(h));
                if hash.is_some() && text.is_none() {
                    past.unknown
                        .push(format!("{name}: its text then was not kept"));
                    continue;
                }
                past.docs.insert(
                    name,
                    Doc {
                        source: Source::Runner,
                        since: recorded[i].t,
                        text,
                    },
                );
            }
        }
        None => documents_by_time(root, t, &store, &recorded, sources, &mut past),
    }
    Ok(past)
}

/// A moment found: its time, the events log's cut where the index knows it, and the
/// runner's moment that is exactly it.
type Found = (Option<DateTime<Utc>>, Option<u64>, Option<usize>);

/// Right after dream `n` by the logs alone: as the next wake began (else now), the events
/// log cut before it.
fn dream_by_index(
    index: &TimeIndex,
    at: At,
    n: u64,
    now: DateTime<Utc>,
) -> Result<Found, PastError> {
    let d = *index.dreams.get(n as usize - 1).ok_or(PastError::NotYet {
        at,
        have: index.dreams.len(),
    })?;
    let from_events = index.dreams_by(index.bytes) > 0;
    let next = index.wakes.iter().find(|w| match (w.t, d.t) {
        _ if from_events => w.start >= d.end,
        (Some(wt), Some(dt)) => wt > dt,
        _ => false,
    });
    Ok(match next {
        Some(w) => (
            w.t.map(|t| t - chrono::TimeDelta::milliseconds(1)),
            Some(w.start),
            None,
        ),
        None => (Some(now), None, None),
    })
}

/// The documents each moment names, folded in order (a full moment replaces all).
fn fold(moments: &[Moment]) -> BTreeMap<String, Option<String>> {
    let mut docs = BTreeMap::new();
    for m in moments {
        if m.full {
            docs.clear();
        }
        docs.extend(m.docs.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    docs
}

/// A document's candidate text at `t`: the latest recorded at or before it wins.
struct Candidate {
    since: Option<DateTime<Utc>>,
    source: Source,
    text: Option<Vec<u8>>,
    known: bool,
}

fn documents_by_time(
    root: &Path,
    t: DateTime<Utc>,
    store: &Store,
    recorded: &[Moment],
    sources: &Sources,
    past: &mut Past,
) {
    let mut best: BTreeMap<String, Candidate> = BTreeMap::new();
    let mut offer = |name: &str, c: Candidate| match best.get(name) {
        Some(b) if b.since >= c.since => {}
        _ => {
            best.insert(name.to_string(), c);
        }
    };
    // The runner's record: its last full moment by then, and what followed.
    let upto = recorded.partition_point(|m| m.t.is_some_and(|mt| mt <= t));
    if let Some(last) = recorded[..upto].iter().rposition(|m| m.full) {
        let since = recorded[upto - 1].t;
        for (name, hash) in fold(&recorded[last..upto]) {
            let text = hash.as_deref().and_then(|h| store.text(h));
            let known = hash.is_none() || text.is_some();
            offer(
                &name,
                Candidate {
                    since,
                    source: Source::Runner,
                    text,
                    known,
                },
            );
        }
    }
    // The creature's git history.
    if let Some(commit) = git::commit_at(root, t) {
        for name in git::files_at(root, &commit.id, &[".self", "PURPOSE.md"]) {
            if !is_document_path(&name) {
                continue;
            }
            let text = git::text_at(root, &commit.id, &name);
            offer(
                &name,
                Candidate {
                    since: Some(commit.t),
                    source: Source::Git(commit.id.clone()),
                    known: text.is_some(),
                    text,
                },
            );
        }
    }
    // The watched history.
    if let Some(history) = &sources.history {
        let versions = history.versions_of(root);
        let seen = versions.moments();
        // Each document's first version seen at the latest time by then: only its text
        // is read (hundreds of versions of a file that grew are kept).
        let mut latest: BTreeMap<&String, (Option<DateTime<Utc>>, &Option<String>)> =
            BTreeMap::new();
        for m in seen.iter().filter(|m| m.t.is_some_and(|mt| mt <= t)) {
            for (name, hash) in &m.docs {
                match latest.get(name) {
                    Some((since, _)) if *since >= m.t => {}
                    _ => {
                        latest.insert(name, (m.t, hash));
                    }
                }
            }
        }
        for (name, (since, hash)) in latest {
            let text = hash.as_deref().and_then(|h| versions.text(h));
            let known = hash.is_none() || text.is_some();
            offer(
                name,
                Candidate {
                    since,
                    source: Source::Watched,
                    text,
                    known,
                },
            );
        }
    }
    // Files not modified since.
    let now = present(root);
    for name in &now.docs {
        let path = root.join(name);
        let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        if let Some(m) = modified.map(DateTime::<Utc>::from)
            && m <= t
            && let Ok(Some(text)) = crate::tail::read_bounded(&path, moments::MAX_DOC)
        {
            offer(
                name,
                Candidate {
                    since: Some(m),
                    source: Source::Unchanged,
                    text: Some(text),
                    known: true,
                },
            );
        }
    }
    for name in &now.docs {
        if !best.contains_key(name) {
            past.unknown.push(format!(
                "{name}: no record of its text at {} (nothing watched or kept it then)",
                crate::memory::time::format_time(t)
            ));
        }
    }
    for (name, c) in best {
        if !c.known {
            past.unknown
                .push(format!("{name}: its text then was not kept"));
            continue;
        }
        past.docs.insert(
            name,
            Doc {
                source: c.source,
                since: c.since,
                text: c.text,
            },
        );
    }
}

fn is_document_path(name: &str) -> bool {
    name == "PURPOSE.md"
        || name
            .strip_prefix(".self/")
            .is_some_and(|n| !n.contains('/') && moments::is_document(n))
}

/// The documents and logs of a creature directory now.
#[derive(Debug, Default)]
struct Present {
    docs: Vec<String>,
    logs: Vec<String>,
}

fn present(root: &Path) -> Present {
    let mut out = Present::default();
    for dir in [".self", ".sys"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            if !entry.file_type().is_ok_and(|t| t.is_file()) {
                continue;
            }
            let name = format!("{dir}/{}", entry.file_name().to_string_lossy());
            if name.ends_with(".jsonl") {
                out.logs.push(name);
            } else if is_document_path(&name) {
                out.docs.push(name);
            }
        }
    }
    if root.join("PURPOSE.md").is_file() {
        out.docs.push("PURPOSE.md".into());
    }
    out.docs.sort();
    out.logs.sort();
    out
}

/// Writes `past` of the creature at `root` into `dest` (a new directory): `BIRTH.json`
/// as it is, each document as it was, each log up to its length then. The creature's
/// own directory is only read.
pub fn materialize(root: &Path, past: &Past, dest: &Path) -> Result<(), PastError> {
    materialize_window(root, past, dest, |_| u64::MAX).map(drop)
}

/// [`materialize`], each log longer than `window(its path)` bytes then written from its
/// first whole line within its last window: what a reader that keeps a window of a large
/// log reads, at the cost of that window and not of the file. Gives where each log's copy
/// begins in it (0: whole).
pub fn materialize_window(
    root: &Path,
    past: &Past,
    dest: &Path,
    window: impl Fn(&str) -> u64,
) -> Result<BTreeMap<String, u64>, PastError> {
    let mut starts = BTreeMap::new();
    let mkdir = |d: &Path| std::fs::create_dir_all(d).map_err(io_at(d));
    mkdir(&dest.join(".self"))?;
    mkdir(&dest.join(".sys"))?;
    let birth = root.join("BIRTH.json");
    if let Ok(Some(bytes)) = crate::tail::read_bounded(&birth, 1 << 20) {
        let to = dest.join("BIRTH.json");
        std::fs::write(&to, bytes).map_err(io_at(&to))?;
    }
    for (name, doc) in &past.docs {
        if let Some(text) = &doc.text {
            let to = dest.join(name);
            std::fs::write(&to, text).map_err(io_at(&to))?;
        }
    }
    for (name, len) in &past.logs {
        if *len == 0 {
            continue;
        }
        let from = root.join(name);
        let to = dest.join(name);
        let mut file = crate::tail::open_regular(&from).map_err(io_at(&from))?;
        let start = window_start(&mut file, *len, window(name)).map_err(io_at(&from))?;
        let mut out = std::fs::File::create(&to).map_err(io_at(&to))?;
        io::copy(&mut file.take(*len - start), &mut out).map_err(io_at(&to))?;
        starts.insert(name.clone(), start);
    }
    Ok(starts)
}

/// Where the window of the last `window` bytes of a log `len` long begins: the start of
/// its first whole line (0 for a log within the window). Leaves `file` there.
fn window_start(file: &mut std::fs::File, len: u64, window: u64) -> io::Result<u64> {
    use std::io::{Seek, SeekFrom};
    if len <= window {
        return Ok(0);
    }
    let from = len - window;
    file.seek(SeekFrom::Start(from))?;
    let mut buf = vec![0u8; 64 << 10];
    let mut at = from;
    while at < len {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        if let Some(i) = memchr::memchr(b'\n', &buf[..n]) {
            at += i as u64 + 1;
            file.seek(SeekFrom::Start(at))?;
            return Ok(at);
        }
        at += n as u64;
    }
    file.seek(SeekFrom::Start(len))?;
    Ok(len)
}

/// Copies into `dest` the runner's record of the creature at `root` up to `past` (its
/// moments then, and their texts): a fork's past is its parent's.
pub fn copy_record(root: &Path, past: &Past, dest: &Path) -> Result<(), PastError> {
    let from = Store::of_creature(root);
    let to = Store::of_creature(dest);
    let within = |m: &Moment| {
        m.t.is_some_and(|mt| past.t.is_some_and(|pt| mt <= pt))
            && m.logs
                .iter()
                .all(|(name, len)| past.logs.get(name).is_some_and(|l| len <= l))
    };
    for m in from.moments().iter().take_while(|m| within(m)) {
        for hash in m.docs.values().flatten() {
            if let Some(text) = from.text(hash) {
                to.keep(&text).map_err(io_at(to.dir()))?;
            }
        }
        to.append(m).map_err(io_at(to.dir()))?;
    }
    Ok(())
}
