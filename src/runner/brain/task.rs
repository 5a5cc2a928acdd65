//! What a request to the brain is for, with its parameters as data: a model reads the
//! request's text, the rehearsal brain answers from these fields alone.
//!
//! The engine's own requests (a creature turn, a compaction) are known here; a genome's
//! requests (its sleep work, a tool that thinks) are [`GenomeTask`]s: the genome says what
//! each is for and gives the rehearsal's answer, so the brain names no genome.

use std::any::Any;
use std::fmt::Debug;
use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::script::TurnScript;

/// The kind of a [`Task`], for logs and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// A creature turn, with tools.
    Turn,
    Compact,
    /// A genome's own request, by the name the genome gives it.
    Genome(&'static str),
}

#[derive(Debug, Clone)]
pub enum Task {
    /// A creature turn: the conversation so far, with tools.
    Turn(Turn),
    /// A summary of the older context (compaction).
    Compact(Compact),
    /// A genome's own request.
    Genome(GenomeTask),
}

impl Task {
    /// A genome's own request.
    pub fn genome(request: impl GenomeRequest) -> Self {
        Task::Genome(GenomeTask(Arc::new(request)))
    }

    pub fn purpose(&self) -> Purpose {
        match self {
            Task::Turn(_) => Purpose::Turn,
            Task::Compact(_) => Purpose::Compact,
            Task::Genome(g) => Purpose::Genome(g.0.purpose()),
        }
    }

    /// Tries of this request that failed before it: a turn's backoff retries, else 0.
    pub fn retries(&self) -> u32 {
        match self {
            Task::Turn(turn) => turn.retries,
            _ => 0,
        }
    }

    /// The genome's request of type `T`, when this is one.
    pub fn request<T: GenomeRequest>(&self) -> Option<&T> {
        match self {
            Task::Genome(g) => (g.0.as_ref() as &dyn Any).downcast_ref::<T>(),
            _ => None,
        }
    }
}

/// A genome's request to the brain, as data.
pub trait GenomeRequest: Any + Debug + Send + Sync {
    /// What it is for (`consolidate`), for logs and tests.
    fn purpose(&self) -> &'static str;
    /// The offline rehearsal brain's answer, from the request's data alone.
    fn rehearse(&self) -> String;
}

/// A genome's request, of whatever genome.
#[derive(Debug, Clone)]
pub struct GenomeTask(Arc<dyn GenomeRequest>);

impl GenomeTask {
    /// The offline rehearsal brain's answer.
    pub fn rehearse(&self) -> String {
        self.0.rehearse()
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
    /// The genome's own script for the rehearsal brain's turns; `None`: the shared one.
    pub script: Option<TurnScript>,
    /// Tries of this turn that failed before it (the runner's backoff); 0 for a first try.
    pub retries: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Compact {
    /// Messages summarised.
    pub messages: usize,
    /// Them as text.
    pub transcript: String,
}
