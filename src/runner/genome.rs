//! The genome seam: what a memory system plugs into the cycle engine.
//!
//! The engine ([`super::engine`]) runs what every creature shares: turns, tools, fatigue,
//! sleep timing, naps and pauses, operator control, context trimming, faults and backoff,
//! the inbox, restart from disk, status. A [`Genome`] owns the rest:
//! - its tools ([`Genome::tools`], some marked sleep-only) and their calls
//!   ([`Genome::call_tool`]): memory IO goes through the driver as [`Genome::Io`] requests,
//!   never through bash;
//! - its sleep work, a sub-machine of steps: [`Genome::begin_sleep`], then [`Genome::step`]
//!   whenever the cycle may go on (not paused, nothing in flight), fed the brain's answers
//!   ([`Genome::on_thought`]) and its IO results ([`Genome::on_io`]); each returns a
//!   [`SleepStep`]. [`Genome::atomic`] says whether a wake may cut the current phase short
//!   (otherwise it is deferred until the phase is over);
//! - what the creature is told when it wakes ([`Genome::recap`], [`Genome::history`]) and
//!   in its system prompt ([`Genome::prompt`]);
//! - what it restores from disk and re-reads at each wake ([`GenomeFiles`]: the only part
//!   that does IO, run by the driver).
//!
//! Everything but [`GenomeFiles`] is pure: no IO, no clock. The engine lends a genome a
//! [`Cx`] to issue requests and records. A new genome is a module under `genome/` with a
//! type implementing [`Genome`] and one implementing [`GenomeFiles`]; the dreamer
//! ([`dreamer`]) is the example.

use crate::llm::embed::Embeddings;
use std::fmt::Debug;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::llm::{LlmError, Request, Response, ToolSpec};
use crate::memory::events::{CreatureEvent, ErrorEvent, EventKind};
use crate::memory::layout::FileKind;
use crate::memory::write::{SeedPaths, append_json_lines};

use super::activity::Activity;
use super::brain::script::TurnScript;
use super::brain::task::Task;
use super::config::RunnerConfig;
use super::engine::output::{Output, Record};
use super::mail::{Delivery, Outgoing};
use super::tools::ToolOutcome;

