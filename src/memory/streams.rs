//! State folded from the append-only logs: conversation, events, memory.

use std::collections::VecDeque;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use chrono::{DateTime, Utc};

use super::conversation::ConversationEntry;
use super::events::{Event, EventKind};
use super::far_head::FarHead;
use super::fast_json::Content;
use super::json::LineError;
use super::pulse::{KEPT, Pulse, interval_of};
use super::talk::Mailbox;
use super::time::parse_time;
use crate::tail::LineIndex;

/// Conversation entries kept parsed in memory per creature (a garden of 200 keeps 200
/// sets); Recall reads older ones from disk on demand, through the line index.
pub const RECENT_ENTRIES: usize = 64;

/// `conversation.jsonl`: counts, a sparse line index, the recent entries, and the tool
/// calls made after the last dream.
#[derive(Debug, Default)]
pub struct ConversationLog {
    pub(crate) path: PathBuf,
    pub(crate) index: LineIndex,
    pub(crate) entries: u64,
    pub(crate) bad_lines: u64,
    pub(crate) recent: VecDeque<(u64, ConversationEntry)>,
    pub(crate) tool_calls: Vec<(DateTime<Utc>, u32)>,
    /// Tool calls per interval, the recent ones (the sparklines).
    pub(crate) pulse: Pulse,
    pub(crate) last_t: Option<DateTime<Utc>>,
    /// Lines (number, offset, length) not yet parsed for `recent`.
    pending: VecDeque<(u64, u64, usize)>,
    pending_bytes: usize,
    /// A large log's head, being counted on a background thread while its tail is
    /// followed (line numbers are relative to the tail until the count arrives).
    pub(crate) backfill: Option<Backfill>,
    /// A head's count only: the pulse keeps no interval at or before this one (the
    /// tail holds a newer call), so lines that old are not parsed for it.
    pulse_floor: Option<i64>,
}

/// Holds the background counts of large logs back while [`CountGate::hold`]'s guard lives:
/// a seam for tests that must see a log while it is still being counted, whatever the
/// speed of the machine. A count waits at the gate only before it reports.
#[derive(Debug, Clone, Default)]
pub struct CountGate(std::sync::Arc<std::sync::RwLock<()>>);

impl CountGate {
    /// Counts that finish while the guard lives wait for it to go.
    pub fn hold(&self) -> std::sync::RwLockWriteGuard<'_, ()> {
        self.0
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits while the gate is held.
    pub(crate) fn pass(&self) {
        drop(self.0.read());
    }
}

/// The background count of a large conversation's head.
#[derive(Debug)]
pub(crate) struct Backfill {
    rx: mpsc::Receiver<HeadCount>,
    /// Bad tail lines (relative number, reason), numbered once the head is counted.
    pub(crate) tail_problems: Vec<(u64, String)>,
}

#[derive(Debug)]
struct HeadCount {
    log: ConversationLog,
    problems: Vec<(u64, String)>,
    /// Problems past the listed ones: counted only.
    dropped: u64,
    error: Option<String>,
}

/// What counting a large conversation's head found wrong: the first problems (0-based
/// line numbers) and how many more there were.
#[derive(Debug, Default)]
pub(crate) struct HeadProblems {
    pub(crate) listed: Vec<(u64, String)>,
    pub(crate) dropped: u64,
}

/// Conversations larger than this are opened tail first, their head counted in the
/// background, so the first frame never waits on a 1 GiB log.
pub const DEFER_ABOVE: u64 = 8 << 20;
/// How much of a deferred log's end is read at once.
const TAIL_WINDOW: u64 = 256 << 10;

/// Bytes of the recent lines read back after a large read streams by.
const PENDING_BYTES: usize = 16 << 20;

/// Decodes only `t` of a line, checking the rest is valid JSON with a string `role`,
/// without building it. `None` when the line needs the full (tolerant) parser to decide.
fn light_parse(bytes: &[u8]) -> Option<(Option<DateTime<Utc>>, Content<'_>)> {
    let fields = super::fast_json::conversation_fields(bytes)?;
    let t = fields
        .t
        .and_then(|raw| std::str::from_utf8(raw).ok())
        .and_then(parse_time);
    Some((t, fields.content))
}

