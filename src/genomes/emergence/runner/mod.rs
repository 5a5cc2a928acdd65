//! The emergence genome: seed 003's "Agent Memory & Cognition" (Emergence World) over the
//! one cycle engine. A stack of memory the creature keeps with its own tool calls: soul
//! entries (core beliefs, always in its system prompt, never summarised), long-term
//! memories, their summaries, a diary (one entry a date), to-dos, a calendar with
//! recurrences (due events are put before the creature's next turn), a relationship graph
//! whose every change is a line, and its dialogues with other agents.
//!
//! Sleep: self-care is this genome's consolidation, and only the creature starts it
//! (`self_care{focus}`): memories in batches are summarised by the model around the focus
//! and archived (still searchable), then the dialogues since the watermark are summarised
//! with the earlier summary folded in; then fatigue starts over and the context is trimmed
//! (the engine's consolidation). `set_sleep` is a plain rest. A sleep the engine forces
//! (fatigue limit, operator) rests and trims the context but summarises nothing. Files:
//! DESIGN.md section 7 and docs/emergence.md ("The emergence genome").
//!
//! [`Emergence`] is pure; [`files::EmergenceFiles`] does its IO.

pub mod calendar;
pub mod config;
pub mod files;
pub mod tasks;

mod care;
mod link;
mod prompts;
mod rehearsal;
mod restore;
/// How an emergence creature is hosted.
pub static HOSTED: crate::runner::hosting::HostedGenome = crate::runner::hosting::HostedGenome {
    open: crate::runner::hosting::open_as::<Emergence>,
    rehearse: crate::runner::hosting::nothing_to_rehearse,
    config: Some(crate::runner::genome_config::ConfigSection::of::<
        config::EmergenceConfig,
    >()),
    embeds: false,
};

#[cfg(test)]
mod tests;
mod tools;

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use serde_json::Value;

use crate::llm::{LlmError, Response};
use crate::memory::events::EventKind;
use crate::memory::time::format_time;
use crate::runner::brain::script::TurnScript;
use crate::runner::config::RunnerConfig;
use crate::runner::mail::{self, Delivery, Outgoing};

use self::calendar::Event;
use self::care::Care;
use self::files::EmergenceFiles;
use crate::genomes::emergence::memory::dialogues::SaidLine;
use crate::genomes::emergence::memory::longterm::LongTermAdd;
use crate::genomes::emergence::memory::relations::RelationLine;
use crate::memory::layout::FileKind;
use crate::memory::op_line::OpRecord;
use crate::runner::genome::{
    Cx, Genome, GenomePrompt, GenomeTool, Incoming, IoProgress, SleepCause, SleepEnd, SleepStep,
    ToolCall, ToolReply,
};

/// Where the creature's memory is, told at every wake.
pub const HISTORY: &str = "Your memory is on disk in .self/: soul.jsonl, longterm.jsonl (archived \
memories included), summaries.jsonl, diary.jsonl, todos.jsonl, calendar.jsonl, relations.jsonl, \
dialogues.jsonl, and every message in conversation.jsonl. Use search_memories and read_diary, or \
search the files with rg.";

/// A soul entry: a core belief, value, fear or conviction.
#[derive(Debug, Clone, PartialEq)]
pub struct SoulEntry {
    pub id: String,
    pub text: String,
}

/// A long-term memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Memory {
    pub id: String,
    pub t: DateTime<Utc>,
    pub text: String,
    /// The summary it was archived into, once self-care summarised it.
    pub archived: Option<String>,
    /// The agent whose memory bank it was copied from (a neural link).
    pub from: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SummaryKind {
    Memories,
    Conversations,
}

impl SummaryKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SummaryKind::Memories => "memories",
            SummaryKind::Conversations => "conversations",
        }
    }
}

/// A summary made by self-care.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub id: String,
    pub t: DateTime<Utc>,
    pub kind: SummaryKind,
    pub focus: String,
    pub text: String,
    /// The memory or dialogue ids it covers.
    pub covers: Vec<String>,
    /// The earlier summaries folded into it.
    pub folded: Vec<String>,
    /// The last dialogue it covers (conversation summaries).
    pub watermark: Option<String>,
    /// The agent whose memory bank it was copied from (a neural link).
    pub from: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DiaryEntry {
    pub text: String,
    pub mood: Option<String>,
    pub location: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Todo {
    pub id: String,
    pub title: String,
    pub description: String,
    pub priority: String,
    pub due: Option<String>,
    pub done: bool,
}

/// What the creature holds of another agent now (the last of its lines).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Relation {
    pub relationship_type: String,
    pub trust_level: Option<f64>,
    pub emotional_tone: String,
    pub rationale: String,
    pub interaction_count: u64,
    pub first_met_at: Option<DateTime<Utc>>,
    pub notes: String,
}

