//! The garden list's filter and sort: typed while the garden has the focus, as in k9s.

use crate::ui::focus::Mode;
use crate::ui::state::App;
use crate::ui::state::garden::GardenView;

impl App {
    /// Opens the filter prompt on the garden's filter (what was typed before stays, to edit).
    pub(super) fn start_filter(&mut self) {
        self.mode = Mode::Filter;
    }

    /// Closes the prompt keeping the filter; a row number, once jumped to, is not kept.
    pub(super) fn keep_filter(&mut self) {
        self.mode = Mode::Normal;
        if self.garden_view.jump().is_some() {
            self.garden_view.filter.clear();
        }
    }

    /// Shows the whole garden again (and closes the prompt if it is open).
    pub(super) fn clear_filter(&mut self) {
        self.mode = Mode::Normal;
        self.garden_view.filter.clear();
    }

    /// The next sort; the selected creature stays selected.
    pub(super) fn cycle_sort(&mut self) {
        self.garden_view.sort = self.garden_view.sort.next();
        let label = self.garden_view.sort.label();
        self.set_notice(format!("garden sorted by {label}"), false);
    }

    /// After the filter changed: a row number selects that row; else the selection moves
    /// to the first creature shown when the filter hides the selected one.
    pub(super) fn follow_filter(&mut self) {
        let order = self.garden_order();
        let target = match self.garden_view.jump() {
            Some(n) => order.get(n.saturating_sub(1)),
            None if self.selected.as_ref().is_some_and(|s| order.contains(s)) => None,
            None => order.first(),
        };
        if let Some(path) = target.cloned() {
            self.select(path);
        }
    }

    /// Takes the sort and filter kept from the last run (said in the status line when
    /// they are not the defaults); a creature they hide is not left selected.
    pub fn restore_garden_view(&mut self, view: GardenView) {
        if view == GardenView::default() {
            return;
        }
        let filter = if view.filter.is_empty() {
            String::new()
        } else {
            format!(
                ", filtered by {:?}",
                crate::ui::prepare::inert(&view.filter)
            )
        };
        let said = format!(
            "garden sorted by {}{filter}, as it was left ({} changes the sort)",
            view.sort.label(),
            self.keymap
                .label(crate::ui::input::action::Action::SortGarden),
        );
        self.garden_view = view;
        let order = self.garden_order();
        if !self.selected.as_ref().is_some_and(|s| order.contains(s)) {
            self.selected = order.first().cloned().or(self.selected.take());
        }
        self.set_notice(said, false);
    }
}
