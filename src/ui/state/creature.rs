//! What the observatory keeps per creature: its summary, its text prepared for the
//! screen, and where each of its views is scrolled.

use std::path::Path;

use chrono::{DateTime, Duration, Utc};

use super::events::EventsState;
use super::health::{Attention, Health};
use super::recall::RecallState;
use super::review::PendingReview;
use crate::control::HostStatus;
use crate::memory::creature::{Change, Creature};
use crate::memory::cycle::Cycle;
use crate::memory::dream_diffs::{self, DiffRecord};
use crate::memory::genome::Genome;
use crate::memory::identity::BrainKind;
use crate::memory::layout::FileKind;
use crate::memory::observations::Priority;
use crate::memory::pulse::{PulseSeries, interval_of};
use crate::memory::status::Status;
use crate::memory::summary::Summary;
use crate::memory::usage::UsageLog;
use crate::openseed::{ApiStatus, CreatureInfo};
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::Anchor;
use crate::ui::focus::MainView;
use crate::ui::prepare::changes::{self, DreamChanges};
use crate::ui::prepare::{self, dreams::DreamDetail, dreams::PreparedDream, inert, observations};
use crate::ui::state::openseed::merge_status;
use crate::ui::theme::Theme;

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

/// A span of time the creature slept, for the dreams timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SleepSpan {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

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

    pub obs_items: Vec<observations::PreparedObs>,
    /// Says how many items of the file the model does not keep (none: it keeps all).
    pub obs_older: Option<DocLine>,
    pub obs_filter: observations::PriorityFilter,
    pub obs_newest_first: bool,
    pub obs_doc: observations::ObsDoc,
    pub obs_anchor: Anchor,

    pub dreams: Vec<PreparedDream>,
    /// The selected dream (index into `dreams`); `None` follows the newest.
    pub dream_selected: Option<usize>,
    /// The selected dream in full (its reflection stays on disk until shown).
    pub dream_detail: Option<DreamDetail>,
    /// Where the selected dream's detail is scrolled (its top when another is selected).
    pub dream_anchor: Anchor,
    /// What the selected dream changed (index into `dreams`, its lines).
    pub dream_changes: Option<(usize, DreamChanges)>,
    /// The pruned line picked to restore: the dream (index into `dreams`) and the line
    /// (index into its changes' `pruned`).
    pub pruned_pick: Option<(usize, usize)>,
    /// What the watched history saw change in its memory files (creatures that keep no
    /// record of their own dreams).
    pub watched: Vec<DiffRecord>,
    /// When the watched history of this creature begins; `None` while none is kept.
    pub watched_since: Option<DateTime<Utc>>,
    pub sleeps: Vec<SleepSpan>,

    /// The diary at `diary_width` columns; width 0 means "prepare again".
    pub diary: Vec<DocLine>,
    pub diary_width: u16,
    pub diary_anchor: Anchor,

    pub side: Vec<DocLine>,
    pub side_anchor: Anchor,

    pub recall: RecallState,
    pub events: EventsState,
    /// It has an events file: the Events view is offered.
    pub has_events: bool,
    /// What the message box held when it was closed without sending (lines).
    pub draft: Vec<String>,
    /// Failing, stalled, runner gone: said in the garden instead of the status.
    pub health: Health,
    /// Its files are not on this machine (nor copied from a far one): known only from
    /// what an OpenSeed orchestrator says of it.
    pub without_files: bool,
    /// What arrived while it was not selected (the weightiest), until it is selected.
    pub attention: Option<Attention>,
    /// The tokens its runner recorded (`.sys/usage.jsonl`).
    pub usage: UsageLog,
    /// A dream held for the operator's review (`.sys/proposal.json`).
    pub review: Option<PendingReview>,
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
        ui.prepare_identity(c);
        ui.prepare_genome(c, theme, now);
        ui.prepare_observations(c, theme, true);
        ui.dreams = c.dreams().iter().map(prepare::dreams::prepare).collect();
        ui.load_dream_detail(c);
        ui.prepare_sleeps(c);
        ui.side = prepare::side::prepare(c, theme);
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
        ui.side = prepare::openseed::no_files_side(&ui.name, theme);
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
            obs_items: Vec::new(),
            obs_older: None,
            obs_filter: observations::PriorityFilter::default(),
            obs_newest_first: true,
            obs_doc: observations::ObsDoc::default(),
            obs_anchor: Anchor::Line(0),
            dreams: Vec::new(),
            dream_selected: None,
            dream_detail: None,
            dream_anchor: Anchor::Line(0),
            dream_changes: None,
            pruned_pick: None,
            watched: Vec::new(),
            watched_since: None,
            sleeps: Vec::new(),
            diary: Vec::new(),
            diary_width: 0,
            diary_anchor: Anchor::End,
            side: Vec::new(),
            side_anchor: Anchor::Line(0),
            recall: RecallState::default(),
            events: EventsState::default(),
            has_events,
            draft: Vec::new(),
            health: Health::Ok,
            attention: None,
            without_files: false,
            usage: UsageLog::default(),
            review: None,
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
            match change {
                Change::ObservationsAdded(added) => {
                    if added.iter().any(|o| o.priority == Priority::Red) {
                        attention = attention.max(Some(Attention::Red));
                    }
                    self.prepare_observations(c, theme, false);
                }
                Change::ObservationsRewritten => self.prepare_observations(c, theme, true),
                Change::Dream(_) => {
                    attention = attention.max(Some(Attention::Dream));
                    let have = self.dreams.len();
                    self.dreams.extend(
                        c.dreams()[have.min(c.dreams().len())..]
                            .iter()
                            .map(prepare::dreams::prepare),
                    );
                }
                Change::Reset(FileKind::Dreams) => {
                    self.dreams = c.dreams().iter().map(prepare::dreams::prepare).collect();
                    self.dream_selected = None;
                    self.dream_detail = None;
                    self.dream_changes = None;
                }
                // The head of a large log was counted: line numbers now start at the
                // file's start, not the tail's.
                Change::Reset(FileKind::Conversation) | Change::ConversationCounted => {
                    self.recall.clear();
                }
                // A wake event ends the sleep its iteration began.
                Change::Reset(FileKind::Events) => {
                    self.events.clear();
                    self.prepare_sleeps(c);
                }
                Change::Iteration | Change::Reset(FileKind::Iterations) | Change::Events { .. } => {
                    self.prepare_sleeps(c)
                }
                Change::Diary => self.diary_width = 0,
                Change::Proposal => {
                    let new = self.review.is_none();
                    self.review = PendingReview::of(c);
                    if new && self.review.is_some() {
                        attention = attention.max(Some(Attention::Review));
                    }
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
            self.side = prepare::side::prepare(c, theme);
        }
        // The runner records a dream's changes as it writes the files: read them again.
        if changes.iter().any(|ch| {
            matches!(
                ch,
                Change::Dream(_)
                    | Change::ObservationsAdded(_)
                    | Change::ObservationsRewritten
                    | Change::Priorities
                    | Change::Diary
            )
        }) {
            self.dream_changes = None;
        }
        self.load_dream_detail(c);
        self.has_events = c.events().exists();
        self.pulse_at = None;
        let was_failing = self.health == Health::Failing;
        self.refresh_summary(c, now);
        if failing && !was_failing {
            attention = attention.max(Some(Attention::Error));
        }
        attention
    }

    /// Reads the selected dream in full from disk, and what it changed, unless it is the
    /// one already read.
    pub fn load_dream_detail(&mut self, c: &Creature) {
        let Some(i) = self.selected_dream() else {
            self.dream_detail = None;
            self.dream_changes = None;
            return;
        };
        if self.dream_detail.as_ref().is_none_or(|d| d.index != i) {
            self.dream_detail = Some(prepare::dreams::detail(i, c.read_dream(i)));
            self.dream_anchor = Anchor::Line(0);
        }
        if self
            .dream_changes
            .as_ref()
            .is_none_or(|(index, _)| *index != i)
        {
            self.load_dream_changes(c, i);
        }
    }

    /// What dream `i` changed: the runner's record where the creature has one, else what
    /// the watched history saw.
    fn load_dream_changes(&mut self, c: &Creature, i: usize) {
        let record = dream_diffs::path(c.root());
        let source = if record.exists() {
            let first_row = c.dream_log().count() - self.dreams.len() as u64;
            let number = first_row + i as u64 + 1;
            changes::Source::Runner {
                read: dream_diffs::read_dream(&record, number),
                number,
            }
        } else {
            let times: Vec<_> = self.dreams.iter().map(|d| d.t).collect();
            changes::Source::Watched {
                records: dream_diffs::seen_for_dream(&self.watched, &times, i),
                dream_t: self.dreams.get(i).and_then(|d| d.t),
                since: self.watched_since,
            }
        };
        let prepared = changes::prepare(source);
        if self
            .pruned_pick
            .is_some_and(|(dream, p)| dream != i || p >= prepared.pruned.len())
        {
            self.pruned_pick = None;
        }
        self.dream_changes = Some((i, prepared));
    }

    /// Dream `i` as the detail pane shows it: what is read of it, what it changed, the
    /// pruned line picked.
    pub fn dream_document(&self, i: usize, theme: &Theme) -> Vec<DocLine> {
        let Some(d) = self.dreams.get(i) else {
            return Vec::new();
        };
        let full = self.dream_detail.as_ref().filter(|f| f.index == i);
        let changes = self
            .dream_changes
            .as_ref()
            .filter(|(index, _)| *index == i)
            .map(|(_, c)| c);
        let picked = self
            .pruned_pick
            .filter(|(dream, _)| *dream == i)
            .map(|(_, p)| p);
        prepare::dream_detail::document(d, full, changes, picked, theme)
    }

    /// The pruned line picked to restore, as it was in the file.
    pub fn picked_pruned(&self) -> Option<&str> {
        let (i, changes) = self.dream_changes.as_ref()?;
        let (dream, p) = self.pruned_pick?;
        let (_, text) = changes.pruned.get(p).filter(|_| dream == *i)?;
        Some(text)
    }

    /// Picks the next pruned line of the shown dream (after the last, none).
    pub fn pick_next_pruned(&mut self) -> bool {
        let Some((i, changes)) = self.dream_changes.as_ref() else {
            return false;
        };
        let n = changes.pruned.len();
        self.pruned_pick = match self.pruned_pick {
            Some((dream, p)) if dream == *i && p + 1 < n => Some((*i, p + 1)),
            Some((dream, _)) if dream == *i => None,
            _ if n > 0 => Some((*i, 0)),
            _ => None,
        };
        self.pruned_pick.is_some()
    }

    /// Takes in what the watched history saw (and when its history began, at first
    /// sight); the dream shown is prepared again.
    pub fn add_watched(
        &mut self,
        c: &Creature,
        records: Vec<DiffRecord>,
        since: Option<DateTime<Utc>>,
    ) {
        if records.is_empty() && since.is_none() {
            return;
        }
        self.watched.extend(records);
        self.watched_since = since.or(self.watched_since);
        self.dream_changes = None;
        self.load_dream_detail(c);
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

    /// Prepares the observations the model keeps: all of them again, or (`all` false) the
    /// ones after the last prepared, dropping those the model no longer keeps.
    fn prepare_observations(&mut self, c: &Creature, theme: &Theme, all: bool) {
        let items = &c.observations().items;
        let first = items.first().map_or(0, |(n, _)| *n);
        let from = match self.obs_items.last() {
            Some(last) if !all => items.partition_point(|(n, _)| *n <= last.line_no),
            _ => {
                self.obs_items.clear();
                0
            }
        };
        self.obs_items.retain(|p| p.line_no >= first);
        let fresh = prepare::observations::prepare_items(&items[from..], theme);
        self.obs_items.extend(fresh);
        self.obs_older = observations::older_note(c.observations_not_kept(), theme);
        // Lines of the old document that stay (newest first, the ones dropped are at its end).
        let stayed = self
            .obs_doc
            .line_nos
            .iter()
            .filter(|n| **n >= first && **n > 0)
            .count();
        self.rebuild_obs_doc();
        // Newest first, new lines arrive at the top: keep what the reader looks at in place.
        let shown = self.obs_doc.line_nos.iter().filter(|n| **n > 0).count();
        if let (true, false, Anchor::Line(top)) = (self.obs_newest_first, all, self.obs_anchor)
            && top > 0
            && shown > stayed
        {
            self.obs_anchor = Anchor::Line(top + shown - stayed);
        }
    }

    /// Rebuilds the observations document after new lines, a filter or an order change.
    pub fn rebuild_obs_doc(&mut self) {
        self.obs_doc = observations::document(
            &self.obs_items,
            &self.obs_filter,
            self.obs_newest_first,
            self.obs_older.as_ref(),
        );
    }

    /// Asleep spans from the iterations (each records when its sleep began and how long
    /// it asked for), ended when the creature really woke: at the first wake event after
    /// the start, never after the next sleep began (under `--speed`, or woken early, the
    /// sleep is shorter than asked).
    fn prepare_sleeps(&mut self, c: &Creature) {
        let wakes = c.events().wakes();
        let asked: Vec<(DateTime<Utc>, f64)> = c
            .iterations()
            .iter()
            .filter(|i| i.sleep_s > 0.0)
            .filter_map(|i| Some((i.sleep_started_at.or(i.t)?, i.sleep_s)))
            .collect();
        self.sleeps = asked
            .iter()
            .enumerate()
            .map(|(n, &(start, secs))| {
                let mut end = start + Duration::milliseconds((secs * 1000.0) as i64);
                let at = wakes.partition_point(|w| *w <= start);
                if let Some(&woke) = wakes.get(at) {
                    end = end.min(woke);
                }
                if let Some(&(next, _)) = asked.get(n + 1) {
                    end = end.min(next.max(start));
                }
                SleepSpan { start, end }
            })
            .collect();
    }

    /// Recomputes the summary (status, fatigue, counts); the host's word wins, and a
    /// hosted creature's deep sleeps fall when its runner's cadence says.
    pub fn refresh_summary(&mut self, c: &Creature, now: DateTime<Utc>) {
        self.summary = c.summary(now, &self.cycle);
        // The sparklines move on when the logs do, or the clock into another interval.
        if self.pulse_at != Some(interval_of(now)) {
            self.pulse = c.pulse(now, PULSE_LEN);
            self.pulse_at = Some(interval_of(now));
        }
        if self.born.is_none() {
            self.born = c
                .dreams()
                .iter()
                .find_map(|d| d.t)
                .or(self.summary.last_activity);
        }
        if let Some(host) = &self.host {
            self.summary.status = host.status;
            self.summary.fatigue = host.fatigue;
        }
        if let Some(api) = &self.orchestrated {
            self.summary.status = merge_status(self.summary.status, api);
        }
        self.health = Health::of(c, &self.summary, self.host.as_ref(), now);
        if self.link == RunnerLink::Hosted {
            let every = self.cycle.deep_sleep_every.max(1);
            self.summary.deep_every = every;
            self.summary.dreams_until_deep = every - self.summary.dreams % every;
        } else {
            // What the model last probed: no IO here, this runs on every tick.
            let listening = c.runner_probe().listening;
            self.link = if listening {
                RunnerLink::Socket
            } else {
                RunnerLink::None
            };
        }
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

    /// The dream shown in the detail pane.
    pub fn selected_dream(&self) -> Option<usize> {
        match self.dream_selected {
            Some(i) if i < self.dreams.len() => Some(i),
            _ => self.dreams.len().checked_sub(1),
        }
    }
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

    #[test]
    fn an_append_past_the_kept_window_is_shown_and_the_oldest_dropped() {
        use crate::memory::observation_log::RECENT_OBSERVATION_ITEMS;
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".self")).unwrap();
        let path = dir.path().join(".self/observations.md");
        let line = "GRN 10:00 old\n";
        std::fs::write(&path, line.repeat(RECENT_OBSERVATION_ITEMS + 3)).unwrap();
        let mut c = Creature::with_settle(dir.path(), std::time::Duration::ZERO);
        let theme = Theme::default();
        let now = Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap();
        let mut ui = CreatureUi::new(&c, &theme, now, Cycle::default(), RunnerLink::None);
        assert_eq!(ui.obs_items.len(), RECENT_OBSERVATION_ITEMS);
        assert_eq!(ui.obs_doc.line_nos.last(), Some(&0), "the note, oldest end");
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        std::io::Write::write_all(&mut f, b"RED 10:05 new\n").unwrap();
        let changes = c.refresh();
        ui.apply(&c, &changes, &theme, now);
        assert_eq!(ui.obs_items.len(), RECENT_OBSERVATION_ITEMS);
        assert_eq!(
            ui.obs_items.last().unwrap().line_no,
            RECENT_OBSERVATION_ITEMS + 4
        );
        assert_eq!(ui.obs_items.first().unwrap().line_no, 5);
        assert_eq!(
            ui.obs_doc.line_nos.first(),
            Some(&(RECENT_OBSERVATION_ITEMS + 4))
        );
    }
}
