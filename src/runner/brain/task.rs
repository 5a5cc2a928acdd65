//! What a request to the brain is for, with its parameters as data: a model reads the
//! request's text, the rehearsal brain answers from these fields alone.

use chrono::{DateTime, TimeDelta, Utc};

pub use crate::genomes::emergence::runner::SummaryKind;
use crate::runner::activity::Activity;

/// The kind of a [`Task`], for logs and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// A creature turn, with tools.
    Turn,
    Consolidate,
    Prune,
    Priorities,
    Compact,
    ScoreImportance,
    ExtractFacts,
    ConsolidateEntity,
    Reflect,
    Summarize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Task {
    /// A creature turn: the conversation so far, with tools.
    Turn(Turn),
    /// The dreamer's consolidating mind, over the activity since the last dream.
    Consolidate(Consolidate),
    /// The dreamer's deep-sleep pruning of `observations.md`.
    Prune(Prune),
    /// The dreamer's deep-sleep choice of priorities.
    Priorities(Priorities),
    /// A summary of the older context (compaction).
    Compact(Compact),
    /// evennia: importance of journal entries, 1 to 10, in a batch.
    ScoreImportance(ScoreImportance),
    /// evennia: world facts from a journal entry (the persona-protection prompt).
    ExtractFacts(ExtractFacts),
    /// evennia: an entity's raw observations distilled into attributes.
    ConsolidateEntity(ConsolidateEntity),
    /// evennia: reflection questions and insights over important entries.
    Reflect(Reflect),
    /// emergence: self-care's summary of memories or dialogues around the creature's focus.
    Summarize(Summarize),
}

impl Task {
    pub fn purpose(&self) -> Purpose {
        match self {
            Task::Turn(_) => Purpose::Turn,
            Task::Consolidate(_) => Purpose::Consolidate,
            Task::Prune(_) => Purpose::Prune,
            Task::Priorities(_) => Purpose::Priorities,
            Task::Compact(_) => Purpose::Compact,
            Task::ScoreImportance(_) => Purpose::ScoreImportance,
            Task::ExtractFacts(_) => Purpose::ExtractFacts,
            Task::ConsolidateEntity(_) => Purpose::ConsolidateEntity,
            Task::Reflect(_) => Purpose::Reflect,
            Task::Summarize(_) => Purpose::Summarize,
        }
    }
}

/// What is new for the creature since its last turn.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Turn {
    /// The first turn since the creature woke (or was born, or its runner restarted).
    pub woke: bool,
    /// Its creator's messages delivered since the last turn, as written.
    pub creator_messages: Vec<String>,
    /// Messages from other creatures of the garden since the last turn: (from, text).
    pub messages: Vec<(String, String)>,
    /// The other creatures of the garden (empty when alone).
    pub garden: Vec<String>,
    /// A turn of the sleep work (the sleep tools only).
    pub asleep: bool,
    /// The names of the tools offered.
    pub tools: Vec<String>,
    /// When the turn is asked for (the creature's clock).
    pub now: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Consolidate {
    /// The stamp of the new observation lines.
    pub hhmm: String,
    /// The number the dream will have (1 for the first).
    pub dream_number: u64,
    pub activity: Activity,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Prune {
    /// `observations.md` as it is.
    pub observations: String,
    /// The creature's now (the wall clock: `--speed` shortens durations, not the clock).
    pub now: DateTime<Utc>,
    /// GRN lines older than this many creature hours go.
    pub grn_max_age_h: f64,
    /// Creature time passes this many times faster than the wall clock.
    pub speed: f64,
}

impl Prune {
    /// The wall-clock time before which a GRN line is older than the limit: the lines carry
    /// wall-clock times, the limit is in creature hours.
    pub fn grn_cutoff(&self) -> DateTime<Utc> {
        let ms = self.grn_max_age_h * 3_600_000.0 / self.speed;
        self.now - TimeDelta::milliseconds(ms.min(i64::MAX as f64 / 4.0) as i64)
    }

    /// The limit in wall-clock hours, as the model is told it.
    pub fn grn_max_age_wall_h(&self) -> f64 {
        (self.grn_max_age_h / self.speed * 100.0).round() / 100.0
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Priorities {
    /// The priorities of the recent dreams, oldest first.
    pub dream_priorities: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Compact {
    /// Messages summarised.
    pub messages: usize,
    /// Them as text.
    pub transcript: String,
}

/// Journal entries to score: `(id, text)`.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreImportance {
    pub entries: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ExtractFacts {
    pub entry_id: String,
    pub text: String,
    pub source_entity: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ConsolidateEntity {
    pub entity_id: String,
    pub entity_type: String,
    /// What was already known: `(key, value)`.
    pub attributes: Vec<(String, String)>,
    /// Raw observations since the last consolidation, oldest first.
    pub observations: Vec<String>,
}

/// Important recent entries: `(id, text, importance)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Reflect {
    pub entries: Vec<(String, String, u8)>,
}

/// What self-care summarises: `(id, text)` items, and for dialogues the earlier summary
/// folded into the new one.
#[derive(Debug, Clone, PartialEq)]
pub struct Summarize {
    pub kind: SummaryKind,
    pub focus: String,
    pub items: Vec<(String, String)>,
    pub earlier: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn the_grn_cutoff_is_on_the_creatures_clock() {
        let now = Utc.with_ymd_and_hms(2026, 3, 3, 12, 0, 0).unwrap();
        let prune = |speed| Prune {
            observations: String::new(),
            now,
            grn_max_age_h: 48.0,
            speed,
        };
        assert_eq!(prune(1.0).grn_cutoff(), now - TimeDelta::hours(48));
        // At speed 60, 48 creature hours pass in 48 minutes of the wall clock.
        assert_eq!(prune(60.0).grn_cutoff(), now - TimeDelta::minutes(48));
        assert_eq!(prune(60.0).grn_max_age_wall_h(), 0.8);
    }
}
