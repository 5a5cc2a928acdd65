//! `dreams.jsonl` as the views need it: every dream counted; the recent ones kept as rows
//! (what the list and the strip show, with where each line is in the file), their
//! reflections left on disk and read back for the one dream shown in full. A file of
//! millions of lines (valid or not), or of long reflections, costs memory for
//! [`RECENT_DREAMS`] small rows. A line's reflection is not even decoded
//! ([`dream_fields`]) but for the last dreams of a read, handed out whole. The observatory
//! opens a log of years of dreams tail first ([`DEFER_DREAMS_ABOVE`]): its last dreams
//! at once, the rest counted on a background thread and joined when done.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::mpsc;

use chrono::{DateTime, Utc};

use super::dream_fields::dream_fields;
use super::dreams::Dream;
use super::json::LineError;
use super::recent::Recent;
use super::streams::{COUNTING_STOPPED, CountGate, HeadProblems};
use crate::tail::{TailEvent, Tailer};

/// Dreams kept as rows for the views (about a year of a creature dreaming every ten
/// minutes); the counts cover every dream.
pub const RECENT_DREAMS: usize = 10_000;
/// Full dreams of one read handed out as changes: a large read reports its last ones.
pub const FRESH_DREAMS: usize = 64;
/// Dream logs larger than this are opened tail first by the observatory, their head
/// counted on a background thread (about a thousand dreams of OpenSeed's size).
pub const DEFER_DREAMS_ABOVE: u64 = 256 << 10;
/// How much of a deferred dream log's end is read at once.
const DREAMS_TAIL: u64 = 64 << 10;
/// Characters of a priority kept in a row (newer OpenSeed cuts priorities at 200).
const ROW_PRIORITY: usize = 200;

/// Its first [`ROW_PRIORITY`] characters.
fn row_priority(mut priority: String) -> String {
    if priority.len() > ROW_PRIORITY
        && let Some((end, _)) = priority.char_indices().nth(ROW_PRIORITY)
    {
        priority.truncate(end);
    }
    priority
}

/// The row of the dream on `line`, which starts at `offset`.
fn row_of(line: &[u8], offset: u64) -> Result<DreamRow, LineError> {
    Ok(match dream_fields(line) {
        Some(f) => DreamRow {
            t: f.t,
            deep: f.deep,
            actions: f.actions,
            observations: f.observations,
            priority: row_priority(f.priority),
            offset,
        },
        None => {
            let d = Dream::parse(line)?;
            DreamRow {
                t: d.t,
                deep: d.deep,
                actions: d.actions,
                observations: d.observations,
                priority: row_priority(d.priority),
                offset,
            }
        }
    })
}

/// One dream without its reflection: what the dreams list and the strip show.
#[derive(Debug, Clone, PartialEq)]
pub struct DreamRow {
    pub t: Option<DateTime<Utc>>,
    pub deep: bool,
    pub actions: u64,
    pub observations: u64,
    /// At most [`ROW_PRIORITY`] characters of it.
    pub priority: String,
    /// Where its line starts in the file.
    offset: u64,
}

/// Dreams read so far: counts over all of them, the last [`RECENT_DREAMS`] as rows.
#[derive(Debug)]
pub struct DreamLog {
    rows: Recent<DreamRow>,
    /// The last dream, whole (the summary's "last dream"), as of [`DreamLog::take_fresh`].
    last: Option<Dream>,
    /// The lines of the dreams read since [`DreamLog::take_fresh`], the last
    /// [`FRESH_DREAMS`] of them (parsed whole when taken).
    fresh: VecDeque<Vec<u8>>,
    count: u64,
    deep: u64,
    /// 1-based numbers of the two last deep dreams (the earlier one first).
    last_deep: (Option<u64>, Option<u64>),
    /// The time of the last dream that has one.
    last_t: Option<DateTime<Utc>>,
    /// While the head of a log opened tail first is being counted.
    backfill: Option<Backfill>,
}

/// The background count of a large dream log's head.
#[derive(Debug)]
struct Backfill {
    rx: mpsc::Receiver<Head>,
    /// Tail lines that are not dreams (number from the tail's start, why), numbered
    /// once the head is counted.
    tail_problems: Vec<(u64, String)>,
}

