//! Moving around: focus between panes, scrolling the focused pane, the list selections.

use crate::ui::doc::scroll::Step;
use crate::ui::focus::{MainView, Pane};
use crate::ui::input::action::Action;
use crate::ui::layout;
use crate::ui::state::openseed::name_of;
use crate::ui::state::{App, shown};

/// Rows the mouse wheel scrolls.
const WHEEL: usize = 3;
/// Creatures a page key moves in the garden list.
const GARDEN_PAGE: usize = 5;

pub fn step_of(action: Action) -> Option<Step> {
    Some(match action {
        Action::Up => Step::Up(1),
        Action::Down => Step::Down(1),
        Action::PageUp => Step::PageUp,
        Action::PageDown => Step::PageDown,
        Action::Top => Step::Top,
        Action::Bottom => Step::Bottom,
        _ => return None,
    })
}

impl App {
    /// Moves the focus along the panes on screen.
    pub(super) fn focus(&mut self, delta: isize, wrap: bool) {
        let panes = self.areas().panes();
        let at = panes.iter().position(|p| *p == self.pane).unwrap_or(0) as isize;
        let n = panes.len() as isize;
        let next = if wrap {
            (at + delta).rem_euclid(n)
        } else {
            (at + delta).clamp(0, n - 1)
        };
        self.pane = panes[next as usize];
    }

    /// Scrolls `pane` by `step`.
    pub(super) fn scroll(&mut self, pane: Pane, step: Step) {
        match pane {
            Pane::Garden => self.move_selection(step),
            Pane::Side => self.scroll_side(step),
            Pane::Main => self.scroll_main(step),
        }
    }

    pub(super) fn wheel(&mut self, column: u16, row: u16, down: bool) {
        let Some(pane) = self.areas().pane_at(column, row) else {
            return;
        };
        let step = if down {
            Step::Down(WHEEL)
        } else {
            Step::Up(WHEEL)
        };
        if self.scroll_profile(column, row, step) {
            return;
        }
        match (pane, step) {
            (Pane::Garden, Step::Down(_)) => self.move_selection(Step::Down(1)),
            (Pane::Garden, _) => self.move_selection(Step::Up(1)),
            _ => self.scroll(pane, step),
        }
    }

    pub(super) fn click(&mut self, column: u16, row: u16) {
        let areas = self.areas();
        let Some(pane) = areas.pane_at(column, row) else {
            return;
        };
        self.pane = pane;
        let shown_view = self.shown_view();
        if let Some(view) = layout::tab_at(
            &self.keymap,
            self.views(),
            shown_view,
            areas.main,
            column,
            row,
        ) {
            self.view = view;
            return;
        }
        if pane == Pane::Main && shown_view == MainView::Dreams {
            let main = areas.main_view;
            let Some(path) = self.selected.clone() else {
                return;
            };
            if column >= main.x
                && column < main.x + main.width
                && let Some((ui, model)) =
                    shown(&mut self.time, &mut self.creatures, &self.garden, &path)
                && let Some(i) = layout::dream_at(main, ui.dreams.len(), ui.dreams.selected(), row)
            {
                // The newest dream selected follows new ones, as the keys leave it.
                ui.dreams.select(i, model);
            }
            return;
        }
        if pane == Pane::Main && shown_view == MainView::Events {
            // A click on an event shows it whole, as Enter shows the top one.
            self.show_event_at(row);
            return;
        }
        if pane != Pane::Garden {
            return;
        }
        let Some(list) = areas.garden_inner() else {
            return;
        };
        let order = self.garden_order();
        let list = layout::garden_list(list).list;
        let Some(index) = layout::creature_at(list, self.selected_index(), order.len(), row) else {
            return;
        };
        if let Some(path) = order.get(index).cloned() {
            self.select(path);
        }
    }

    fn move_selection(&mut self, step: Step) {
        let order = self.garden_order();
        let n = order.len();
        if n == 0 {
            return;
        }
        let at = self.selected_index().unwrap_or(0);
        let next = match step {
            Step::Up(k) => at.saturating_sub(k),
            Step::Down(k) => (at + k).min(n - 1),
            Step::PageUp => at.saturating_sub(GARDEN_PAGE),
            Step::PageDown => (at + GARDEN_PAGE).min(n - 1),
            Step::Top => 0,
            Step::Bottom => n - 1,
        };
        if let Some(path) = order.get(next).cloned() {
            self.select(path);
        }
    }

