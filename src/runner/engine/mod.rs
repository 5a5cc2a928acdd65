//! The cycle engine: a pure state machine, `handle(now, input) -> Vec<Output>`, shared by
//! every genome.
//!
//! Wake, act (model turns and tools), sleep (nap, pause, or the genome's sleep work), wake
//! again. The engine does no IO and reads no clock: the driver performs the outputs and
//! feeds the results back as inputs, with the time. Each request carries an id; a result
//! or timer with an id the engine no longer waits for is ignored, so timers are never
//! cancelled, only outdated (the driver drops a timer that is not
//! [`Engine::awaited_timer`]).
//!
//! What a memory system adds (its tools, its sleep work, its wake-up recap, what it
//! restores) comes from a [`Genome`]: see [`crate::runner::genome`] for the seam.
//!
//! Operator control: `Pause` stops the cycle (no new model call, tool run or sleep step;
//! what is in flight finishes and is recorded) until `Resume`. `ForceSleep` runs the sleep
//! work now as a forced consolidation whatever the dream interval (once the step in flight
//! is over, in place of the creature's own `set_sleep`); it and `Wake` are answered with an
//! [`Output::Answer`] saying what became of them. `Wake` cuts a sleep short (after the sleep work, or its atomic phase, when it runs). `Message` appends
//! to `MESSAGES.md` and delivers it.

pub mod context;
pub mod input;
pub mod output;

#[cfg(test)]
mod seam_tests;

mod awake;
mod compaction;
mod control;
mod guardrail;
mod mail;
mod refused;
mod rest;
mod review;
mod sleep;

use std::collections::VecDeque;

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::llm::{ContentBlock, LlmError, Message, ToolSpec};
use crate::memory::events::{CreatureEvent, ErrorEvent};
use crate::memory::guardrail::MorningReport;
use crate::memory::inbox::Delivered;
use crate::memory::iterations::IterationAction;
use crate::memory::status::Status;

use self::context::{ContextWindow, log_content};
use self::input::Input;
use self::output::{Output, Record};
use super::activity::Activity;
use super::brain::task::Turn;
use super::config::RunnerConfig;
use super::genome::{Cx, Genome, SleepCause, ToolCall};
use super::guard::Guard;

pub struct Engine<G: Genome> {
    cfg: RunnerConfig,
    genome: G,
    /// Offered in awake turns: the engine's and the genome's, sleep-only ones left out.
    tools: Vec<ToolSpec>,
    /// Offered in the sleep work's turns: the genome's tools for sleep.
    sleep_tools: Vec<ToolSpec>,
    /// The genome's tools that are refused awake.
    sleep_only: Vec<String>,
    purpose: String,
    system: String,
    max_dreams: Option<u64>,
    /// `--max-sleeps`: stop after this many completed sleep works in this run.
    max_sleeps: Option<u64>,
    /// Sleep works completed in this run.
    session_sleeps: u64,
    /// The sleep work set aside while it runs creature turns or a compaction.
    parked: Option<Parked>,
    /// When the last awake turn began (the genome's awake tick paces turns).
    last_turn_at: Option<DateTime<Utc>>,
    state: State,
    ctx: ContextWindow,
    paused: bool,
    next_id: u64,
    /// Sleeps that consolidated in this run (`--max-dreams`).
    session_dreams: u64,
    fatigue: u64,
    warned: bool,
    activity: Activity,
    since_sleep: SinceSleep,
    /// What is new for the creature since its last turn (the brain's [`Turn`] task).
    news: Turn,
    /// Notes for the creature held while a turn is in flight (tool results must come
    /// first in the next user message).
    pending_notes: Vec<String>,
    force: Option<Force>,
    /// A wake that waits for the sleep work's atomic phase (or its next step) to end.
    wake_early: Option<WakeSource>,
    retries: u32,
    faulted: bool,
    /// What of `MESSAGES.md` the creature has been given.
    inbox: Delivered,
    shown: Option<(Status, u64)>,
    /// The genome's IO goes to the review's working copy (the sleep work under way is
    /// reviewed).
    staging: bool,
    /// The guardrails' watch (`[guardrails]`).
    guard: Guard,
    /// A guardrail tripped: the creature is put to sleep and held there until a person
    /// wakes it; its morning report as far as it is known.
    hold: Option<MorningReport>,
    /// The model refused the key while asleep: no call is sent until a person wakes it.
    refused: Option<LlmError>,
}

