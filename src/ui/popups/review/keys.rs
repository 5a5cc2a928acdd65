//! A dream held for review (`--review-dreams`): the popup (`D`), and what the operator
//! decides in it: apply, reject (asked first), edit in `$EDITOR` (the text read back is
//! checked here, then sent to the runner, which holds it again until it is applied; the
//! text stays the draft of the next edit until the runner says it holds it).
//! Commands go to the creature's runner (hosted, over its socket, or through a far
//! machine's connection); a creature only watched is refused with why.

use std::path::{Path, PathBuf};

use crate::control::ControlCommand;
use crate::memory::creature::Change;
use crate::ui::doc::DocLine;
use crate::ui::focus::Mode;
use crate::ui::input::action::Action;
use crate::ui::state::App;
use crate::ui::state::confirm::{Confirm, ask_or_answer};
use crate::ui::update::{EditAnswer, Job, RemoteAsk};

/// What became of an edit read back from the editor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edited {
    pub jobs: Vec<Job>,
    /// The edited file is kept (the edit was not sent: the status line says where it is).
    pub keep: bool,
}

impl App {
    /// Opens the popup of the selected creature's dream awaiting review, or closes it.
    pub(crate) fn toggle_review(&mut self) {
        if self.mode == Mode::Review {
            self.mode = Mode::Normal;
            return;
        }
        let Some(ui) = self.selected_ui() else {
            return;
        };
        if ui.review.is_none() {
            let text = format!("{} has no dream awaiting review", ui.name);
            self.set_notice(text, false);
            return;
        }
        self.popups.review.open();
        self.mode = Mode::Review;
    }

    /// The popup's lines for the selected creature (none without a dream held).
    pub fn review_document(&self) -> Vec<DocLine> {
        self.selected_ui()
            .and_then(|ui| ui.review.as_ref())
            .map(|r| {
                crate::ui::popups::review::prepare::document(r, self.clock().at(), &self.theme)
            })
            .unwrap_or_default()
    }

    /// Applies the dream shown.
    pub(crate) fn apply_dream(&mut self) -> Vec<Job> {
        self.decide(ControlCommand::ApplyProposal)
    }

    /// Asks, then (asked again) rejects the dream shown.
    pub(crate) fn reject_dream(&mut self) -> Vec<Job> {
        let (Some(path), Some(ui)) = (self.selected.clone(), self.selected_ui()) else {
            return Vec::new();
        };
        if ui.review.is_none() {
            return Vec::new();
        }
        let name = ui.name.clone();
        if ask_or_answer(&mut self.confirm, Confirm::Reject(path)) {
            return self.decide(ControlCommand::RejectProposal);
        }
        let again = self
            .keymap
            .mention(Action::RejectDream, "{} again rejects it");
        self.set_notice(
            format!(
                "reject {name}'s dream? nothing of it is written and {name} wakes without it; {again}, another key cancels"
            ),
            false,
        );
        Vec::new()
    }

    /// Edits the dream shown in `$EDITOR`: its text form, or the operator's last refused
    /// edit of it.
    pub(crate) fn edit_dream(&mut self) -> Vec<Job> {
        let (Some(path), Some(ui)) = (self.selected.clone(), self.selected_ui()) else {
            return Vec::new();
        };
        let Some(review) = ui.review.as_ref() else {
            return Vec::new();
        };
        if let Some(why) = self.cannot_review(&path) {
            self.set_notice(why, true);
            return Vec::new();
        }
        let text = match &self.popups.review.draft {
            Some((p, draft)) if *p == path => draft.clone(),
            _ => review.proposal.to_text(),
        };
        vec![Job::EditDream {
            creature: path,
            name: ui.name.clone(),
            text,
        }]
    }

    /// The text of the edited dream, read back once the editor exited: checked against
    /// the proposal's form, then sent to the runner to hold in place of the old one (the
    /// next edit starts from it until the runner says it holds it). A text that does not
    /// fit, or that cannot be sent, is not sent: the status line says why, and the file
    /// and the next edit keep it.
    pub fn on_dream_edited(&mut self, creature: &Path, text: String, file: &Path) -> Edited {
        let kept = file.display().to_string();
        let Some(ui) = self.creatures.get(creature) else {
            return Edited {
                jobs: Vec::new(),
                keep: true,
            };
        };
        let name = ui.name.clone();
        let Some(review) = ui.review.as_ref() else {
            self.set_notice(
                format!(
                    "{name}'s dream is no longer awaiting review (decided, or its time ran out): your edit was not sent, it is kept in {kept}"
                ),
                true,
            );
            return Edited {
                jobs: Vec::new(),
                keep: true,
            };
        };
        if text == review.proposal.to_text() {
            self.popups.review.draft = None;
            self.set_notice(
                format!("{name}'s dream was not changed: it stays held as it was"),
                false,
            );
            return Edited {
                jobs: Vec::new(),
                keep: false,
            };
        }
        if let Err(e) = review.proposal.with_text(&text) {
            let again = self
                .keymap
                .mention(Action::EditDream, " ({} edits it again)");
            self.set_notice(
                format!(
                    "{name}'s edited dream was not sent: {}; the dream stays as it was, your text is kept in {kept}{again}",
                    crate::ui::prepare::inert(&e.to_string())
                ),
                true,
            );
            self.popups.review.draft = Some((creature.to_path_buf(), text));
            return Edited {
                jobs: Vec::new(),
                keep: true,
            };
        }
        if let Some(why) = self.cannot_review(creature) {
            let again = self
                .keymap
                .mention(Action::EditDream, " ({} edits it again)");
            self.set_notice(
                format!("{why}: your edit was not sent, it is kept in {kept}{again}"),
                true,
            );
            self.popups.review.draft = Some((creature.to_path_buf(), text));
            return Edited {
                jobs: Vec::new(),
                keep: true,
            };
        }
        // The draft until the runner says it holds it: refused, nothing is lost.
        self.popups.review.draft = Some((creature.to_path_buf(), text.clone()));
        Edited {
            jobs: self.review_command(creature, ControlCommand::ReplaceProposal { text }),
            keep: false,
        }
    }

