//! Gardens on other machines: what a connection's reports do to the state, and what the
//! creature keys do for a far creature (`s`, `p`, `w` go to its runner there, `m` to its
//! runner or its MESSAGES.md there, all through the same connection).

use std::path::{Path, PathBuf};

use super::{Job, OpenSeedAction};
use crate::control::ControlCommand;
use crate::remote::Update;
use crate::ui::state::App;
use crate::ui::state::openseed::OpenSeedUi;
use crate::ui::state::remote::{RemoteLink, RemoteUi, root_of};

/// What is asked of a far creature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RemoteAsk {
    Control(ControlCommand),
    Message(String),
    /// An action of the far machine's OpenSeed orchestrator.
    OpenSeed(OpenSeedAction),
    /// Its conversation's window before the others' (it is looked at).
    Want,
}

impl App {
    /// The far garden the creature at `path` is a copy from.
    pub fn remote_of(&self, path: &Path) -> Option<&RemoteUi> {
        self.remotes.get(root_of(path)?)
    }

    /// Follows a far garden whose copies sit in `root`: its creatures (those there
    /// already too) are marked with its host.
    pub fn add_remote(&mut self, root: PathBuf, remote: RemoteUi) {
        let host = remote.host.clone();
        for (path, ui) in self.creatures.iter_mut() {
            if root_of(path) == Some(root.as_path())
                && let Some(model) = self.garden.creature(path)
            {
                ui.mark_remote(host.clone(), model);
            }
        }
        self.remotes.insert(root, remote);
        self.dirty = true;
    }

    /// The selected creature, when it is a far one.
    pub fn selected_remote(&self) -> Option<PathBuf> {
        self.selected
            .clone()
            .filter(|p| self.remote_of(p).is_some())
    }

    /// Asks the far side for the selected creature.
    pub(crate) fn remote_job(&self, creature: PathBuf, ask: RemoteAsk) -> Vec<Job> {
        vec![Job::Remote { creature, ask }]
    }

    /// What far gardens are asked for after a frame: the shown far creature's
    /// conversation window first, when its garden's are still coming; and every garden's
    /// windows once every far garden's figures are in and read (no connection still
    /// connecting, the garden loaded), so that no far side's lines slow another's rows.
    pub fn take_remote_jobs(&mut self) -> Vec<Job> {
        let mut jobs = Vec::new();
        if let Some(path) = self.selected.clone()
            && self.remote_of(&path).is_some_and(|r| r.windows_left > 0)
            && self.wanted.as_ref() != Some(&path)
        {
            self.wanted = Some(path.clone());
            jobs.push(Job::Remote {
                creature: path,
                ask: RemoteAsk::Want,
            });
        }
        let settled = self.garden.loading().is_none()
            && self
                .remotes
                .values()
                .all(|r| r.link != RemoteLink::Connecting);
        if settled {
            for (root, remote) in &mut self.remotes {
                if remote.windows_left > 0 && !remote.windows_asked {
                    remote.windows_asked = true;
                    jobs.push(Job::RemoteWindows { root: root.clone() });
                }
            }
        }
        jobs
    }

    /// Takes in what a connection reports.
    pub fn on_remote(&mut self, root: &Path, update: Update) {
        let now = self.now();
        let Some(remote) = self.remotes.get_mut(root) else {
            return;
        };
        self.dirty = true;
        let host = remote.host.clone();
        let said = match update {
            Update::Up => {
                let was = std::mem::replace(&mut remote.link, RemoteLink::Up);
                matches!(was, RemoteLink::Down { .. }).then(|| {
                    (
                        format!("{host}: connected again, its creatures are current"),
                        false,
                    )
                })
            }
            Update::Down { error, retry_in } => {
                let error = crate::ui::prepare::inert(&error);
                let (since, said) = match &remote.link {
                    RemoteLink::Down { since, .. } => (*since, None),
                    RemoteLink::Connecting => (
                        now,
                        Some((
                            format!(
                                "{host}: cannot connect ({error}): it is tried again by itself"
                            ),
                            true,
                        )),
                    ),
                    _ => (
                        now,
                        Some((
                            format!(
                                "{host}: connection lost ({error}): its creatures show what was last seen, and it is tried again by itself"
                            ),
                            true,
                        )),
                    ),
                };
                // Its orchestrator is out of reach with it.
                if let Some(openseed) = remote.openseed.as_mut() {
                    openseed.link = crate::ui::state::openseed::Link::Down {
                        error: format!("the connection to {host} is down"),
                        since,
                        retry_in,
                    };
                }
                // A new far side sends them again.
                remote.windows_left = 0;
                remote.windows_asked = false;
                remote.link = RemoteLink::Down {
                    error,
                    since,
                    retry_in,
                };
                said
            }
            Update::OpenSeed(update) => {
                match serde_json::from_value::<crate::openseed::Update>(update) {
                    Ok(update) => {
                        let openseed = remote.openseed.get_or_insert_with(|| {
                            OpenSeedUi::new(format!("the OpenSeed orchestrator on {host}"))
                        });
                        super::openseed::take(openseed, update, now)
                            .map(|(text, error)| (format!("{host}: {text}"), error))
                    }
                    Err(e) => {
                        tracing::debug!("{host}: an OpenSeed report not understood: {e}");
                        None
                    }
                }
            }
            Update::Cut { what } => Some((crate::ui::prepare::inert(&what), true)),
            Update::Windows { left } => {
                remote.windows_left = left;
                None
            }
            Update::Refused { error } => {
                let error = crate::ui::prepare::inert(&error);
                remote.link = RemoteLink::Refused {
                    error: error.clone(),
                };
                Some((
                    format!("{host}: cannot follow {}: {error}", remote.place),
                    true,
                ))
            }
        };
        self.merge_orchestrated();
        self.sync_api_only();
        if let Some((text, error)) = said {
            self.set_notice(text, error);
        }
    }
}