impl ConversationLog {
    pub(crate) fn new(path: PathBuf) -> Self {
        Self {
            path,
            ..Self::default()
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads its lines from `path`, of which the log read is a part that begins at line
    /// `line`, byte `offset`; its lines before read on from `before`, line starts known
    /// of it (the time cursor's past: a window of the creature's own log).
    pub(crate) fn reach_back(
        &mut self,
        path: PathBuf,
        before: &[(u64, u64)],
        line: u64,
        offset: u64,
    ) {
        self.index = self.index.within(before, line, offset);
        for (n, _) in &mut self.recent {
            *n += line;
        }
        self.path = path;
    }

    /// Lines read so far, good and bad.
    pub fn lines(&self) -> u64 {
        self.index.len()
    }

    pub fn entries(&self) -> u64 {
        self.entries
    }

    pub fn bad_lines(&self) -> u64 {
        self.bad_lines
    }

    /// The last entries, with their 0-based line numbers.
    pub fn recent(&self) -> &VecDeque<(u64, ConversationEntry)> {
        &self.recent
    }

    /// Reads lines `range` (0-based) from disk and parses them.
    pub fn read_lines(
        &self,
        range: Range<u64>,
    ) -> Vec<(u64, Result<ConversationEntry, LineError>)> {
        match self.index.read(&self.path, range) {
            Ok(lines) => lines
                .into_iter()
                .map(|(n, bytes)| (n, ConversationEntry::parse(&bytes)))
                .collect(),
            Err(e) => vec![(
                0,
                Err(LineError::Unreadable {
                    path: self.path.display().to_string(),
                    reason: e.to_string(),
                }),
            )],
        }
    }

    /// Counts one line. Only its time and role are decoded here (a log can be 1 GiB);
    /// the full entry is parsed when it may carry fatigue (after `last_dream`) and, for
    /// the last [`RECENT_ENTRIES`] lines, in [`ConversationLog::settle`].
    pub(crate) fn push(
        &mut self,
        line_no: u64,
        offset: u64,
        bytes: &[u8],
        last_dream: Option<DateTime<Utc>>,
    ) -> Result<(), LineError> {
        self.index.record(line_no, offset);
        let (t, content) = match light_parse(bytes) {
            Some(read) => read,
            None => match ConversationEntry::parse(bytes) {
                Ok(e) => (e.t, Content::Unsettled),
                Err(e) => {
                    self.bad_lines += 1;
                    return Err(e);
                }
            },
        };
        self.entries += 1;
        if let Some(t) = t {
            self.last_t = Some(self.last_t.map_or(t, |l| l.max(t)));
            let fatigue = last_dream.is_none_or(|d| t > d);
            // The sparklines count the recent calls; a line naming no tool has none.
            let pulse = self.pulse_floor.is_none_or(|f| interval_of(t) > f)
                && self.pulse.keeps(t)
                && may_call_tools(bytes);
            if (fatigue || pulse)
                && let Some(calls) = super::tool_calls::count_found(content, bytes)
            {
                let calls = calls as u32;
                if calls > 0 {
                    if fatigue {
                        self.tool_calls.push((t, calls));
                    }
                    self.pulse.record(t, calls);
                }
            }
        }
        self.pending_bytes += bytes.len();
        self.pending.push_back((line_no, offset, bytes.len()));
        self.trim_pending();
        Ok(())
    }

    /// Reads back and parses the lines noted by [`ConversationLog::push`] into the recent
    /// entries (one read of the file's tail, instead of copying every line that streams by).
    pub(crate) fn settle(&mut self) -> std::io::Result<()> {
        use std::io::{Read, Seek, SeekFrom};
        let pending = std::mem::take(&mut self.pending);
        self.pending_bytes = 0;
        let (Some(&(_, start, _)), Some(&(_, last, last_len))) = (pending.front(), pending.back())
        else {
            return Ok(());
        };
        let mut file = crate::tail::open_regular(&self.path)?;
        file.seek(SeekFrom::Start(start))?;
        let mut span = Vec::new();
        file.take(last + last_len as u64 - start)
            .read_to_end(&mut span)?;
        for (line_no, offset, len) in pending {
            let from = (offset - start) as usize;
            let Some(bytes) = span.get(from..from + len) else {
                break;
            };
            if let Ok(entry) = ConversationEntry::parse(bytes) {
                if self.recent.len() == RECENT_ENTRIES {
                    self.recent.pop_front();
                }
                self.recent.push_back((line_no, entry));
            }
        }
        Ok(())
    }

    /// Takes the count of its lines before the file read, made where the whole log is
    /// (a far side's): joined as a background count is, at the next refresh.
    pub(crate) fn take_head(&mut self, head: &FarHead) {
        let mut log = ConversationLog::new(self.path.clone());
        log.index = LineIndex::unread(head.lines);
        log.entries = head.entries;
        log.bad_lines = head.bad;
        log.tool_calls = head.calls.clone();
        log.pulse = Pulse::of(&head.pulse);
        log.last_t = head.last_t;
        let (tx, rx) = mpsc::channel();
        let _ = tx.send(HeadCount {
            log,
            problems: head.problems.clone(),
            dropped: head.dropped,
            error: None,
        });
        self.backfill = Some(Backfill {
            rx,
            tail_problems: Vec::new(),
        });
    }

    /// Whether the head of a large log is still being counted (counts are partial).
    pub fn counting(&self) -> bool {
        self.backfill.is_some()
    }

    /// Where to start following a large log: the first line start in its last
    /// [`TAIL_WINDOW`] bytes. `None` when the log is small or has no such line start.
    pub(crate) fn tail_start(path: &Path) -> Option<u64> {
        crate::tail::tail_start(path, DEFER_ABOVE, TAIL_WINDOW)
    }

    /// Counts lines `[0, end)` on background threads (one per core, each a slice of the
    /// file cut at a line start), calling `ready` when the joined count is there. A count
    /// no one waits for (`deferred`) starts once [`background`](super::background)
    /// reading is let go.
    pub(crate) fn count_head(
        &mut self,
        end: u64,
        last_dream: Option<DateTime<Utc>>,
        gate: CountGate,
        deferred: bool,
        ready: Box<dyn FnOnce() + Send>,
    ) {
        let (tx, rx) = mpsc::channel();
        let path = self.path.clone();
        let spawned = std::thread::Builder::new()
            .name("dreamwatch-count".into())
            .spawn(move || {
                if deferred {
                    super::background::wait();
                }
                let floor = pulse_floor(&path, end);
                let count = count_parallel(&path, end, last_dream, floor);
                gate.pass();
                let _ = tx.send(count);
                ready();
            });
        if spawned.is_ok() {
            self.backfill = Some(Backfill {
                rx,
                tail_problems: Vec::new(),
            });
        }
    }

    /// Waits for the head's count (see [`ConversationLog::join_head`]).
    pub(crate) fn wait_head(&mut self) -> Option<HeadProblems> {
        let head = self.backfill.as_ref()?.rx.recv().ok();
        self.join(head)
    }

    /// Joins the head's count, once it has arrived, with the tail read so far. Returns
    /// the problems found (absolute line numbers, 0-based) or `None` while still counting.
    pub(crate) fn join_head(&mut self) -> Option<HeadProblems> {
        let head = match self.backfill.as_ref()?.rx.try_recv() {
            Ok(head) => Some(head),
            Err(mpsc::TryRecvError::Empty) => return None,
            Err(mpsc::TryRecvError::Disconnected) => None,
        };
        self.join(head)
    }

    fn join(&mut self, head: Option<HeadCount>) -> Option<HeadProblems> {
        let backfill = self.backfill.take()?;
        let Some(head) = head else {
            return Some(HeadProblems {
                listed: vec![(0, "counting the conversation stopped early".into())],
                dropped: 0,
            });
        };
        let mut log = head.log;
        let base = log.index.len();
        // The head's last lines first, then the tail's entries after them.
        if let Err(e) = log.settle() {
            tracing::warn!("cannot read back recent lines: {e}");
        }
        let tail = std::mem::take(self);
        log.absorb(tail);
        *self = log;
        let mut listed = head.problems;
        listed.extend(
            backfill
                .tail_problems
                .into_iter()
                .map(|(n, what)| (n + base, what)),
        );
        if let Some(error) = head.error {
            listed.push((base, format!("{COUNTING_STOPPED}: {error}")));
        }
        Some(HeadProblems {
            listed,
            dropped: head.dropped,
        })
    }

    /// Appends the log of the part of the file that follows this one (its line numbers
    /// start at 0, its offsets are absolute).
    fn absorb(&mut self, mut later: ConversationLog) {
        let base = self.index.len();
        self.index.append(&later.index);
        self.entries += later.entries;
        self.bad_lines += later.bad_lines;
        self.tool_calls.append(&mut later.tool_calls);
        self.pulse.absorb(later.pulse);
        self.last_t = self.last_t.max(later.last_t);
        for (n, entry) in later.recent {
            if self.recent.len() == RECENT_ENTRIES {
                self.recent.pop_front();
            }
            self.recent.push_back((n + base, entry));
        }
        for (n, offset, len) in later.pending {
            self.pending.push_back((n + base, offset, len));
            self.pending_bytes += len;
        }
        self.trim_pending();
    }

    fn trim_pending(&mut self) {
        while self.pending.len() > RECENT_ENTRIES || self.pending_bytes > PENDING_BYTES {
            match self.pending.pop_front() {
                Some((_, _, len)) => self.pending_bytes -= len,
                None => break,
            }
        }
    }

    pub(crate) fn forget_calls_until(&mut self, t: DateTime<Utc>) {
        self.tool_calls.retain(|(ct, _)| *ct > t);
    }

    pub(crate) fn calls_after(&self, t: Option<DateTime<Utc>>) -> u64 {
        self.tool_calls
            .iter()
            .filter(|(ct, _)| t.is_none_or(|t| *ct > t))
            .map(|(_, n)| u64::from(*n))
            .sum()
    }
}

/// Whether a conversation line may hold a tool call: it names one of their block types.
fn may_call_tools(bytes: &[u8]) -> bool {
    [&b"tool_use"[..], b"tool-call", b"tool-result"]
        .iter()
        .any(|needle| memchr::memmem::find(bytes, needle).is_some())
}

/// Counts lines `[0, end)` of a conversation in slices, one thread per core, and joins
/// them in order.
fn count_parallel(
    path: &Path,
    end: u64,
    last_dream: Option<DateTime<Utc>>,
    floor: Option<i64>,
) -> HeadCount {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8);
    let cuts = slice_at_lines(path, end, threads);
    let parts: Vec<HeadCount> = std::thread::scope(|scope| {
        let handles: Vec<_> = cuts
            .windows(2)
            .map(|w| {
                let (start, stop) = (w[0], w[1]);
                scope.spawn(move || count_range(path, start, stop, last_dream, floor))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| HeadCount {
                    log: ConversationLog::new(path.to_path_buf()),
                    problems: Vec::new(),
                    dropped: 0,
                    error: Some("a counting thread failed".into()),
                })
            })
            .collect()
    });
    let mut joined = HeadCount {
        log: ConversationLog::new(path.to_path_buf()),
        problems: Vec::new(),
        dropped: 0,
        error: None,
    };
    for part in parts {
        let base = joined.log.index.len();
        joined
            .problems
            .extend(part.problems.into_iter().map(|(n, what)| (n + base, what)));
        joined.dropped += part.dropped;
        joined.error = joined.error.or(part.error);
        joined.log.absorb(part.log);
    }
    let past = joined
        .problems
        .len()
        .saturating_sub(super::problem::MAX_KEPT);
    joined.problems.truncate(super::problem::MAX_KEPT);
    joined.dropped += past as u64;
    joined
}

