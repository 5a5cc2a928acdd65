//! What the observatory keeps per creature: its summary, and a component for each of its
//! views ([`crate::ui::views`]) and its genome's ([`crate::ui::genome::GenomeUi`]).

use std::path::Path;

use chrono::{DateTime, Utc};

use super::failure::Failure;
use super::health::{Attention, Health};
use crate::control::HostStatus;
use crate::memory::creature::{Change, Creature};
use crate::memory::cycle::Cycle;
use crate::memory::genome::Genome;
use crate::memory::identity::BrainKind;
use crate::memory::layout::FileKind;
use crate::memory::observations::Priority;
use crate::memory::pulse::{PulseSeries, interval_of};
use crate::memory::status::Status;
use crate::memory::summary::Summary;
use crate::memory::usage::UsageLog;
use crate::openseed::{ApiStatus, CreatureInfo};
use crate::ui::focus::MainView;
use crate::ui::popups::review::PendingReview;
use crate::ui::prepare::inert;
use crate::ui::state::openseed::merge_status;
use crate::ui::theme::Theme;
use crate::ui::views::diary::DiaryView;
use crate::ui::views::dreams::DreamsView;
use crate::ui::views::events::EventsView;
use crate::ui::views::live;
use crate::ui::views::observations::ObservationsView;
use crate::ui::views::recall::RecallView;
use crate::ui::views::side::SidePanel;

/// How the operator can reach the creature's runner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunnerLink {
    /// Hosted by this observatory: commands go over the in-process channel.
    Hosted,
    /// A dreamwatch runner in another process with a live control socket.
    Socket,
    /// Only watched (an OpenSeed creature, or a runner that is gone).
    None,
}

/// An OpenSeed creature of the orchestrator era (a `.sys/` that no dreamwatch runner ever
/// wrote to): since mid-February 2026 its orchestrator delivers messages, and it does not
/// read `MESSAGES.md`.
pub fn ignores_messages_file(root: &Path) -> bool {
    root.join(".sys").is_dir() && !root.join(".sys/runner.json").exists()
}

/// Intervals of the sparklines prepared (the header shows up to this many, the garden
/// fewer).
pub const PULSE_LEN: usize = 24;

#[derive(Debug)]
pub struct CreatureUi {
    /// Name and model, inert; a far creature's name ends in `@host`.
    pub name: String,
    /// The host of a far creature (inert).
    pub remote_host: Option<String>,
    pub model: Option<String>,
    pub summary: Summary,
    /// The constants the creature lives by: its runner's when hosted, else the
    /// configured ones (the summary reads the deep-sleep cadence from disk where it can).
    pub cycle: Cycle,
    /// Born (BIRTH.json), else the first time seen in any record.
    pub born: Option<DateTime<Utc>>,
    pub link: RunnerLink,
    /// The hosting runner's last word, for hosted creatures.
    pub host: Option<HostStatus>,
    /// What an attached OpenSeed orchestrator says it is doing, while it can be reached.
    pub orchestrated: Option<ApiStatus>,
    /// The memory system it lives by: which views it offers.
    pub genome: Genome,
    /// Its genome's own views ([`MainView::Own`]): their state, drawing and keys.
    pub own: Option<Box<dyn crate::ui::genome::GenomeUi>>,

    pub obs: ObservationsView,

    pub dreams: DreamsView,

    pub diary: DiaryView,
    pub side: SidePanel,

    pub recall: RecallView,
    pub events: EventsView,
    /// It has an events file: the Events view is offered.
    pub has_events: bool,
    /// What the message box held when it was closed without sending (lines).
    pub draft: Vec<String>,
    /// Failing, stalled, runner gone: said in the garden instead of the status.
    pub health: Health,
    /// The error it is failing by, from its events, in words.
    pub failure: Option<Failure>,
    /// Its files are not on this machine (nor copied from a far one): known only from
    /// what an OpenSeed orchestrator says of it.
    pub without_files: bool,
    /// What arrived while it was not selected (the weightiest), until it is selected.
    pub attention: Option<Attention>,
    /// The tokens its runner recorded (`.sys/usage.jsonl`).
    pub usage: UsageLog,
    /// A dream held for the operator's review (`.sys/proposal.json`).
    pub review: Option<PendingReview>,
    /// Held asleep by a guardrail: its morning report's headline (`held: cost cap
    /// $2.00`), made inert (`.sys/guardrail.json`).
    pub held: Option<String>,
    /// Tool calls and fatigue per interval, the last [`PULSE_LEN`] up to now's.
    pub pulse: PulseSeries,
    /// The interval `pulse` ends with; `None`: prepare it again.
    pulse_at: Option<i64>,
}