#[derive(Debug)]
enum State {
    Starting,
    /// Awake, between turns: the next step is a model call.
    Ready,
    Thinking {
        id: u64,
    },
    Acting(Acting),
    /// Waiting to retry a failed model call: on its timer, or (the key refused, no timer
    /// set) when the operator wakes the creature.
    Backoff {
        timer: u64,
    },
    /// Waiting for the next awake tick before the next turn.
    Ticking {
        timer: u64,
    },
    /// The context is being summarised (`Task::Compact`).
    Compacting(Compacting),
    /// The genome's sleep work.
    SleepWork(SleepWork),
    /// The sleep work is over and what it wrote waits for the operator's review
    /// (`--review-dreams`); the creature stays in its sleep.
    Held(review::Held),
    Asleep(Asleep),
    /// Woken; re-reading the disk for the wake-up message.
    Waking {
        id: u64,
        asleep: Asleep,
    },
    Stopped,
}

#[derive(Debug)]
struct Acting {
    queue: VecDeque<ToolCall>,
    results: Vec<ContentBlock>,
    sleep: Option<f64>,
    running: Option<Running>,
}

/// The tool call in flight.
#[derive(Debug)]
enum Running {
    Bash {
        id: u64,
        call: ToolCall,
    },
    /// A genome's tool, answered through its IO.
    Genome {
        call: ToolCall,
    },
}

#[derive(Debug)]
struct SleepWork {
    cause: SleepCause,
    started: DateTime<Utc>,
    /// A request of the genome's is in flight.
    in_flight: bool,
    /// The next step waits for this sleep tick.
    tick_at: Option<DateTime<Utc>>,
    /// When the creature wakes, for a genome whose sleep work runs inside the sleep
    /// ([`Genome::wake_time_includes_work`]).
    wake_at: Option<DateTime<Utc>>,
    /// The timer armed for the earlier of `tick_at` and `wake_at`.
    timer: Option<u64>,
}

/// Sleep work set aside for creature turns or a compaction.
#[derive(Debug)]
struct Parked {
    work: SleepWork,
    /// Sleep turns still allowed.
    rounds_left: u32,
}

#[derive(Debug)]
struct Compacting {
    id: u64,
    trigger: &'static str,
    ratio: f64,
    /// Messages summarised: the context before this index.
    split: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rest {
    Nap,
    Sleep,
    Deep,
}

#[derive(Debug)]
struct Asleep {
    timer: u64,
    started: DateTime<Utc>,
    wake_at: DateTime<Utc>,
    kind: Rest,
    /// The sleep consolidated (the wake-up message is the full one).
    dreamt: bool,
    /// The timer fired while paused.
    due: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Force {
    Fatigue,
    Operator,
    /// A guardrail tripped (the hold's report says which).
    Guardrail,
}

#[derive(Debug, Default)]
struct SinceSleep {
    actions: Vec<IterationAction>,
    turns: u64,
    intent: String,
}

impl<G: Genome> Engine<G> {
    pub fn new(cfg: RunnerConfig, genome: G, max_dreams: Option<u64>) -> Self {
        let cfg_guardrails = cfg.guardrails.clone();
        let mut tools = super::tools::specs(&cfg, &genome.prompt(&cfg).sleep);
        let mut sleep_tools = Vec::new();
        let mut sleep_only = Vec::new();
        for t in genome.tools(&cfg) {
            if t.when.asleep() {
                sleep_tools.push(t.spec.clone());
            }
            if t.when.awake() {
                tools.push(t.spec);
            } else {
                sleep_only.push(t.spec.name);
            }
        }
        Self {
            cfg,
            genome,
            tools,
            sleep_tools,
            sleep_only,
            purpose: String::new(),
            system: String::new(),
            max_dreams,
            max_sleeps: None,
            session_sleeps: 0,
            parked: None,
            last_turn_at: None,
            state: State::Starting,
            ctx: ContextWindow::new(G::trim_note),
            paused: false,
            next_id: 0,
            session_dreams: 0,
            fatigue: 0,
            warned: false,
            activity: Activity::default(),
            since_sleep: SinceSleep::default(),
            news: Turn::default(),
            pending_notes: Vec::new(),
            force: None,
            wake_early: None,
            retries: 0,
            faulted: false,
            inbox: Delivered::default(),
            shown: None,
            staging: false,
            guard: Guard::new(cfg_guardrails),
            hold: None,
            refused: None,
        }
    }

