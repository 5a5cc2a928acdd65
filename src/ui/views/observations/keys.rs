//! The actions the Observations view understands: a priority shown or hidden, the order.

use crate::memory::observations::Priority;
use crate::ui::focus::MainView;
use crate::ui::state::App;

impl App {
    /// Shows or hides the selected creature's observations of priority `p`, and shows
    /// the view.
    pub(crate) fn toggle_priority(&mut self, p: Priority) {
        if !self.views().contains(&MainView::Observations) {
            return;
        }
        let Some(ui) = self.selected_ui_mut() else {
            return;
        };
        let shown = ui.obs.toggle(p);
        self.view = MainView::Observations;
        let verb = if shown { "shown" } else { "hidden" };
        self.set_notice(format!("{} observations {verb}", p.tag()), false);
    }

    /// Newest or oldest first, and shows the view.
    pub(crate) fn toggle_observations_order(&mut self) {
        if !self.views().contains(&MainView::Observations) {
            return;
        }
        let Some(ui) = self.selected_ui_mut() else {
            return;
        };
        ui.obs.toggle_order();
        self.view = MainView::Observations;
    }
}