    /// The next (`forward`) or previous creature of the garden, wrapping at the ends (`]`
    /// and `[`: the list's keys stop at its ends, these go round).
    pub(super) fn cycle_selection(&mut self, forward: bool) {
        let order = self.garden_order();
        let n = order.len();
        if n == 0 {
            return;
        }
        let at = self.selected_index().unwrap_or(0);
        let next = if forward {
            (at + 1) % n
        } else {
            (at + n - 1) % n
        };
        if let Some(path) = order.get(next).cloned() {
            self.select(path);
        }
    }

    /// Selects a creature; the search, which was over the previous one, ends.
    pub(super) fn select(&mut self, path: std::path::PathBuf) {
        if self.selected.as_ref() != Some(&path) {
            if let Some(ui) = self.creatures.get_mut(&path) {
                ui.attention = None;
            }
            self.selected = Some(path);
            self.search = Default::default();
        }
    }

    fn scroll_side(&mut self, step: Step) {
        let Some(vp) = self.areas().side_viewport() else {
            return;
        };
        let Some(ui) = self
            .selected
            .as_ref()
            .and_then(|p| shown(&mut self.time, &mut self.creatures, &self.garden, p))
            .map(|(ui, _)| ui)
        else {
            return;
        };
        ui.side.scroll(vp, step);
    }

    /// The wheel over a detail pane (a dream's, or a genome's list view's: an entity's
    /// profile, an agent's history) scrolls it (the keys move along the list); returns
    /// whether it was there.
    fn scroll_profile(&mut self, column: u16, row: u16, step: Step) -> bool {
        let Some(detail) = self.areas().detail else {
            return false;
        };
        let view = self.shown_view();
        if !matches!(view, MainView::Own(_) | MainView::Dreams)
            || !detail.contains(ratatui::layout::Position::new(column, row))
        {
            return false;
        }
        if view == MainView::Dreams {
            return self.scroll_dream(step);
        }
        let Some(ui) = self
            .selected
            .as_ref()
            .and_then(|p| shown(&mut self.time, &mut self.creatures, &self.garden, p))
            .map(|(ui, _)| ui)
        else {
            return false;
        };
        let vp = layout::viewport(detail);
        match (view, ui.own.as_mut()) {
            (MainView::Own(view), Some(own)) => own.scroll_detail(view, vp, step),
            _ => false,
        }
    }

    /// Scrolls the selected dream's detail; returns whether it is on screen.
    fn scroll_dream(&mut self, step: Step) -> bool {
        let Some(detail) = self.areas().detail else {
            return false;
        };
        let vp = layout::viewport(layout::dream_detail_text(detail));
        let theme = &self.theme;
        let Some(ui) = self
            .selected
            .as_ref()
            .and_then(|p| shown(&mut self.time, &mut self.creatures, &self.garden, p))
            .map(|(ui, _)| ui)
        else {
            return false;
        };
        ui.dreams.scroll_detail(vp, step, theme)
    }

    fn scroll_main(&mut self, step: Step) {
        let areas = self.areas();
        let vp = areas.main_viewport();
        let view = self.shown_view();
        let Some(path) = self.selected.clone() else {
            return;
        };
        if view == MainView::Talk {
            self.talk.scroll(vp, step);
            return;
        }
        if view == MainView::Live {
            if let Some(openseed) = self.orchestrator_of_mut(&path)
                && let Some(name) = name_of(&path)
            {
                openseed.live.scroll(name, vp, step);
            }
            return;
        }
        self.prepare_observations();
        let Some((ui, model)) = shown(&mut self.time, &mut self.creatures, &self.garden, &path)
        else {
            return;
        };
        match view {
            // Scrolled above, from the orchestrator's or the garden's state.
            MainView::Live | MainView::Talk => {}
            MainView::Observations => ui.obs.scroll(vp, step),
            MainView::Diary => ui.diary.scroll(vp, step),
            MainView::Recall => ui
                .recall
                .scroll(model.conversation(), &self.theme, vp, step),
            MainView::Events => ui.events.scroll(model.events(), &self.theme, vp, step),
            MainView::Own(view) => {
                if let Some(own) = ui.own.as_mut() {
                    own.scroll(view, vp, step);
                }
            }
            // A page key pages the selected dream's detail; the others move along the list.
            MainView::Dreams => {
                let detail = areas
                    .detail
                    .map(|d| layout::viewport(layout::dream_detail_text(d)));
                ui.dreams.scroll(model, vp, detail, step, &self.theme);
            }
        }
    }
}