/// A memory system over the one cycle engine. See the module doc.
pub trait Genome: Sized + Debug + Clone + Send + 'static {
    /// What [`GenomeFiles::restore`] found on disk for this genome.
    type Restored: Debug + Clone + Default + PartialEq + Send;
    /// What [`GenomeFiles::refresh`] re-reads at each wake.
    type Fresh: Debug + Clone + Default + PartialEq + Send;
    /// Requests to the genome's files (reads, and writes with or without an answer).
    type Io: Debug + Clone + PartialEq + Send;
    /// The answer to an [`Self::Io`] that has one.
    type Done: Debug + Send;
    /// The genome's IO performer, run by the driver.
    type Files: GenomeFiles<Self>;

    /// The `.sys/events.jsonl` kind written when a sleep consolidated: restore reads the
    /// activity since the last one.
    const CONSOLIDATION_EVENT: EventKind;

    /// What BIRTH.json's `genome` says for a creature born with this genome.
    const BIRTH_NAME: &'static str;

    /// The files the sleep work writes, when it may be held for review
    /// (`--review-dreams`): they are copied for it to write to, and what it wrote there
    /// becomes the proposal. Empty (the default): the sleep work is never held.
    const REVIEWED: &'static [FileKind] = &[];

    /// Tools beside `bash` and `set_sleep`.
    fn tools(&self, _cfg: &RunnerConfig) -> Vec<GenomeTool> {
        Vec::new()
    }

    /// A call of one of [`Self::tools`]; `None` when the tool is not the genome's.
    fn call_tool(&mut self, _call: &ToolCall, _cx: &mut Cx<'_, Self>) -> Option<ToolReply> {
        None
    }

    /// The genome's part of the creature found on disk at start.
    fn restore(&mut self, restored: Self::Restored);

    /// Fresh reads at wake (files the creature or its operator may have changed).
    fn refresh(&mut self, fresh: Self::Fresh);

    /// Sleep cycles that consolidated, on disk (those before this run included).
    fn dreams(&self) -> u64;

    /// Whether a requested sleep of `secs` (a nap excluded) runs the sleep work.
    fn sleep_due(&self, now: DateTime<Utc>, secs: f64, cfg: &RunnerConfig) -> bool;

    /// Starts the sleep work; the engine then calls [`Self::step`] while it returns `Ready`.
    fn begin_sleep(&mut self, cause: SleepCause, cx: &mut Cx<'_, Self>) -> SleepStep;

    /// Issues the next request of the sleep work (nothing is in flight).
    fn step(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep;

    /// The brain's answer to a request of the sleep work (`Unchanged` for a stale id).
    fn on_thought(
        &mut self,
        id: u64,
        result: Result<Response, LlmError>,
        cx: &mut Cx<'_, Self>,
    ) -> SleepStep;

    /// The answer to one of the genome's IO requests.
    fn on_io(&mut self, done: Self::Done, cx: &mut Cx<'_, Self>) -> IoProgress;

    /// Whether the current phase of the sleep work may not be cut short: a wake is
    /// deferred until it is over.
    fn atomic(&self) -> bool {
        true
    }

    /// A wake was deferred (the phase is atomic): the genome may record it, with why the
    /// creature was to wake.
    fn on_wake_deferred(&mut self, _reason: &str, _cx: &mut Cx<'_, Self>) {}

    /// Ends the sleep work early (a wake between steps of a phase that is not atomic).
    fn interrupt(&mut self, _cx: &mut Cx<'_, Self>) -> SleepEnd {
        SleepEnd::default()
    }

    /// What the creature is reminded of in a full wake-up message, between the headline and
    /// the inbox (ends with [`Self::history`]).
    fn recap(&self) -> String;

    /// Where the creature's full history is on disk.
    fn history(&self) -> &'static str;

    /// Heads the context after a trim of `dropped` messages: where they went.
    fn trim_note(dropped: usize) -> String {
        super::wake::trim_note(dropped)
    }

    /// The genome's parts of the system prompt.
    fn prompt(&self, cfg: &RunnerConfig) -> GenomePrompt;

    /// The offline rehearsal brain's script for this genome's creature turns; `None`:
    /// the shared one (bash sessions, naps and sleeps).
    fn turn_script(&self) -> Option<TurnScript> {
        None
    }

    /// Creature seconds between awake turns (the genome's awake tick), `None` for turns
    /// back to back.
    fn awake_tick_s(&self, _cfg: &RunnerConfig) -> Option<f64> {
        None
    }

    /// Creature seconds of one sleep tick ([`SleepStep::NextTick`]).
    fn sleep_tick_s(&self, cfg: &RunnerConfig) -> f64 {
        cfg.cycle.quick_nap_threshold_s
    }

    /// An awake tick is about to begin (before each awake turn): a sleep the genome's own
    /// schedule wants now, if any.
    fn on_awake_tick(&mut self, _cx: &mut Cx<'_, Self>) -> Option<ScheduledSleep> {
        None
    }

    /// Whether the wake time of a requested sleep counts from when it began (the sleep
    /// work runs inside it, and a wake time reached during it wakes the creature as the
    /// operator's wake does), rather than from when the sleep work ended.
    fn wake_time_includes_work(&self) -> bool {
        false
    }

    /// What became of a message sent with [`Cx::send`] (`id` is what it returned). The
    /// default answers the pending tool call (`send_message`) with
    /// [`Delivery::outcome`]; a genome that sends outside a tool call says otherwise.
    fn on_sent(
        &mut self,
        _id: u64,
        message: &Outgoing,
        delivery: &Delivery,
        _cx: &mut Cx<'_, Self>,
    ) -> IoProgress {
        IoProgress::Tool(delivery.outcome(&message.to))
    }

    /// A message reached the creature (`asleep` or not): whether it wakes now.
    fn on_message(&mut self, _message: &Incoming, _asleep: bool, _cx: &mut Cx<'_, Self>) -> bool {
        false
    }

    /// Whether a consolidation trims the context (the dreamer's); a genome that compacts
    /// its context itself says no.
    fn trims_at_consolidation(&self) -> bool {
        true
    }

    /// The creature woke (any source): the genome may reset its own counters.
    fn on_wake(&mut self, _reason: &str, _cx: &mut Cx<'_, Self>) {}

    /// Before an awake turn: compact the context when it fills this share of the budget.
    fn awake_compaction(&self, _cfg: &RunnerConfig) -> Option<f64> {
        None
    }

    /// The context budget (characters) that compaction thresholds are shares of.
    fn context_budget(&self, cfg: &RunnerConfig) -> usize {
        cfg.cycle.max_context_chars
    }

    /// A compaction happened (or, asleep, was not needed: `None`).
    fn on_compacted(&mut self, _done: Option<&Compacted>, _cx: &mut Cx<'_, Self>) -> SleepStep {
        SleepStep::Ready
    }

    /// The sleep turns of a [`SleepStep::Turn`] are over.
    fn on_sleep_turns_over(&mut self, _cx: &mut Cx<'_, Self>) -> SleepStep {
        SleepStep::Ready
    }

    /// The brain's answer to a request a tool call in flight made ([`Cx::think`] from
    /// [`Self::call_tool`] answered [`ToolReply::Pending`]): the tool's answer, when it is
    /// done.
    fn on_tool_thought(
        &mut self,
        _id: u64,
        _result: Result<Response, LlmError>,
        _cx: &mut Cx<'_, Self>,
    ) -> IoProgress {
        IoProgress::Nothing
    }

    /// Before each awake turn: a note the creature reads first (what became due since
    /// the last turn), if any.
    fn turn_note(&mut self, _cx: &mut Cx<'_, Self>) -> Option<String> {
        None
    }

    /// The answer to [`Cx::embed`].
    fn on_embedded(
        &mut self,
        _id: u64,
        _result: Result<Embeddings, String>,
        _cx: &mut Cx<'_, Self>,
    ) -> IoProgress {
        IoProgress::Nothing
    }
}

/// A sleep the genome's schedule asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct ScheduledSleep {
    pub secs: f64,
    pub reason: String,
}

/// A message that reached a creature.
#[derive(Debug, Clone, PartialEq)]
pub struct Incoming {
    /// Who sent it: `creator`, or another creature's name.
    pub from: String,
    pub text: String,
    /// Addressed to this creature (not a broadcast).
    pub direct: bool,
    pub urgent: bool,
    pub priority: Option<u8>,
    /// Structured data from the sender's genome (see [`Outgoing::payload`]).
    pub payload: Option<Value>,
}

/// A compaction of the context.
#[derive(Debug, Clone, PartialEq)]
pub struct Compacted {
    /// `sleep` or `emergency`.
    pub trigger: &'static str,
    /// The share of the budget the context filled before.
    pub ratio: f64,
    pub summarized: usize,
    pub preserved: usize,
    pub summary: String,
}

/// The genome's IO: what the driver runs for it. The only part of a genome that does IO;
/// it may keep what it loaded (an index) between requests.
pub trait GenomeFiles<G: Genome>: Default + Send {
    /// The genome's part of the creature on disk, at start.
    fn restore(&mut self, paths: &SeedPaths) -> GenomeRestore<G::Restored>;
    /// Fresh reads at wake; problems are sentences for the error log.
    fn refresh(paths: &SeedPaths) -> (G::Fresh, Vec<String>);
    fn perform(&mut self, paths: &SeedPaths, io: G::Io) -> Performed<G::Done>;
}

/// What [`GenomeFiles::restore`] found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GenomeRestore<R> {
    pub state: R,
    /// When the last sleep consolidated.
    pub last_consolidated: Option<DateTime<Utc>>,
    /// The creature has consolidated before (it is not newborn, even without a
    /// conversation).
    pub lived: bool,
    /// Problems met while reading.
    pub errors: Vec<String>,
}

/// Where a genome writes `file`: the first of its candidate paths.
pub fn file_path(paths: &SeedPaths, file: FileKind) -> PathBuf {
    paths
        .root
        .join(file.candidates().first().copied().unwrap_or_default())
}

/// The file's name, for messages.
pub fn file_name(file: FileKind) -> &'static str {
    let relative = file.candidates().first().copied().unwrap_or_default();
    relative.rsplit('/').next().unwrap_or(relative)
}

/// Appends a genome's event lines to one of its files: the `Append` request every
/// event-sourced genome makes.
pub fn append_lines<D>(paths: &SeedPaths, file: FileKind, lines: &[Value]) -> Performed<D> {
    match append_json_lines(&file_path(paths, file), lines) {
        Ok(_) => Performed::Written,
        Err(e) => Performed::Failed {
            file: file_name(file),
            error: e.to_string(),
        },
    }
}

/// The outcome of one [`GenomeFiles::perform`].
#[derive(Debug)]
pub enum Performed<D> {
    /// A write without an answer went through.
    Written,
    /// An answer to feed back to the genome.
    Done(D),
    /// A write without an answer failed: the driver reports it like its own writes.
    Failed { file: &'static str, error: String },
}

#[derive(Debug, Clone, PartialEq)]
pub struct GenomeTool {
    pub spec: ToolSpec,
    pub when: ToolTime,
}

/// When a genome's tool is offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolTime {
    /// In awake turns only.
    Awake,
    /// In the sleep work's turns only ([`SleepStep::Turn`]); refused awake.
    Asleep,
    /// In both.
    Always,
}

impl ToolTime {
    pub fn awake(self) -> bool {
        matches!(self, ToolTime::Awake | ToolTime::Always)
    }

    pub fn asleep(self) -> bool {
        matches!(self, ToolTime::Asleep | ToolTime::Always)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub input: Value,
}

/// A genome's answer to a tool call.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolReply {
    /// Answered at once.
    Done(ToolOutcome),
    /// Answered later, as [`IoProgress::Tool`] from [`Genome::on_io`].
    Pending,
}

/// Why sleep work runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SleepCause {
    /// `set_sleep` of this many seconds.
    Requested(f64),
    /// The fatigue limit.
    Forced,
    /// The operator: a consolidation now, however little there is to consolidate.
    Operator,
    /// The genome's own schedule (see [`Genome::on_awake_tick`]): a sleep of this many
    /// seconds.
    Scheduled(f64),
}

