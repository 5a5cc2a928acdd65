//! The Observations view: `observations.md`, one styled line per file line, filtered by
//! priority and ordered newest or oldest first.

mod draw;
mod keys;
pub mod prepare;

use crate::memory::creature::Creature;
use crate::memory::observations::Priority;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::theme::Theme;
use prepare::{Newest, ObsDoc, PreparedObs, PriorityFilter};

/// One creature's Observations view. Its text is prepared only while its creature is
/// the one shown ([`ObservationsView::ensure`], [`ObservationsView::release`]): a garden
/// of a thousand creatures keeps one creature's styled lines, not a thousand.
#[derive(Debug)]
pub struct ObservationsView {
    /// Whether `items` and `doc` hold the model's observations (else nothing is prepared).
    prepared: bool,
    items: Vec<PreparedObs>,
    /// Says how many items of the file the model does not keep (none: it keeps all).
    older: Option<DocLine>,
    pub filter: PriorityFilter,
    pub newest_first: bool,
    /// What is shown: the items filtered and ordered.
    pub doc: ObsDoc,
    /// The document's newest group, where appended items go.
    newest: Newest,
    pub anchor: Anchor,
}

impl Default for ObservationsView {
    fn default() -> Self {
        Self {
            prepared: false,
            items: Vec::new(),
            older: None,
            filter: PriorityFilter::default(),
            newest_first: true,
            doc: ObsDoc::default(),
            newest: Newest::default(),
            anchor: Anchor::Line(0),
        }
    }
}

impl ObservationsView {
    /// Prepares every observation the model keeps, unless they are prepared already.
    pub fn ensure(&mut self, c: &Creature, theme: &Theme) {
        if !self.prepared {
            self.prepare(c, theme, true);
        }
    }

    /// What the files changed, when the view is prepared (else the next
    /// [`ObservationsView::ensure`] prepares it whole).
    pub fn changed(&mut self, c: &Creature, theme: &Theme, all: bool) {
        if self.prepared {
            self.prepare(c, theme, all);
        }
    }

    /// Lets go of the prepared text; the filter, the order and the place read are kept.
    pub fn release(&mut self) {
        self.prepared = false;
        self.items = Vec::new();
        self.older = None;
        self.doc = ObsDoc::default();
        self.newest = Newest::default();
    }

    /// Prepares the observations the model keeps: all of them again, or (`all` false) the
    /// ones after the last prepared, dropping those the model no longer keeps.
    pub fn prepare(&mut self, c: &Creature, theme: &Theme, all: bool) {
        self.prepared = true;
        let items = &c.observations().items;
        let first = items.first().map_or(0, |(n, _)| *n);
        let from = match self.items.last() {
            Some(last) if !all => items.partition_point(|(n, _)| *n <= last.line_no),
            _ => {
                self.items.clear();
                0
            }
        };
        let held = self.items.len();
        // The items no longer kept are the oldest (in order of their lines): taken off
        // the front at once, not each element looked at and moved.
        let gone = self.items.partition_point(|p| p.line_no < first);
        self.items.drain(..gone);
        let appended_from = self.items.len();
        let fresh = prepare::prepare_items(&items[from..], theme);
        self.items.extend(fresh);
        let older = prepare::older_note(c.observations_not_kept(), theme);
        // Newest first, new lines arrive at the top: what the reader scrolled to is kept
        // in place, by the lines of the old document that stay (the ones dropped are at
        // its end). Counted only then.
        let keep_place = match self.anchor {
            Anchor::Line(top) => self.newest_first && !all && top > 0,
            _ => false,
        };
        let stayed = keep_place.then(|| {
            self.doc
                .line_nos
                .iter()
                .filter(|n| **n >= first && **n > 0)
                .count()
        });
        if all {
            self.older = older;
            self.rebuild();
        } else {
            // The oldest items no longer kept, the note of them, the new ones: the
            // document changed at its two ends, not made again.
            prepare::drop_oldest(
                &mut self.doc,
                &mut self.newest,
                &self.items[..appended_from],
                held - appended_from,
                &self.filter,
            );
            if older != self.older {
                self.older = older;
                prepare::set_older(&mut self.doc, self.older.as_ref(), self.newest_first);
            }
            prepare::append(
                &mut self.doc,
                &mut self.newest,
                &self.items,
                appended_from,
                &self.filter,
                self.newest_first,
            );
        }
        if let (Some(stayed), Anchor::Line(top)) = (stayed, self.anchor) {
            let shown = self.doc.line_nos.iter().filter(|n| **n > 0).count();
            if shown > stayed {
                self.anchor = Anchor::Line(top + shown - stayed);
            }
        }
    }

    /// Rebuilds the document after new lines, a filter or an order change.
    fn rebuild(&mut self) {
        self.doc = prepare::document(
            &self.items,
            &self.filter,
            self.newest_first,
            self.older.as_ref(),
        );
        self.newest = Newest::of(&self.items, &self.filter);
    }

    /// Shows or hides the observations of priority `p`; returns whether they show now.
    pub fn toggle(&mut self, p: Priority) -> bool {
        self.filter.toggle(p);
        self.rebuild();
        self.filter.shows(p)
    }