/// Counts lines `[0, end)` of the conversation at `path` for a near side that is sent
/// only what follows: the tool calls after `last_dream` (the far side's) only.
pub fn count_far_head(path: &Path, end: u64, last_dream: Option<DateTime<Utc>>) -> FarHead {
    let floor = pulse_floor(path, end);
    let count = count_range(path, 0, end, last_dream, floor);
    let mut problems = count.problems;
    if let Some(error) = count.error {
        problems.push((
            count.log.index.len(),
            format!("{COUNTING_STOPPED}: {error}"),
        ));
    }
    FarHead {
        lines: count.log.index.len(),
        entries: count.log.entries,
        bad: count.log.bad_lines,
        calls: count.log.tool_calls,
        pulse: count.log.pulse.counts(),
        last_t: count.log.last_t,
        problems,
        dropped: count.dropped,
    }
}

/// The count of lines `[0, end)` made from `before`, a count of lines `[0, from)` (of
/// the same file, fatigue after a dream no later than `last_dream`), and lines
/// `[from, end)` counted now: what [`count_far_head`] gives for a log whose times go
/// forward (the pulse keeps what it keeps of the whole; its intervals are the last ones).
pub fn count_far_head_from(
    path: &Path,
    before: &FarHead,
    from: u64,
    end: u64,
    last_dream: Option<DateTime<Utc>>,
) -> FarHead {
    let floor = pulse_floor(path, end);
    let count = count_range(path, from, end, last_dream, floor);
    let base = before.lines;
    let mut problems = before.problems.clone();
    problems.extend(count.problems.into_iter().map(|(n, what)| (n + base, what)));
    let past = problems.len().saturating_sub(super::problem::MAX_KEPT);
    problems.truncate(super::problem::MAX_KEPT);
    let lines = base + count.log.index.len();
    if let Some(error) = count.error {
        problems.push((lines, format!("{COUNTING_STOPPED}: {error}")));
    }
    let mut calls: Vec<(DateTime<Utc>, u32)> = before
        .calls
        .iter()
        .filter(|(t, _)| last_dream.is_none_or(|d| *t > d))
        .copied()
        .collect();
    calls.extend(count.log.tool_calls);
    let mut pulse = super::pulse::Pulse::of(&before.pulse);
    pulse.absorb(count.log.pulse);
    let pulse = pulse
        .counts()
        .into_iter()
        .filter(|(at, _)| floor.is_none_or(|f| *at > f))
        .collect();
    FarHead {
        lines,
        entries: before.entries + count.log.entries,
        bad: before.bad + count.log.bad_lines,
        calls,
        pulse,
        last_t: before.last_t.max(count.log.last_t),
        problems,
        dropped: before.dropped + count.dropped + past as u64,
    }
}