    /// Stops the run after `n` completed sleeps (`--max-sleeps`).
    pub fn with_max_sleeps(mut self, n: Option<u64>) -> Self {
        self.max_sleeps = n;
        self
    }

    pub fn handle(&mut self, now: DateTime<Utc>, input: Input<G>) -> Vec<Output<G>> {
        let mut out = Vec::new();
        match input {
            Input::Start(restored) => self.on_start(now, *restored, &mut out),
            Input::Thought { id, result } => match &self.state {
                State::Thinking { id: want } if *want == id => self.on_turn(now, result, &mut out),
                State::Compacting(c) if c.id == id => self.on_summary(now, result, &mut out),
                State::Acting(a) if matches!(a.running, Some(Running::Genome { .. })) => {
                    let progress =
                        self.with_genome(now, &mut out, |g, cx| g.on_tool_thought(id, result, cx));
                    self.on_progress(now, progress, &mut out);
                }
                State::SleepWork(_) => self.on_sleep_thought(now, id, result, &mut out),
                _ => {}
            },
            Input::ToolDone { id, outcome } => self.on_tool(now, id, outcome, &mut out),
            Input::Timer { id } => self.on_timer(now, id, &mut out),
            Input::Gathered { id, view } => self.on_gathered(now, id, view, &mut out),
            Input::Genome(done) => self.on_genome_io(now, done, &mut out),
            Input::Embedded { id, result } => self.on_embedded(now, id, result, &mut out),
            Input::Sent {
                id,
                message,
                delivery,
            } => self.on_sent(now, id, message, delivery, &mut out),
            Input::Message(m) => self.on_message(now, m, &mut out),
            Input::Control(cmd) => self.on_control(now, cmd, &mut out),
            Input::Reviewed(r) => self.on_reviewed(now, r, &mut out),
            Input::Spent { usd } => self.on_spent(now, usd, &mut out),
            Input::Shutdown => self.on_shutdown(now, &mut out),
        }
        self.answer_refused(now, &mut out);
        if self.dreams_reached_outside_sleep() {
            self.on_shutdown(now, &mut out);
        }
        self.publish(&mut out);
        out
    }

    /// `--max-dreams` reached by a consolidation made outside the sleep work (a genome
    /// that consolidates from an awake tool, as emergence's self-care does); a
    /// consolidation inside the sleep work stops in `after_sleep`.
    fn dreams_reached_outside_sleep(&self) -> bool {
        self.max_dreams.is_some_and(|m| self.session_dreams >= m)
            && !matches!(
                self.state,
                State::SleepWork(_) | State::Held(_) | State::Stopped
            )
    }

    /// What the observatory should show now.
    pub fn status(&self) -> Status {
        if self.paused && !matches!(self.state, State::Stopped) {
            return Status::Paused;
        }
        if self.parked.is_some() {
            return Status::Dreaming;
        }
        match &self.state {
            State::Starting
            | State::Ready
            | State::Thinking { .. }
            | State::Acting(_)
            | State::Backoff { .. }
            | State::Ticking { .. }
            | State::Compacting(_)
            | State::Waking { .. } => Status::Awake,
            State::SleepWork(_) | State::Held(_) => Status::Dreaming,
            State::Asleep(a) => {
                // Held by a guardrail, or its key refused: no wake time.
                let until = (self.hold.is_none() && self.refused.is_none()).then_some(a.wake_at);
                match a.kind {
                    Rest::Nap => Status::Napping { until },
                    Rest::Sleep => Status::Asleep { until },
                    Rest::Deep => Status::DeepSleep { until },
                }
            }
            State::Stopped => Status::Stopped,
        }
    }

    /// The timer the engine waits for, if any (a timer that fired while paused is not).
    pub fn awaited_timer(&self) -> Option<u64> {
        match &self.state {
            State::Asleep(a) if !a.due => Some(a.timer),
            State::Backoff { timer } | State::Ticking { timer } => Some(*timer),
            State::SleepWork(w) => w.timer,
            State::Held(h) => h.timer,
            _ => None,
        }
    }

    /// Tool calls since the last dream.
    pub fn fatigue(&self) -> u64 {
        self.fatigue
    }

    /// Dreams on disk (those before this run included): sleeps that consolidated.
    pub fn dreams(&self) -> u64 {
        self.genome.dreams()
    }

    pub fn genome(&self) -> &G {
        &self.genome
    }

