//! The recall view's state: a position in a conversation log that may be far larger than
//! memory, the entries around it prepared once, and `less +F`-style following.

mod draw;
mod prepare;

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use ratatui::text::Line;

use crate::memory::streams::ConversationLog;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{Step, Viewport};
use crate::ui::theme::Theme;

/// Entries kept prepared; beyond this, those far from the view are dropped.
const CACHE_MAX: usize = 3000;
/// Lines read from disk at once when the view needs entries that are not cached.
const READ_BATCH: u64 = 64;

/// A position: line of the log (0-based) and line within its prepared entry.
pub type Pos = (u64, usize);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Follow {
    /// Stay at the end: new entries scroll into view.
    #[default]
    On,
    /// Stay where the reader scrolled to.
    At(Pos),
}

#[derive(Debug, Default)]
pub struct RecallView {
    pub follow: Follow,
    /// The top row, resolved for the current viewport by [`RecallView::prepare`].
    pub top: Pos,
    /// Where the top is when the end is on the last row.
    pub end_top: Pos,
    /// Lines in the log when last prepared.
    pub total: u64,
    /// A search hit to mark.
    pub mark: Option<u64>,
    cache: BTreeMap<u64, Vec<DocLine>>,
    /// The day (UTC) of each prepared entry, for the separators between days.
    days: BTreeMap<u64, Option<NaiveDate>>,
}

impl RecallView {
    /// Forgets every prepared entry (the log was replaced or truncated).
    pub fn clear(&mut self) {
        self.cache.clear();
        self.days.clear();
        self.follow = Follow::On;
        self.mark = None;
    }

    /// The prepared lines of entry `line`, if prepared.
    pub fn entry(&self, line: u64) -> Option<&[DocLine]> {
        self.cache.get(&line).map(Vec::as_slice)
    }

    /// Prepares what the viewport shows and resolves the top row.
    pub fn prepare(&mut self, log: &ConversationLog, theme: &Theme, vp: Viewport) {
        self.total = log.lines();
        if self.total == 0 {
            self.top = (0, 0);
            self.end_top = (0, 0);
            return;
        }
        self.end_top = self.find_end_top(log, theme, vp);
        self.top = match self.follow {
            Follow::On => self.end_top,
            Follow::At(pos) => pos.min(self.end_top),
        };
        let mut rows = 0;
        let mut line = self.top.0;
        while rows < usize::from(vp.height) && line < self.total {
            self.ensure(log, theme, line);
            rows += self
                .entry(line)
                .map_or(1, |e| e.iter().map(|l| l.height(vp.width)).sum());
            line += 1;
        }
        self.evict();
    }

    /// The rows on screen, from the resolved top.
    pub fn window(&self, vp: Viewport) -> Vec<(u64, Line<'static>)> {
        let height = usize::from(vp.height);
        let mut rows = Vec::with_capacity(height);
        let (mut line, mut sub) = self.top;
        while rows.len() < height && line < self.total {
            let Some(entry) = self.entry(line) else { break };
            for l in entry.iter().skip(sub) {
                for row in l.rows(vp.width) {
                    if rows.len() == height {
                        return rows;
                    }
                    rows.push((line, row));
                }
            }
            line += 1;
            sub = 0;
        }
        rows
    }

    /// Moves by `step`; anything but [`Step::Bottom`] stops following.
    pub fn scroll(&mut self, log: &ConversationLog, theme: &Theme, vp: Viewport, step: Step) {
        self.prepare(log, theme, vp);
        if self.total == 0 {
            return;
        }
        let page = usize::from(vp.height).saturating_sub(1).max(1);
        let pos = match step {
            Step::Bottom => {
                self.follow = Follow::On;
                self.mark = None;
                return;
            }
            Step::Top => (0, 0),
            Step::Up(n) => self.back(log, theme, self.top, n, None),
            Step::PageUp => self.back(log, theme, self.top, usize::MAX, Some((vp, page))),
            Step::Down(n) => self.forward(log, theme, self.top, n, None),
            Step::PageDown => self.forward(log, theme, self.top, usize::MAX, Some((vp, page))),
        };
        self.follow = Follow::At(pos.min(self.end_top));
        self.prepare(log, theme, vp);
    }

    /// Shows entry `line` at the top (a search hit) and marks it.
    pub fn jump(&mut self, log: &ConversationLog, theme: &Theme, vp: Viewport, line: u64) {
        self.follow = Follow::At((line, 0));
        self.mark = Some(line);
        self.prepare(log, theme, vp);
    }

    fn len_of(&mut self, log: &ConversationLog, theme: &Theme, line: u64) -> usize {
        self.ensure(log, theme, line);
        self.entry(line).map_or(1, |e| e.len().max(1))
    }