/// How a count cut short by an error says so (a problem of its own).
pub const COUNTING_STOPPED: &str = "counting stopped";

/// Cuts `[0, end)` into about `parts` slices at line starts: the offsets, from 0 to `end`.
fn slice_at_lines(path: &Path, end: u64, parts: usize) -> Vec<u64> {
    use std::io::{Read, Seek, SeekFrom};
    let mut cuts = vec![0];
    if let Ok(mut file) = crate::tail::open_regular(path) {
        let mut window = vec![0u8; 1 << 20];
        for k in 1..parts as u64 {
            let guess = end / parts as u64 * k;
            let at_least = cuts.last().copied().unwrap_or(0);
            if guess <= at_least || file.seek(SeekFrom::Start(guess)).is_err() {
                continue;
            }
            let Ok(n) = file.read(&mut window) else {
                continue;
            };
            if let Some(nl) = memchr::memchr(b'\n', &window[..n]) {
                let cut = guess + nl as u64 + 1;
                if cut < end {
                    cuts.push(cut);
                }
            }
        }
    }
    cuts.push(end);
    cuts
}

/// The interval at or before which the pulse keeps nothing, whatever the head holds: the
/// newest tool call of the tail (bytes `from..`) less the kept intervals. `None` when the
/// tail has no call.
fn pulse_floor(path: &Path, from: u64) -> Option<i64> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = crate::tail::open_regular(path).ok()?;
    file.seek(SeekFrom::Start(from)).ok()?;
    let mut tail = Vec::new();
    file.take(TAIL_WINDOW).read_to_end(&mut tail).ok()?;
    // A line's calls and time read as `push` reads them, without building the entry (a
    // tool's output can be a line of megabytes).
    tail.split(|b| *b == b'\n')
        .filter(|line| may_call_tools(line))
        .filter(|line| super::tool_calls::count(line).is_some_and(|n| n > 0))
        .filter_map(|line| match light_parse(line) {
            Some((t, _)) => t,
            None => ConversationEntry::parse(line).ok().and_then(|e| e.t),
        })
        .map(interval_of)
        .max()
        .map(|newest| newest - KEPT)
}