/// A line of dialogue with another agent.
#[derive(Debug, Clone, PartialEq)]
pub struct Said {
    pub id: String,
    pub t: DateTime<Utc>,
    /// The other party.
    pub with: String,
    /// Who said it: the other party, or `self`.
    pub from: String,
    pub text: String,
    /// The conversation summary that covers it.
    pub summary: Option<String>,
    pub archived: bool,
}

/// Id kinds, each with its own counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum IdKind {
    Soul,
    Memory,
    Summary,
    Todo,
    Event,
    Said,
}

impl IdKind {
    pub const ALL: [IdKind; 6] = [
        IdKind::Soul,
        IdKind::Memory,
        IdKind::Summary,
        IdKind::Todo,
        IdKind::Event,
        IdKind::Said,
    ];

    pub fn prefix(self) -> &'static str {
        match self {
            IdKind::Soul => "s",
            IdKind::Memory => "m",
            IdKind::Summary => "sum",
            IdKind::Todo => "td",
            IdKind::Event => "ev",
            IdKind::Said => "d",
        }
    }

    /// The number of an id of this kind (`m12` -> 12).
    pub fn number(self, id: &str) -> u64 {
        id.strip_prefix(self.prefix())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    }
}

/// What the genome found on disk.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EmergenceRestored {
    pub soul: Vec<SoulEntry>,
    pub memories: Vec<Memory>,
    pub summaries: Vec<Summary>,
    pub diary: BTreeMap<NaiveDate, DiaryEntry>,
    pub todos: Vec<Todo>,
    pub calendar: Vec<Event>,
    pub relations: BTreeMap<String, Relation>,
    pub dialogues: Vec<Said>,
    /// Self-cares done (those of earlier runs).
    pub self_cares: u64,
    pub last_self_care_at: Option<DateTime<Utc>>,
    /// The largest number in use of each id kind.
    pub next_ids: BTreeMap<IdKind, u64>,
    /// BIRTH.json's name (else the directory's).
    pub name: String,
}

/// Requests to the genome's files: lines appended to one of them.
#[derive(Debug, Clone, PartialEq)]
pub enum EmergenceIo {
    Append { file: FileKind, lines: Vec<Value> },
}

/// The genome's IO has no answers.
#[derive(Debug)]
pub enum EmergenceDone {}

/// Fresh reads at wake: nothing; the genome's files are written by the genome alone.
pub type EmergenceFresh = ();

#[derive(Debug, Clone, Default)]
pub struct Emergence {
    soul: Vec<SoulEntry>,
    memories: Vec<Memory>,
    summaries: Vec<Summary>,
    diary: BTreeMap<NaiveDate, DiaryEntry>,
    todos: Vec<Todo>,
    calendar: Vec<Event>,
    relations: BTreeMap<String, Relation>,
    dialogues: Vec<Said>,
    self_cares: u64,
    next_ids: BTreeMap<IdKind, u64>,
    /// Calendar occurrences up to this time have been shown.
    calendar_seen: Option<DateTime<Utc>>,
    /// The self-care under way (a tool call in flight).
    care: Option<Care>,
    /// This creature's name (BIRTH.json's), as its own dialogue lines say it.
    name: String,
    /// A message in flight (a tool call waiting for the garden's delivery).
    sending: Option<(u64, link::Sending)>,
    links: link::Links,
}

impl Emergence {
    pub fn soul(&self) -> &[SoulEntry] {
        &self.soul
    }

    pub fn memories(&self) -> &[Memory] {
        &self.memories
    }

    pub fn summaries(&self) -> &[Summary] {
        &self.summaries
    }

    pub fn diary(&self) -> &BTreeMap<NaiveDate, DiaryEntry> {
        &self.diary
    }

    pub fn todos(&self) -> &[Todo] {
        &self.todos
    }

    pub fn calendar(&self) -> &[Event] {
        &self.calendar
    }

    pub fn relations(&self) -> &BTreeMap<String, Relation> {
        &self.relations
    }

    pub fn dialogues(&self) -> &[Said] {
        &self.dialogues
    }

    pub fn self_cares(&self) -> u64 {
        self.self_cares
    }

