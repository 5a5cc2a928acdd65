//! The Dreams view: the creature's life as a strip (awake, asleep, every dream, deep
//! sleeps distinct), the dreams newest first, and the selected dream in detail with what
//! it changed (a pruned line can be picked there to restore).

mod detail;
mod draw;
mod keys;
pub mod prepare;
pub(crate) mod strip;

use std::path::PathBuf;

use chrono::{DateTime, Duration, Utc};

use crate::history::History;
use crate::memory::creature::{Change, Creature};
use crate::memory::dream_diffs::{self, DiffRecord};
use crate::memory::layout::FileKind;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::prepare::changes::{self, DreamChanges};
use crate::ui::theme::Theme;
use prepare::{DreamDetail, PreparedDream};

/// A span of time the creature slept, for the strip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SleepSpan {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

/// One creature's Dreams view.
#[derive(Debug)]
pub struct DreamsView {
    list: Vec<PreparedDream>,
    /// The selected dream (index into `list`); `None` follows the newest.
    selected: Option<usize>,
    /// The selected dream in full (its reflection stays on disk until shown).
    detail: Option<DreamDetail>,
    /// Where the selected dream's detail is scrolled (its top when another is selected).
    anchor: Anchor,
    /// What the selected dream changed (index into `list`, its lines).
    changes: Option<(usize, DreamChanges)>,
    /// The pruned line picked to restore: the dream (index into `list`) and the line
    /// (index into its changes' `pruned`).
    pruned_pick: Option<(usize, usize)>,
    /// What the watched history saw change in its memory files (creatures that keep no
    /// record of their own dreams).
    watched: Vec<DiffRecord>,
    /// The store whose record of this creature's changes (at `.1`) is not read yet: read
    /// when the view is first shown ([`DreamsView::read_watched`]), not at start (a
    /// garden watched for months holds megabytes of them).
    unread: Option<(History, PathBuf)>,
    /// When the watched history of this creature begins; `None` while none is kept.
    watched_since: Option<DateTime<Utc>>,
    sleeps: Vec<SleepSpan>,
}

impl Default for DreamsView {
    fn default() -> Self {
        Self {
            list: Vec::new(),
            selected: None,
            detail: None,
            anchor: Anchor::Line(0),
            changes: None,
            pruned_pick: None,
            watched: Vec::new(),
            unread: None,
            watched_since: None,
            sleeps: Vec::new(),
        }
    }
}

impl DreamsView {
    /// Every dream of the creature prepared, its sleeps, the selected one read.
    pub fn prepare(&mut self, c: &Creature) {
        self.list = c.dreams().iter().map(prepare::prepare).collect();
        self.load_detail(c);
        self.prepare_sleeps(c);
    }

    /// Takes in what changed of the creature's dreams, sleeps and memory files.
    pub fn apply(&mut self, c: &Creature, change: &Change) {
        match change {
            Change::Dream(_) => {
                let have = self.list.len();
                self.list.extend(
                    c.dreams()[have.min(c.dreams().len())..]
                        .iter()
                        .map(prepare::prepare),
                );
            }
            // A large log's head counted: its rows are all there now.
            Change::Reset(FileKind::Dreams) | Change::DreamsCounted => {
                self.list = c.dreams().iter().map(prepare::prepare).collect();
                self.selected = None;
                self.detail = None;
                self.changes = None;
            }
            // A wake event ends the sleep its iteration began.
            Change::Reset(FileKind::Events)
            | Change::Iteration
            | Change::Reset(FileKind::Iterations)
            | Change::Events { .. } => self.prepare_sleeps(c),
            _ => {}
        }
        // The runner records a dream's changes as it writes the files: read them again.
        if matches!(
            change,
            Change::Dream(_)
                | Change::ObservationsAdded(_)
                | Change::ObservationsRewritten
                | Change::Priorities
                | Change::Diary
        ) {
            self.changes = None;
        }
    }

    /// How many dreams the list holds.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Dream `i` as the list shows it.
    pub fn get(&self, i: usize) -> Option<&PreparedDream> {
        self.list.get(i)
    }