/// Counts the lines of bytes `start..end` (line numbers from 0 within the slice).
fn count_range(
    path: &Path,
    start: u64,
    end: u64,
    last_dream: Option<DateTime<Utc>>,
    floor: Option<i64>,
) -> HeadCount {
    let mut log = ConversationLog::new(path.to_path_buf());
    log.pulse_floor = floor;
    let mut problems = Vec::new();
    let mut dropped = 0;
    let mut tailer = crate::tail::Tailer::range(path, start, end);
    let result = tailer.poll(&mut |event| {
        if let crate::tail::TailEvent::Line {
            number,
            offset,
            bytes,
        } = event
            && let Err(what) = log.push(number, offset, bytes, last_dream)
        {
            if problems.len() < super::problem::MAX_KEPT {
                problems.push((number, what.to_string()));
            } else {
                dropped += 1;
            }
        }
    });
    HeadCount {
        log,
        problems,
        dropped,
        error: result.err().map(|e| e.to_string()),
    }
}

/// A sleep as the events tell it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SleepMark {
    pub t: DateTime<Utc>,
    pub seconds: f64,
    /// A dream event after this sleep: `Some(deep)`.
    pub dreamed: Option<bool>,
    /// Activity (tool call, thought, wake, boot) after this sleep: it is over.
    pub ended: bool,
}

