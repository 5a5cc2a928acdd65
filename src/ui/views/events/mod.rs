//! The Events view's state: a page of `events.jsonl` read back from disk around the
//! reader's position (only the rows on screen are kept, whatever the file's size), the
//! kind filter, and the order.

pub mod detail;
mod draw;
mod keys;
mod layout;
mod prepare;

use ratatui::text::Line;

use crate::memory::events::EventKind;
use crate::memory::json::LineError;
use crate::memory::streams::EventLog;
use crate::ui::doc::scroll::{Step, Viewport};
use crate::ui::theme::Theme;

/// Lines read from disk at once while looking for the rows of a page.
const READ_BATCH: u64 = 256;

/// Which kinds the view lists; a key cycles through them in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KindFilter {
    #[default]
    All,
    Errors,
    WakesSleeps,
    Messages,
    Tools,
    Dreams,
}

impl KindFilter {
    pub fn next(self) -> Self {
        match self {
            KindFilter::All => KindFilter::Errors,
            KindFilter::Errors => KindFilter::WakesSleeps,
            KindFilter::WakesSleeps => KindFilter::Messages,
            KindFilter::Messages => KindFilter::Tools,
            KindFilter::Tools => KindFilter::Dreams,
            KindFilter::Dreams => KindFilter::All,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            KindFilter::All => "all",
            KindFilter::Errors => "errors",
            KindFilter::WakesSleeps => "wakes/sleeps",
            KindFilter::Messages => "messages",
            KindFilter::Tools => "tools",
            KindFilter::Dreams => "dreams",
        }
    }

    /// Whether an event of `kind` is listed (`None`: a line that did not parse, listed
    /// with everything and with the errors).
    pub fn matches(self, kind: Option<&EventKind>) -> bool {
        let Some(kind) = kind else {
            return matches!(self, KindFilter::All | KindFilter::Errors);
        };
        match self {
            KindFilter::All => true,
            KindFilter::Errors => *kind == EventKind::Error,
            KindFilter::WakesSleeps => matches!(
                kind,
                EventKind::Wake
                    | EventKind::Sleep
                    | EventKind::Pause
                    | EventKind::Resume
                    | EventKind::Boot
            ),
            KindFilter::Messages => *kind == EventKind::Message,
            KindFilter::Tools => *kind == EventKind::ToolCall,
            KindFilter::Dreams => *kind == EventKind::Dream,
        }
    }
}

/// What the prepared page was read for: any change reads it again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key {
    total: u64,
    vp: Viewport,
    top: Option<u64>,
    filter: KindFilter,
    newest_first: bool,
}

