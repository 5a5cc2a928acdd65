//! The evennia genome: seed 002's "Memory and Sleep" (evennia_ai) over the one cycle
//! engine. Three tiers: semantic memory (the Mem0 tier: world facts extracted from the
//! journal at sleep, with source and trust, recalled in two stages), entity profiles
//! (raw observations Pf, consolidated attributes Pa, relationship state by favorability),
//! and working memory (per-entity conversations). The creature writes journal entries with
//! its tools; they are scored for importance at once by rule of thumb and later by the
//! model.
//!
//! Modes: awake (a turn per awake tick) and sleep (a batch of work per sleep tick). Sleep
//! work has two phases: compacting (scoring, then journal -> semantic memory in batches;
//! atomic: a wake meanwhile is deferred) and dreaming (links, link cleanup, entity
//! consolidation, reflection at a cumulative importance of 150, pruning, stale working
//! memory, the pre-compaction extraction turn, compaction). Then it rests until its wake
//! time, a light sleep that an urgent event ends. Files: DESIGN.md section 7 and
//! docs/evennia.md ("The evennia genome").
//!
//! [`Evennia`] is pure; [`files::EvenniaFiles`] does its IO.

pub mod config;
pub mod files;
pub mod journal;
pub mod relationship;
pub mod schedule;

pub mod tasks;

mod prompts;
mod rehearsal;

/// The rehearsal brain's context budget (characters): small, so that compaction shows
/// within minutes.
const REHEARSAL_CONTEXT_CHARS: usize = 12_000;

/// How an evennia creature is hosted.
pub static HOSTED: crate::runner::hosting::HostedGenome = crate::runner::hosting::HostedGenome {
    open: crate::runner::hosting::open_as::<Evennia>,
    rehearse: |config| {
        config.genomes.edit(|c: &mut config::EvenniaConfig| {
            if c.context_budget_chars == 0 {
                c.context_budget_chars = REHEARSAL_CONTEXT_CHARS;
            }
        })
    },
    config: Some(crate::runner::genome_config::ConfigSection::of::<
        config::EvenniaConfig,
    >()),
    embeds: true,
};

#[cfg(test)]
mod tests;
mod tools;
mod work;

use crate::llm::embed::Embeddings;
use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use crate::llm::{LlmError, Response};
use crate::memory::events::EventKind;
use crate::memory::layout::FileKind;
use crate::memory::time::format_time;
use crate::runner::brain::script::TurnScript;
use crate::runner::config::RunnerConfig;
use crate::runner::mail::{self, Delivery, Outgoing};

use self::files::EvenniaFiles;
use self::journal::Entry;
use self::relationship::Profile;
use self::work::Work;
use crate::genomes::evennia::memory::entities::{EntityObserve, EntityRelationship};
use crate::genomes::evennia::memory::mode::{Compaction, Transition, WakeDeferred};
use crate::genomes::evennia::memory::working::{ConversationState, WorkingMessage};
use crate::memory::op_line::OpRecord;
use crate::runner::genome::{
    Compacted, Cx, Genome, GenomePrompt, GenomeTool, Incoming, IoProgress, ScheduledSleep,
    SleepCause, SleepEnd, SleepStep, ToolCall, ToolReply,
};

/// Where the creature's memory is, told at every wake.
pub const HISTORY: &str = "Your memory is on disk: the journal in .self/journal.jsonl, semantic \
memory in .self/semantic.jsonl, what you know of others in .self/entities.jsonl, reflections in \
.self/reflections.jsonl, every message in .self/conversation.jsonl. Use recall_memories and \
review_journal, or search the files with rg.";

/// A semantic memory as the genome keeps it (its vector lives in the files).
#[derive(Debug, Clone, PartialEq)]
pub struct Memory {
    pub id: String,
    pub text: String,
    pub source_trust: f64,
    pub importance: u8,
    pub source_entity: Option<String>,
    pub links: Vec<(String, f32)>,
    /// Processed for links (A-MEM) already.
    pub linked: bool,
}

/// One conversation of working memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Conversation {
    pub topic: String,
    pub started_at: DateTime<Utc>,
    pub last_at: DateTime<Utc>,
    pub messages: Vec<(DateTime<Utc>, String, String)>,
    pub pending_actions: Vec<String>,
}

/// What the genome found on disk.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EvenniaRestored {
    pub journal: Vec<Entry>,
    pub journal_pruned: u64,
    pub memories: Vec<Memory>,
    pub entities: BTreeMap<String, Profile>,
    pub working: BTreeMap<String, Conversation>,
    pub reflections: u64,
    pub last_reflection_at: Option<DateTime<Utc>>,
    /// Completed sleeps (transitions out of sleep).
    pub sleeps: u64,
    pub last_sleep_at: Option<DateTime<Utc>>,
    /// The largest numeric suffix of each id kind in use: journal, memory, reflection.
    pub next_ids: [u64; 3],
}

