//! The dreamer: the seed's memory system (DESIGN.md section 3). Sleeping consolidates the
//! activity into observations and a dream; every Nth dream is a deep sleep that prunes the
//! observations, rewrites the priorities and writes the diary.
//!
//! [`Dreamer`] is the pure part (its recall of recent dreams, observations and priorities,
//! and the dream sub-machine of `dream.rs`); [`files::DreamerFiles`] does its IO.

pub mod consolidation;
pub mod deep_sleep;
pub mod files;
pub mod tasks;

#[cfg(test)]
mod cycle_tests;
mod dream;
mod record;
mod rehearsal;

use std::io;

use chrono::{DateTime, Utc};
use thiserror::Error;

use crate::llm::{LlmError, Response};
use crate::memory::dreams::Dream;
use crate::memory::events::EventKind;
use crate::memory::layout::FileKind;
use crate::memory::observations::{ObsItem, parse_item};
use crate::runner::config::RunnerConfig;
use crate::runner::disk::FileError;

use self::dream::Dreaming;
use self::files::DreamerFiles;
use crate::runner::genome::{
    Cx, Genome, GenomePrompt, GenomeTool, IoProgress, SleepCause, SleepStep, ToolCall, ToolReply,
};
use crate::runner::mail;

/// Observation lines kept in recall for wake messages and the consolidating mind.
const RECENT_OBSERVATIONS: usize = 15;
/// Dreams kept in recall for the priorities prompt.
const RECENT_DREAMS: usize = 5;
/// Below this many actions since the last dream, the operator's sleep is a lightweight
/// dream (DESIGN.md, `dreams.jsonl`).
const LIGHT_DREAM_ACTIONS: u64 = 5;

/// Where everything is, told at every wake: the creature never depends on its context alone.
pub const HISTORY: &str = "Your full history is on disk: every message in .self/conversation.jsonl, \
every dream in .self/dreams.jsonl, your observations in .self/observations.md, priorities in \
.self/priorities.md, the diary in .self/diary.md. Search them with rg or grep.";

#[derive(Debug, Clone, Default)]
pub struct Dreamer {
    /// Valid lines of `dreams.jsonl`.
    dreams: u64,
    last_dream_at: Option<DateTime<Utc>>,
    recall: Recall,
    /// The dream under way.
    dreaming: Option<Dreaming>,
}

/// What the dreamer keeps in mind of its files: for wake-up messages and its prompts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recall {
    pub last_dream: Option<Dream>,
    /// The last few dreams, oldest first.
    pub recent_dreams: Vec<Dream>,
    /// Dreams after the last deep one, oldest first (for the next diary entry).
    pub since_deep: Vec<Dream>,
    pub priorities: Vec<String>,
    pub recent_observations: Vec<String>,
}

/// The dreamer's part of the creature on disk.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DreamerRestored {
    /// Valid lines of `dreams.jsonl`.
    pub dreams: u64,
    /// The last dreams, oldest first.
    pub recent_dreams: Vec<Dream>,
    /// Dreams after the last deep one, oldest first.
    pub since_deep: Vec<Dream>,
    pub priorities: Vec<String>,
    pub recent_observations: Vec<String>,
}

/// Fresh reads at wake; `None` when unreadable.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DreamerFresh {
    pub priorities: Option<Vec<String>>,
    pub recent_observations: Option<Vec<String>>,
}

/// The dreamer's requests to its files.
#[derive(Debug, Clone, PartialEq)]
pub enum DreamerIo {
    /// Append the observations and the dream, all or nothing; answered `Committed`.
    Commit {
        id: u64,
        commit: DreamCommit,
    },
    /// Read `observations.md` whole; answered `ObservationsLoaded`.
    LoadObservations {
        id: u64,
    },
    /// The pruned `observations.md`, rewritten atomically.
    Observations {
        text: String,
    },
    Priorities {
        updated: DateTime<Utc>,
        items: Vec<String>,
    },
    Diary {
        at: DateTime<Utc>,
        body: String,
    },
}

#[derive(Debug)]
pub enum DreamerDone {
    Committed {
        id: u64,
        result: Result<(), CommitError>,
    },
    ObservationsLoaded {
        id: u64,
        result: Result<String, FileError>,
    },
}

