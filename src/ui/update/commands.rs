//! A user command's key: its line filled in for the selected creature, run with the
//! terminal (a hand-over) or in the background (a job whose last line of output comes
//! back as the status line).

use super::{Foreground, Job, Program};
use crate::ui::input::action::Action;
use crate::ui::input::commands::{Place, expand};
use crate::ui::prepare::inert;
use crate::ui::state::App;

impl App {
    /// Runs the user command bound to `action` on the selected creature.
    pub(super) fn run_command(&mut self, action: Action) -> Vec<Job> {
        let Some(command) = self.keymap.command(action).cloned() else {
            return Vec::new();
        };
        let what = inert(&command.description);
        let (Some(dir), Some(ui), Some(model)) = (
            self.selected.clone(),
            self.selected_ui(),
            self.selected_model(),
        ) else {
            self.set_notice(format!("{what}: no creature selected"), true);
            return Vec::new();
        };
        let dir_text = dir.display().to_string();
        let place = Place {
            dir: &dir_text,
            name: model.name(),
            host: ui.remote_host.as_deref().unwrap_or_default(),
        };
        let line = match expand(&command.command, place) {
            Ok(line) => line,
            Err(e) => {
                self.set_notice(format!("{what}: not run: {}", inert(&e)), true);
                return Vec::new();
            }
        };
        if command.foreground {
            vec![Job::Foreground(Foreground {
                program: Program::Shell(line),
                dir,
                what,
            })]
        } else {
            self.set_notice(format!("{what}: running…"), false);
            vec![Job::Background { line, dir, what }]
        }
    }
}