impl CreatureUi {
    /// `link` is [`RunnerLink::Hosted`] for a creature this observatory hosts (its
    /// `cycle` then is its runner's); anything else is found out from the files.
    pub fn new(
        c: &Creature,
        theme: &Theme,
        now: DateTime<Utc>,
        cycle: Cycle,
        link: RunnerLink,
    ) -> Self {
        let mut ui = Self::blank(c.summary(now, &cycle), cycle, link, c.events().exists());
        ui.usage = c.usage().clone();
        ui.review = PendingReview::of(c);
        ui.held = held_of(c);
        ui.prepare_identity(c);
        ui.prepare_genome(c, theme, now);
        ui.dreams.prepare(c);
        ui.side.prepare(c, theme);
        ui.refresh_summary(c, now);
        ui
    }

    /// A creature an OpenSeed orchestrator runs whose files are not on this machine
    /// (at `path`, a place no file is read from): what the orchestrator says of it is
    /// given by [`CreatureUi::refresh_from_api`].
    pub fn without_files(path: &Path, name: &str, theme: &Theme, cycle: Cycle) -> Self {
        let summary = Summary::nothing_known(name, path.to_path_buf(), &cycle);
        let mut ui = Self::blank(summary, cycle, RunnerLink::None, false);
        ui.without_files = true;
        ui.name = inert(name);
        ui.side.set(live::prepare::no_files_side(&ui.name, theme));
        ui
    }

    /// What an OpenSeed orchestrator says of a creature whose files are not here (`None`
    /// while it cannot be reached): its status, model, and its last event's time as its
    /// last activity.
    pub fn refresh_from_api(
        &mut self,
        api: Option<&CreatureInfo>,
        last_event: Option<DateTime<Utc>>,
    ) {
        self.orchestrated = api.map(|c| c.status.clone());
        self.summary.status = self
            .orchestrated
            .as_ref()
            .map_or(Status::Unknown, |s| merge_status(Status::Unknown, s));
        if let Some(model) = api.and_then(|c| c.model.clone()) {
            self.model = Some(model);
        }
        self.summary.model = self.model.clone();
        self.summary.last_activity = last_event.or(self.summary.last_activity);
        self.health = if self.orchestrated == Some(ApiStatus::Error) {
            Health::Failing
        } else {
            Health::Ok
        };
    }

    /// Every field at its start: no text prepared yet.
    fn blank(summary: Summary, cycle: Cycle, link: RunnerLink, has_events: bool) -> Self {
        Self {
            name: String::new(),
            remote_host: None,
            model: None,
            summary,
            cycle,
            born: None,
            link,
            host: None,
            orchestrated: None,
            genome: crate::memory::genome::Registry::installed().default_genome(),
            own: None,
            obs: ObservationsView::default(),
            dreams: DreamsView::default(),
            diary: DiaryView::default(),
            side: SidePanel::default(),
            recall: RecallView::default(),
            events: EventsView::default(),
            has_events,
            draft: Vec::new(),
            health: Health::Ok,
            failure: None,
            attention: None,
            without_files: false,
            usage: UsageLog::default(),
            review: None,
            held: None,
            pulse: PulseSeries::default(),
            pulse_at: None,
        }
    }