/// `events.jsonl`: what status and fatigue need. No event is kept: a file of any size costs
/// the counts, a sparse line index (the Events view reads its window back from disk), the
/// last sleep, error and wakes, and the times of the tool calls after the last dream.
#[derive(Debug, Default)]
pub struct EventLog {
    pub(crate) path: PathBuf,
    pub(crate) index: LineIndex,
    pub(crate) lines: u64,
    pub(crate) bad_lines: u64,
    pub(crate) exists: bool,
    pub(crate) tool_calls: Vec<DateTime<Utc>>,
    /// Tool calls per interval, the recent ones (the sparklines).
    pub(crate) pulse: Pulse,
    pub(crate) last_sleep: Option<SleepMark>,
    pub(crate) last_t: Option<DateTime<Utc>>,
    pub(crate) last_error: Option<Event>,
    /// When the creature woke, the last [`RECENT_WAKES`]: where its sleeps really ended.
    pub(crate) wakes: VecDeque<DateTime<Utc>>,
    /// The messages it sent and received, the newest.
    pub(crate) mail: Mailbox,
}

/// Wake times kept: as many as the iterations kept, whose sleeps they end.
const RECENT_WAKES: usize = 1000;

impl EventLog {
    pub(crate) fn new(path: PathBuf) -> Self {
        Self {
            path,
            ..Self::default()
        }
    }

    /// Lines read so far, good and bad.
    pub fn total_lines(&self) -> u64 {
        self.index.len()
    }

    /// Whether the file was there when last read.
    pub fn exists(&self) -> bool {
        self.exists
    }