    /// Newest first or oldest first, read from the newest end.
    pub fn toggle_order(&mut self) {
        self.newest_first = !self.newest_first;
        self.anchor = if self.newest_first {
            Anchor::Line(0)
        } else {
            Anchor::End
        };
        self.rebuild();
    }

    pub fn scroll(&mut self, vp: Viewport, step: Step) {
        // Newest first, the newest (where new lines arrive) is the top: `G` goes there,
        // as it goes to the newest oldest first, and `g` to the oldest.
        let step = match (self.newest_first, step) {
            (true, Step::Bottom) => Step::Top,
            (true, Step::Top) => Step::Bottom,
            _ => step,
        };
        self.anchor = scroll::scroll(&self.doc.lines, self.anchor, vp, step);
    }

    /// Scrolls to the observation on `file_line` (1-based); else says why it is not shown.
    pub fn show_line(&mut self, file_line: usize) -> Result<(), String> {
        match self.doc.line_nos.iter().position(|n| *n == file_line) {
            Some(i) => {
                self.anchor = Anchor::Line(i);
                Ok(())
            }
            None if self.items.first().is_some_and(|p| file_line < p.line_no) => {
                let kept = self.items.len();
                Err(format!(
                    "that observation is older than the {kept} kept here: see line {file_line} of observations.md"
                ))
            }
            None => Err("that observation is hidden by a filter".into()),
        }
    }

    /// The file line and text of the observation on the top row.
    pub fn selection(&self, vp: Viewport) -> Option<(Option<usize>, Option<String>)> {
        let top = crate::ui::state::selection::top_line(&self.doc.lines, self.anchor, vp)?;
        Some((
            self.doc.line_nos.get(top).copied().filter(|n| *n > 0),
            self.doc
                .lines
                .get(top)
                .map(|l| crate::ui::state::selection::text_of(&l.line)),
        ))
    }
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use super::*;
    use crate::memory::cycle::Cycle;
    use crate::ui::state::creature::{CreatureUi, RunnerLink};

    #[test]
    fn an_append_past_the_kept_window_is_shown_and_the_oldest_dropped() {
        use crate::memory::observation_log::RECENT_OBSERVATION_ITEMS;
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".self")).unwrap();
        let path = dir.path().join(".self/observations.md");
        let line = "GRN 10:00 old\n";
        std::fs::write(&path, line.repeat(RECENT_OBSERVATION_ITEMS + 3)).unwrap();
        let mut c = Creature::with_settle(dir.path(), std::time::Duration::ZERO);
        let theme = Theme::default();
        let now = Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap();
        let mut ui = CreatureUi::new(&c, &theme, now, Cycle::default(), RunnerLink::None);
        assert!(ui.obs.items.is_empty(), "prepared only once shown");
        ui.obs.ensure(&c, &theme);
        assert_eq!(ui.obs.items.len(), RECENT_OBSERVATION_ITEMS);
        assert_eq!(ui.obs.doc.line_nos.last(), Some(&0), "the note, oldest end");
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        std::io::Write::write_all(&mut f, b"RED 10:05 new\n").unwrap();
        let changes = c.refresh();
        ui.apply(&c, &changes, &theme, now);
        assert_eq!(ui.obs.items.len(), RECENT_OBSERVATION_ITEMS);
        assert_eq!(
            ui.obs.items.last().unwrap().line_no,
            RECENT_OBSERVATION_ITEMS + 4
        );
        assert_eq!(ui.obs.items.first().unwrap().line_no, 5);
        assert_eq!(
            ui.obs.doc.line_nos.first(),
            Some(&(RECENT_OBSERVATION_ITEMS + 4))
        );
        // The document changed at its ends is the one made whole.
        let mut whole = ObservationsView::default();
        whole.ensure(&c, &theme);
        assert_eq!(ui.obs.doc, whole.doc);
        assert_eq!(ui.obs.newest, whole.newest);
    }

    #[test]
    fn lines_appended_are_added_to_the_document_as_a_new_one_would_show_them() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".self")).unwrap();
        let path = dir.path().join(".self/observations.md");
        std::fs::write(&path, "## 2026-11-21\nGRN 10:00 a\nRED 10:01 b\n").unwrap();
        let mut c = Creature::with_settle(dir.path(), std::time::Duration::ZERO);
        let theme = Theme::default();
        let now = Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap();
        let mut ui = CreatureUi::new(&c, &theme, now, Cycle::default(), RunnerLink::None);
        ui.obs.ensure(&c, &theme);
        ui.obs.toggle(crate::memory::observations::Priority::Grn);
        for (appended, newest_first) in [
            ("YLW 10:02 c\n", true),
            ("## 2026-11-22\nGRN 09:00 hidden\n", true),
            ("RED 09:01 d\n", false),
        ] {
            if ui.obs.newest_first != newest_first {
                ui.obs.toggle_order();
            }
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .unwrap();
            std::io::Write::write_all(&mut f, appended.as_bytes()).unwrap();
            let changes = c.refresh();
            ui.apply(&c, &changes, &theme, now);
            let mut whole = ObservationsView {
                filter: ui.obs.filter,
                newest_first,
                ..Default::default()
            };
            whole.ensure(&c, &theme);
            assert_eq!(ui.obs.doc, whole.doc, "after {appended:?}");
            assert_eq!(ui.obs.newest, whole.newest);
        }
    }
}
