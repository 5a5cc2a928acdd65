//! The search thread: scans each file in turn and publishes hits once per chunk.

use std::sync::atomic::Ordering;

use super::json_window::string_window;
use super::preview::preview;
use super::scan::{Found, Needle, Sink, scan};
use super::{Hit, MAX_STORED_HITS, SearchRequest, SearchSource, Shared, lock};

/// Bytes read at a time. 64 KiB (ripgrep's buffer size too) keeps the buffer in the L2
/// cache between the read and the search: on the 2-core benchmark machine, 1 MiB reads made
/// the whole search about twice as slow (`benches/search.sh`).
pub const CHUNK: usize = 64 * 1024;

/// Runs the whole search; `done` is set when it returns (or unwinds).
pub fn run(req: &SearchRequest, shared: &Shared) {
    let _done = MarkDone(shared);
    let total: u64 = req
        .files
        .iter()
        .filter_map(|(_, path)| std::fs::metadata(path).ok())
        .map(|m| m.len())
        .sum();
    shared.total_bytes.store(total, Ordering::Release);
    let matcher = if req.regex {
        match super::pattern::compile(&req.query, req.case_sensitive) {
            Ok(re) => Matcher::Regex(re),
            Err(e) => {
                lock(&shared.errors).push(format!("not a regular expression: {e}"));
                return;
            }
        }
    } else {
        match Needle::new(&req.query, req.case_sensitive) {
            Some(needle) => Matcher::Literal(needle),
            None => return,
        }
    };
    for (index, (source, path)) in req.files.iter().enumerate() {
        if shared.cancelled.load(Ordering::Acquire) {
            return;
        }
        let file = match crate::tail::open_regular(path) {
            Ok(file) => file,
            Err(e) => {
                lock(&shared.errors).push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let mut publisher = Publisher {
            source: *source,
            file: index,
            shared,
            stored: lock(&shared.hits).len(),
            pending: Vec::new(),
            found: 0,
        };
        let result = match &matcher {
            Matcher::Literal(needle) => scan(file, needle, CHUNK, &mut publisher),
            Matcher::Regex(re) => super::pattern::scan(file, re, &mut publisher),
        };
        publisher.publish();
        if let Err(e) = result {
            lock(&shared.errors).push(format!("{}: {e}", path.display()));
        }
    }
}

/// A literal needle, or a regular expression.
enum Matcher {
    Literal(Needle),
    Regex(regex::bytes::Regex),
}

/// Sets `done` when dropped, so a waiting UI always sees the end.
struct MarkDone<'a>(&'a Shared);

impl Drop for MarkDone<'_> {
    fn drop(&mut self) {
        self.0.done.store(true, Ordering::Release);
    }
}

/// Collects one file's hits and hands them to the shared list after each chunk.
struct Publisher<'a> {
    source: SearchSource,
    file: usize,
    shared: &'a Shared,
    /// Hits stored in the shared list plus `pending`.
    stored: usize,
    pending: Vec<Hit>,
    /// Hits found since the last publish.
    found: usize,
}

impl Publisher<'_> {
    /// Counts first, so a reader never sees more hits stored than found.
    fn publish(&mut self) {
        self.shared
            .hits_so_far
            .fetch_add(std::mem::take(&mut self.found), Ordering::AcqRel);
        if !self.pending.is_empty() {
            lock(&self.shared.hits).append(&mut self.pending);
        }
    }
}

impl Sink for Publisher<'_> {
    fn wants_details(&self) -> bool {
        self.stored < MAX_STORED_HITS
    }

    fn counted(&mut self) {
        self.found += 1;
    }

    fn found(&mut self, found: Found<'_>) {
        self.found += 1;
        self.stored += 1;
        let in_string = self
            .source
            .is_json_lines()
            .then(|| {
                string_window(
                    found.before,
                    found.matched,
                    found.after,
                    found.at_line_start,
                )
            })
            .flatten();
        let (text, range) = match in_string {
            Some(w) => preview(&w.before, &w.matched, &w.after, w.whole_start, w.whole_end),
            None => preview(
                found.before,
                found.matched,
                found.after,
                found.at_line_start,
                found.at_line_end,
            ),
        };
        self.pending.push(Hit {
            source: self.source,
            file: self.file,
            line: found.line,
            byte_offset: found.offset,
            preview: text,
            preview_match: range,
        });
    }

    fn chunk_done(&mut self, bytes: u64) -> bool {
        self.publish();
        self.shared.bytes_scanned.fetch_add(bytes, Ordering::AcqRel);
        !self.shared.cancelled.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publishes_each_chunk_and_stops_when_cancelled() {
        let shared = Shared::default();
        let mut publisher = Publisher {
            source: SearchSource::Diary,
            file: 0,
            shared: &shared,
            stored: 0,
            pending: Vec::new(),
            found: 0,
        };
        publisher.found(Found {
            line: 3,
            offset: 40,
            before: b"a ",
            matched: b"dream",
            after: b"",
            at_line_start: true,
            at_line_end: true,
        });
        assert!(lock(&shared.hits).is_empty());
        assert!(publisher.chunk_done(100));
        assert_eq!(shared.hits_so_far.load(Ordering::Acquire), 1);
        assert_eq!(shared.bytes_scanned.load(Ordering::Acquire), 100);
        assert_eq!(lock(&shared.hits)[0].preview, "a dream");
        shared.cancelled.store(true, Ordering::Release);
        assert!(!publisher.chunk_done(100));
    }
}
