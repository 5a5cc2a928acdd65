//! What the runner tells its creature's OpenTelemetry export ([`crate::telemetry`]):
//! each event written, each model call as it goes (its `traceparent`) and comes back
//! (its tokens, cost and error), the fatigue. Nothing here waits or writes a file.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use crate::llm::prices::Prices;
use crate::llm::{LlmError, Response};
use crate::memory::events::EventKind;
use crate::telemetry::content::Capture;
use crate::telemetry::life::ChatCall;
use crate::telemetry::{CreatureTelemetry, Sink};

/// The export a runner is given: where spans go and whether content goes with them.
#[derive(Debug, Clone)]
pub struct TelemetryOptions {
    pub sink: Sink,
    pub capture: Capture,
}

/// A hosted creature's export.
pub struct Telemetry {
    creature: CreatureTelemetry,
    prices: Prices,
    /// The collector's trouble that was said (once, until it is reachable again).
    told: Option<String>,
    /// The retries of each model call under way, by id.
    retries: HashMap<u64, u32>,
}

impl Telemetry {
    pub fn new(options: TelemetryOptions, name: &str, root: &std::path::Path) -> Self {
        Self {
            creature: CreatureTelemetry::new(options.sink, name, root, options.capture),
            prices: Prices::builtin(),
            told: None,
            retries: HashMap::new(),
        }
    }

    pub fn event(
        &mut self,
        t: DateTime<Utc>,
        kind: &EventKind,
        fields: &serde_json::Map<String, serde_json::Value>,
    ) {
        self.creature.event(t, kind, fields);
    }

    /// A model call `id` begins, after `retries` failed tries of the same request: the
    /// headers its requests carry.
    pub fn think(&mut self, id: u64, now: DateTime<Utc>, retries: u32) -> Vec<(String, String)> {
        self.retries.insert(id, retries);
        vec![(
            "traceparent".to_string(),
            self.creature.chat_begins(id, now),
        )]
    }

    /// Model call `id` came back at `now` from `priced_as` (`provider/model`).
    pub fn thought(
        &mut self,
        id: u64,
        now: DateTime<Utc>,
        priced_as: &str,
        result: &Result<Response, LlmError>,
    ) {
        let (provider, model) = priced_as.split_once('/').unwrap_or(("", priced_as));
        let tokens = result.as_ref().ok().and_then(|r| r.usage);
        let cost = tokens.and_then(|t| Some(self.prices.get(priced_as)?.of(&t)));
        let error = result
            .as_ref()
            .err()
            .map(|e| (error_type(e).to_string(), e.to_string()));
        self.creature.chat_ends(&ChatCall {
            id,
            end: now,
            provider: provider.to_string(),
            model: model.to_string(),
            tokens,
            cost,
            retries: self.retries.remove(&id).map_or(0, u64::from),
            error,
        });
    }

    pub fn fatigue(&self, fatigue: u64) {
        self.creature.fatigue(fatigue);
    }

    pub fn finish(&mut self, now: DateTime<Utc>) {
        self.creature.finish(now);
    }

    /// What changed of the collector's reachability since asked last: its trouble, the
    /// first time it is seen, or the trouble that was said, once it is gone.
    pub fn news(&mut self) -> Option<Reachability> {
        match (self.creature.problem(), &self.told) {
            (Some(p), None) => {
                self.told = Some(p.clone());
                Some(Reachability::Unreachable(p))
            }
            (None, Some(_)) => self.told.take().map(Reachability::Again),
            _ => None,
        }
    }
}

/// News of the collector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reachability {
    /// It cannot be reached: why.
    Unreachable(String),
    /// It answers again (what was said when it did not).
    Again(String),
}

/// A model call's failure as the conventions' `error.type`.
fn error_type(e: &LlmError) -> &'static str {
    match e {
        LlmError::RateLimited { .. } => "rate_limited",
        LlmError::Server { .. } => "server_error",
        LlmError::Timeout | LlmError::NoAnswer { .. } => "timeout",
        LlmError::ContextTooLong(_) => "context_too_long",
        LlmError::Malformed(_) => "malformed_answer",
        LlmError::Rejected { .. } => "rejected",
        LlmError::Connection(_) => "connection",
        LlmError::Auth { .. } => "auth",
    }
}
