//! Putting a line a dream pruned back into a hosted creature's observations: picked in the
//! dreams view (`x`), asked (`R`), written when asked again.

use crate::memory::status::Status;
use crate::ui::input::action::Action;
use crate::ui::state::confirm::{Confirm, ask_or_answer};
use crate::ui::state::creature::RunnerLink;
use crate::ui::state::{App, shown};
use crate::ui::update::Job;

impl App {
    /// Picks the next pruned line of the dream shown.
    pub(crate) fn pick_pruned(&mut self) {
        let Some(ui) = self
            .selected
            .clone()
            .and_then(|p| shown(&mut self.time, &mut self.creatures, &self.garden, &p))
            .map(|(ui, _)| ui)
        else {
            return;
        };
        if !ui.dreams.pick_next_pruned() {
            let text = if ui.dreams.pruned_any() {
                "no line picked".to_string()
            } else {
                "this dream pruned no observation".to_string()
            };
            self.set_notice(text, false);
        }
    }

    /// Asks, then (asked again) writes the picked line back.
    pub(crate) fn restore(&mut self) -> Vec<Job> {
        let (Some(path), Some(ui)) = (self.selected.clone(), self.selected_ui()) else {
            return Vec::new();
        };
        let refusal = match (ui.dreams.picked_pruned(), ui.link, ui.status()) {
            (None, ..) => Some(format!(
                "pick a pruned line first ({})",
                self.keymap.mention(Action::PickPruned, "{}")
            )),
            (_, RunnerLink::None, _) => Some(format!(
                "{} is only watched: restore writes only into creatures a dreamwatch runner hosts",
                ui.name
            )),
            (_, _, Status::Dreaming | Status::DeepSleep { .. }) => Some(format!(
                "{} is dreaming and may be rewriting its observations: restore when it wakes",
                ui.name
            )),
            _ => None,
        };
        if let Some(text) = refusal {
            self.set_notice(text, true);
            return Vec::new();
        }
        let line = ui.dreams.picked_pruned().unwrap_or_default().to_string();
        let name = ui.name.clone();
        if ask_or_answer(
            &mut self.confirm,
            Confirm::Restore(path.clone(), line.clone()),
        ) {
            return vec![Job::Restore {
                creature: path,
                line,
            }];
        }
        let again = self.keymap.mention(Action::Restore, "{}");
        let shown = crate::ui::prepare::inert(&line);
        self.set_notice(
            format!("restore {shown} into {name}'s observations, under today's date? {again} again writes it, another key cancels"),
            false,
        );
        Vec::new()
    }
}
