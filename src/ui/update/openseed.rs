//! An attached OpenSeed orchestrator: what its reports do to the state, and what the
//! creature keys do for the creatures it runs (through its API: `w` wakes, `m` messages,
//! `p` stops the container after asking, or starts it; `w` and `p` start a creature its
//! budget paused after asking; `s` has no endpoint).

use crate::ui::state::confirm::{Confirm, ask_or_answer};
use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use std::path::{Path, PathBuf};

use super::{Job, RemoteAsk};
use crate::openseed::{ApiStatus, BudgetLevel, CreatureInfo, EventKind, LiveEvent, Update};
use crate::ui::input::action::Action;
use crate::ui::state::App;
use crate::ui::state::creature::{CreatureUi, RunnerLink, ignores_messages_file};
use crate::ui::state::openseed::{Link, OpenSeedUi, api_only_path, name_of, plain};

/// What the orchestrator is asked to do for a creature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenSeedAction {
    Wake,
    Message(String),
    /// Stop its container.
    Stop,
    Start,
}

impl OpenSeedAction {
    /// The route's last segment (`POST /api/creatures/NAME/VERB`).
    pub fn verb(&self) -> &'static str {
        match self {
            Self::Wake => "wake",
            Self::Message(_) => "message",
            Self::Stop => "stop",
            Self::Start => "start",
        }
    }

    /// The message's text, for a message.
    pub fn message(&self) -> Option<&str> {
        match self {
            Self::Message(text) => Some(text),
            _ => None,
        }
    }
}