/// Why a dream was not written; nothing of it was.
#[derive(Debug, Error)]
pub enum CommitError {
    #[error("observations.md: {0}")]
    Observations(#[source] io::Error),
    #[error("dreams.jsonl: {0}")]
    Dream(#[source] io::Error),
    #[error("dreams.jsonl: {dream}; and observations.md could not be rolled back: {undo}")]
    Rollback {
        dream: io::Error,
        #[source]
        undo: io::Error,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct DreamCommit {
    /// `YYYY-MM-DD`, the header the observations go under.
    pub date: String,
    pub observations: Vec<String>,
    pub dream: Dream,
}

impl Dreamer {
    pub fn recall(&self) -> &Recall {
        &self.recall
    }

    fn remember_observations(&mut self, lines: impl IntoIterator<Item = String>) {
        let v = &mut self.recall.recent_observations;
        v.extend(lines);
        if v.len() > RECENT_OBSERVATIONS {
            v.drain(..v.len() - RECENT_OBSERVATIONS);
        }
    }

    fn remember_dream(&mut self, dream: Dream) {
        self.recall.recent_dreams.push(dream.clone());
        let excess = self
            .recall
            .recent_dreams
            .len()
            .saturating_sub(RECENT_DREAMS);
        self.recall.recent_dreams.drain(..excess);
        self.recall.since_deep.push(dream.clone());
        self.recall.last_dream = Some(dream);
    }
}

impl Genome for Dreamer {
    type Restored = DreamerRestored;
    type Fresh = DreamerFresh;
    type Io = DreamerIo;
    type Done = DreamerDone;
    type Files = DreamerFiles;

    const CONSOLIDATION_EVENT: EventKind = EventKind::Dream;
    const BIRTH_NAME: &'static str = crate::genomes::dreamer::NAME;
    const REVIEWED: &'static [FileKind] = &[
        FileKind::Observations,
        FileKind::Dreams,
        FileKind::Priorities,
        FileKind::Diary,
    ];

    fn tools(&self, cfg: &RunnerConfig) -> Vec<GenomeTool> {
        vec![mail::send_message_tool(&cfg.garden)]
    }

    fn call_tool(&mut self, call: &ToolCall, cx: &mut Cx<'_, Self>) -> Option<ToolReply> {
        mail::call_send_message(call, cx)
    }

    /// Also after a reviewed dream was decided: everything is read anew.
    fn restore(&mut self, r: DreamerRestored) {
        self.recall.recent_observations.clear();
        self.dreams = r.dreams;
        self.last_dream_at = r.recent_dreams.last().and_then(|d| d.t);
        self.recall.last_dream = r.recent_dreams.last().cloned();
        self.recall.recent_dreams = r.recent_dreams;
        let excess = self
            .recall
            .recent_dreams
            .len()
            .saturating_sub(RECENT_DREAMS);
        self.recall.recent_dreams.drain(..excess);
        self.recall.since_deep = r.since_deep;
        self.recall.priorities = r.priorities;
        self.remember_observations(r.recent_observations);
    }

    fn refresh(&mut self, fresh: DreamerFresh) {
        if let Some(p) = fresh.priorities {
            self.recall.priorities = p;
        }
        if let Some(o) = fresh.recent_observations {
            self.recall.recent_observations = o;
        }
    }

    fn dreams(&self) -> u64 {
        self.dreams
    }

    /// Whether the last dream is at least MIN_DREAM_INTERVAL old (or there was none).
    fn sleep_due(&self, now: DateTime<Utc>, _secs: f64, cfg: &RunnerConfig) -> bool {
        let interval = cfg.wall(cfg.cycle.min_dream_interval_s);
        self.last_dream_at.is_none_or(|t| now - t >= interval)
    }

    /// The operator's sleep with fewer than [`LIGHT_DREAM_ACTIONS`] actions to consolidate
    /// is a lightweight dream (no model call), as OpenSeed's.
    fn begin_sleep(&mut self, cause: SleepCause, cx: &mut Cx<'_, Self>) -> SleepStep {
        let deep = cx.cfg.cycle.is_deep(self.dreams + 1);
        if cause == SleepCause::Operator && cx.fatigue < LIGHT_DREAM_ACTIONS {
            return self.light_dream(deep, cx);
        }
        self.dreaming = Some(Dreaming::new(deep));
        SleepStep::Ready
    }

    fn step(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep {
        self.dream_step(cx)
    }

    fn on_thought(
        &mut self,
        id: u64,
        result: Result<Response, LlmError>,
        cx: &mut Cx<'_, Self>,
    ) -> SleepStep {
        self.dream_answer(id, result, cx)
    }

    fn on_io(&mut self, done: DreamerDone, cx: &mut Cx<'_, Self>) -> IoProgress {
        let step = match done {
            DreamerDone::Committed { id, result } => self.on_committed(id, result, cx),
            DreamerDone::ObservationsLoaded { id, result } => self.on_observations(id, result, cx),
        };
        IoProgress::Sleep(step)
    }

    fn recap(&self) -> String {
        let mut out = String::new();
        if let Some(d) = &self.recall.last_dream {
            out.push_str(&format!(
                "\nYour last reflection: {}\n",
                d.reflection.trim()
            ));
            out.push_str(&format!("Your priority: {}\n", d.priority.trim()));
        }
        if !self.recall.priorities.is_empty() {
            out.push_str("\nYour priorities:\n");
            for p in &self.recall.priorities {
                out.push_str(&format!("- {p}\n"));
            }
        }
        if !self.recall.recent_observations.is_empty() {
            out.push_str("\nRecent observations:\n");
            for o in &self.recall.recent_observations {
                out.push_str(o);
                out.push('\n');
            }
        }
        out.push('\n');
        out.push_str(HISTORY);
        out.push('\n');
        out
    }

    fn history(&self) -> &'static str {
        HISTORY
    }

    fn trim_note(dropped: usize) -> String {
        format!(
            "[Earlier context ({dropped} messages) was consolidated into .self/observations.md and \
             .self/dreams.jsonl; every message is still in .self/conversation.jsonl. Search it with rg.]"
        )
    }

    fn prompt(&self, cfg: &RunnerConfig) -> GenomePrompt {
        GenomePrompt {
            sleep: format!(
                "Sleeps of {nap}s or more consolidate your memory into observations and a dream \
                 when your last dream is at least {interval} minutes old.",
                nap = cfg.cycle.quick_nap_threshold_s,
                interval = cfg.cycle.min_dream_interval_s / 60.0,
            ),
            memory: format!(
                "Only your recent messages stay in context. When you sleep, a consolidating mind \
                 distils your activity into .self/observations.md (RED critical, YLW important, GRN \
                 minor) and a dream in .self/dreams.jsonl; every {deep}th dream is a deep sleep that \
                 prunes observations, rewrites .self/priorities.md and writes .self/diary.md. Every \
                 message you ever exchanged is in .self/conversation.jsonl: search it with rg.",
                deep = cfg.cycle.deep_sleep_every,
            ),
        }
    }
}

/// The last `RECENT_OBSERVATIONS` tagged lines of an observations file.
pub fn recent_observation_lines(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text
        .lines()
        .filter(|l| matches!(parse_item(l), Some(ObsItem::Observation(_))))
        .map(|l| l.trim().to_string())
        .collect();
    if lines.len() > RECENT_OBSERVATIONS {
        lines.drain(..lines.len() - RECENT_OBSERVATIONS);
    }
    lines
}

/// How a dreamer is hosted.
pub static HOSTED: crate::runner::hosting::HostedGenome = crate::runner::hosting::HostedGenome {
    open: crate::runner::hosting::open_as::<Dreamer>,
    rehearse: crate::runner::hosting::nothing_to_rehearse,
    config: None,
    embeds: false,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::wake::wake_message;

    #[test]
    fn the_wake_message_recalls_every_part() {
        let d = Dream::parse(
            br#"{"t":"2026-03-01T10:00:00Z","reflection":"went well","priority":"fix x"}"#,
        )
        .unwrap();
        let mut dreamer = Dreamer::default();
        dreamer.restore(DreamerRestored {
            dreams: 1,
            recent_dreams: vec![d],
            priorities: vec!["a".into(), "b".into()],
            recent_observations: vec!["RED 10:00 z".into()],
            ..Default::default()
        });
        let m = wake_message(
            "[t] You woke up after sleeping 300s.",
            &dreamer.recap(),
            Some("please be brief\n"),
        );
        for part in [
            "You woke up after sleeping 300s.",
            "Your last reflection: went well",
            "Your priority: fix x",
            "Your priorities:\n- a\n- b\n",
            "Recent observations:\nRED 10:00 z\n",
            ".self/conversation.jsonl",
            "MESSAGES.md from your creator",
            "---\nplease be brief\n---",
        ] {
            assert!(m.contains(part), "missing {part:?} in {m}");
        }
    }
}
