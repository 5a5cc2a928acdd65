//! The list of a search's hits (its overlay): one row per hit, prepared when the hit
//! arrives, the creature column as wide as the widest name of the rows, the row
//! selected, and the first row shown.

mod draw;
mod keys;
pub mod prepare;

pub use draw::draw;

use ratatui::text::Line;
use unicode_width::UnicodeWidthStr;

use crate::ui::doc::scroll::Step;

#[derive(Debug, Default)]
pub struct HitList {
    /// One row per hit kept, in the hits' order (creature, where, preview).
    pub rows: Vec<Line<'static>>,
    /// The creature each row leads with (a garden search), as its first span.
    names: Vec<Option<String>>,
    /// The creature column's width: the widest of `names`.
    name_width: usize,
    /// Index of the selected row.
    pub selected: usize,
    /// The first row shown.
    pub top: usize,
    /// The selection moved to the last row: it stays on the last row as hits arrive.
    pub follow: bool,
}

impl HitList {
    /// Moves the selection by `step` in a list `height` rows high.
    pub fn step(&mut self, step: Step, height: usize) {
        let last = self.rows.len().saturating_sub(1);
        let page = height.max(1);
        self.selected = match step {
            Step::Up(n) => self.selected.saturating_sub(n),
            Step::Down(n) => self.selected.saturating_add(n).min(last),
            Step::PageUp => self.selected.saturating_sub(page),
            Step::PageDown => self.selected.saturating_add(page).min(last),
            Step::Top => 0,
            Step::Bottom => last,
        };
        self.follow = step == Step::Bottom;
        self.top = visible_top(self.top, self.selected, height);
    }

    /// Selects row `i` (the hit shown), in a list `height` rows high.
    pub fn select(&mut self, i: usize, height: usize) {
        self.selected = i.min(self.rows.len().saturating_sub(1));
        self.follow = false;
        self.top = visible_top(self.top, self.selected, height);
    }

    /// The creature column's width for rows led by `names` (new hits' creatures): a name
    /// wider than the rows' widest widens it, and the rows kept are padded again.
    pub fn widen<'a>(&mut self, names: impl IntoIterator<Item = &'a str>) -> usize {
        let widest = names.into_iter().map(|n| n.width()).max().unwrap_or(0);
        if widest > self.name_width {
            self.name_width = widest;
            for (row, name) in self.rows.iter_mut().zip(&self.names) {
                if let (Some(name), Some(cell)) = (name, row.spans.first_mut()) {
                    cell.content = prepare::name_cell(name, widest).into();
                }
            }
        }
        self.name_width
    }

    /// Rows for new hits, each with the creature it leads with (prepared [`Self::widen`]
    /// wide); a list following its end selects the last.
    pub fn extend(
        &mut self,
        rows: impl IntoIterator<Item = (Option<String>, Line<'static>)>,
        height: usize,
    ) {
        for (name, row) in rows {
            self.names.push(name);
            self.rows.push(row);
        }
        if self.follow {
            self.selected = self.rows.len().saturating_sub(1);
            self.top = visible_top(self.top, self.selected, height);
        }
    }
}

/// The first row to show so that `selected` is on screen, moving `top` as little as
/// possible, in a list `height` rows high.
pub fn visible_top(top: usize, selected: usize, height: usize) -> usize {
    let height = height.max(1);
    if selected < top {
        selected
    } else if selected >= top + height {
        selected + 1 - height
    } else {
        top
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Hit, SearchSource};
    use crate::ui::theme::Theme;

    fn list(n: usize) -> HitList {
        HitList {
            rows: (0..n).map(|i| Line::from(i.to_string())).collect(),
            ..HitList::default()
        }
    }

    #[test]
    fn moves_keep_the_selection_on_screen() {
        let mut l = list(10);
        l.step(Step::Down(1), 3);
        assert_eq!((l.selected, l.top), (1, 0));
        l.step(Step::PageDown, 3);
        assert_eq!((l.selected, l.top), (4, 2));
        l.step(Step::Bottom, 3);
        assert_eq!((l.selected, l.top), (9, 7));
        l.step(Step::Down(1), 3);
        assert_eq!(l.selected, 9);
        l.step(Step::Up(1), 3);
        assert_eq!((l.selected, l.top), (8, 7));
        l.step(Step::PageUp, 3);
        assert_eq!((l.selected, l.top), (5, 5));
        l.step(Step::Top, 3);
        assert_eq!((l.selected, l.top), (0, 0));
    }

    #[test]
    fn the_end_is_followed_only_after_going_there() {
        let mut l = list(3);
        l.extend([(None, Line::from("3"))], 2);
        assert_eq!(l.selected, 0);
        l.step(Step::Bottom, 2);
        l.extend([(None, Line::from("4")), (None, Line::from("5"))], 2);
        assert_eq!((l.selected, l.top), (5, 4));
        l.step(Step::Up(1), 2);
        l.extend([(None, Line::from("6"))], 2);
        assert_eq!(l.selected, 4);
    }

    /// Rows of a garden search's hits in `names`' creatures, added as they arrive.
    fn add(l: &mut HitList, names: &[&str], theme: &Theme) {
        let hit = Hit {
            source: SearchSource::Conversation,
            file: 0,
            line: 6,
            byte_offset: 0,
            preview: "the lookup rang".into(),
            preview_match: 4..10,
        };
        let width = l.widen(names.iter().copied());
        let rows = names.iter().map(|name| {
            let row = prepare::row(&hit, Some(name), width, theme);
            (Some(name.to_string()), row)
        });
        l.extend(rows, 10);
    }

    #[test]
    fn the_creature_column_is_as_wide_as_the_widest_name_of_the_rows() {
        let theme = Theme::default();
        let mut l = HitList::default();
        add(&mut l, &["pip", "ember"], &theme);
        let cells = |l: &HitList| -> Vec<String> {
            l.rows
                .iter()
                .map(|r| r.spans[0].content.to_string())
                .collect()
        };
        assert_eq!(cells(&l), ["pip    ", "ember  "]);
        // A wider name arriving later widens the column of the rows before it too.
        add(&mut l, &["bramblewood", "pip"], &theme);
        assert_eq!(
            cells(&l),
            [
                "pip          ",
                "ember        ",
                "bramblewood  ",
                "pip          "
            ]
        );
        let recall = |r: &Line| r.spans[1].content.starts_with("recall:7");
        assert!(l.rows.iter().all(recall), "{:?}", l.rows);
        // A narrower one leaves it.
        add(&mut l, &["ox"], &theme);
        assert_eq!(cells(&l)[4], "ox           ");
    }
}
