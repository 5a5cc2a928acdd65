//! How a message goes: the box opened with its creature's draft, titled with where what
//! is written goes, sent the way each creature takes messages, or kept as a draft.

use std::path::{Path, PathBuf};

use crate::ui::focus::Mode;
use crate::ui::input::action::Action;
use crate::ui::state::App;
use crate::ui::state::creature::{RunnerLink, ignores_messages_file};
use crate::ui::update::{Job, RemoteAsk};

impl App {
    /// Closes the message box; what it holds stays with its creature as a draft.
    pub(crate) fn keep_draft(&mut self) {
        let (lines, to) = self.popups.message.close();
        let written = lines.iter().any(|l| !l.trim().is_empty());
        if let Some(ui) = to.and_then(|p| self.creatures.get_mut(&p))
            && written
        {
            ui.draft = lines;
            let reopen = self.keymap.mention(Action::Message, ": {} opens it again");
            self.set_notice(format!("message kept as a draft{reopen}"), false);
        } else {
            self.set_notice("message discarded", false);
        }
    }

    pub(crate) fn open_message(&mut self) {
        let Some(ui) = self.selected_ui_mut() else {
            return;
        };
        let draft = std::mem::take(&mut ui.draft);
        let to = self.selected.clone();
        self.popups.message.open(to, draft, &self.theme);
        self.title_message_box();
        self.mode = Mode::Message;
    }

    /// The message box goes to every creature in the garden list (as it is shown now),
    /// or back to the one it was opened for.
    pub(crate) fn toggle_message_all(&mut self) {
        let order = self.garden_order();
        self.popups.message.toggle_all(|| order.to_vec());
        self.title_message_box();
    }

    /// The message box's title: where what is written goes.
    fn title_message_box(&mut self) {
        let title = match self.popups.message.all() {
            Some(all) => {
                let n = all.len();
                let shown = if self.garden_view.filters() {
                    format!("the {n} creatures the filtered list shows")
                } else {
                    format!("all creatures ({n})")
                };
                format!(" Message to {shown}: each gets it as it takes messages ")
            }
            None => self.message_title(),
        };
        let border = self.theme.border_focused;
        self.popups.message.set_title(title, border);
        self.dirty = true;
    }

    /// Where a message to the creature the box was opened for goes.
    fn message_title(&self) -> String {
        let Some(path) = self.popups.message.to() else {
            return String::new();
        };
        let name = self
            .creatures
            .get(path)
            .map(|ui| ui.name.clone())
            .unwrap_or_default();
        let ignored = ignores_messages_file(path);
        let through = self.message_through_openseed(path);
        // Said before anything is typed: the words would reach no one.
        let far = self.remote_of(path).map(|r| r.host.clone());
        if let (true, Some(host)) = (through, &far) {
            format!(
                " Message to {name}: through the OpenSeed orchestrator on {host}, which wakes it "
            )
        } else if let Some(host) = far {
            format!(
                " Message to {name}: to its runner on {host}, else appended to MESSAGES.md there "
            )
        } else if through {
            format!(" Message to {name}: through the OpenSeed orchestrator, which wakes {name} ")
        } else if self
            .creatures
            .get(path)
            .is_some_and(|ui| ui.link != RunnerLink::None)
        {
            format!(" Message to {name}: to its runner, which wakes {name} ")
        } else if ignored {
            format!(
                " {name} will not read MESSAGES.md: its OpenSeed orchestrator delivers messages "
            )
        } else {
            format!(" Message to {name}: appended to MESSAGES.md ")
        }
    }

    pub(crate) fn send_message(&mut self) -> Vec<Job> {
        let message = &self.popups.message;
        let (Some(path), Some(area)) = (message.to().map(Path::to_path_buf), message.text()) else {
            return Vec::new();
        };
        let text = area.lines().join("\n");
        if text.trim().is_empty() {
            let cancel = self.keymap.mention(Action::Cancel, ", or {} to cancel");
            self.set_notice(
                format!("the message is empty: write something{cancel}"),
                true,
            );
            return Vec::new();
        }
        if let Some(all) = self.popups.message.all().map(<[PathBuf]>::to_vec) {
            return self.send_to_all(all, text);
        }
        if !self.creatures.contains_key(&path) {
            // Never to whichever creature is selected now: the text stays for copying.
            let close = self.keymap.mention(Action::Cancel, ", {} closes the box");
            self.set_notice(
                format!(
                    "the creature is gone (its directory was removed): the message was not sent{close}"
                ),
                true,
            );
            return Vec::new();
        }
        let jobs = self.route_message(path, text);
        // Else the box stays open with its text, and the status line says why.
        if !jobs.is_empty() {
            self.close_message_box();
        }
        jobs
    }

    /// The message to each creature of `all` still here, the way each takes messages;
    /// the box closes when it went to at least one, and the status line names those it
    /// could not go to.
    fn send_to_all(&mut self, all: Vec<PathBuf>, text: String) -> Vec<Job> {
        let mut jobs = Vec::new();
        let mut refused = Vec::new();
        let mut sent = 0;
        for path in all {
            let Some(name) = self.creatures.get(&path).map(|ui| ui.name.clone()) else {
                continue;
            };
            let routed = self.route_message(path, text.clone());
            if routed.is_empty() {
                refused.push(name);
            } else {
                sent += 1;
                jobs.extend(routed);
            }
        }
        if sent > 0 {
            self.close_message_box();
        }
        let plural = if sent == 1 { "" } else { "s" };
        let mut said = format!("message sent to {sent} creature{plural}");
        if !refused.is_empty() {
            said.push_str(&format!("; not to {}", refused.join(", ")));
        }
        self.set_notice(said, !refused.is_empty());
        jobs
    }

    /// The jobs that give `text` to the creature at `path` the way it takes messages
    /// (none when it cannot now: the status line says why).
    fn route_message(&mut self, path: PathBuf, text: String) -> Vec<Job> {
        if self.message_through_openseed(&path) {
            return self.openseed_message(path, text);
        }
        if self.remote_of(&path).is_some() {
            return self.remote_job(path, RemoteAsk::Message(text));
        }
        vec![Job::AppendMessage {
            creature: path,
            text,
        }]
    }

    fn close_message_box(&mut self) {
        self.popups.message.close();
        self.mode = Mode::Normal;
    }
}