/// What the orchestrator made of an action asked of it for a creature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenSeedDone {
    pub creature: PathBuf,
    pub action: OpenSeedAction,
    pub ok: bool,
    /// Its answer whole, when the status line cannot show all of it (several lines, or
    /// a long one).
    pub answer: Option<String>,
}

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
        if self.message_to.as_deref() == Some(path) {
            self.message_to.clone_from(&heir);
        }
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
        let now = self.now;
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
                    ui.refresh_summary(model, self.now);
                }
            }
        }
    }

    /// `s` on an OpenSeed creature: there is no way to make it sleep.
    pub(super) fn openseed_force_sleep(&mut self, name: &str) -> Vec<Job> {
        self.set_notice(
            format!(
                "OpenSeed has no endpoint to force a sleep: {name} sleeps when it decides to (or when its daily budget runs out)"
            ),
            true,
        );
        Vec::new()
    }

    pub(super) fn openseed_wake(&mut self, path: PathBuf, name: &str) -> Vec<Job> {
        if self.openseed_busy(&path, name) {
            return Vec::new();
        }
        if self.paused_for_budget(&path) {
            return self.openseed_resume(path, name, Action::Wake);
        }
        let status = self.api_status(&path);
        match status {
            Some(ApiStatus::Stopped) => {
                let start = self.keymap.mention(Action::PauseResume, ": {} starts it");
                self.set_notice(format!("{name}'s container is stopped{start}"), true);
                Vec::new()
            }
            Some(ApiStatus::Running) => {
                self.set_notice(format!("{name} is already awake"), false);
                Vec::new()
            }
            _ => self.openseed_job(path, OpenSeedAction::Wake),
        }
    }

    /// `p`: start a stopped container (or one its budget paused, once asked twice); stop
    /// a running one once asked twice.
    pub(super) fn openseed_stop_start(&mut self, path: PathBuf, name: &str) -> Vec<Job> {
        if self.openseed_busy(&path, name) {
            return Vec::new();
        }
        if self.paused_for_budget(&path) {
            return self.openseed_resume(path, name, Action::PauseResume);
        }
        let runs = self.api_status(&path).is_none_or(|s| s.runs());
        if !runs {
            return self.openseed_job(path, OpenSeedAction::Start);
        }
        if ask_or_answer(&mut self.confirm, Confirm::Stop(path.clone())) {
            return self.openseed_job(path, OpenSeedAction::Stop);
        }
        let again = self.keymap.mention(
            Action::PauseResume,
            "{} again stops it, any other key keeps it running",
        );
        self.set_notice(
            format!(
                "stop {name}? This stops its Docker container through the orchestrator: {again}"
            ),
            false,
        );
        Vec::new()
    }

    /// `w` or `p` on a creature the orchestrator paused at its daily budget (its
    /// container stopped, the API saying it sleeps): its start route starts it again, as
    /// its dashboard's start button does, once asked twice.
    fn openseed_resume(&mut self, path: PathBuf, name: &str, key: Action) -> Vec<Job> {
        if ask_or_answer(&mut self.confirm, Confirm::Start(path.clone(), key)) {
            return self.openseed_job(path, OpenSeedAction::Start);
        }
        let past = self
            .orchestrator_of(&path)
            .and_then(|o| o.budget(&path))
            .filter(|b| b.level() == BudgetLevel::Past)
            .map(|b| {
                format!(
                    " (${:.2} of ${:.2}): unless its cap is raised, it is paused again at its next model call",
                    b.daily_spent_usd, b.daily_cap_usd
                )
            })
            .unwrap_or_default();
        let again = self.keymap.mention(
            key,
            "{} again starts its container, any other key leaves it paused",
        );
        self.set_notice(
            format!(
                "start {name} again? The orchestrator paused it at its daily budget{past}. {again}"
            ),
            false,
        );
        Vec::new()
    }

    /// Says so when the orchestrator has not yet answered a stop or a start of the
    /// creature at `path` (nothing more is asked of it meanwhile).
    fn openseed_busy(&mut self, path: &Path, name: &str) -> bool {
        let Some(verb) = self
            .orchestrator_of(path)
            .and_then(|o| o.busy.get(name_of(path)?))
            .copied()
        else {
            return false;
        };
        self.set_notice(
            format!("{name}: the orchestrator has not answered the {verb} yet, wait for it"),
            true,
        );
        true
    }

    /// The orchestrator paused the creature at `path` at its daily budget.
    fn paused_for_budget(&self, path: &Path) -> bool {
        self.orchestrator_of(path)
            .and_then(|o| o.creature(path))
            .is_some_and(CreatureInfo::paused_for_budget)
    }

    /// A stop or a start of the creature at `path` has been sent: until it is answered,
    /// no other is.
    pub fn openseed_sent(&mut self, path: &Path, action: &OpenSeedAction) {
        let verb = action.verb();
        if matches!(action, OpenSeedAction::Stop | OpenSeedAction::Start)
            && let Some(name) = name_of(path).map(str::to_owned)
            && let Some(o) = self.orchestrator_of_mut(path)
        {
            o.busy.insert(name, verb);
        }
    }

    /// What the orchestrator answered to an action: a stop or a start is no longer under
    /// way and, done, is seen at once (it tells nothing of either on its stream; the
    /// status read again says the rest); a refusal longer than the status line is kept
    /// whole in the creature's live view. Returns what to add to the notice.
    pub(super) fn on_openseed_done(&mut self, done: OpenSeedDone) -> String {
        let now = self.now;
        let Some(name) = name_of(&done.creature).map(str::to_owned) else {
            return String::new();
        };
        let live = self
            .keymap
            .mention(Action::ViewLive, " (the whole answer: {}, its live view)");
        let Some(o) = self.orchestrator_of_mut(&done.creature) else {
            return String::new();
        };
        o.busy.remove(&name);
        if done.ok
            && let Some(c) = o.creatures.get_mut(&name)
        {
            match done.action {
                OpenSeedAction::Stop => {
                    c.status = ApiStatus::Stopped;
                    c.sleep_reason = None;
                }
                OpenSeedAction::Start => {
                    c.status = ApiStatus::Starting;
                    c.sleep_reason = None;
                }
                OpenSeedAction::Wake | OpenSeedAction::Message(_) => {}
            }
        }
        let said = match done.answer {
            Some(answer) => {
                o.push_event(LiveEvent {
                    creature: name,
                    t: Some(now),
                    kind: EventKind::Refused {
                        action: done.action.verb().to_owned(),
                        answer,
                    },
                });
                live
            }
            None => String::new(),
        };
        self.merge_orchestrated();
        self.sync_api_only();
        said
    }

    /// A message through the orchestrator, or why it cannot go now (the message then
    /// stays in its box).
    pub(super) fn openseed_message(&mut self, path: PathBuf, text: String) -> Vec<Job> {
        let name = self
            .creatures
            .get(&path)
            .map(|u| u.name.clone())
            .unwrap_or_default();
        if self.paused_for_budget(&path) {
            let start = self
                .keymap
                .mention(Action::PauseResume, " ({} starts it again)");
            self.set_notice(
                format!(
                    "{name} is paused at its daily budget, its container stopped{start}: the message waits in its box"
                ),
                true,
            );
            return Vec::new();
        }
        if self.api_status(&path) == Some(ApiStatus::Stopped) {
            let start = self.keymap.mention(Action::PauseResume, " ({} starts it)");
            self.set_notice(
                format!("{name}'s container is stopped{start}: the message waits in its box"),
                true,
            );
            return Vec::new();
        }
        self.openseed_job(path, OpenSeedAction::Message(text))
    }

    /// A job for the orchestrator (a far creature's through its connection), or why it
    /// cannot be asked now.
    pub(super) fn openseed_job(&mut self, path: PathBuf, action: OpenSeedAction) -> Vec<Job> {
        if let Some(o) = self.orchestrator_of(&path)
            && let Link::Down { error, .. } = &o.link
        {
            let text = format!("the OpenSeed orchestrator cannot be reached now ({error})");
            self.set_notice(text, true);
            return Vec::new();
        }
        if self.remote_of(&path).is_some() {
            return self.remote_job(path, RemoteAsk::OpenSeed(action));
        }
        vec![Job::OpenSeed {
            creature: path,
            action,
        }]
    }

    fn api_status(&self, path: &Path) -> Option<ApiStatus> {
        self.orchestrator_of(path)
            .and_then(|o| o.creature(path))
            .map(|c| c.status.clone())
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