/// A dream log's head, counted.
#[derive(Debug)]
struct Head {
    log: DreamLog,
    /// Its lines, dreams or not.
    lines: u64,
    /// Lines that are not dreams (0-based, why): the first ones, and how many more.
    problems: Vec<(u64, String)>,
    dropped: u64,
    /// Lines too long to read, passed over.
    oversized: u64,
    error: Option<String>,
}

/// What joining a head's count found: the lines that are not dreams (numbers from the
/// file's start) and the lines too long to read.
#[derive(Debug)]
pub(crate) struct JoinedHead {
    pub(crate) problems: HeadProblems,
    pub(crate) oversized: u64,
}

impl Default for DreamLog {
    fn default() -> Self {
        Self {
            rows: Recent::new(RECENT_DREAMS),
            last: None,
            fresh: VecDeque::new(),
            count: 0,
            deep: 0,
            last_deep: (None, None),
            last_t: None,
            backfill: None,
        }
    }
}

impl DreamLog {
    /// Counts the dream on `line`, which starts at `offset`; returns its time, or why the
    /// line is not a dream.
    pub fn push_line(
        &mut self,
        line: &[u8],
        offset: u64,
    ) -> Result<Option<DateTime<Utc>>, LineError> {
        let row = row_of(line, offset)?;
        let t = row.t;
        self.tally(row);
        // A buffer of the oldest line kept is used again.
        let mut kept = match self.fresh.len() {
            FRESH_DREAMS => self.fresh.pop_front().unwrap_or_default(),
            _ => Vec::new(),
        };
        kept.clear();
        kept.extend_from_slice(line);
        self.fresh.push_back(kept);
        Ok(t)
    }

    fn tally(&mut self, row: DreamRow) {
        self.count += 1;
        if row.deep {
            self.deep += 1;
            self.last_deep = (self.last_deep.1, Some(self.count));
        }
        if row.t.is_some() {
            self.last_t = row.t;
        }
        self.rows.push(row);
    }

    /// The dreams read since the last call (the last [`FRESH_DREAMS`] of them), whole;
    /// the last of them is [`DreamLog::last`] from now on.
    pub fn take_fresh(&mut self) -> Vec<Dream> {
        let fresh: Vec<Dream> = std::mem::take(&mut self.fresh)
            .iter()
            .filter_map(|line| Dream::parse(line).ok())
            .collect();
        if let Some(last) = fresh.last() {
            self.last = Some(last.clone());
        }
        fresh
    }

    /// The last dreams, at most [`RECENT_DREAMS`], oldest first.
    pub fn rows(&self) -> &[DreamRow] {
        self.rows.as_slice()
    }

    /// Row `i` of [`DreamLog::rows`] whole, read back from `path` (the file it was read
    /// from). A line that is no longer the dream of the row (the file was rewritten
    /// meanwhile) is an error, never another dream.
    pub fn read(&self, path: &Path, i: usize) -> Result<Dream, LineError> {
        let unreadable = |reason: String| LineError::Unreadable {
            path: path.display().to_string(),
            reason,
        };
        let row = self
            .rows()
            .get(i)
            .ok_or_else(|| unreadable(format!("no dream {}", i + 1)))?;
        let mut file = crate::tail::open_regular(path).map_err(|e| unreadable(e.to_string()))?;
        file.seek(SeekFrom::Start(row.offset))
            .map_err(|e| unreadable(e.to_string()))?;
        let mut line = Vec::new();
        BufReader::new(file)
            .take(crate::tail::MAX_LINE as u64)
            .read_until(b'\n', &mut line)
            .map_err(|e| unreadable(e.to_string()))?;
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        let dream = Dream::parse(&line)?;
        if (dream.t, dream.deep, dream.actions) != (row.t, row.deep, row.actions) {
            return Err(unreadable("the file changed since it was read".into()));
        }
        Ok(dream)
    }

    /// Where the observatory starts reading a large dream log ([`DEFER_DREAMS_ABOVE`]):
    /// the first line start in its last 64 KiB.
    pub(crate) fn tail_start(path: &Path) -> Option<u64> {
        crate::tail::tail_start(path, DEFER_DREAMS_ABOVE, DREAMS_TAIL)
    }