    /// The dream shown in the detail pane.
    pub fn selected(&self) -> Option<usize> {
        match self.selected {
            Some(i) if i < self.list.len() => Some(i),
            _ => self.list.len().checked_sub(1),
        }
    }

    /// Selects dream `i` (the newest selected follows new ones) and reads it.
    pub fn select(&mut self, i: usize, c: &Creature) {
        if i < self.list.len() {
            self.selected = (i + 1 < self.list.len()).then_some(i);
            self.load_detail(c);
        }
    }

    /// Reads the selected dream in full from disk, and what it changed, unless it is the
    /// one already read.
    pub fn load_detail(&mut self, c: &Creature) {
        let Some(i) = self.selected() else {
            self.detail = None;
            self.changes = None;
            return;
        };
        if self.detail.as_ref().is_none_or(|d| d.index != i) {
            self.detail = Some(prepare::detail(i, c.read_dream(i)));
            self.anchor = Anchor::Line(0);
        }
        if self.changes.as_ref().is_none_or(|(index, _)| *index != i) {
            self.load_changes(c, i);
        }
    }

    /// What dream `i` changed: the runner's record where the creature has one, else what
    /// the watched history saw.
    fn load_changes(&mut self, c: &Creature, i: usize) {
        let record = dream_diffs::path(c.root());
        let source = if record.exists() {
            let first_row = c.dream_log().count() - self.list.len() as u64;
            let number = first_row + i as u64 + 1;
            changes::Source::Runner {
                read: dream_diffs::read_dream(&record, number),
                number,
            }
        } else {
            let times: Vec<_> = self.list.iter().map(|d| d.t).collect();
            changes::Source::Watched {
                records: dream_diffs::seen_for_dream(&self.watched, &times, i),
                dream_t: self.list.get(i).and_then(|d| d.t),
                since: self.watched_since,
            }
        };
        let prepared = changes::prepare(source);
        if self
            .pruned_pick
            .is_some_and(|(dream, p)| dream != i || p >= prepared.pruned.len())
        {
            self.pruned_pick = None;
        }
        self.changes = Some((i, prepared));
    }

    /// Dream `i` as the detail pane shows it: what is read of it, what it changed, the
    /// pruned line picked.
    pub fn document(&self, i: usize, theme: &Theme) -> Vec<DocLine> {
        let Some(d) = self.list.get(i) else {
            return Vec::new();
        };
        let full = self.detail.as_ref().filter(|f| f.index == i);
        let changes = self
            .changes
            .as_ref()
            .filter(|(index, _)| *index == i)
            .map(|(_, c)| c);
        let picked = self
            .pruned_pick
            .filter(|(dream, _)| *dream == i)
            .map(|(_, p)| p);
        detail::document(d, full, changes, picked, theme)
    }

    /// The selected dream pruned lines (what the key that picks one offers).
    pub fn has_pruned(&self) -> bool {
        self.changes
            .as_ref()
            .is_some_and(|(i, c)| Some(*i) == self.selected() && !c.pruned.is_empty())
    }

    /// The dream shown pruned some line.
    pub fn pruned_any(&self) -> bool {
        self.changes
            .as_ref()
            .is_some_and(|(_, c)| !c.pruned.is_empty())
    }

    /// The pruned line picked to restore, as it was in the file.
    pub fn picked_pruned(&self) -> Option<&str> {
        let (i, changes) = self.changes.as_ref()?;
        let (dream, p) = self.pruned_pick?;
        let (_, text) = changes.pruned.get(p).filter(|_| dream == *i)?;
        Some(text)
    }

    /// Picks the next pruned line of the shown dream (after the last, none).
    pub fn pick_next_pruned(&mut self) -> bool {
        let Some((i, changes)) = self.changes.as_ref() else {
            return false;
        };
        let n = changes.pruned.len();
        self.pruned_pick = match self.pruned_pick {
            Some((dream, p)) if dream == *i && p + 1 < n => Some((*i, p + 1)),
            Some((dream, _)) if dream == *i => None,
            _ if n > 0 => Some((*i, 0)),
            _ => None,
        };
        self.pruned_pick.is_some()
    }

