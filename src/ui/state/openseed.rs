//! What the observatory knows from an attached OpenSeed orchestrator: whether it can be
//! reached, each creature's status and budget, the costs, and the live events (their
//! text made inert as they arrive). OpenSeed names a creature by its directory's name.

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::memory::status::Status;
use crate::openseed::{
    ApiStatus, Budget, Costs, CreatureInfo, EventKind, LiveEvent, NARRATOR, SleepReason,
};
use crate::ui::prepare::inert;
use crate::ui::views::live::LiveView;

/// Live events kept for each creature (older ones are in its `.sys/events.jsonl`).
pub const EVENTS_KEPT: usize = 500;

/// Whether the orchestrator can be reached.
#[derive(Debug, Clone, PartialEq)]
pub enum Link {
    /// Not yet heard from.
    Connecting,
    Up {
        base: String,
    },
    /// Unreachable since `since`; tried again in `retry_in`.
    Down {
        error: String,
        since: DateTime<Utc>,
        retry_in: Duration,
    },
}

#[derive(Debug, Clone)]
pub struct OpenSeedUi {
    /// Where it is (a URL, or the run file that names it), for the screen.
    pub target: String,
    pub link: Link,
    /// By name, as last listed.
    pub creatures: BTreeMap<String, CreatureInfo>,
    pub costs: Costs,
    /// By creature name, oldest first (the orchestrator's own under `_orchestrator`).
    pub events: BTreeMap<String, VecDeque<LiveEvent>>,
    /// The orchestrator's dependencies that are down (it refuses to start creatures).
    pub degraded: Vec<String>,
    /// The Live view: the selected creature's events prepared, where each is scrolled.
    pub live: LiveView,
    /// The creatures a stop or a start was sent for that the orchestrator has not yet
    /// answered, with which.
    pub busy: BTreeMap<String, &'static str>,
}

/// What the files say a creature is doing, corrected by what its orchestrator says: a
/// stopped container is stopped; a running or sleeping creature the files think stopped
/// (nothing written for a while) is awake or asleep; otherwise the files say more (when
/// it wakes, whether it dreams).
pub fn merge_status(files: Status, api: &ApiStatus) -> Status {
    match api {
        ApiStatus::Stopped => Status::Stopped,
        ApiStatus::Running => match files {
            Status::Stopped | Status::Unknown => Status::Awake,
            other => other,
        },
        ApiStatus::Sleeping => match files {
            Status::Stopped | Status::Unknown | Status::Awake => Status::Asleep { until: None },
            other => other,
        },
        ApiStatus::Starting | ApiStatus::Error | ApiStatus::Spawning | ApiStatus::Other(_) => files,
    }
}

/// The name OpenSeed knows the creature at `path` by.
pub fn name_of(path: &Path) -> Option<&str> {
    path.file_name()?.to_str()
}

/// Where the creatures the orchestrator lists whose files are not on this machine are
/// kept in the garden: `openseed:/NAME`, a place no file is ever read from or written to.
const API_ONLY: &str = "openseed:";

/// The garden's key of a creature known only from the orchestrator.
pub fn api_only_path(name: &str) -> PathBuf {
    Path::new(API_ONLY).join(name)
}

/// A name an orchestrator gives that can name a directory: one plain component (a
/// name with `/` or `..` is not shown as a creature).
pub fn plain(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && Path::new(name).components().count() == 1
        && !name.contains('/')
}

impl OpenSeedUi {
    pub fn new(target: String) -> Self {
        Self {
            target: inert(&target),
            link: Link::Connecting,
            creatures: BTreeMap::new(),
            costs: Costs::default(),
            events: BTreeMap::new(),
            degraded: Vec::new(),
            live: LiveView::default(),
            busy: BTreeMap::new(),
        }
    }

    pub fn up(&self) -> bool {
        matches!(self.link, Link::Up { .. })
    }

    /// The orchestrator's word on the creature at `path`.
    pub fn creature(&self, path: &Path) -> Option<&CreatureInfo> {
        self.creatures.get(name_of(path)?)
    }

    pub fn budget(&self, path: &Path) -> Option<&Budget> {
        self.costs.budgets.get(name_of(path)?)
    }

