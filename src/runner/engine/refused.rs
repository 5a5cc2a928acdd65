//! A refused key during the sleep work, handled as during a wake: said once, with the
//! variable to check; not tried again (each further model call of the sleep work is
//! answered at once with the same refusal, so each genome ends its work its own way);
//! and the creature sleeps until a person wakes it.

use chrono::{DateTime, Utc};

use crate::llm::{LlmError, Response};
use crate::memory::events::ErrorEvent;
use crate::runner::genome::Genome;

use super::output::Output;
use super::{Engine, State};

impl<G: Genome> Engine<G> {
    /// An answer to a model call of the sleep work.
    pub(super) fn on_sleep_thought(
        &mut self,
        now: DateTime<Utc>,
        id: u64,
        result: Result<Response, LlmError>,
        out: &mut Vec<Output<G>>,
    ) {
        let refused = match &result {
            Err(e @ LlmError::Auth { .. }) => Some(e.clone()),
            _ => None,
        };
        let step = self.with_genome(now, out, |g, cx| g.on_thought(id, result, cx));
        // After the genome's own word on what did not happen: the last error says what to do.
        if let Some(e) = refused {
            self.key_refused_asleep(now, &e, out);
        }
        self.sleep_step(now, step, out);
    }

    /// The key was refused while asleep (the sleep work, or its turns): said once.
    pub(super) fn key_refused_asleep(
        &mut self,
        now: DateTime<Utc>,
        e: &LlmError,
        out: &mut Vec<Output<G>>,
    ) {
        if self.refused.is_some() {
            return;
        }
        let error = ErrorEvent::in_phase("sleep", refusal(e));
        self.error(now, error, out);
        self.refused = Some(e.clone());
    }

    /// The sleep work's model calls asked for since the key was refused: answered with
    /// the refusal, never sent.
    pub(super) fn answer_refused(&mut self, now: DateTime<Utc>, out: &mut Vec<Output<G>>) {
        let mut answered = false;
        while let Some(refused) = self.refused.clone()
            && matches!(self.state, State::SleepWork(_))
        {
            let Some(at) = out.iter().position(|o| matches!(o, Output::Think { .. })) else {
                break;
            };
            if let Output::Think { id, .. } = out.remove(at) {
                self.on_sleep_thought(now, id, Err(refused), out);
                answered = true;
            }
        }
        // The genome's errors since leave the refusal as what the operator reads last.
        if answered && let Some(e) = &self.refused {
            out.push(Output::Fault(Some(refusal(e))));
        }
    }
}

/// What a refused key asks of the operator.
fn refusal(e: &LlmError) -> String {
    format!("{e} · wake to try again")
}