/// Requests to the genome's files.
#[derive(Debug, Clone, PartialEq)]
pub enum EvenniaIo {
    /// Lines appended to one of the genome's JSONL files.
    Append { file: FileKind, lines: Vec<Value> },
    /// A semantic memory: its line, and its vector in the side file.
    Remember {
        line: Value,
        id: String,
        /// The embedding model that made the vector.
        model: String,
        vector: Vec<f32>,
    },
    /// The `k` memories nearest `vector`; answered [`EvenniaDone::Found`].
    Search {
        req: u64,
        vector: Vec<f32>,
        k: usize,
    },
    /// The `k` memories nearest memory `id` (itself left out); answered `Found`.
    Similar { req: u64, id: String, k: usize },
    /// `.self/working_memory.json`, rewritten.
    WorkingMemory(Value),
}

#[derive(Debug)]
pub enum EvenniaDone {
    Found {
        req: u64,
        hits: Result<Vec<(String, f32)>, String>,
    },
}

/// Fresh reads at wake: nothing; the genome's files are written by the genome alone.
pub type EvenniaFresh = ();

#[derive(Debug, Clone, Default)]
pub struct Evennia {
    journal: Vec<Entry>,
    journal_pruned: u64,
    memories: Vec<Memory>,
    entities: BTreeMap<String, Profile>,
    working: BTreeMap<String, Conversation>,
    reflections: u64,
    last_reflection_at: Option<DateTime<Utc>>,
    sleeps: u64,
    next_ids: [u64; 3],
    /// Awake ticks since the last wake (the activity counter).
    awake_ticks: u64,
    cooldown_until: Option<DateTime<Utc>>,
    asleep: bool,
    work: Option<Work>,
    /// A tool call waiting for an embedding or a search: (request id, what).
    pending_tool: Option<(u64, tools::PendingTool)>,
}

impl Evennia {
    pub fn journal(&self) -> &[Entry] {
        &self.journal
    }

    pub fn memories(&self) -> &[Memory] {
        &self.memories
    }

    pub fn entities(&self) -> &BTreeMap<String, Profile> {
        &self.entities
    }

    pub fn reflections(&self) -> u64 {
        self.reflections
    }

