//! The brain the runner talks to: a model behind an [`llm::Provider`](crate::llm::Provider)
//! ([`Model`]) or the offline [`rehearsal::Rehearsal`]. Every request carries its [`Task`]:
//! what it is for, with its parameters as data. A model reads the request's text; the
//! rehearsal answers from the task alone.

pub mod rehearsal;
pub mod rehearsal_garden;
pub mod script;
pub mod task;

use std::sync::Arc;

use crate::llm::{LlmFuture, Provider, Request};

use self::task::Task;

/// Which kind of brain: the label is for people, this is for code.
pub use crate::memory::identity::BrainKind;

/// What answers a creature's requests.
pub trait Brain: Send + Sync {
    fn kind(&self) -> BrainKind;
    /// Shown in the observatory and written to `.sys/runner.json`, e.g.
    /// `anthropic/claude-sonnet-4-5` or `rehearsal (offline demo brain)`.
    fn label(&self) -> String;
    /// What its usage is priced as (`provider/model`, see `llm::Provider::priced_as`).
    fn priced_as(&self) -> String {
        self.label()
    }
    fn think<'a>(&'a self, task: &'a Task, request: &'a Request) -> LlmFuture<'a>;
}

/// A model: the request's text goes to the provider, the task is not needed.
pub struct Model(pub Arc<dyn Provider>);

impl Brain for Model {
    fn kind(&self) -> BrainKind {
        BrainKind::Model
    }

    fn label(&self) -> String {
        self.0.label()
    }

    fn priced_as(&self) -> String {
        self.0.priced_as()
    }

    fn think<'a>(&'a self, _task: &'a Task, request: &'a Request) -> LlmFuture<'a> {
        self.0.complete(request)
    }
}