    /// Takes in what the watched history saw (and when its history began, at first
    /// sight); the dream shown is prepared again. While the store's record is unread,
    /// `records` (which the store holds too) are read with it.
    pub fn add_watched(
        &mut self,
        c: &Creature,
        records: Vec<DiffRecord>,
        since: Option<DateTime<Utc>>,
    ) {
        if records.is_empty() && since.is_none() {
            return;
        }
        if self.unread.is_none() {
            self.watched.extend(records);
        }
        self.watched_since = since.or(self.watched_since);
        self.changes = None;
        self.load_detail(c);
    }

    /// At first sight: the watched history of the creature at `root` is kept in `store`
    /// since `since`; its record of changes is read when the view is shown.
    pub fn defer_watched(&mut self, store: History, root: PathBuf, since: DateTime<Utc>) {
        self.unread = Some((store, root));
        self.watched_since = Some(since);
        self.changes = None;
    }

    /// Reads the watched history's record of changes left for when the view is shown;
    /// what to say when it could not be read (it is then dropped).
    pub fn read_watched(&mut self, c: &Creature) -> Option<String> {
        let (store, root) = self.unread.take()?;
        let dropped = match store.records_or_drop(&root) {
            Ok(records) => {
                self.watched = records;
                None
            }
            Err(why) => Some(why),
        };
        self.changes = None;
        self.load_detail(c);
        dropped
    }

    /// Moves along the list (up is newer); a page key pages the selected dream's detail
    /// (`detail`: its viewport, where it is on screen).
    pub fn scroll(
        &mut self,
        c: &Creature,
        vp: Viewport,
        detail: Option<Viewport>,
        step: Step,
        theme: &Theme,
    ) {
        if matches!(step, Step::PageUp | Step::PageDown) {
            if let Some(detail) = detail {
                self.scroll_detail(detail, step, theme);
            }
            return;
        }
        let n = self.list.len();
        if n == 0 {
            return;
        }
        let at = self.selected().unwrap_or(n - 1);
        let page = usize::from(vp.height.max(2) - 1);
        let next = match step {
            Step::Up(k) => (at + k).min(n - 1),
            Step::Down(k) => at.saturating_sub(k),
            Step::PageUp => (at + page).min(n - 1),
            Step::PageDown => at.saturating_sub(page),
            Step::Top => n - 1,
            Step::Bottom => 0,
        };
        self.selected = (next + 1 < n).then_some(next);
        self.load_detail(c);
    }

    /// Scrolls the selected dream's detail (in `vp`); returns whether there is one.
    pub fn scroll_detail(&mut self, vp: Viewport, step: Step, theme: &Theme) -> bool {
        let Some(i) = self.selected() else {
            return false;
        };
        let doc = self.document(i, theme);
        self.anchor = scroll::scroll(&doc, self.anchor, vp, step);
        true
    }

    /// Asleep spans from the iterations (each records when its sleep began and how long
    /// it asked for), ended when the creature really woke: at the first wake event after
    /// the start, never after the next sleep began (under `--speed`, or woken early, the
    /// sleep is shorter than asked).
    fn prepare_sleeps(&mut self, c: &Creature) {
        let wakes = c.events().wakes();
        let asked: Vec<(DateTime<Utc>, f64)> = c
            .iterations()
            .iter()
            .filter(|i| i.sleep_s > 0.0)
            .filter_map(|i| Some((i.sleep_started_at.or(i.t)?, i.sleep_s)))
            .collect();
        self.sleeps = asked
            .iter()
            .enumerate()
            .map(|(n, &(start, secs))| {
                let mut end = start + Duration::milliseconds((secs * 1000.0) as i64);
                let at = wakes.partition_point(|w| *w <= start);
                if let Some(&woke) = wakes.get(at) {
                    end = end.min(woke);
                }
                if let Some(&(next, _)) = asked.get(n + 1) {
                    end = end.min(next.max(start));
                }
                SleepSpan { start, end }
            })
            .collect();
    }
}
