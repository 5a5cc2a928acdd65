//! What the creature keys do for a creature an OpenSeed orchestrator runs (through its
//! API): `w` wakes, `m` messages, `p` stops the container after asking, or starts it;
//! `w` and `p` start a creature its budget paused after asking; `s` has no endpoint. A
//! stop or a start under way refuses another; what the orchestrator answers is taken in
//! here.

use std::path::{Path, PathBuf};

use super::{Job, RemoteAsk};
use crate::openseed::{
    ApiStatus, BudgetLevel, CreatureInfo, EventKind, GenomeInfo, Lifecycle, LiveEvent, ModelInfo,
    SpawnRequest,
};
use crate::ui::input::action::Action;
use crate::ui::state::App;
use crate::ui::state::confirm::{Confirm, ask_or_answer};
use crate::ui::state::openseed::{Link, name_of};

/// What the orchestrator is asked to do for a creature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenSeedAction {
    Wake,
    Message(String),
    /// Stop its container.
    Stop,
    Start,
    /// Restart, rebuild, remount or archive it (its dashboard's buttons).
    Lifecycle(Lifecycle),
    /// Spawn a new creature (not the one the action is for).
    Spawn(Box<SpawnRequest>),
    /// Read the genomes and models a spawn may choose from.
    SpawnChoices,
    /// Read its daily cap (`global`: the one of every creature without its own).
    ReadCap {
        global: bool,
    },
    /// Set its daily cap (`global`: every creature's without its own) in cents, and what
    /// happens at it.
    SetCap {
        global: bool,
        cents: u64,
        action: String,
    },
    /// Read its files as its genome's `genome.json` tabs declare them.
    Files,
    /// Ask the orchestrator's Ranger `text`, about the creature it names.
    Ranger {
        text: String,
        about: Option<String>,
    },
    /// Make the Ranger forget its conversation.
    RangerForget,
}

impl OpenSeedAction {
    /// The route's last segment (`POST /api/creatures/NAME/VERB`).
    pub fn verb(&self) -> &'static str {
        match self {
            Self::Wake => "wake",
            Self::Message(_) => "message",
            Self::Stop => "stop",
            Self::Start => "start",
            Self::Lifecycle(l) => l.verb(),
            Self::Spawn(_) => "spawn",
            Self::SpawnChoices => "read the genomes and models for",
            Self::ReadCap { .. } => "read the budget of",
            Self::SetCap { .. } => "set the budget of",
            Self::Files => "read the genome files of",
            Self::Ranger { .. } => "ask",
            Self::RangerForget => "clear the conversation of",
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
    /// What was read, for what was asked to read.
    pub fetched: Option<Box<Fetched>>,
}

/// What the orchestrator answered to a read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetched {
    SpawnChoices {
        genomes: Vec<GenomeInfo>,
        models: Vec<ModelInfo>,
    },
    /// A daily cap, in cents, and what happens at it.
    Cap {
        global: bool,
        cents: u64,
        action: String,
    },
    /// A creature's files as its genome's tabs declare them, and where they were read.
    Files {
        files: crate::openseed::GenomeFiles,
        source: crate::ui::popups::genome_files::Source,
    },
    /// The Ranger's answer.
    Ranger(crate::openseed::RangerAnswer),
}

impl App {
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
    pub(super) fn openseed_busy(&mut self, path: &Path, name: &str) -> bool {
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
        if matches!(
            action,
            OpenSeedAction::Stop | OpenSeedAction::Start | OpenSeedAction::Lifecycle(_)
        ) && let Some(name) = name_of(path).map(str::to_owned)
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
        if let Some(said) = self.on_files_or_ranger(&done) {
            return said;
        }
        if let Some(fetched) = done.fetched.clone() {
            self.on_openseed_fetched(&done.creature, &done.action, *fetched);
        }
        let now = self.now();
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
                OpenSeedAction::Start
                | OpenSeedAction::Lifecycle(
                    Lifecycle::Restart | Lifecycle::Rebuild | Lifecycle::Remount,
                ) => {
                    c.status = ApiStatus::Starting;
                    c.sleep_reason = None;
                }
                _ => {}
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
    pub(crate) fn openseed_message(&mut self, path: PathBuf, text: String) -> Vec<Job> {
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
