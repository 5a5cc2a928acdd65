//! What the engine asks the driver to do. Plain data: the engine never does IO.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use crate::control::Answer;
use crate::llm::{Request, Role};
use crate::memory::events::{CreatureEvent, EventKind};
use crate::memory::guardrail::MorningReport;
use crate::memory::inbox::Delivered;
use crate::memory::iterations::Iteration;
use crate::memory::status::Status;
use crate::runner::brain::task::Task;
use crate::runner::genome::Genome;
use crate::runner::mail::Outgoing;

#[derive(Debug, Clone)]
pub enum Output<G: Genome> {
    /// Ask the brain; the answer comes back as `Input::Thought { id }`.
    Think {
        id: u64,
        task: Task,
        request: Request,
    },
    /// Post a message to another creature or the creator; `Input::Sent { id }`.
    Send { id: u64, message: Outgoing },
    /// Embed texts; `Input::Embedded { id }`.
    Embed { id: u64, texts: Vec<String> },
    /// Run a bash command in the creature dir; `Input::ToolDone { id }`.
    RunTool { id: u64, command: String },
    /// `Input::Timer { id }` at `at`. A timer is never cancelled: a stale id is ignored.
    Timer { id: u64, at: DateTime<Utc> },
    /// Re-read the purpose, the genome's files and `MESSAGES.md`; `Input::Gathered { id }`.
    Gather { id: u64 },
    /// A request to the genome's own files, performed by its [`crate::runner::genome::GenomeFiles`];
    /// an answer comes back as `Input::Genome`.
    Genome(G::Io),
    /// A file write whose failure is reported by the driver, not fed back.
    Record(Record),
    /// What the observatory shows for this creature.
    Status { status: Status, fatigue: u64 },
    /// What became of the operator's command just handled, for the operator.
    Answer(Answer),
    /// The last fault to show (`None` clears it).
    Fault(Option<String>),
    /// Work for the review of a consolidation (`--review-dreams`); answers come back as
    /// `Input::Reviewed`.
    Review(ReviewIo),
    /// The runner's work is over (`--max-dreams` reached, or shutdown).
    Exit,
}

/// What the driver does for the review of a consolidation (`--review-dreams`, see
/// `memory::proposal`).
#[derive(Debug, Clone, PartialEq)]
pub enum ReviewIo {
    /// The sleep work begins: the genome's IO goes to a working copy of the files it
    /// writes ([`crate::runner::genome::Genome::REVIEWED`]) until `Propose`.
    Stage,
    /// The sleep work is over: hold what it wrote as a proposal; `Reviewed::Proposed`.
    Propose(HeldSleep),
    /// Write (`apply`) or drop the pending proposal; `Reviewed::Decided`, or
    /// `Reviewed::NotDecided` when it could not be written.
    Decide { apply: bool, timed_out: bool },
    /// Replace the pending proposal's files with an edited text, valid or refused (the
    /// driver answers the operator); `Reviewed::Replaced`.
    Replace {
        text: String,
        deadline: Option<DateTime<Utc>>,
    },
    /// Answer the operator with the pending proposal.
    Show,
}

/// A sleep whose consolidation waits for review: what the engine goes on with once it is
/// decided.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeldSleep {
    /// When it applies itself; `None`: never.
    pub deadline: Option<DateTime<Utc>>,
    pub deep: bool,
    pub consolidated: bool,
    /// When the sleep began.
    pub started: DateTime<Utc>,
    /// Creature seconds of rest after the decision.
    pub rest_s: f64,
    /// Wake at once after the decision (an urgent event held during the sleep work).
    pub wake: bool,
}

/// The engine's own file writes (every genome keeps these files).
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    Conversation {
        t: DateTime<Utc>,
        role: Role,
        content: String,
    },
    /// A `.sys/events.jsonl` line; `fields` go beside `t` and `type`. Made from a
    /// [`CreatureEvent`] by [`Record::event`].
    Event {
        t: DateTime<Utc>,
        kind: EventKind,
        fields: Map<String, Value>,
    },
    /// A `.self/memory.jsonl` line.
    Memory {
        t: DateTime<Utc>,
        kind: &'static str,
        data: Value,
    },
    Iteration(Iteration),
    SleepFile {
        wake_at: DateTime<Utc>,
    },
    RemoveSleepFile,
    /// `.sys/runner.json`'s `paused` flag.
    Runner {
        paused: bool,
    },
    /// What of `MESSAGES.md` has been delivered (`.sys/inbox.json`).
    InboxDelivered(Delivered),
    /// An operator's message, appended to `MESSAGES.md`.
    AppendInbox {
        t: DateTime<Utc>,
        text: String,
    },
    /// A guardrail's morning report (`.sys/guardrail.json`). When the sleep is over and
    /// the report has no changes yet, the driver adds what the sleep changed and writes
    /// the `held` event.
    MorningReport(MorningReport),
}

impl Record {
    pub fn event(t: DateTime<Utc>, event: &CreatureEvent) -> Self {
        Record::Event {
            t,
            kind: event.kind(),
            fields: event.fields(),
        }
    }

    /// The file it goes to, for error messages.
    pub fn file(&self) -> &'static str {
        match self {
            Record::Conversation { .. } => "conversation.jsonl",
            Record::Event { .. } => "events.jsonl",
            Record::Memory { .. } => "memory.jsonl",
            Record::Iteration(_) => "iterations.jsonl",
            Record::SleepFile { .. } | Record::RemoveSleepFile => "sleep.json",
            Record::Runner { .. } => "runner.json",
            Record::InboxDelivered(_) => "inbox.json",
            Record::AppendInbox { .. } => "MESSAGES.md",
            Record::MorningReport(_) => "guardrail.json",
        }
    }
}