    /// Reads lines `range` (0-based) from disk and parses them.
    pub fn read_lines(&self, range: Range<u64>) -> Vec<(u64, Result<Event, LineError>)> {
        match self.index.read(&self.path, range) {
            Ok(lines) => lines
                .into_iter()
                .map(|(n, bytes)| (n, Event::parse(&bytes)))
                .collect(),
            Err(e) => vec![(
                0,
                Err(LineError::Unreadable {
                    path: self.path.display().to_string(),
                    reason: e.to_string(),
                }),
            )],
        }
    }

    /// The messages it sent and received, the newest ([`crate::memory::talk`]).
    pub fn mail(&self) -> &Mailbox {
        &self.mail
    }

    pub(crate) fn push(&mut self, event: Event) {
        self.lines += 1;
        self.mail.record(&event);
        if let Some(t) = event.t {
            self.last_t = Some(self.last_t.map_or(t, |l| l.max(t)));
        }
        match event.kind {
            EventKind::ToolCall => {
                if let Some(t) = event.t {
                    self.tool_calls.push(t);
                    self.pulse.record(t, 1);
                }
                self.end_sleep();
            }
            EventKind::Wake => {
                if let Some(t) = event.t {
                    if self.wakes.len() == RECENT_WAKES {
                        self.wakes.pop_front();
                    }
                    self.wakes.push_back(t);
                }
                self.end_sleep();
            }
            EventKind::Thought | EventKind::Boot => self.end_sleep(),
            EventKind::Sleep => {
                if let Some(t) = event.t {
                    self.last_sleep = Some(SleepMark {
                        t,
                        seconds: event.f64("seconds").unwrap_or(0.0),
                        dreamed: None,
                        ended: false,
                    });
                }
            }
            EventKind::Dream => {
                if let Some(s) = self.last_sleep.as_mut().filter(|s| !s.ended) {
                    s.dreamed = Some(event.bool("deep").unwrap_or(false));
                }
            }
            EventKind::Error => self.last_error = Some(event),
            _ => {}
        }
    }

    fn end_sleep(&mut self) {
        if let Some(s) = self.last_sleep.as_mut() {
            s.ended = true;
        }
    }

    pub(crate) fn forget_calls_until(&mut self, t: DateTime<Utc>) {
        self.tool_calls.retain(|ct| *ct > t);
    }

    pub(crate) fn calls_after(&self, t: Option<DateTime<Utc>>) -> u64 {
        self.tool_calls
            .iter()
            .filter(|ct| t.is_none_or(|t| **ct > t))
            .count() as u64
    }

    pub fn last_sleep(&self) -> Option<SleepMark> {
        self.last_sleep
    }

    /// The latest event is an error (a model call or a write that failed, and nothing
    /// since): the creature is failing.
    pub fn failing(&self) -> bool {
        self.last_error
            .as_ref()
            .is_some_and(|e| e.t.is_some() && e.t >= self.last_t)
    }

    /// The error event the creature is failing by ([`EventLog::failing`]).
    pub fn failure(&self) -> Option<&Event> {
        self.last_error.as_ref().filter(|_| self.failing())
    }

    /// When the creature woke (`creature.wake`), oldest first, the most recent kept.
    pub fn wakes(&self) -> &VecDeque<DateTime<Utc>> {
        &self.wakes
    }
}

