//! An attached OpenSeed orchestrator: what its reports do to the state (and which
//! creatures it runs; what the keys do for them is `openseed_keys`).

use crate::ui::state::confirm::Confirm;
use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use std::path::{Path, PathBuf};

use crate::openseed::{ApiStatus, CreatureInfo, EventKind, Update};
use crate::ui::state::App;
use crate::ui::state::creature::{CreatureUi, RunnerLink, ignores_messages_file};
use crate::ui::state::openseed::{Link, OpenSeedUi, api_only_path, name_of, plain};

impl App {
    /// The creature at `path` is run by an orchestrator (no dreamwatch runner hosts it,
    /// and the orchestrator of its machine lists it: the one attached here, or a far
    /// creature's, reached through its connection).
    pub fn openseed_route(&self, path: &Path) -> bool {
        self.creatures
            .get(path)
            .is_some_and(|u| u.link == RunnerLink::None)
            && self
                .orchestrator_of(path)
                .is_some_and(|o| o.creature(path).is_some())
    }

    /// A message to the creature at `path` goes through the orchestrator: it is run by it
    /// and its genome does not read MESSAGES.md (those of 13 February 2026 on), or its
    /// files are not on this machine.
    pub fn message_through_openseed(&self, path: &Path) -> bool {
        self.openseed_route(path) && (self.without_files(path) || ignores_messages_file(path))
    }

    /// The creature at `path` is known only from what an orchestrator says of it.
    pub fn without_files(&self, path: &Path) -> bool {
        self.creatures.get(path).is_some_and(|u| u.without_files)
    }

    /// Shows each creature an orchestrator lists whose files are not here from what the
    /// orchestrator says alone, and folds that row into the creature's own as soon as its
    /// files are (one row, never two): the attached orchestrator's at [`api_only_path`]
    /// (files anywhere in the local garden count), a far machine's where the copy of its
    /// files would be (they arrive there). A creature no longer listed leaves the garden.
    pub(crate) fn sync_api_only(&mut self) {
        let mut wanted: BTreeMap<PathBuf, String> = BTreeMap::new();
        if let Some(openseed) = self.openseed.as_ref() {
            let with_files: BTreeSet<&str> = self
                .creatures
                .iter()
                .filter(|(p, u)| !u.without_files && self.remote_of(p).is_none())
                .filter_map(|(p, _)| name_of(p))
                .collect();
            for name in openseed.creatures.keys().filter(|n| plain(n)) {
                if !with_files.contains(name.as_str()) {
                    wanted.insert(api_only_path(name), name.clone());
                }
            }
        }
        for (root, remote) in &self.remotes {
            let Some(openseed) = remote.openseed.as_ref() else {
                continue;
            };
            for name in openseed.creatures.keys().filter(|n| plain(n)) {
                let path = root.join(name);
                if self.creatures.get(&path).is_none_or(|u| u.without_files) {
                    wanted.insert(path, format!("{name}@{}", remote.host));
                }
            }
        }
        let gone: Vec<PathBuf> = self
            .creatures
            .iter()
            .filter(|(p, u)| u.without_files && !wanted.contains_key(*p))
            .map(|(p, _)| p.clone())
            .collect();
        for path in gone {
            self.drop_api_only(&path);
        }
        for (path, name) in wanted {
            if !self.creatures.contains_key(&path) {
                let mut ui = CreatureUi::without_files(&path, &name, &self.theme, self.cycle);
                ui.remote_host = self.remote_of(&path).map(|r| r.host.clone());
                self.creatures.insert(path.clone(), ui);
                self.selected.get_or_insert(path);
            }
        }
        let said: Vec<(PathBuf, Option<CreatureInfo>, Option<DateTime<Utc>>)> = self
            .creatures
            .iter()
            .filter(|(_, u)| u.without_files)
            .map(|(p, _)| {
                let o = self.orchestrator_of(p);
                let api = o.filter(|o| o.up()).and_then(|o| o.creature(p)).cloned();
                (p.clone(), api, o.and_then(|o| o.last_event(p)))
            })
            .collect();
        for (path, api, last) in said {
            if let Some(ui) = self.creatures.get_mut(&path) {
                ui.refresh_from_api(api.as_ref(), last);
            }
        }
        self.dirty = true;
    }

    /// Takes away the row of a creature known only from an orchestrator: what pointed at
    /// it (selection, message box, a stop asked, its draft) goes to the local creature of
    /// the same name whose files are now here, if there is one.
    fn drop_api_only(&mut self, path: &Path) {
        let heir = self
            .creatures
            .iter()
            .find(|(p, u)| {
                !u.without_files
                    && name_of(p) == name_of(path)
                    && self.remote_of(p).is_none()
                    && self.remote_of(path).is_none()
            })
            .map(|(p, _)| p.clone());
        let Some(ui) = self.creatures.remove(path) else {
            return;
        };
        if self.selected.as_deref() == Some(path) {
            self.selected = heir
                .clone()
                .or_else(|| self.garden_order().first().cloned());
        }
        self.popups.message.retarget(path, heir.as_ref());
        if let Some(Confirm::Stop(asked) | Confirm::Start(asked, _)) = self.confirm.as_mut()
            && asked.as_path() == path
        {
            match &heir {
                Some(heir) => heir.clone_into(asked),
                None => self.confirm = None,
            }
        }
        if let Some(heir) = heir.and_then(|h| self.creatures.get_mut(&h))
            && heir.draft.is_empty()
        {
            heir.draft = ui.draft;
        }
    }