/// Where the sleep work is after a genome call.
#[derive(Debug, Clone, PartialEq)]
pub enum SleepStep {
    /// Nothing changed (a stale answer).
    Unchanged,
    /// A request is in flight.
    Waiting,
    /// The next step may be issued when the cycle goes on.
    Ready,
    /// The sleep work is over.
    Done(SleepEnd),
    /// Call [`Genome::step`] again after one sleep tick ([`Genome::sleep_tick_s`]).
    NextTick,
    /// Run creature turns offering the sleep tools (`rounds` model calls at most, fewer
    /// when the creature stops calling tools), after `prompt` as a user message; then
    /// [`Genome::on_sleep_turns_over`].
    Turn { prompt: String, rounds: u32 },
    /// Compact the context when it fills `threshold` (0..1) of the context budget or more;
    /// then [`Genome::on_compacted`] (with `None` when it was below).
    Compact { threshold: f64 },
}

/// How the sleep work ended.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SleepEnd {
    /// Memory was consolidated (the wake-up message is the full one).
    pub consolidated: bool,
    /// The long pause follows (deep sleep).
    pub deep: bool,
    /// Wake at once (a wake that waited for the sleep work: an urgent event held during a
    /// deep phase).
    pub wake: bool,
}

/// What an IO answer moved forward.
#[derive(Debug, Clone, PartialEq)]
pub enum IoProgress {
    Nothing,
    /// The answer of a pending tool call.
    Tool(ToolOutcome),
    Sleep(SleepStep),
}

