//! The actions the Events view understands: the kind shown, the order, the top event
//! shown whole (in the detail popup).

use super::layout;
use crate::ui::focus::{MainView, Mode};
use crate::ui::popups::detail::Detail;
use crate::ui::state::{App, shown};

impl App {
    /// The next kind of event shown, while the view is.
    pub(crate) fn cycle_event_kind(&mut self) {
        if self.shown_view() != MainView::Events {
            return;
        }
        let Some(ui) = self.selected_ui_mut() else {
            return;
        };
        ui.events.cycle_filter();
        let notice = format!("events: {}", ui.events.filter.label());
        self.set_notice(notice, false);
    }

    /// Newest or oldest first.
    pub(crate) fn toggle_events_order(&mut self) {
        if let Some(ui) = self.selected_ui_mut() {
            ui.events.toggle_order();
        }
    }

    /// Shows the Events view's top event whole, or closes it.
    pub(crate) fn toggle_event_detail(&mut self) {
        if self.mode == Mode::Detail {
            self.mode = Mode::Normal;
            self.popups.detail = None;
            return;
        }
        self.show_event(None);
    }

    /// Shows whole the event drawn at screen row `row` of the Events view (a click).
    pub(crate) fn show_event_at(&mut self, row: u16) {
        self.show_event(Some(row));
    }

    /// Shows an event of the page the view shows whole: the one drawn at screen row `at`,
    /// else the top one.
    fn show_event(&mut self, at: Option<u16>) {
        let Some(path) = self.selected.clone() else {
            return;
        };
        let area = self.areas().main_view;
        let vp = self.areas().main_viewport();
        let Some((ui, model)) = shown(&mut self.time, &mut self.creatures, &self.garden, &path)
        else {
            return;
        };
        // The page the view shows (read when drawn; a key may come first).
        ui.events.prepare(model.events(), &self.theme, vp);
        let rows = ui.events.rows();
        let picked = match at {
            None => rows.first(),
            Some(row) => {
                // Each event takes the screen rows it wraps to, from the top of the view.
                let mut below = row.checked_sub(area.y).map(usize::from);
                rows.iter().find(|(_, line)| {
                    let height = layout::wrapped(line, vp.width).len();
                    match below {
                        Some(b) if b < height => true,
                        Some(b) => {
                            below = Some(b - height);
                            false
                        }
                        None => false,
                    }
                })
            }
        };
        let Some(&(line, _)) = picked else {
            if at.is_none() {
                self.set_notice("no event to show: the Events view is empty", false);
            }
            return;
        };
        match model.events().read_lines(line..line + 1).into_iter().next() {
            Some((_, Ok(event))) => {
                let (title, lines) = super::detail::document(line, &event, &self.theme);
                self.popups.detail = Some(Detail::new(title, lines));
                self.mode = Mode::Detail;
            }
            Some((_, Err(e))) => self.set_notice(format!("line {}: {e}", line + 1), true),
            None => self.set_notice("the event is no longer in the file", true),
        }
    }
}