    /// The selected creature, with its name, when the orchestrator runs it.
    pub(super) fn selected_openseed(&self) -> Option<(PathBuf, String)> {
        let path = self.selected.clone()?;
        let name = self.creatures.get(&path)?.name.clone();
        self.openseed_route(&path).then_some((path, name))
    }

    /// Takes in what the attachment reports.
    pub fn on_openseed(&mut self, update: Update) {
        let now = self.now();
        let Some(openseed) = self.openseed.as_mut() else {
            return;
        };
        self.dirty = true;
        let said = take(openseed, update, now);
        self.merge_orchestrated();
        self.sync_api_only();
        if let Some((text, error)) = said {
            self.set_notice(text, error);
        }
    }

    /// What the orchestrator that runs the creature at `path` says: the far machine's
    /// for a far creature, else the one attached here.
    pub fn orchestrator_of(&self, path: &Path) -> Option<&OpenSeedUi> {
        match self.remote_of(path) {
            Some(remote) => remote.openseed.as_ref(),
            None => self.openseed.as_ref(),
        }
    }

    pub fn orchestrator_of_mut(&mut self, path: &Path) -> Option<&mut OpenSeedUi> {
        let root = crate::ui::state::remote::root_of(path);
        match root.and_then(|r| self.remotes.get_mut(r)) {
            Some(remote) => remote.openseed.as_mut(),
            None => self.openseed.as_mut(),
        }
    }

    /// Gives each creature the orchestrator runs its word on it (none while the
    /// orchestrator cannot be reached: then the files alone say), and refreshes its summary.
    pub(super) fn merge_orchestrated(&mut self) {
        let now = self.now();
        let said: Vec<(PathBuf, Option<ApiStatus>)> = self
            .creatures
            .keys()
            .filter(|p| !self.without_files(p))
            .map(|p| {
                let api = self
                    .orchestrator_of(p)
                    .filter(|o| o.up())
                    .and_then(|o| o.creature(p))
                    .map(|c| c.status.clone());
                (p.clone(), api)
            })
            .collect();
        for (path, api) in said {
            let Some(ui) = self.creatures.get_mut(&path) else {
                continue;
            };
            let api = api.filter(|_| ui.link == RunnerLink::None);
            if ui.orchestrated != api {
                ui.orchestrated = api;
                if let Some(model) = self.garden.creature(&path) {
                    ui.refresh_summary(model, now);
                }
            }
        }
    }
}

/// What an orchestrator's report does to what is known of it; what to say of it (and
/// whether it is bad news).
pub(super) fn take(
    openseed: &mut OpenSeedUi,
    update: Update,
    now: DateTime<Utc>,
) -> Option<(String, bool)> {
    match update {
        Update::Up { base } => {
            let was_down = matches!(openseed.link, Link::Down { .. });
            openseed.link = Link::Up { base: base.clone() };
            was_down.then(|| (format!("the OpenSeed orchestrator is back ({base})"), false))
        }
        Update::Down { error, retry_in } => {
            let (since, said) = match &openseed.link {
                Link::Down { since, .. } => (*since, None),
                Link::Up { .. } | Link::Connecting => (
                    now,
                    Some((
                        format!(
                            "the OpenSeed orchestrator cannot be reached ({error}): the files are still watched, and it is tried again by itself"
                        ),
                        true,
                    )),
                ),
            };
            openseed.link = Link::Down {
                error,
                since,
                retry_in,
            };
            said
        }
        Update::Creatures(list) => {
            openseed.set_creatures(list);
            None
        }
        Update::Costs(costs) => {
            openseed.costs = costs;
            None
        }
        Update::Stored(event) => {
            // A far machine's orchestrator sends its last stored events again after the
            // connection is made anew: those already here are not kept twice.
            if !openseed.has_event(&event) {
                openseed.push_event(event);
            }
            None
        }
        Update::Cut { what } => Some((format!("the OpenSeed orchestrator: {what}"), true)),
        Update::Event(event) => {
            let event = openseed.push_event(event);
            match &event.kind {
                EventKind::Error { error, .. } => {
                    Some((format!("{}: {error}", event.creature), true))
                }
                EventKind::BudgetExceeded { spent, cap } => Some((
                    format!(
                        "{} reached its daily budget (${spent:.2} of ${cap:.2}): the orchestrator paused it until the day resets",
                        event.creature
                    ),
                    true,
                )),
                EventKind::SpawnFailed { error } => Some((
                    format!("{} could not be spawned: {error}", event.creature),
                    true,
                )),
                EventKind::HostRollback { reason, .. } => Some((
                    format!("{}'s code was rolled back: {reason}", event.creature),
                    true,
                )),
                EventKind::InfraFailure { reason } => Some((
                    format!(
                        "the orchestrator could not run {}: {reason}",
                        event.creature
                    ),
                    true,
                )),
                EventKind::Orchestrator {
                    healthy: false,
                    down,
                } => Some((
                    format!(
                        "the OpenSeed orchestrator is degraded ({} down): it cannot start creatures",
                        down.join(", ")
                    ),
                    true,
                )),
                _ => None,
            }
        }
    }
}