    /// The sleep phase under way, if asleep.
    pub fn phase(&self) -> Option<&'static str> {
        self.work.as_ref().map(Work::phase_name)
    }

    pub fn cumulative_importance(&self) -> u32 {
        journal::cumulative_importance(&self.journal, self.last_reflection_at)
    }

    fn new_id(&mut self, kind: usize, prefix: char) -> String {
        self.next_ids[kind] += 1;
        format!("{prefix}{}", self.next_ids[kind])
    }

    fn journal_id(&mut self) -> String {
        self.new_id(0, 'j')
    }

    fn memory_id(&mut self) -> String {
        self.new_id(1, 'm')
    }

    fn reflection_id(&mut self) -> String {
        self.new_id(2, 'r')
    }

    /// Writes a journal entry (its importance by rule of thumb unless given).
    #[allow(clippy::too_many_arguments)]
    fn add_entry(
        &mut self,
        text: &str,
        tags: Vec<String>,
        source_type: &str,
        source_trust: f64,
        source_entity: Option<String>,
        importance: Option<u8>,
        synthesis: bool,
        cx: &mut Cx<'_, Self>,
    ) -> String {
        let id = self.journal_id();
        let entry = Entry {
            id: id.clone(),
            t: cx.now,
            text: text.trim().to_string(),
            tags,
            source_type: source_type.to_string(),
            source_trust: source_trust.clamp(0.0, 1.0),
            source_entity,
            importance: importance
                .unwrap_or_else(|| journal::heuristic_importance(text, source_type)),
            method: "heuristic",
            synthesis,
            consolidated: false,
        };
        append(
            cx,
            crate::genomes::evennia::memory::JOURNAL,
            vec![entry.add_line()],
        );
        self.journal.push(entry);
        id
    }

    /// A mode line in `.sys/mode.jsonl`.
    fn mode_line(&self, cx: &mut Cx<'_, Self>, line: Value) {
        append(
            cx,
            crate::genomes::evennia::memory::OPERATING_MODE,
            vec![line],
        );
    }

    /// An interaction with an entity: an observation, favorability moved, the
    /// relationship line written.
    fn interact(
        &mut self,
        entity_id: &str,
        entity_type: &str,
        observation: &str,
        delta: f64,
        reason: &str,
        cx: &mut Cx<'_, Self>,
    ) -> (&'static str, &'static str) {
        let p = self
            .entities
            .entry(entity_id.to_string())
            .or_insert_with(|| Profile::new(entity_type));
        if !observation.trim().is_empty() {
            p.observations.push(observation.trim().to_string());
        }
        let states = p.interact(delta);
        let mut lines = Vec::new();
        if !observation.trim().is_empty() {
            let observe = EntityObserve {
                entity_id: Some(entity_id.to_string()),
                entity_type: Some(p.entity_type.clone()),
                text: Some(observation.trim().to_string()),
            };
            lines.push(observe.line());
        }
        let relationship = EntityRelationship {
            entity_id: Some(entity_id.to_string()),
            favorability: Some(round3(p.favorability)),
            state: Some(p.state().to_string()),
            interaction_count: Some(p.interactions),
            reason: Some(reason.to_string()),
        };
        lines.push(relationship.line());
        append(cx, crate::genomes::evennia::memory::ENTITIES, lines);
        states
    }

    /// A message into working memory (the entity's conversation).
    fn converse(&mut self, entity: &str, from: &str, text: &str, cx: &mut Cx<'_, Self>) {
        let now = cx.now;
        let c = self
            .working
            .entry(entity.to_string())
            .or_insert_with(|| Conversation {
                topic: first_words(text, 6),
                started_at: now,
                last_at: now,
                messages: Vec::new(),
                pending_actions: Vec::new(),
            });
        c.last_at = now;
        c.messages
            .push((now, from.to_string(), text.trim().to_string()));
        if c.messages.len() > 20 {
            c.messages.remove(0);
        }
        self.write_working(cx);
    }

    fn write_working(&self, cx: &mut Cx<'_, Self>) {
        let mut map = Map::new();
        for (id, c) in &self.working {
            let messages = c
                .messages
                .iter()
                .map(|(t, from, text)| WorkingMessage {
                    t: Some(format_time(*t)),
                    from: Some(from.clone()),
                    text: Some(text.clone()),
                })
                .collect();
            let state = ConversationState {
                topic: Some(c.topic.clone()),
                started_at: Some(format_time(c.started_at)),
                last_at: Some(format_time(c.last_at)),
                messages: Some(messages),
                pending_actions: Some(c.pending_actions.clone()),
            };
            // A record of plain fields always serialises.
            if let Ok(state) = serde_json::to_value(state) {
                map.insert(id.clone(), state);
            }
        }
        cx.io(EvenniaIo::WorkingMemory(Value::Object(map)));
    }
}