    /// Counts the dreams of lines `[0, end)` of the log at `path` on a background thread,
    /// once background reading is let go ([`super::background`]), calling `ready` when
    /// the count is there; [`DreamLog::join_head`] joins it. Until then the counts are
    /// the tail's ([`DreamLog::counting`]).
    pub(crate) fn count_head(
        &mut self,
        path: &Path,
        end: u64,
        gate: CountGate,
        ready: Box<dyn FnOnce() + Send>,
    ) {
        let (tx, rx) = mpsc::channel();
        let path = path.to_path_buf();
        let spawned = std::thread::Builder::new()
            .name("dreamwatch-dreams".into())
            .spawn(move || {
                super::background::wait();
                let head = count_lines(&path, end);
                gate.pass();
                let _ = tx.send(head);
                ready();
            });
        if spawned.is_ok() {
            self.backfill = Some(Backfill {
                rx,
                tail_problems: Vec::new(),
            });
        }
    }

    /// Whether the head of a log opened tail first is still being counted (the counts
    /// and rows are its tail's).
    pub fn counting(&self) -> bool {
        self.backfill.is_some()
    }

    /// Holds the problem of tail line `number` (from the tail's start) until the head is
    /// counted; `false` when no head is being counted (the number is the file's).
    pub(crate) fn hold_tail_problem(&mut self, number: u64, what: &str) -> bool {
        match self.backfill.as_mut() {
            Some(backfill) => {
                if backfill.tail_problems.len() < super::problem::MAX_KEPT {
                    backfill.tail_problems.push((number, what.to_string()));
                }
                true
            }
            None => false,
        }
    }

    /// Joins the head's count, once it has arrived, with the tail read so far: the head's
    /// dreams first. `None` while still counting (or when nothing is counted).
    pub(crate) fn join_head(&mut self) -> Option<JoinedHead> {
        let head = match self.backfill.as_ref()?.rx.try_recv() {
            Ok(head) => Some(head),
            Err(mpsc::TryRecvError::Empty) => return None,
            Err(mpsc::TryRecvError::Disconnected) => None,
        };
        let backfill = self.backfill.take()?;
        let Some(head) = head else {
            let listed = vec![(0, "counting the dreams stopped early".to_string())];
            return Some(JoinedHead {
                problems: HeadProblems { listed, dropped: 0 },
                oversized: 0,
            });
        };
        let tail = std::mem::take(self);
        let mut log = head.log;
        let before = log.count;
        let shift = |n: Option<u64>| n.map(|n| n + before);
        log.last_deep = match tail.last_deep {
            (_, None) => log.last_deep,
            (None, last) => (log.last_deep.1, shift(last)),
            (earlier, last) => (shift(earlier), shift(last)),
        };
        for row in tail.rows.as_slice() {
            log.rows.push(row.clone());
        }
        log.count += tail.count;
        log.deep += tail.deep;
        log.last_t = tail.last_t.or(log.last_t);
        log.last = tail.last;
        log.fresh = tail.fresh;
        *self = log;
        let mut listed = head.problems;
        let mut dropped = head.dropped;
        for (n, what) in backfill.tail_problems {
            if listed.len() < super::problem::MAX_KEPT {
                listed.push((n + head.lines, what));
            } else {
                dropped += 1;
            }
        }
        if let Some(error) = head.error {
            listed.push((head.lines, format!("{COUNTING_STOPPED}: {error}")));
        }
        Some(JoinedHead {
            problems: HeadProblems { listed, dropped },
            oversized: head.oversized,
        })
    }

    /// Every dream read.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Deep sleeps among them.
    pub fn deep_count(&self) -> u64 {
        self.deep
    }

    /// 1-based numbers of the two last deep dreams, the earlier first.
    pub fn last_deep(&self) -> (Option<u64>, Option<u64>) {
        self.last_deep
    }

    /// The last dream, whole.
    pub fn last(&self) -> Option<&Dream> {
        self.last.as_ref()
    }

    /// The time of the last dream that has one.
    pub fn last_time(&self) -> Option<DateTime<Utc>> {
        self.last_t
    }
}