/// The genome's parts of the system prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct GenomePrompt {
    /// What sleeping does, after "set_sleep: rest for a while."
    pub sleep: String,
    /// The "Your memory" section.
    pub memory: String,
}

/// What the engine lends a genome for one call: the facts it may read, and the means to
/// issue requests and records. What the genome signals back is read by the engine after.
pub struct Cx<'a, G: Genome> {
    pub now: DateTime<Utc>,
    pub cfg: &'a RunnerConfig,
    pub purpose: &'a str,
    /// What the creature did since the last consolidation.
    pub activity: &'a Activity,
    /// Tool calls since the last consolidation.
    pub fatigue: u64,
    /// The tools offered during sleep (a genome's sleep-phase turns).
    pub sleep_tools: &'a [ToolSpec],
    /// Characters in context now.
    pub context_chars: usize,
    next_id: &'a mut u64,
    out: &'a mut Vec<Output<G>>,
    faulted: bool,
    consolidated: bool,
}

/// What a genome signalled during a call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Signals {
    pub faulted: bool,
    pub consolidated: bool,
}

impl<'a, G: Genome> Cx<'a, G> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        now: DateTime<Utc>,
        cfg: &'a RunnerConfig,
        purpose: &'a str,
        activity: &'a Activity,
        fatigue: u64,
        sleep_tools: &'a [ToolSpec],
        context_chars: usize,
        next_id: &'a mut u64,
        out: &'a mut Vec<Output<G>>,
    ) -> Self {
        Self {
            now,
            cfg,
            purpose,
            activity,
            fatigue,
            sleep_tools,
            context_chars,
            next_id,
            out,
            faulted: false,
            consolidated: false,
        }
    }

    pub(super) fn signals(&self) -> Signals {
        Signals {
            faulted: self.faulted,
            consolidated: self.consolidated,
        }
    }

    /// A fresh request id.
    pub fn id(&mut self) -> u64 {
        *self.next_id += 1;
        *self.next_id
    }

    /// Asks the brain; the answer comes back through [`Genome::on_thought`] with this id.
    pub fn think(&mut self, task: Task, request: Request) -> u64 {
        let id = self.id();
        self.out.push(Output::Think { id, task, request });
        id
    }

    /// Asks for embeddings of `texts`; the answer comes back through
    /// [`Genome::on_embedded`] with this id.
    pub fn embed(&mut self, texts: Vec<String>) -> u64 {
        let id = self.id();
        self.out.push(Output::Embed { id, texts });
        id
    }

    /// Asks the genome's files; an answer comes back through [`Genome::on_io`].
    pub fn io(&mut self, io: G::Io) {
        self.out.push(Output::Genome(io));
    }

    /// Sends a message to another creature or the creator; what became of it comes back
    /// through [`Genome::on_sent`] with this id.
    pub fn send(&mut self, message: Outgoing) -> u64 {
        let id = self.id();
        self.out.push(Output::Send { id, message });
        id
    }

    /// A `.sys/events.jsonl` line.
    pub fn event(&mut self, event: CreatureEvent) {
        self.out
            .push(Output::Record(Record::event(self.now, &event)));
    }

    /// A `.self/memory.jsonl` line.
    pub fn memory(&mut self, kind: &'static str, data: Value) {
        self.out.push(Output::Record(Record::Memory {
            t: self.now,
            kind,
            data,
        }));
    }

    /// A fault: an error event, an error memory line, and the status's last error.
    pub fn error(&mut self, error: String, phase: &str) {
        let event = CreatureEvent::Error(ErrorEvent::in_phase(phase, error.clone()));
        self.memory("error", Value::Object(event.fields()));
        self.event(event);
        self.faulted = true;
        self.out.push(Output::Fault(Some(error)));
    }

    /// The sleep consolidated: fatigue and activity start over, the context is trimmed.
    pub fn consolidated(&mut self) {
        self.consolidated = true;
    }
}