    /// The last dialogue a summary covers: the ones after it are not summarised yet.
    pub fn watermark(&self) -> Option<&str> {
        self.summaries
            .iter()
            .rev()
            .filter(|s| s.kind == SummaryKind::Conversations && s.from.is_none())
            .find_map(|s| s.watermark.as_deref())
    }

    /// Long-term memories not archived.
    pub fn active_memories(&self) -> impl DoubleEndedIterator<Item = &Memory> {
        self.memories.iter().filter(|m| m.archived.is_none())
    }

    fn new_id(&mut self, kind: IdKind) -> String {
        let n = self.next_ids.entry(kind).or_insert(0);
        *n += 1;
        format!("{}{n}", kind.prefix())
    }

    /// A long-term memory, written. Returns its id.
    fn remember(
        &mut self,
        text: &str,
        from: Option<(&str, &str)>,
        cx: &mut Cx<'_, Self>,
    ) -> String {
        let id = self.new_id(IdKind::Memory);
        let line = LongTermAdd {
            id: Some(id.clone()),
            text: Some(text.to_string()),
            from: from.map(|(agent, _)| agent.to_string()),
            origin: from.map(|(_, origin)| origin.to_string()),
        };
        append(
            cx,
            crate::genomes::emergence::memory::LONG_TERM,
            vec![line.line()],
        );
        self.memories.push(Memory {
            id: id.clone(),
            t: cx.now,
            text: text.to_string(),
            archived: None,
            from: from.map(|(a, _)| a.to_string()),
        });
        id
    }

    /// A line of dialogue with `with`, said by `from`; an interaction in the relation.
    fn said(&mut self, with: &str, from: &str, text: &str, cx: &mut Cx<'_, Self>) -> String {
        let id = self.new_id(IdKind::Said);
        append(
            cx,
            crate::genomes::emergence::memory::DIALOGUES,
            vec![
                SaidLine {
                    id: Some(id.clone()),
                    with: Some(with.to_string()),
                    from: Some(from.to_string()),
                    text: Some(text.to_string()),
                }
                .line(),
            ],
        );
        self.dialogues.push(Said {
            id: id.clone(),
            t: cx.now,
            with: with.to_string(),
            from: from.to_string(),
            text: text.to_string(),
            summary: None,
            archived: false,
        });
        self.interact(with, cx);
        id
    }

    /// One more interaction with `agent` (met now, the first time): a line with the new
    /// count.
    fn interact(&mut self, agent: &str, cx: &mut Cx<'_, Self>) {
        let now = cx.now;
        let r = self.relations.entry(agent.to_string()).or_default();
        r.interaction_count += 1;
        let first = *r.first_met_at.get_or_insert(now);
        let line = RelationLine {
            agent: Some(agent.to_string()),
            interaction_count: Some(r.interaction_count),
            first_met_at: Some(format_time(first)),
            ..RelationLine::default()
        };
        append(
            cx,
            crate::genomes::emergence::memory::RELATIONS,
            vec![line.line()],
        );
    }

    /// Writes `agent`'s relation as it is now, the fields it has (one line per change).
    fn relation_line(&self, agent: &str, cx: &mut Cx<'_, Self>) {
        let Some(r) = self.relations.get(agent) else {
            return;
        };
        let said = |value: &str| Some(value.to_string()).filter(|v| !v.is_empty());
        let line = RelationLine {
            agent: Some(agent.to_string()),
            relationship_type: said(&r.relationship_type),
            trust_level: r.trust_level,
            emotional_tone: said(&r.emotional_tone),
            rationale: said(&r.rationale),
            interaction_count: Some(r.interaction_count),
            first_met_at: r.first_met_at.map(format_time),
            notes: said(&r.notes),
        };
        append(
            cx,
            crate::genomes::emergence::memory::RELATIONS,
            vec![line.line()],
        );
    }

    /// What became due since the last look, as a note (`None` when nothing did).
    fn due_note(&mut self, now: DateTime<Utc>) -> Option<String> {
        let seen = self.calendar_seen.replace(now)?;
        let due = calendar::agenda(self.calendar.iter(), seen, now, 10);
        if due.is_empty() {
            return None;
        }
        let mut out = String::from("[Calendar] Due now:\n");
        for (at, e) in due {
            out.push_str(&format!("- {}\n", prompts::occurrence(at, e)));
        }
        Some(out)
    }
}

/// Appends lines with the time of `cx` to one of the genome's files.
fn append(cx: &mut Cx<'_, Emergence>, file: FileKind, lines: Vec<Value>) {
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
    cx.io(EmergenceIo::Append { file, lines });
}