    /// What the creatures it lists spent today (each as the garden counts it: its
    /// budget's word, else its usage of the day), and what its narrator spent, apart.
    /// Today is the orchestrator's UTC day (the day before its budgets reset), else that
    /// of `now`.
    pub fn spent_today(&self, now: DateTime<Utc>) -> (f64, f64) {
        let resets = self
            .costs
            .budgets
            .values()
            .filter_map(|b| b.resets_at.as_deref())
            .find_map(|t| DateTime::parse_from_rfc3339(t).ok());
        let today = resets.map_or(now, |t| t.with_timezone(&Utc) - chrono::Duration::days(1));
        let day = today.format("%Y-%m-%d").to_string();
        // Folded from 0.0: an empty `sum` of floats is -0.0, shown as "$-0.00".
        let creatures = self
            .creatures
            .keys()
            .fold(0.0, |all, name| all + self.costs.spent_on(name, &day));
        (creatures, self.costs.usage.spent_on(NARRATOR, &day))
    }

    pub fn events_of(&self, path: &Path) -> Option<&VecDeque<LiveEvent>> {
        self.events.get(name_of(path)?)
    }

    /// An event with the same creature, time and type is kept already (one without a
    /// time never counts as kept).
    pub fn has_event(&self, event: &LiveEvent) -> bool {
        let Some(key) = event.key() else {
            return false;
        };
        let name = inert(&event.creature);
        self.events.get(&name).is_some_and(|kept| {
            kept.iter()
                .any(|e| e.key().is_some_and(|k| k.1 == key.1 && k.2 == key.2))
        })
    }

    /// When the creature at `path` last did something the orchestrator told of.
    pub fn last_event(&self, path: &Path) -> Option<DateTime<Utc>> {
        self.events_of(path)?.iter().rev().find_map(|e| e.t)
    }

    /// Takes in a creature list: its text made inert.
    pub fn set_creatures(&mut self, list: Vec<CreatureInfo>) {
        self.creatures = list
            .into_iter()
            .map(|mut c| {
                c.model = c.model.as_deref().map(inert);
                c.sha = None;
                if let ApiStatus::Other(s) = &c.status {
                    c.status = ApiStatus::Other(inert(s));
                }
                if let Some(SleepReason::Other(s)) = &c.sleep_reason {
                    c.sleep_reason = Some(SleepReason::Other(inert(s)));
                }
                (c.name.clone(), c)
            })
            .collect();
    }

    /// Keeps an event (its text made inert) in time order; returns it as kept.
    pub fn push_event(&mut self, event: LiveEvent) -> LiveEvent {
        let event = inert_event(event);
        if let EventKind::Orchestrator { healthy, down } = &event.kind {
            self.degraded = if *healthy { Vec::new() } else { down.clone() };
        }
        let events = self.events.entry(event.creature.clone()).or_default();
        if events.len() == EVENTS_KEPT {
            events.pop_front();
        }
        // In time order: an event from the stored history may come after newer ones.
        let at = match event.t {
            Some(t) => events
                .iter()
                .rposition(|e| e.t.is_none_or(|et| et <= t))
                .map_or(0, |i| i + 1),
            None => events.len(),
        };
        events.insert(at, event.clone());
        event
    }
}

/// How much of each text of an event is kept: the live stream carries tool outputs whole
/// (images too, which the orchestrator strips only from what it stores).
pub const TEXT_KEPT: usize = 2000;

/// How much of an orchestrator's refusal is kept (its lines too).
pub const ANSWER_KEPT: usize = 8 * TEXT_KEPT;

/// `s` cut to `kept` characters (an ellipsis says so).
fn cut(s: &mut String, kept: usize) {
    if let Some((at, _)) = s.char_indices().nth(kept) {
        s.truncate(at);
        s.push('…');
    }
}

