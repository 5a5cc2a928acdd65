//! Search across a creature's total recall (conversation, observations, dreams, diary;
//! an evennia creature's journal, semantic memory, entities and reflections; an emergence
//! creature's soul, long-term memories with the archive, summaries and diary).
//!
//! [`spawn_search`] scans the files on a background thread and streams hits into a shared
//! list that the UI reads with [`SearchHandle::poll`] and [`SearchHandle::hits`]. Files are
//! read in 64 KiB chunks (never whole, never mapped) and searched with a memmem literal
//! finder; lines are counted on the way. The query is a literal string, or a regular
//! expression searched line by line ([`pattern`]). Case-insensitive
//! search folds ASCII letters only (`É` does not match `é`).
//!
//! There is one hit per matching line, at its first match. At most [`MAX_STORED_HITS`] hits
//! are kept; later ones are only counted. `benches/search.sh` measures throughput against
//! ripgrep.

mod json_window;
mod pattern;
mod preview;
mod rare_pair;
mod scan;
mod worker;

use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

pub use preview::PREVIEW_CHARS;

/// Hits beyond this many are counted but not kept. 10,000 previews take about 3 MB; ten
/// times as many would take a large share of the observatory's memory budget.
pub const MAX_STORED_HITS: usize = 10_000;

/// What to search for, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchRequest {
    /// A literal string (or, `regex`, a regular expression); empty matches nothing.
    pub query: String,
    pub case_sensitive: bool,
    pub regex: bool,
    /// Searched in this order.
    pub files: Vec<(SearchSource, PathBuf)>,
}

/// Which part of a creature's memory a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SearchSource {
    Conversation,
    Observations,
    Dreams,
    Diary,
    Journal,
    Semantic,
    Entities,
    Reflections,
    Soul,
    LongTerm,
    Summaries,
    DiaryLog,
    Dialogues,
}

impl SearchSource {
    /// Whether its lines are JSON, whose hits are shown as the text of the string they
    /// are in (the shared logs: a genome's own files are shown as written).
    pub fn is_json_lines(self) -> bool {
        matches!(self, Self::Conversation | Self::Dreams)
    }
}

/// One matching line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub source: SearchSource,
    /// Index of the file in the request's `files` (a garden search spans creatures).
    pub file: usize,
    /// 0-based line number in that file.
    pub line: u64,
    /// Byte offset of the (first) match in that file.
    pub byte_offset: u64,
    /// Sanitized text around the match, at most [`PREVIEW_CHARS`] characters.
    pub preview: String,
    /// Where the match is in `preview` (a byte range), for highlighting it.
    pub preview_match: Range<usize>,
}

/// How far a search has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchProgress {
    /// Matching lines found, including those past [`MAX_STORED_HITS`].
    pub hits_so_far: usize,
    /// Hits kept and readable with [`SearchHandle::hits`].
    pub hits_stored: usize,
    pub bytes_scanned: u64,
    /// The files' sizes when the search started (or `bytes_scanned`, if a file grew).
    pub total_bytes: u64,
    /// Finished, cancelled or failed; nothing more will change.
    pub done: bool,
}

/// State shared by the search thread and its handle.
#[derive(Default)]
struct Shared {
    hits: Mutex<Vec<Hit>>,
    errors: Mutex<Vec<String>>,
    hits_so_far: AtomicUsize,
    bytes_scanned: AtomicU64,
    total_bytes: AtomicU64,
    done: AtomicBool,
    cancelled: AtomicBool,
}

/// Locks a mutex, ignoring poisoning (the data is a plain list that stays consistent).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A running (or finished) search. Dropping it cancels the search.
pub struct SearchHandle {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

/// Starts searching on a background thread.
pub fn spawn_search(req: SearchRequest) -> SearchHandle {
    let shared = Arc::new(Shared::default());
    let worker_shared = Arc::clone(&shared);
    let spawned = std::thread::Builder::new()
        .name("dreamwatch-search".into())
        .spawn(move || worker::run(&req, &worker_shared));
    let thread = match spawned {
        Ok(thread) => Some(thread),
        Err(e) => {
            lock(&shared.errors).push(format!("could not start the search: {e}"));
            shared.done.store(true, Ordering::Release);
            None
        }
    };
    SearchHandle { shared, thread }
}

impl SearchHandle {
    /// The current progress; cheap enough to call every frame.
    pub fn poll(&self) -> SearchProgress {
        let s = &self.shared;
        // Read `done` first: once it is set, the counts below are final.
        let done = s.done.load(Ordering::Acquire);
        let bytes_scanned = s.bytes_scanned.load(Ordering::Acquire);
        SearchProgress {
            hits_so_far: s.hits_so_far.load(Ordering::Acquire),
            hits_stored: lock(&s.hits).len(),
            bytes_scanned,
            total_bytes: s.total_bytes.load(Ordering::Acquire).max(bytes_scanned),
            done,
        }
    }

    /// Copies of the stored hits in `range` (clamped to what is stored), in file order.
    pub fn hits(&self, range: Range<usize>) -> Vec<Hit> {
        let hits = lock(&self.shared.hits);
        let end = range.end.min(hits.len());
        hits.get(range.start.min(end)..end)
            .unwrap_or_default()
            .to_vec()
    }

    /// Files that could not be read, each as `path: reason`.
    pub fn errors(&self) -> Vec<String> {
        lock(&self.shared.errors).clone()
    }

    /// Asks the search to stop; it does so within one chunk.
    pub fn cancel(&self) {
        self.shared.cancelled.store(true, Ordering::Release);
    }

    /// Blocks until the search ends, then returns its final progress.
    pub fn wait(&mut self) -> SearchProgress {
        if let Some(thread) = self.thread.take() {
            // The worker does not panic on input; if it did, `done` stays as it was left.
            let _ = thread.join();
        }
        self.poll()
    }
}

impl Drop for SearchHandle {
    fn drop(&mut self) {
        self.cancel();
    }
}

#[cfg(test)]
mod tests;