impl Genome for Emergence {
    type Restored = EmergenceRestored;
    type Fresh = EmergenceFresh;
    type Io = EmergenceIo;
    type Done = EmergenceDone;
    type Files = EmergenceFiles;

    const CONSOLIDATION_EVENT: EventKind = EventKind::Dream;
    const BIRTH_NAME: &'static str = "emergence";

    fn tools(&self, cfg: &RunnerConfig) -> Vec<GenomeTool> {
        let mut t = tools::specs();
        t.push(mail::send_message_tool(&cfg.garden));
        t.extend(tools::link_specs());
        t
    }

    fn call_tool(&mut self, call: &ToolCall, cx: &mut Cx<'_, Self>) -> Option<ToolReply> {
        self.link_tool(&call.name, &call.input, cx)
            .or_else(|| self.tool(call, cx))
    }

    fn on_sent(
        &mut self,
        id: u64,
        _message: &Outgoing,
        delivery: &Delivery,
        cx: &mut Cx<'_, Self>,
    ) -> IoProgress {
        self.sent(id, delivery, cx)
    }

    fn on_tool_thought(
        &mut self,
        id: u64,
        result: Result<Response, LlmError>,
        cx: &mut Cx<'_, Self>,
    ) -> IoProgress {
        self.care_answer(id, result, cx)
    }

    fn restore(&mut self, r: EmergenceRestored) {
        self.soul = r.soul;
        self.memories = r.memories;
        self.summaries = r.summaries;
        self.diary = r.diary;
        self.todos = r.todos;
        self.calendar = r.calendar;
        self.relations = r.relations;
        self.dialogues = r.dialogues;
        self.self_cares = r.self_cares;
        self.next_ids = r.next_ids;
        self.name = r.name;
    }

    fn refresh(&mut self, _fresh: EmergenceFresh) {}

    fn dreams(&self) -> u64 {
        self.self_cares
    }

    /// Every sleep past a nap is a rest: only the creature's self-care consolidates.
    fn sleep_due(&self, _now: DateTime<Utc>, _secs: f64, _cfg: &RunnerConfig) -> bool {
        true
    }

    fn begin_sleep(&mut self, cause: SleepCause, cx: &mut Cx<'_, Self>) -> SleepStep {
        match cause {
            // A neural-link request still open is not slept through: it wakes at once.
            SleepCause::Requested(_) | SleepCause::Scheduled(_) => SleepStep::Done(SleepEnd {
                wake: self.link_waiting(cx),
                ..SleepEnd::default()
            }),
            // Fatigue or the operator: a rest that trims the context and starts fatigue
            // over, summarising nothing (self-care is the creature's alone).
            SleepCause::Forced | SleepCause::Operator => {
                cx.consolidated();
                SleepStep::Done(SleepEnd {
                    consolidated: true,
                    ..SleepEnd::default()
                })
            }
        }
    }

    fn step(&mut self, _cx: &mut Cx<'_, Self>) -> SleepStep {
        SleepStep::Done(SleepEnd::default())
    }

    fn on_thought(
        &mut self,
        _id: u64,
        _result: Result<Response, LlmError>,
        _cx: &mut Cx<'_, Self>,
    ) -> SleepStep {
        SleepStep::Unchanged
    }

    fn on_io(&mut self, done: EmergenceDone, _cx: &mut Cx<'_, Self>) -> IoProgress {
        match done {}
    }

    fn atomic(&self) -> bool {
        false
    }

    fn turn_script(&self) -> Option<TurnScript> {
        Some(rehearsal::SCRIPT)
    }

    fn turn_note(&mut self, cx: &mut Cx<'_, Self>) -> Option<String> {
        let notes: Vec<String> = [self.due_note(cx.now), self.expired_requests(cx)]
            .into_iter()
            .flatten()
            .collect();
        (!notes.is_empty()).then(|| notes.join("\n"))
    }

    fn on_message(&mut self, m: &Incoming, _asleep: bool, cx: &mut Cx<'_, Self>) -> bool {
        let text = m.text.trim();
        if !text.is_empty() {
            self.said(&m.from, &m.from, text, cx);
        }
        // A neural-link request wakes a sleeper: it may only be accepted for 2 minutes.
        self.link_payload(m, cx)
    }

    fn recap(&self) -> String {
        prompts::recap(self)
    }

    fn history(&self) -> &'static str {
        HISTORY
    }

    fn prompt(&self, cfg: &RunnerConfig) -> GenomePrompt {
        prompts::genome_prompt(self, cfg)
    }
}