/// The event with every text it carries cut to [`TEXT_KEPT`] characters and made inert
/// (a refusal's lines kept).
fn inert_event(mut event: LiveEvent) -> LiveEvent {
    event.creature = inert(&event.creature);
    let fix = |s: &mut String| {
        cut(s, TEXT_KEPT);
        *s = inert(s);
    };
    match &mut event.kind {
        EventKind::Thought { text }
        | EventKind::Narration { text }
        | EventKind::Sleep { text, .. }
        | EventKind::Message { text, .. } => fix(text),
        EventKind::ToolCall {
            tool,
            input,
            output,
            ..
        } => {
            fix(tool);
            fix(input);
            fix(output);
        }
        EventKind::Wake { reason, source } => {
            fix(reason);
            fix(source);
        }
        EventKind::Error { error, .. } | EventKind::SpawnFailed { error } => fix(error),
        EventKind::Orchestrator { down, .. } => down.iter_mut().for_each(fix),
        EventKind::Boot { sha } | EventKind::HostPromote { sha } => fix(sha),
        EventKind::HostSpawn { sha, .. } => fix(sha),
        EventKind::Dream {
            priority,
            reflection,
            ..
        } => {
            fix(priority);
            fix(reflection);
        }
        EventKind::Subconscious { memory } => fix(memory),
        EventKind::SelfEvaluation {
            trigger, reasoning, ..
        } => {
            fix(trigger);
            fix(reasoning);
        }
        EventKind::RequestRestart { reason } | EventKind::InfraFailure { reason } => fix(reason),
        EventKind::HostRollback { from, to, reason } => {
            fix(from);
            fix(to);
            fix(reason);
        }
        EventKind::Refused { action, answer } => {
            fix(action);
            cut(answer, ANSWER_KEPT);
            *answer = crate::text::sanitize::sanitize(answer);
        }
        EventKind::Other { kind, fields } => {
            fix(kind);
            for (key, value) in fields {
                fix(key);
                fix(value);
            }
        }
        EventKind::BudgetExceeded { .. }
        | EventKind::BudgetReset
        | EventKind::Spawning
        | EventKind::Spawned
        | EventKind::ProgressCheck { .. }
        | EventKind::HostBoot => {}
    }
    event
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_orchestrator_corrects_what_the_files_cannot_know() {
        let until = Some(chrono::Utc::now());
        assert_eq!(
            merge_status(Status::Awake, &ApiStatus::Stopped),
            Status::Stopped
        );
        assert_eq!(
            merge_status(Status::Stopped, &ApiStatus::Running),
            Status::Awake
        );
        assert_eq!(
            merge_status(Status::Dreaming, &ApiStatus::Running),
            Status::Dreaming
        );
        assert_eq!(
            merge_status(Status::Stopped, &ApiStatus::Sleeping),
            Status::Asleep { until: None }
        );
        assert_eq!(
            merge_status(Status::DeepSleep { until }, &ApiStatus::Sleeping),
            Status::DeepSleep { until }
        );
        assert_eq!(
            merge_status(Status::Awake, &ApiStatus::Error),
            Status::Awake
        );
    }

    #[test]
    fn today_is_the_orchestrators_day_and_the_narrator_is_apart() {
        let mut ui = OpenSeedUi::new("x".into());
        ui.set_creatures(
            serde_json::from_value(json!([
                {"name": "finch", "status": "running"},
                {"name": "wren", "status": "stopped"}
            ]))
            .unwrap(),
        );
        ui.costs = serde_json::from_value(json!({
            "usage": {"usage": {
                "finch": {"daily_cost_usd": 9.0, "daily_date": "2026-03-09"},
                "wren": {"daily_cost_usd": 5.0, "daily_date": "2026-03-08"},
                "_narrator": {"daily_cost_usd": 0.5, "daily_date": "2026-03-09"}
            }, "total": 30.0},
            "budgets": {"finch": {"daily_cap_usd": 20.0, "daily_spent_usd": 4.73,
                "resets_at": "2026-03-10T00:00:00.000Z", "action": "sleep"}}
        }))
        .unwrap();
        let late = "2026-03-10T00:30:00Z".parse().unwrap();
        assert_eq!(
            ui.spent_today(late),
            (4.73, 0.5),
            "finch's budget, wren's yesterday, the narrator on the orchestrator's day"
        );
        ui.costs.budgets.clear();
        assert_eq!(
            ui.spent_today(late),
            (0.0, 0.0),
            "our day, without a budget"
        );
        let early = "2026-03-09T23:00:00Z".parse().unwrap();
        assert_eq!(ui.spent_today(early), (9.0, 0.5));
    }

    #[test]
    fn events_are_made_inert_and_bounded() {
        let mut ui = OpenSeedUi::new("x".into());
        for i in 0..EVENTS_KEPT + 3 {
            let v = json!({"creature": "finch", "type": "creature.thought", "text": format!("{i} \u{1b}[2J")});
            ui.push_event(LiveEvent::parse(&v, None).unwrap());
        }
        let events = ui.events_of(Path::new("/g/finch")).unwrap();
        assert_eq!(events.len(), EVENTS_KEPT);
        let EventKind::Thought { text } = &events[0].kind else {
            panic!()
        };
        assert_eq!(text, "3 ^[[2J");
        let huge = json!({"creature": "finch", "type": "creature.tool_call", "tool": "see", "output": "A".repeat(1 << 20)});
        let kept = ui.push_event(LiveEvent::parse(&huge, None).unwrap());
        let EventKind::ToolCall { output, .. } = kept.kind else {
            panic!()
        };
        assert_eq!(output.chars().count(), TEXT_KEPT + 1);
    }
}