    /// What the runner made of an edited dream sent to it: held, the edit is done with;
    /// else it is the draft the next edit starts from again (unless a newer edit is), and
    /// the status line says so: returns what to add to it.
    pub(crate) fn on_edit_answered(&mut self, edit: EditAnswer) -> String {
        let draft = self
            .popups
            .review
            .draft
            .as_ref()
            .filter(|(p, _)| *p == edit.creature)
            .map(|(_, text)| text);
        if edit.held {
            if draft == Some(&edit.text) {
                self.popups.review.draft = None;
            }
            return String::new();
        }
        let held = self
            .creatures
            .get(&edit.creature)
            .is_some_and(|ui| ui.review.is_some());
        if !held {
            // Its dream is gone: there is nothing left for the edit to change.
            return String::new();
        }
        if draft.is_none() {
            self.popups.review.draft = Some((edit.creature, edit.text));
        }
        let again = self
            .keymap
            .mention(Action::EditDream, ": {} edits it again");
        format!("; the dream stays as it was, your edit is kept{again}")
    }

    /// Applies or rejects the selected creature's dream.
    fn decide(&mut self, command: ControlCommand) -> Vec<Job> {
        let Some(path) = self.selected.clone() else {
            return Vec::new();
        };
        if self.selected_ui().is_none_or(|u| u.review.is_none()) {
            return Vec::new();
        }
        let jobs = self.review_command(&path, command);
        if !jobs.is_empty() {
            self.popups.review.decided = Some(path);
            self.mode = Mode::Normal;
        }
        jobs
    }

    /// Why the creature's dream cannot be decided from here, if it cannot.
    fn cannot_review(&self, path: &Path) -> Option<String> {
        let ui = self.creatures.get(path)?;
        let reachable = self.remote_of(path).is_some()
            || ui.link != crate::ui::state::creature::RunnerLink::None;
        (!reachable).then(|| {
            format!(
                "cannot review {}'s dream: it is only watched, no dreamwatch runner hosts it (its runner is gone: the dream is held until one hosts it again)",
                ui.name
            )
        })
    }

    /// A review command for the runner of the creature at `path`: a far creature's
    /// through its connection, else its runner's; refused with why for one only watched.
    fn review_command(&mut self, path: &Path, command: ControlCommand) -> Vec<Job> {
        if let Some(why) = self.cannot_review(path) {
            self.set_notice(why, true);
            return Vec::new();
        }
        let creature: PathBuf = path.to_path_buf();
        if self.remote_of(path).is_some() {
            return self.remote_job(creature, RemoteAsk::Control(command));
        }
        vec![Job::Control { creature, command }]
    }

    /// After a batch of changes: a dream newly held is said in the status line; the
    /// popup of a dream no longer held closes.
    pub(crate) fn follow_reviews(&mut self, path: &Path, changes: &[Change], was_held: bool) {
        if !changes.contains(&Change::Proposal) {
            return;
        }
        let Some(ui) = self.creatures.get(path) else {
            return;
        };
        let name = ui.name.clone();
        match (&ui.review, was_held) {
            (Some(review), false) => {
                let shows = self.keymap.mention(Action::ReviewDream, ": {} shows it");
                let text = format!("{name}: {} awaiting review{shows}", review.what());
                self.set_notice(text, false);
            }
            (None, true) => {
                let shown = self.mode == Mode::Review && self.selected.as_deref() == Some(path);
                if shown {
                    self.mode = Mode::Normal;
                }
                // Decided here: the runner's answer says what became of it.
                if self.popups.review.decided.as_deref() == Some(path) {
                    self.popups.review.decided = None;
                } else if shown {
                    let text = format!(
                        "{name}'s dream is no longer awaiting review: applied when its time ran out, or decided elsewhere"
                    );
                    self.set_notice(text, false);
                }
                if self
                    .popups
                    .review
                    .draft
                    .as_ref()
                    .is_some_and(|(p, _)| p == path)
                {
                    self.popups.review.draft = None;
                }
            }
            _ => {}
        }
    }
}