/// Appends lines with the time of `cx` to one of the genome's files.
fn append(cx: &mut Cx<'_, Evennia>, file: FileKind, lines: Vec<Value>) {
    let t = format_time(cx.now);
    let lines = lines
        .into_iter()
        .map(|mut l| {
            if let Value::Object(m) = &mut l {
                m.insert("t".into(), Value::String(t.clone()));
            }
            l
        })
        .collect();
    cx.io(EvenniaIo::Append { file, lines });
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn first_words(text: &str, n: usize) -> String {
    text.split_whitespace()
        .take(n)
        .collect::<Vec<_>>()
        .join(" ")
}

impl Genome for Evennia {
    type Restored = EvenniaRestored;
    type Fresh = EvenniaFresh;
    type Io = EvenniaIo;
    type Done = EvenniaDone;
    type Files = EvenniaFiles;

    const CONSOLIDATION_EVENT: EventKind = EventKind::Dream;
    const BIRTH_NAME: &'static str = "evennia";

    fn tools(&self, cfg: &RunnerConfig) -> Vec<GenomeTool> {
        let mut tools = tools::specs();
        tools.push(mail::send_message_tool(&cfg.garden));
        tools
    }

    fn call_tool(&mut self, call: &ToolCall, cx: &mut Cx<'_, Self>) -> Option<ToolReply> {
        mail::call_send_message(call, cx).or_else(|| self.tool(call, cx))
    }

    /// A message sent is an interaction too: in the recipient's conversation and
    /// relationship, as a message received is.
    fn on_sent(
        &mut self,
        _id: u64,
        m: &Outgoing,
        delivery: &Delivery,
        cx: &mut Cx<'_, Self>,
    ) -> IoProgress {
        if delivery.delivered() {
            let entity_type = if m.to == mail::CREATOR {
                "creator"
            } else {
                "creature"
            };
            self.converse(&m.to, "self", &m.text, cx);
            self.interact(
                &m.to,
                entity_type,
                &format!("told them: {}", first_words(&m.text, 24)),
                0.0,
                "message",
                cx,
            );
        }
        IoProgress::Tool(delivery.outcome(&m.to))
    }

    fn restore(&mut self, r: EvenniaRestored) {
        self.journal = r.journal;
        self.journal_pruned = r.journal_pruned;
        self.memories = r.memories;
        self.entities = r.entities;
        self.working = r.working;
        self.reflections = r.reflections;
        self.last_reflection_at = r.last_reflection_at;
        self.sleeps = r.sleeps;
        self.next_ids = r.next_ids;
    }

    fn refresh(&mut self, _fresh: EvenniaFresh) {}

    fn dreams(&self) -> u64 {
        self.sleeps
    }

    /// Every sleep of 30 s or more is sleep mode, with its work.
    fn sleep_due(&self, _now: DateTime<Utc>, _secs: f64, _cfg: &RunnerConfig) -> bool {
        true
    }

    fn begin_sleep(&mut self, cause: SleepCause, cx: &mut Cx<'_, Self>) -> SleepStep {
        let (reason, secs) = match cause {
            SleepCause::Requested(s) => (format!("set_sleep {}s", s.round()), s),
            SleepCause::Forced => ("fatigue limit".into(), cx.cfg.cycle.deep_sleep_pause_s),
            SleepCause::Operator => ("operator".into(), cx.cfg.cycle.deep_sleep_pause_s),
            SleepCause::Scheduled(s) => ("sleep schedule".into(), s),
        };
        // The engine wakes it then (`wake_time_includes_work`).
        let wake_at = format_time(cx.now + cx.cfg.wall(secs));
        self.asleep = true;
        self.mode_line(
            cx,
            Transition {
                from: Some("awake".into()),
                to: Some("sleep".into()),
                reason: Some(reason),
                wake_at: Some(wake_at),
            }
            .line(),
        );
        self.begin_work(cx)
    }

    fn step(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep {
        self.work_step(cx)
    }

    fn on_thought(
        &mut self,
        id: u64,
        result: Result<Response, LlmError>,
        cx: &mut Cx<'_, Self>,
    ) -> SleepStep {
        self.work_answer(id, result, cx)
    }

    fn on_io(&mut self, done: EvenniaDone, cx: &mut Cx<'_, Self>) -> IoProgress {
        let EvenniaDone::Found { req, hits } = done;
        if self.pending_tool.as_ref().is_some_and(|(id, _)| *id == req) {
            return self.tool_found(hits, cx);
        }
        IoProgress::Sleep(self.work_found(req, hits, cx))
    }

    fn on_embedded(
        &mut self,
        id: u64,
        result: Result<Embeddings, String>,
        cx: &mut Cx<'_, Self>,
    ) -> IoProgress {
        if self
            .pending_tool
            .as_ref()
            .is_some_and(|(req, _)| *req == id)
        {
            return self.tool_embedded(result, cx);
        }
        IoProgress::Sleep(self.work_embedded(id, result, cx))
    }

    fn atomic(&self) -> bool {
        self.work.as_ref().is_some_and(Work::compacting)
    }

    fn on_wake_deferred(&mut self, reason: &str, cx: &mut Cx<'_, Self>) {
        let phase = self.phase().unwrap_or("sleep");
        self.mode_line(
            cx,
            WakeDeferred {
                reason: Some(format!("{reason} during {phase}")),
            }
            .line(),
        );
    }

    fn interrupt(&mut self, cx: &mut Cx<'_, Self>) -> SleepEnd {
        self.end_work(cx)
    }

    fn on_wake(&mut self, reason: &str, cx: &mut Cx<'_, Self>) {
        if !std::mem::take(&mut self.asleep) {
            return;
        }
        self.work = None;
        self.awake_ticks = 0;
        self.cooldown_until =
            Some(cx.now + cx.cfg.wall(config::of(cx.cfg).wake_cooldown_min * 60.0));
        self.mode_line(
            cx,
            Transition {
                from: Some("sleep".into()),
                to: Some("awake".into()),
                reason: Some(reason.to_string()),
                wake_at: None,
            }
            .line(),
        );
    }

    fn on_awake_tick(&mut self, cx: &mut Cx<'_, Self>) -> Option<ScheduledSleep> {
        self.awake_ticks += 1;
        let s = &config::of(cx.cfg).schedule;
        schedule::schedule_says_sleep(cx.now, s, self.awake_ticks, self.cooldown_until).then(|| {
            ScheduledSleep {
                secs: schedule::seconds_to_window_end(cx.now, s),
                reason: format!(
                    "sleep schedule ({:02}:00 UTC for {} h)",
                    s.sleep_start_hour, s.sleep_duration_hours
                ),
            }
        })
    }

    fn awake_tick_s(&self, cfg: &RunnerConfig) -> Option<f64> {
        Some(config::of(cfg).tick_awake_s)
    }

    fn sleep_tick_s(&self, cfg: &RunnerConfig) -> f64 {
        config::of(cfg).tick_sleep_s
    }

    fn wake_time_includes_work(&self) -> bool {
        true
    }

    fn turn_script(&self) -> Option<TurnScript> {
        Some(rehearsal::SCRIPT)
    }

    fn trims_at_consolidation(&self) -> bool {
        false
    }

    fn on_message(&mut self, m: &Incoming, asleep: bool, cx: &mut Cx<'_, Self>) -> bool {
        let entity_type = if m.from == "creator" {
            "creator"
        } else {
            "creature"
        };
        self.converse(&m.from, &m.from, &m.text, cx);
        self.interact(
            &m.from,
            entity_type,
            &format!("said: {}", first_words(&m.text, 24)),
            0.0,
            "message",
            cx,
        );
        if !asleep || !schedule::is_urgent(m) {
            return false;
        }
        match &mut self.work {
            // A deep sleep: the event waits for the dreaming to end.
            Some(w) if w.dreaming() => {
                w.hold_wake();
                self.mode_line(
                    cx,
                    WakeDeferred {
                        reason: Some(format!(
                            "urgent message from {} during dreaming (deep sleep)",
                            m.from
                        )),
                    }
                    .line(),
                );
                false
            }
            // Compacting defers it (atomic); resting is a light sleep: it wakes.
            _ => true,
        }
    }

    fn awake_compaction(&self, cfg: &RunnerConfig) -> Option<f64> {
        Some(config::of(cfg).compact_emergency_threshold)
    }

    fn context_budget(&self, cfg: &RunnerConfig) -> usize {
        match config::of(cfg).context_budget_chars {
            0 => cfg.cycle.max_context_chars,
            n => n,
        }
    }

    fn on_compacted(&mut self, done: Option<&Compacted>, cx: &mut Cx<'_, Self>) -> SleepStep {
        if let Some(c) = done {
            let journal_id = self.add_entry(
                &c.summary,
                vec!["compaction".into()],
                "synthesis",
                1.0,
                None,
                Some(5),
                true,
                cx,
            );
            self.mode_line(
                cx,
                Compaction {
                    trigger: Some(c.trigger.to_string()),
                    ratio: Some(round3(c.ratio)),
                    summarized: Some(c.summarized as u64),
                    preserved: Some(c.preserved as u64),
                    journal_id: Some(journal_id),
                }
                .line(),
            );
        }
        if self.work.is_some() {
            self.after_compaction(cx)
        } else {
            SleepStep::Ready
        }
    }

    fn on_sleep_turns_over(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep {
        self.after_extraction(cx)
    }

    fn recap(&self) -> String {
        let mut out = String::new();
        let important: Vec<&Entry> = {
            let mut v: Vec<&Entry> = self.journal.iter().rev().take(30).collect();
            v.sort_by_key(|e| std::cmp::Reverse(e.importance));
            v.into_iter().take(5).collect()
        };
        if !important.is_empty() {
            out.push_str("\nImportant journal entries:\n");
            for e in important {
                out.push_str(&format!("- [{}] ({}/10) {}\n", e.id, e.importance, e.text));
            }
        }
        if let Some(r) = self
            .journal
            .iter()
            .rev()
            .find(|e| !e.counts_toward_reflection() && !e.synthesis)
        {
            out.push_str(&format!("\nYour latest insight: {}\n", r.text));
        }
        if !self.entities.is_empty() {
            out.push_str("\nThose you know:\n");
            for (id, p) in &self.entities {
                out.push_str(&format!(
                    "- {id} ({}): {} ({:.2}), {} interactions\n",
                    p.entity_type,
                    p.state(),
                    p.favorability,
                    p.interactions
                ));
            }
        }
        out.push_str(&format!(
            "\nSemantic memory holds {} facts; recall them with recall_memories.\n\n{HISTORY}\n",
            self.memories.len()
        ));
        out
    }

    fn history(&self) -> &'static str {
        HISTORY
    }

    fn prompt(&self, cfg: &RunnerConfig) -> GenomePrompt {
        prompts::genome_prompt(cfg)
    }
}