    /// Moves back `n` lines, or (with a viewport) until a page of rows is passed.
    fn back(
        &mut self,
        log: &ConversationLog,
        theme: &Theme,
        mut pos: Pos,
        n: usize,
        page: Option<(Viewport, usize)>,
    ) -> Pos {
        let mut moved = 0;
        while moved < n {
            if pos.1 > 0 {
                pos.1 -= 1;
            } else if pos.0 > 0 {
                pos.0 -= 1;
                pos.1 = self.len_of(log, theme, pos.0) - 1;
            } else {
                break;
            }
            moved += match page {
                Some((vp, _)) => self.height_at(pos, vp),
                None => 1,
            };
            if page.is_some_and(|(_, rows)| moved >= rows) {
                break;
            }
        }
        pos
    }

    /// Moves forward `n` lines, or (with a viewport) until a page of rows is passed.
    fn forward(
        &mut self,
        log: &ConversationLog,
        theme: &Theme,
        mut pos: Pos,
        n: usize,
        page: Option<(Viewport, usize)>,
    ) -> Pos {
        let mut moved = 0;
        while moved < n && pos < self.end_top {
            moved += match page {
                Some((vp, _)) => self.height_at(pos, vp),
                None => 1,
            };
            if pos.1 + 1 < self.len_of(log, theme, pos.0) {
                pos.1 += 1;
            } else {
                pos = (pos.0 + 1, 0);
            }
            if page.is_some_and(|(_, rows)| moved >= rows) {
                break;
            }
        }
        pos
    }

    fn height_at(&self, (line, sub): Pos, vp: Viewport) -> usize {
        self.entry(line)
            .and_then(|e| e.get(sub))
            .map_or(1, |l| l.height(vp.width))
    }

    /// Walks back from the end until the viewport is full.
    fn find_end_top(&mut self, log: &ConversationLog, theme: &Theme, vp: Viewport) -> Pos {
        let height = usize::from(vp.height);
        let mut rows = 0;
        let mut line = self.total;
        while line > 0 {
            line -= 1;
            let len = self.len_of(log, theme, line);
            for sub in (0..len).rev() {
                rows += self.height_at((line, sub), vp);
                if rows > height {
                    return if sub + 1 < len {
                        (line, sub + 1)
                    } else if line + 1 < self.total {
                        (line + 1, 0)
                    } else {
                        (line, sub)
                    };
                }
            }
        }
        (0, 0)
    }

    /// Prepares entry `line` (and its neighbours, when read from disk).
    fn ensure(&mut self, log: &ConversationLog, theme: &Theme, line: u64) {
        if self.cache.contains_key(&line) || line >= self.total {
            return;
        }
        let recent = log.recent();
        if let Ok(i) = recent.binary_search_by_key(&line, |(n, _)| *n) {
            let (n, e) = &recent[i];
            let lines = prepare::entry(*n, Ok(e), theme);
            self.insert(log, theme, *n, e.t, lines);
            return;
        }
        let start = line.saturating_sub(READ_BATCH / 2);
        let end = (start + READ_BATCH).min(self.total);
        for (n, entry) in log.read_lines(start..end) {
            if self.cache.contains_key(&n) {
                continue;
            }
            let (t, lines) = match &entry {
                Ok(e) => (e.t, prepare::entry(n, Ok(e), theme)),
                Err(why) => (None, prepare::entry(n, Err(&why.to_string()), theme)),
            };
            self.insert(log, theme, n, t, lines);
        }
        // The disk read failed or came back short: say so rather than loop on it.
        self.cache
            .entry(line)
            .or_insert_with(|| prepare::entry(line, Err("could not be read from disk"), theme));
    }

    /// Keeps entry `n`'s prepared lines, after a separator when it opens a new day.
    fn insert(
        &mut self,
        log: &ConversationLog,
        theme: &Theme,
        n: u64,
        t: Option<DateTime<Utc>>,
        mut lines: Vec<DocLine>,
    ) {
        let day = t.map(|t| t.date_naive());
        if let Some(day) = day
            && self.day_before(log, n) != Some(day)
        {
            lines.insert(0, prepare::day_separator(day, theme));
        }
        self.days.insert(n, day);
        self.cache.insert(n, lines);
    }

    /// The day of the entry before `n` (none at the log's start or without a time).
    fn day_before(&self, log: &ConversationLog, n: u64) -> Option<NaiveDate> {
        let prev = n.checked_sub(1)?;
        if let Some(day) = self.days.get(&prev) {
            return *day;
        }
        let recent = log.recent();
        let t = match recent.binary_search_by_key(&prev, |(n, _)| *n) {
            Ok(i) => recent[i].1.t,
            Err(_) => match log.read_lines(prev..n).pop() {
                Some((_, Ok(e))) => e.t,
                _ => None,
            },
        };
        t.map(|t| t.date_naive())
    }

    fn evict(&mut self) {
        if self.cache.len() <= CACHE_MAX {
            return;
        }
        let keep = CACHE_MAX as u64 / 3;
        let (top, end) = (self.top.0, self.end_top.0);
        let kept = |n: u64| n.abs_diff(top) <= keep || n.abs_diff(end) <= keep;
        self.cache.retain(|&n, _| kept(n));
        self.days.retain(|&n, _| kept(n));
    }
}