#[derive(Debug)]
pub struct EventsView {
    pub filter: KindFilter,
    pub newest_first: bool,
    /// The line of the top row; `None` pins the view: newest first, the newest is on top;
    /// oldest first, the end is followed.
    pub top: Option<u64>,
    rows: Vec<(u64, Line<'static>)>,
    /// The rows wrapped to the pane, as drawn.
    screen: Vec<Line<'static>>,
    prepared: Option<Key>,
}

impl Default for EventsView {
    fn default() -> Self {
        Self {
            filter: KindFilter::All,
            newest_first: true,
            top: None,
            rows: Vec::new(),
            screen: Vec::new(),
            prepared: None,
        }
    }
}

impl EventsView {
    /// The events on screen (the last may be cut), top first, with their line numbers.
    pub fn rows(&self) -> &[(u64, Line<'static>)] {
        &self.rows
    }

    /// The screen's lines: each event's row wrapped to the pane.
    pub fn screen(&self) -> &[Line<'static>] {
        &self.screen
    }

    /// Forgets the page (the file was replaced or truncated) and pins the view.
    pub fn clear(&mut self) {
        self.rows.clear();
        self.screen.clear();
        self.prepared = None;
        self.top = None;
    }

    pub fn cycle_filter(&mut self) {
        self.filter = self.filter.next();
        self.top = None;
    }

    pub fn toggle_order(&mut self) {
        self.newest_first = !self.newest_first;
        self.top = None;
    }

    /// Reads the page the viewport shows, unless it is the one already read. While
    /// pinned, lines appended since are the only ones read. Each event is one row, wrapped
    /// to the pane: as many rows are kept as show.
    pub fn prepare(&mut self, log: &EventLog, theme: &Theme, vp: Viewport) {
        let total = log.total_lines();
        let height = usize::from(vp.height);
        let key = Key {
            total,
            vp,
            top: self.top,
            filter: self.filter,
            newest_first: self.newest_first,
        };
        if self.prepared == Some(key) {
            return;
        }
        let grown = self
            .prepared
            .filter(|p| Key { total, ..*p } == key && p.total <= total)
            .map(|p| p.total);
        self.prepared = Some(key);
        let Some(last) = total.checked_sub(1) else {
            self.rows.clear();
            self.screen.clear();
            return;
        };
        let scan =
            |from, forward, want, floor| scan(log, theme, self.filter, from, forward, want, floor);
        self.rows = match (self.newest_first, self.top, grown) {
            (true, None, Some(old)) => {
                let mut rows = scan(last, false, height, old);
                rows.append(&mut self.rows);
                rows.truncate(height);
                rows
            }
            (false, None, Some(old)) => {
                let mut rows = std::mem::take(&mut self.rows);
                let mut new = scan(last, false, height, old);
                new.reverse();
                rows.append(&mut new);
                let cut = rows.len().saturating_sub(height);
                rows.split_off(cut)
            }
            (true, None, None) => scan(last, false, height, 0),
            (true, Some(top), _) => scan(top.min(last), false, height, 0),
            (false, Some(top), _) => scan(top, true, height, 0),
            (false, None, _) => {
                let mut rows = scan(last, false, height, 0);
                rows.reverse();
                rows
            }
        };
        let end = !self.newest_first && self.top.is_none();
        self.screen = layout::fit(&mut self.rows, vp, end);
    }

    /// Moves by `step` in the order shown: down is older newest first, newer oldest first.
    pub fn scroll(&mut self, log: &EventLog, theme: &Theme, vp: Viewport, step: Step) {
        self.prepare(log, theme, vp);
        let Some(&(current, _)) = self.rows.first() else {
            return;
        };
        let height = usize::from(vp.height).max(1);
        // A page is the events on screen less one: the last (maybe cut) comes on top.
        let page = self.rows.len().saturating_sub(1).max(1);
        let total = log.total_lines();
        let filter = self.filter;
        let scan = |from, forward, want| scan(log, theme, filter, from, forward, want, 0);
        // Newest first, the rows below are older: down the screen is back in the file.
        let down = !self.newest_first;
        // The top of the last page in the order shown (`None`: the end is followed).
        let bottom = || -> Option<u64> {
            if !self.newest_first {
                return None;
            }
            // Newest first, the last page's top is the newest of the oldest page's events
            // that show whole.
            let oldest = scan(0, true, height);
            let whole = layout::whole(&oldest, vp);
            oldest.get(whole.checked_sub(1)?).map(|r| r.0)
        };
        let later = |n: usize| -> Option<u64> {
            let found = scan(current, down, n + height);
            // Past the last page: the screen would not be full.
            let rest = found.get(n..).unwrap_or_default();
            if found.len() < n + height && layout::whole(rest, vp) == rest.len() {
                return bottom();
            }
            found.get(n).map(|r| r.0)
        };
        let start = if self.newest_first { None } else { Some(0) };
        let earlier = |n: usize| -> Option<u64> {
            let from = if down {
                current.checked_sub(1)
            } else {
                Some(current + 1).filter(|f| *f < total)
            };
            let found = from.map(|f| scan(f, !down, n)).unwrap_or_default();
            if found.len() < n {
                return start;
            }
            found.last().map(|r| r.0)
        };
        self.top = match step {
            Step::Down(n) => later(n),
            Step::PageDown => later(page),
            Step::Up(n) => earlier(n),
            Step::PageUp => earlier(page),
            Step::Top => start,
            Step::Bottom => bottom(),
        };
        self.prepare(log, theme, vp);
    }
}

/// Up to `want` rows of events that pass `filter`, from line `from` (included) forward or
/// back, never below line `floor`.
fn scan(
    log: &EventLog,
    theme: &Theme,
    filter: KindFilter,
    from: u64,
    forward: bool,
    want: usize,
    floor: u64,
) -> Vec<(u64, Line<'static>)> {
    let total = log.total_lines();
    let mut rows = Vec::new();
    let mut at = from;
    while rows.len() < want && at < total && at >= floor {
        let range = if forward {
            at..(at + READ_BATCH).min(total)
        } else {
            at.saturating_sub(READ_BATCH - 1).max(floor)..at + 1
        };
        let mut batch = log.read_lines(range.clone());
        if !forward {
            batch.reverse();
        }
        for (n, event) in batch {
            if let Err(why @ LineError::Unreadable { .. }) = &event {
                // The file could not be read: say so once rather than loop on it.
                rows.push((at, prepare::row(at, Err(&why.to_string()), theme)));
                return rows;
            }
            if rows.len() == want || !range.contains(&n) {
                continue;
            }
            let kind = event.as_ref().ok().map(|e| &e.kind);
            if filter.matches(kind) {
                let why = event.as_ref().err().map(ToString::to_string);
                let row = match (&event, &why) {
                    (Ok(e), _) => prepare::row(n, Ok(e), theme),
                    (Err(_), reason) => {
                        prepare::row(n, Err(reason.as_deref().unwrap_or("")), theme)
                    }
                };
                rows.push((n, row));
            }
        }
        if forward {
            at = range.end;
        } else if range.start == 0 || range.start <= floor {
            break;
        } else {
            at = range.start - 1;
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log of `n` events on disk, every tenth an error, indexed as the tailer would.
    fn log(dir: &std::path::Path, n: u64) -> EventLog {
        let path = dir.join("events.jsonl");
        let mut text = String::new();
        let mut log = EventLog::new(path.clone());
        for i in 0..n {
            log.index.record(i, text.len() as u64);
            let kind = if i % 10 == 0 { "error" } else { "tool_call" };
            text.push_str(&format!(
                "{{\"t\":\"2026-11-22T17:00:00Z\",\"type\":\"creature.{kind}\",\"error\":\"e{i}\",\"tool\":\"t{i}\"}}\n"
            ));
        }
        std::fs::write(&path, text).unwrap();
        log
    }

    fn lines(s: &EventsView) -> Vec<u64> {
        s.rows().iter().map(|r| r.0).collect()
    }

    #[test]
    fn pages_are_read_from_disk_in_either_order_and_filtered() {
        let dir = tempfile::tempdir().unwrap();
        let log = log(dir.path(), 5000);
        let theme = Theme::default();
        let vp = Viewport {
            width: 80,
            height: 4,
        };
        let mut s = EventsView::default();
        s.prepare(&log, &theme, vp);
        assert_eq!(lines(&s), [4999, 4998, 4997, 4996]);
        s.scroll(&log, &theme, vp, Step::PageDown);
        assert_eq!(lines(&s), [4996, 4995, 4994, 4993]);
        s.scroll(&log, &theme, vp, Step::Bottom);
        assert_eq!(lines(&s), [3, 2, 1, 0]);
        s.scroll(&log, &theme, vp, Step::Top);
        assert_eq!(lines(&s), [4999, 4998, 4997, 4996]);

        s.cycle_filter();
        s.prepare(&log, &theme, vp);
        assert_eq!(lines(&s), [4990, 4980, 4970, 4960]);
        s.scroll(&log, &theme, vp, Step::Down(2));
        assert_eq!(lines(&s), [4970, 4960, 4950, 4940]);
        s.scroll(&log, &theme, vp, Step::Up(1));
        assert_eq!(lines(&s), [4980, 4970, 4960, 4950]);

        s.toggle_order();
        s.prepare(&log, &theme, vp);
        assert_eq!(lines(&s), [4960, 4970, 4980, 4990]);
        s.scroll(&log, &theme, vp, Step::Top);
        assert_eq!(lines(&s), [0, 10, 20, 30]);
        s.scroll(&log, &theme, vp, Step::Down(1));
        assert_eq!(lines(&s), [10, 20, 30, 40]);
        s.scroll(&log, &theme, vp, Step::Up(5));
        assert_eq!(lines(&s), [0, 10, 20, 30]);
        // Down past the end follows it again.
        s.scroll(&log, &theme, vp, Step::Bottom);
        assert_eq!(s.top, None);
    }
}
