//! `O`, `v` and `c` on what the main pane selects ([`crate::ui::state::selection`]): the
//! editor or the pager through the terminal hand-over, the clipboard through OSC 52.

use super::{Foreground, Job, Program};
use crate::ui::prepare::inert;
use crate::ui::state::App;

impl App {
    /// `O` (the editor) or `v` (the pager) on what the main pane selects.
    pub(super) fn open_selection(&mut self, editor: bool) -> Vec<Job> {
        let (Some(sel), Some(ui)) = (self.selection(), self.selected_ui()) else {
            return Vec::new();
        };
        let name = sel.file.file_name().map_or_else(
            || sel.file.display().to_string(),
            |n| inert(&n.to_string_lossy()),
        );
        if ui.remote_host.is_some() && editor {
            self.set_notice(
                format!(
                    "{name} is a copy of a far creature's file: editing it changes nothing there"
                ),
                true,
            );
            return Vec::new();
        }
        if !sel.file.is_file() {
            self.set_notice(format!("{name}: no such file yet"), true);
            return Vec::new();
        }
        let Some(dir) = self.selected.clone() else {
            return Vec::new();
        };
        let (program, what) = if editor {
            let program = Program::Editor {
                file: sel.file,
                line: sel.line,
            };
            (program, format!("editing {name}"))
        } else {
            let program = Program::Pager {
                file: sel.file,
                line: sel.line,
            };
            (program, format!("viewing {name}"))
        };
        vec![Job::Foreground(Foreground { program, dir, what })]
    }

    /// `c`: the selected entry's text (as shown: inert) to the clipboard.
    pub(super) fn copy_selection(&mut self) -> Vec<Job> {
        match self
            .selection()
            .and_then(|s| s.text)
            .filter(|t| !t.is_empty())
        {
            Some(text) => vec![Job::Clipboard(text)],
            None => {
                self.set_notice("nothing selected to copy in this view", true);
                Vec::new()
            }
        }
    }
}
