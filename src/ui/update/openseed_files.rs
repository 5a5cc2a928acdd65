//! The OpenSeed menu's files (`f`: a creature's files as its genome's `genome.json` tabs
//! declare them, from its orchestrator, else from its directory for a genome no plug-in
//! knows) and the Ranger (`R`: a conversation with the orchestrator's diagnostic agent),
//! and what comes back of them.

use std::path::PathBuf;

use super::{Fetched, Job, OpenSeedAction, OpenSeedDone};
use crate::ui::doc::scroll::Step;
use crate::ui::focus::Mode;
use crate::ui::input::action::Action;
use crate::ui::state::App;
use crate::ui::state::openseed::name_of;

impl App {
    pub(super) fn files_and_ranger_action(&mut self, action: Action) -> Vec<Job> {
        match action {
            Action::OpenSeedFiles => {
                self.mode = Mode::Normal;
                let creature = self.popups.openseed_menu.files_of();
                return self.ask_files(creature);
            }
            Action::FilesReload => {
                let creature = self.popups.genome_files.creature().cloned();
                return self.ask_files(creature);
            }
            Action::FilesNextTab => self.popups.genome_files.turn(true),
            Action::FilesPrevTab => self.popups.genome_files.turn(false),
            Action::FilesClose | Action::RangerClose => self.mode = Mode::Normal,
            Action::OpenSeedRanger => self.open_ranger(),
            Action::RangerAsk => return self.ask_ranger(),
            Action::RangerForget => return self.ranger_job(OpenSeedAction::RangerForget),
            Action::RangerOlder => self.popups.ranger.scroll(self.area, Step::PageUp),
            Action::RangerNewer => self.popups.ranger.scroll(self.area, Step::PageDown),
            _ => {}
        }
        Vec::new()
    }

    /// Reads the files of the creature at `path` (its path and name): through the
    /// orchestrator that runs it, else from its directory.
    fn ask_files(&mut self, creature: Option<(PathBuf, String)>) -> Vec<Job> {
        let Some((path, name)) = creature else {
            self.set_notice(
                "select a creature first: its genome's files are shown (one the orchestrator runs, or one whose genome no plug-in knows)",
                true,
            );
            return Vec::new();
        };
        if self.openseed_route(&path) {
            if self.remote_of(&path).is_some() {
                self.set_notice(
                    format!(
                        "{name} is on another machine: its genome's files are read by an observatory there"
                    ),
                    true,
                );
                return Vec::new();
            }
            return self.openseed_job(path, OpenSeedAction::Files);
        }
        if self.without_files(&path) || self.remote_of(&path).is_some() {
            self.set_notice(
                format!("{name}'s files are not on this machine, and no orchestrator here runs it"),
                true,
            );
            return Vec::new();
        }
        self.set_notice(
            format!("reading the files {name}'s genome.json declares…"),
            false,
        );
        vec![Job::GenomeFiles { creature: path }]
    }

    /// The selected creature when its files are here, no orchestrator runs it and no
    /// plug-in knows its genome (its `genome.json` may declare tabs): its path and name.
    pub(super) fn selected_own_tabs(&self) -> Option<(PathBuf, String)> {
        let path = self.selected.clone()?;
        let ui = self.creatures.get(&path)?;
        let own = !ui.without_files
            && ui.genome.spec().is_none()
            && !self.openseed_route(&path)
            && self.remote_of(&path).is_none();
        own.then(|| (path.clone(), ui.name.clone()))
    }

    fn open_ranger(&mut self) {
        self.mode = Mode::Normal;
        if self.openseed.is_none() {
            self.set_notice(
                "the Ranger is an OpenSeed orchestrator's: none is attached here (--openseed, or [openseed] in the config file)",
                true,
            );
            return;
        }
        let about = self
            .popups
            .openseed_menu
            .creature()
            .filter(|(p, _)| self.remote_of(p).is_none())
            .and_then(|(p, _)| name_of(p))
            .map(str::to_owned);
        self.popups.ranger.open(about, &self.theme, self.area);
        self.mode = Mode::Ranger;
    }

    fn ask_ranger(&mut self) -> Vec<Job> {
        if self.popups.ranger.waiting() {
            self.set_notice(
                "the Ranger is still answering: one question at a time",
                true,
            );
            return Vec::new();
        }
        let about = self.popups.ranger.about().map(str::to_owned);
        let Some(text) = self.popups.ranger.take_question(&self.theme, self.area) else {
            return Vec::new();
        };
        let jobs = self.ranger_job(OpenSeedAction::Ranger { text, about });
        if jobs.is_empty() {
            self.popups.ranger.give_back(&self.theme, self.area);
        }
        jobs
    }

    /// A job for the Ranger of the orchestrator attached here.
    fn ranger_job(&mut self, action: OpenSeedAction) -> Vec<Job> {
        if self.openseed.is_none() {
            self.set_notice("no OpenSeed orchestrator is attached here", true);
            return Vec::new();
        }
        self.openseed_job(PathBuf::new(), action)
    }

    /// What the orchestrator answered to a read of files or to the Ranger; `None` for
    /// any other action.
    pub(super) fn on_files_or_ranger(&mut self, done: &OpenSeedDone) -> Option<String> {
        match (&done.action, done.fetched.as_deref()) {
            (OpenSeedAction::Files, Some(Fetched::Files { files, source })) => {
                let name = self
                    .creatures
                    .get(&done.creature)
                    .map_or_else(|| done.creature.display().to_string(), |u| u.name.clone());
                if files.tabs.is_empty() {
                    return Some(format!(
                        ": {name}'s genome.json declares no tabs, there are no files to show"
                    ));
                }
                self.popups.genome_files.open(
                    (done.creature.clone(), name),
                    *source,
                    files,
                    &self.theme,
                    self.area,
                );
                if matches!(self.mode, Mode::Normal | Mode::GenomeFiles) {
                    self.mode = Mode::GenomeFiles;
                }
            }
            (OpenSeedAction::Files, _) => {}
            (OpenSeedAction::Ranger { .. }, fetched) => {
                let answer = match fetched {
                    Some(Fetched::Ranger(answer)) if answer.unconfigured() => {
                        self.popups
                            .ranger
                            .answered(Ok(answer.clone()), &self.theme, self.area);
                        return Some(
                            " (the orchestrator has no Ranger configured: no ANTHROPIC_API_KEY)"
                                .into(),
                        );
                    }
                    Some(Fetched::Ranger(answer)) => Ok(answer.clone()),
                    _ => Err(done
                        .answer
                        .clone()
                        .unwrap_or_else(|| "the orchestrator did not answer".into())),
                };
                self.popups.ranger.answered(answer, &self.theme, self.area);
            }
            (OpenSeedAction::RangerForget, _) => {
                if done.ok {
                    self.popups.ranger.forgotten(&self.theme, self.area);
                }
            }
            _ => return None,
        }
        Some(String::new())
    }
}