/// `memory.jsonl`: only counted (its heartbeats are large and noisy).
#[derive(Debug, Default, Clone, Copy)]
pub struct MemoryLog {
    pub lines: u64,
    pub bad_lines: u64,
    pub last_t: Option<DateTime<Utc>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log grown since it was counted: the count of its new lines added to the count
    /// of the old ones is the count of the whole, wherever it was cut, fatigue counted
    /// after the same dream or a later one.
    #[test]
    fn a_count_gone_on_from_is_the_count_of_the_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("conversation.jsonl");
        let start: DateTime<Utc> = "2026-03-01T00:00:00Z".parse().unwrap();
        let mut text = String::new();
        for i in 0..900u32 {
            // Seven hours of calls (more intervals than the pulse keeps), bad lines
            // past the problems listed.
            let t = (start + chrono::Duration::seconds(i64::from(i) * 28)).to_rfc3339();
            text += &match i % 3 {
                0 => format!("not json {i}\n"),
                1 => format!(
                    "{{\"t\":\"{t}\",\"role\":\"assistant\",\"content\":[{{\"type\":\"tool_use\",\"id\":\"c{i}\",\"name\":\"bash\",\"input\":{{}}}}]}}\n"
                ),
                _ => format!("{{\"t\":\"{t}\",\"role\":\"user\",\"content\":\"ok {i}\"}}\n"),
            };
        }
        std::fs::write(&path, &text).unwrap();
        let end = text.len() as u64;
        let dream = Some(start + chrono::Duration::hours(3));
        let cuts = text.match_indices('\n').map(|(i, _)| i as u64 + 1);
        for from in cuts.step_by(97).chain([0, end]) {
            for (before_dream, now_dream) in [(None, None), (None, dream), (dream, dream)] {
                let before = count_far_head(&path, from, before_dream);
                let whole = count_far_head(&path, end, now_dream);
                let gone_on = count_far_head_from(&path, &before, from, end, now_dream);
                assert_eq!(
                    gone_on, whole,
                    "from {from}, dreams {before_dream:?} {now_dream:?}"
                );
            }
        }
        let whole = count_far_head(&path, end, None);
        assert_eq!(
            (whole.lines, whole.bad, whole.problems.len()),
            (900, 300, 200)
        );
        assert!(whole.dropped > 0 && whole.pulse.len() > 40, "{whole:?}");
    }

    /// A held gate keeps a finished count from reporting; released, it reports and joins.
    #[test]
    fn a_held_count_gate_keeps_the_count_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("conversation.jsonl");
        let line = "{\"t\":\"2026-11-22T17:00:00.000Z\",\"role\":\"user\",\"content\":\"a\"}\n";
        std::fs::write(&path, line.repeat(3)).unwrap();
        let mut log = ConversationLog::new(path);
        let gate = CountGate::default();
        let held = gate.hold();
        let (tx, rx) = mpsc::channel();
        let ready = Box::new(move || {
            let _ = tx.send(());
        });
        log.count_head(line.len() as u64 * 3, None, gate.clone(), false, ready);
        assert!(log.counting());
        // However long it is held, the count does not report (a slow machine proves less).
        assert!(
            rx.recv_timeout(std::time::Duration::from_millis(200))
                .is_err()
        );
        assert!(log.join_head().is_none());
        assert!(log.counting());
        drop(held);
        rx.recv_timeout(std::time::Duration::from_secs(60)).unwrap();
        assert!(log.join_head().is_some());
        assert!(!log.counting());
    }

    /// A count no one waits for starts only once background reading is let go (after
    /// the observatory's first frame); one that is waited for never waits for that.
    #[test]
    fn a_deferred_count_waits_for_background_reading() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("conversation.jsonl");
        let line = "{\"t\":\"2026-11-22T17:00:00.000Z\",\"role\":\"user\",\"content\":\"a\"}\n";
        std::fs::write(&path, line.repeat(3)).unwrap();
        let end = line.len() as u64 * 3;
        let held = crate::memory::background::hold();
        let mut waited = ConversationLog::new(path.clone());
        waited.count_head(end, None, CountGate::default(), false, Box::new(|| {}));
        assert!(waited.wait_head().is_some(), "counted while held");
        let mut log = ConversationLog::new(path);
        let (tx, rx) = mpsc::channel();
        let ready = Box::new(move || {
            let _ = tx.send(());
        });
        log.count_head(end, None, CountGate::default(), true, ready);
        assert!(
            rx.recv_timeout(std::time::Duration::from_millis(200))
                .is_err()
        );
        assert!(log.join_head().is_none());
        drop(held);
        rx.recv_timeout(std::time::Duration::from_secs(60)).unwrap();
        assert!(log.join_head().is_some());
    }
}