    /// Applies what changed in the model: re-prepares only the affected text. Returns what
    /// asks for the operator's attention (a RED observation, a dream, a new error).
    pub fn apply(
        &mut self,
        c: &Creature,
        changes: &[Change],
        theme: &Theme,
        now: DateTime<Utc>,
    ) -> Option<Attention> {
        let mut side = false;
        let mut attention = None;
        let failing = c.events().failing();
        for change in changes {
            self.dreams.apply(c, change);
            match change {
                Change::ObservationsAdded(added) => {
                    if added.iter().any(|o| o.priority == Priority::Red) {
                        attention = attention.max(Some(Attention::Red));
                    }
                    self.obs.changed(c, theme, false);
                }
                Change::ObservationsRewritten => self.obs.changed(c, theme, true),
                Change::Dream(_) => attention = attention.max(Some(Attention::Dream)),
                // The head of a large log was counted: line numbers now start at the
                // file's start, not the tail's.
                Change::Reset(FileKind::Conversation) | Change::ConversationCounted => {
                    self.recall.clear();
                }
                Change::Reset(FileKind::Events) => self.events.clear(),
                Change::Diary => self.diary.changed(),
                Change::Proposal => {
                    let new = self.review.is_none();
                    self.review = PendingReview::of(c);
                    if new && self.review.is_some() {
                        attention = attention.max(Some(Attention::Review));
                    }
                }
                Change::Guardrail => {
                    let held = held_of(c);
                    if held.is_some() && self.held.is_none() {
                        attention = attention.max(Some(Attention::Review));
                    }
                    self.held = held;
                }
                Change::Usage | Change::Reset(FileKind::Usage) => self.usage = c.usage().clone(),
                Change::Identity => {
                    self.prepare_identity(c);
                    self.prepare_genome(c, theme, now);
                    side = true;
                }
                // A genome's files (or files read again), and what marks its creatures.
                Change::Genome(_) | Change::Reset(_) => self.prepare_genome(c, theme, now),
                Change::Priorities | Change::Rules | Change::Briefing | Change::Problem(_) => {
                    side = true;
                }
                _ => {}
            }
        }
        // The genome's own views read its files and the events log: prepared once.
        let kinds: Vec<FileKind> = changes
            .iter()
            .filter_map(|ch| match ch {
                Change::Genome(kind) | Change::Reset(kind) => Some(*kind),
                _ => None,
            })
            .collect();
        let events = changes.iter().any(|ch| matches!(ch, Change::Events { .. }));
        if let Some(own) = self.own.as_mut()
            && (events || !kinds.is_empty())
        {
            side |= own.changed(c, &kinds, events, now, theme);
        }
        if side {
            self.side.prepare(c, theme);
        }
        self.dreams.load_detail(c);
        self.has_events = c.events().exists();
        self.pulse_at = None;
        let was_failing = self.health == Health::Failing;
        self.refresh_summary(c, now);
        if failing && !was_failing {
            attention = attention.max(Some(Attention::Error));
        }
        attention
    }

    /// Marks it as a copy of a creature on `host`.
    pub fn mark_remote(&mut self, host: String, c: &Creature) {
        self.remote_host = Some(host);
        self.prepare_identity(c);
    }

    fn prepare_identity(&mut self, c: &Creature) {
        self.name = match &self.remote_host {
            Some(host) => format!("{}@{host}", inert(c.name())),
            None => inert(c.name()),
        };
        self.model = c.birth().and_then(|b| b.model.as_deref()).map(inert);
        self.born = c
            .birth()
            .and_then(|b| b.born.as_deref())
            .and_then(crate::memory::time::parse_time);
    }

    /// The genome, and its own views' state (prepared when the creature becomes one of
    /// its creatures).
    fn prepare_genome(&mut self, c: &Creature, theme: &Theme, now: DateTime<Utc>) {
        let before = self.genome;
        self.genome = c.genome();
        if before != self.genome || self.own.is_none() {
            self.own = crate::ui::genome::of(&self.genome)
                .own
                .map(|new| new(c, now, theme));
        }
    }

