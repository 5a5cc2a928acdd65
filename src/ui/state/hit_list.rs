//! The list of a search's hits (its overlay): one row per hit, prepared when the hit
//! arrives, the row selected, and the first row shown.

use ratatui::text::Line;

use crate::ui::doc::scroll::Step;

#[derive(Debug, Default)]
pub struct HitList {
    /// One row per hit kept, in the hits' order (creature, where, preview).
    pub rows: Vec<Line<'static>>,
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

    /// Rows for new hits; a list following its end selects the last.
    pub fn extend(&mut self, rows: impl IntoIterator<Item = Line<'static>>, height: usize) {
        self.rows.extend(rows);
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
        l.extend([Line::from("3")], 2);
        assert_eq!(l.selected, 0);
        l.step(Step::Bottom, 2);
        l.extend([Line::from("4"), Line::from("5")], 2);
        assert_eq!((l.selected, l.top), (5, 4));
        l.step(Step::Up(1), 2);
        l.extend([Line::from("6")], 2);
        assert_eq!(l.selected, 4);
    }
}