/// Counts the dreams of lines `[0, end)` of the log at `path` (a background count).
fn count_lines(path: &Path, end: u64) -> Head {
    let mut log = DreamLog::default();
    let mut problems = Vec::new();
    let mut dropped = 0;
    let mut tailer = Tailer::range(path, 0, end);
    let poll = tailer.poll(&mut |event| {
        if let TailEvent::Line {
            number,
            offset,
            bytes,
        } = event
        {
            match row_of(bytes, offset) {
                Ok(row) => log.tally(row),
                Err(what) if problems.len() < super::problem::MAX_KEPT => {
                    problems.push((number, what.to_string()));
                }
                Err(_) => dropped += 1,
            }
        }
    });
    let (lines, oversized, error) = match poll {
        Ok(p) => (p.lines + p.oversized, p.oversized, None),
        Err(e) => (
            log.count + problems.len() as u64 + dropped,
            0,
            Some(e.to_string()),
        ),
    };
    Head {
        log,
        lines,
        problems,
        dropped,
        oversized,
        error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dream(deep: bool) -> String {
        format!(r#"{{"actions":1,"reflection":"r","priority":"p","deep":{deep}}}"#)
    }

    #[test]
    fn counts_cover_everything_and_memory_only_the_recent() {
        let mut log = DreamLog::default();
        for i in 0..(5 * RECENT_DREAMS as u64 + 3) {
            log.push_line(dream(i % 5 == 4).as_bytes(), i).unwrap();
        }
        assert_eq!(log.count(), 5 * RECENT_DREAMS as u64 + 3);
        assert_eq!(log.deep_count(), RECENT_DREAMS as u64);
        assert_eq!(
            log.last_deep(),
            (
                Some(5 * RECENT_DREAMS as u64 - 5),
                Some(5 * RECENT_DREAMS as u64)
            )
        );
        assert_eq!(log.rows().len(), RECENT_DREAMS);
        assert!(log.last().is_none(), "whole once taken");
        let fresh = log.take_fresh();
        assert_eq!(fresh.len(), FRESH_DREAMS);
        assert_eq!(log.last(), fresh.last());
        assert!(log.last().is_some_and(|d| !d.deep && d.reflection == "r"));
        assert!(log.take_fresh().is_empty());
        assert!(log.last().is_some(), "kept");
    }

    #[test]
    fn a_line_the_fast_reader_leaves_is_read_whole() {
        let mut log = DreamLog::default();
        // A lone surrogate in the priority: repaired by the full parser.
        let line = r#"{"t":"2026-03-01T10:00:00Z","actions":2,"priority":"a\ud800","deep":true}"#;
        assert_eq!(
            log.push_line(line.as_bytes(), 0).unwrap(),
            crate::memory::time::parse_time("2026-03-01T10:00:00Z")
        );
        assert_eq!(log.rows()[0].priority, "a\u{fffd}");
        assert!(log.push_line(b"not json", 10).is_err());
        assert_eq!((log.count(), log.deep_count()), (1, 1));
        assert_eq!(log.take_fresh().len(), 1);
    }

    #[test]
    fn a_row_is_read_back_whole_from_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dreams.jsonl");
        let lines = [
            r#"{"t":"2026-03-01T10:00:00Z","actions":5,"reflection":"first\nsecond","priority":"p","deep":false}"#,
            "not json",
            r#"{"t":"2026-03-01T10:10:00Z","actions":7,"reflection":"later","priority":"q","deep":true}"#,
        ];
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let mut log = DreamLog::default();
        let mut offset = 0;
        for l in lines {
            let _ = log.push_line(l.as_bytes(), offset);
            offset += l.len() as u64 + 1;
        }
        assert_eq!(log.rows().len(), 2);
        assert_eq!(log.read(&path, 0).unwrap().reflection, "first\nsecond");
        assert_eq!(log.read(&path, 1).unwrap().reflection, "later");
        assert!(log.read(&path, 2).is_err());
        // Rewritten meanwhile: an error, not another dream.
        std::fs::write(&path, lines[2]).unwrap();
        assert!(log.read(&path, 0).is_err());
    }
}