    /// The views the creature offers, in tab order.
    pub fn views(&self) -> &'static [MainView] {
        crate::ui::genome::offered(&self.genome, self.has_events)
    }

    /// Recomputes the summary (status, fatigue, counts); the host's word wins, and a
    /// hosted creature's deep sleeps fall when its runner's cadence says.
    pub fn refresh_summary(&mut self, c: &Creature, now: DateTime<Utc>) {
        self.summary = c.summary(now, &self.cycle);
        if self.born.is_none() {
            self.born = c
                .dreams()
                .iter()
                .find_map(|d| d.t)
                .or(self.summary.last_activity);
        }
        if let Some(host) = &self.host {
            self.summary.fatigue = host.fatigue;
        }
        self.failure = c.events().failure().and_then(Failure::of);
        if self.link == RunnerLink::Hosted {
            let every = self.cycle.deep_sleep_every.max(1);
            self.summary.deep_every = every;
            self.summary.dreams_until_deep = every - self.summary.dreams % every;
        } else {
            // What the model last probed: no IO here.
            let listening = c.runner_probe().listening;
            self.link = if listening {
                RunnerLink::Socket
            } else {
                RunnerLink::None
            };
        }
        self.refresh_clock(c, now);
    }

    /// What the clock alone changes: the status, the sparklines' intervals, the health.
    /// A tick comes here for every creature not at rest, so nothing is allocated.
    pub fn refresh_clock(&mut self, c: &Creature, now: DateTime<Utc>) {
        self.summary.status = self.status_at(c, now);
        // The sparklines move on when the logs do, or the clock into another interval.
        if self.pulse_at != Some(interval_of(now)) {
            self.pulse = c.pulse(now, PULSE_LEN);
            self.pulse_at = Some(interval_of(now));
        }
        self.health = Health::of(c, &self.summary, self.host.as_ref(), now);
    }

    /// The status at `now`: the host's word wins, the orchestrator's is merged in.
    fn status_at(&self, c: &Creature, now: DateTime<Utc>) -> Status {
        let status = match &self.host {
            Some(host) => host.status,
            None => c.status(now, &self.cycle),
        };
        match &self.orchestrated {
            Some(api) => merge_status(status, api),
            None => status,
        }
    }

    /// Whether the clock alone can no longer change anything of it until its files or
    /// its host do: its status, health and sparklines as of `now` are those of a far
    /// future (every time its files give is a threshold passed once: a wake, a sleep's
    /// end, the last activity's age), it is not awake, no view of its genome's reads the
    /// clock, and no review counts down. An idle garden's tick leaves such creatures alone.
    pub fn at_rest(&self, c: &Creature, now: DateTime<Utc>) -> bool {
        // Awake, it may be found stalled: after how long is the notifier's to say.
        if self.summary.status == Status::Awake
            || self.review.is_some()
            || self.own.as_ref().is_some_and(|own| own.ticks())
        {
            return false;
        }
        let later = now + chrono::Duration::days(3650);
        let status = self.status_at(c, later);
        let last_activity = self.summary.last_activity;
        status == self.summary.status
            && Health::of_status(c, status, last_activity, self.host.as_ref(), later) == self.health
            && c.pulse(later, PULSE_LEN) == self.pulse
    }

    /// The brain's label: the host's, else the model from BIRTH.json.
    /// What answers the creature, and its label: the runner's brain when hosted, else
    /// the model BIRTH.json names.
    pub fn brain(&self) -> Option<(BrainKind, &str)> {
        match (&self.host, &self.model) {
            (Some(h), _) => Some((h.brain_kind, h.brain.as_str())),
            (None, Some(model)) => Some((BrainKind::of_birth_model(model), model.as_str())),
            (None, None) => None,
        }
    }

    pub fn status(&self) -> Status {
        self.summary.status
    }
}

/// The headline of the guardrail's report holding `c` asleep, made inert.
fn held_of(c: &Creature) -> Option<String> {
    c.guardrail()
        .filter(|r| r.held())
        .map(|r| crate::text::sanitize::sanitize_line(&r.headline()))
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;
    use crate::memory::cycle::Profile;

    /// A creature with `dreams` plain dreams on disk, none deep.
    fn creature(dreams: usize) -> (tempfile::TempDir, Creature) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".self")).unwrap();
        let line = r#"{"t":"2026-11-22T10:00:00Z","actions":5,"reflection":"r","priority":"p","observations":1,"deep":false}"#;
        let text: String = (0..dreams).map(|_| format!("{line}\n")).collect();
        std::fs::write(dir.path().join(".self/dreams.jsonl"), text).unwrap();
        let c = Creature::open(dir.path());
        (dir, c)
    }

    #[test]
    fn a_hosted_creature_counts_down_to_its_runners_deep_sleep() {
        let (_dir, c) = creature(3);
        let now = Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap();
        let theme = Theme::default();
        let openseed = Cycle {
            fatigue_limit: 40,
            ..Cycle::profile(Profile::Openseed)
        };
        let hosted = CreatureUi::new(&c, &theme, now, openseed, RunnerLink::Hosted);
        let s = &hosted.summary;
        assert_eq!((s.dreams, s.deep_every, s.dreams_until_deep), (3, 5, 2));
        assert_eq!(hosted.cycle.fatigue_limit, 40);
        let watched = CreatureUi::new(&c, &theme, now, Cycle::default(), RunnerLink::None);
        let s = &watched.summary;
        assert_eq!((s.deep_every, s.dreams_until_deep), (10, 7));
        assert_eq!(watched.link, RunnerLink::None);
    }
}
