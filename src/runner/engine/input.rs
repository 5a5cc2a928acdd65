//! What happens to the engine: results of the outputs it asked for, the operator's
//! commands, and the restored state at start.

use chrono::{DateTime, Utc};

use crate::control::ControlCommand;
use crate::llm::embed::Embeddings;
use crate::llm::{LlmError, Response};
use crate::memory::conversation::Content;
use crate::memory::inbox::Delivered;
use crate::runner::activity::Activity;
use crate::runner::genome::{Genome, Incoming};
use crate::runner::mail::{Delivery, Outgoing};
use crate::runner::tools::ToolOutcome;

#[derive(Debug)]
pub enum Input<G: Genome> {
    /// The first input: the creature as found on disk.
    Start(Box<Restored<G::Restored>>),
    /// The brain's answer to `Output::Think { id }`.
    Thought {
        id: u64,
        result: Result<Response, LlmError>,
    },
    ToolDone {
        id: u64,
        outcome: ToolOutcome,
    },
    Timer {
        id: u64,
    },
    Gathered {
        id: u64,
        view: Gathered<G::Fresh>,
    },
    /// The answer to an `Output::Genome` request.
    Genome(G::Done),
    /// The answer to `Output::Embed { id }`: one vector per text, or why not.
    Embedded {
        id: u64,
        result: Result<Embeddings, String>,
    },
    /// What became of `Output::Send { id }`.
    Sent {
        id: u64,
        message: Outgoing,
        delivery: Delivery,
    },
    /// A message from another creature of the garden.
    Message(Incoming),
    Control(ControlCommand),
    /// What became of an `Output::Review`.
    Reviewed(Reviewed<G::Restored>),
    /// What the creature's model calls cost today (UTC) so far, in US dollars, for its
    /// cost cap.
    Spent {
        usd: f64,
    },
    /// The runner is asked to stop (signal, observatory closing).
    Shutdown,
}

/// What became of the review work the engine asked for.
#[derive(Debug)]
pub enum Reviewed<R> {
    /// The sleep's writes are held as a proposal (`held`), or it wrote nothing.
    Proposed { held: bool },
    /// The proposal was applied or rejected: the genome's part of the creature as it is
    /// on disk now.
    Decided { genome: R },
    /// It could not be written: it stays pending.
    NotDecided,
    /// An edited text replaced the proposal (`accepted`, its countdown starting again
    /// to `deadline`), or was refused.
    Replaced {
        accepted: bool,
        deadline: Option<DateTime<Utc>>,
    },
}

/// `MESSAGES.md` as read (its last [`crate::runner::disk::MAX_INBOX`] bytes at most); the
/// engine tells what is new in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InboxRead {
    pub text: String,
}

/// Fresh reads, at wake, of files the creature or its operator may have changed.
/// `None` means "could not read" (see `errors`) or "not asked".
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Gathered<F> {
    pub purpose: Option<String>,
    pub inbox: Option<InboxRead>,
    /// The genome's own fresh reads.
    pub genome: F,
    pub errors: Vec<String>,
}

/// The creature as the driver found it on disk at start.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Restored<R> {
    /// Born just now: no conversation yet.
    pub fresh: bool,
    pub purpose: String,
    /// The genome's part.
    pub genome: R,
    /// What happened since the last consolidation, from `.sys/events.jsonl`.
    pub activity: Activity,
    /// The tail of `conversation.jsonl`, oldest first.
    pub conversation: Vec<(String, Content)>,
    /// `conversation` is the whole log, not a tail.
    pub whole_log: bool,
    /// `.sys/sleep.json`'s wake time: the runner stopped during a pause.
    pub sleep_until: Option<DateTime<Utc>>,
    /// When the last sleep began (the last iteration's `sleep_started_at`).
    pub sleep_started: Option<DateTime<Utc>>,
    /// A sleep began (its `creature.sleep` event is there) but neither a pause nor a wake
    /// followed: the runner stopped during the sleep work. The sleep's seconds.
    pub interrupted_sleep_s: Option<f64>,
    /// `MESSAGES.md` as found.
    pub inbox: Option<InboxRead>,
    /// What of it was delivered before (`.sys/inbox.json`).
    pub inbox_delivered: Delivered,
    /// `inbox.json` was in an older form (a byte offset): it is written anew at start.
    pub inbox_migrated: bool,
    /// Problems met while reading (bad lines, unreadable files).
    pub errors: Vec<String>,
    /// A consolidation held for review when the runner stopped: still pending.
    pub held: Option<super::output::HeldSleep>,
    /// A guardrail held the creature asleep when the runner stopped (`.sys/guardrail.json`
    /// without `woken_at`): it still does.
    pub guardrail: Option<crate::memory::guardrail::MorningReport>,
}