    /// The context the next model call would see.
    pub fn context(&self) -> &[Message] {
        self.ctx.messages()
    }

    fn publish(&mut self, out: &mut Vec<Output<G>>) {
        let now = (self.status(), self.fatigue);
        if self.shown != Some(now) {
            self.shown = Some(now);
            out.push(Output::Status {
                status: now.0,
                fatigue: now.1,
            });
        }
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Drives the cycle forward when nothing is in flight and the creature is not paused.
    fn pump(&mut self, now: DateTime<Utc>, out: &mut Vec<Output<G>>) {
        if self.paused {
            return;
        }
        match &self.state {
            State::Ready => self.start_turn(now, out),
            State::Acting(a) if a.running.is_none() => self.next_tool(now, out),
            State::SleepWork(w) if !w.in_flight => {
                let step = self.with_genome(now, out, |g, cx| g.step(cx));
                self.sleep_step(now, step, out);
            }
            State::Asleep(a) if a.due && self.hold.is_none() && self.refused.is_none() => {
                self.begin_wake(now, WakeSource::Timer, out)
            }
            _ => {}
        }
    }

    /// Puts a message in context and in `conversation.jsonl`.
    /// Lends the genome a [`Cx`] for one call, then takes in what it signalled.
    fn with_genome<R>(
        &mut self,
        now: DateTime<Utc>,
        out: &mut Vec<Output<G>>,
        f: impl FnOnce(&mut G, &mut Cx<'_, G>) -> R,
    ) -> R {
        let Self {
            cfg,
            genome,
            purpose,
            activity,
            fatigue,
            sleep_tools,
            next_id,
            ctx,
            ..
        } = self;
        let mut cx = Cx::new(
            now,
            cfg,
            purpose,
            activity,
            *fatigue,
            sleep_tools,
            ctx.chars(),
            next_id,
            out,
        );
        let r = f(genome, &mut cx);
        let signals = cx.signals();
        self.faulted |= signals.faulted;
        if signals.consolidated {
            self.on_consolidated(now, out);
        }
        r
    }

    fn say(&mut self, now: DateTime<Utc>, message: Message, out: &mut Vec<Output<G>>) {
        out.push(Output::Record(Record::Conversation {
            t: now,
            role: message.role,
            content: log_content(&message.content),
        }));
        self.ctx.push(message);
    }

    fn say_user(&mut self, now: DateTime<Utc>, text: String, out: &mut Vec<Output<G>>) {
        self.say(now, Message::user_text(text), out);
    }

    fn event(&self, now: DateTime<Utc>, event: CreatureEvent, out: &mut Vec<Output<G>>) {
        out.push(Output::Record(Record::event(now, &event)));
    }

    fn memory(
        &self,
        now: DateTime<Utc>,
        kind: &'static str,
        data: Value,
        out: &mut Vec<Output<G>>,
    ) {
        out.push(Output::Record(Record::Memory { t: now, kind, data }));
    }

    /// Records a fault: an error event, an error memory line, and the status's last error.
    fn error(&mut self, now: DateTime<Utc>, error: ErrorEvent, out: &mut Vec<Output<G>>) {
        let fault = error.error.clone();
        let event = CreatureEvent::Error(error);
        self.memory(now, "error", Value::Object(event.fields()), out);
        self.event(now, event, out);
        self.faulted = true;
        out.push(Output::Fault(fault));
    }

    fn clear_fault(&mut self, out: &mut Vec<Output<G>>) {
        if std::mem::take(&mut self.faulted) {
            out.push(Output::Fault(None));
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum WakeSource {
    Timer,
    Operator,
    /// An urgent event woke a light sleeper (the reason).
    Urgent(String),
}

impl WakeSource {
    /// Why the creature wakes, as the events and the mode log say it.
    fn reason(&self) -> String {
        match self {
            WakeSource::Timer => "Sleep timer expired".into(),
            WakeSource::Operator => "Woken early by the operator".into(),
            WakeSource::Urgent(why) => format!("Woken by {why}"),
        }
    }

    fn source(&self) -> &'static str {
        match self {
            WakeSource::Timer => "timer",
            WakeSource::Operator => "operator",
            WakeSource::Urgent(_) => "urgent",
        }
    }
}

fn tool_result(id: &str, content: String, is_error: bool) -> ContentBlock {
    ContentBlock::ToolResult {
        tool_use_id: id.to_string(),
        content,
        is_error,
    }
}
