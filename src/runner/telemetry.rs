//! What the runner tells its creature's OpenTelemetry export ([`crate::telemetry`]):
//! each event written, each model call as it goes (its `traceparent`) and comes back
//! (its tokens, cost and error), the fatigue. Nothing here waits or writes a file.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use crate::llm::embed::Embeddings;
use crate::llm::prices::Prices;
use crate::llm::{ContentBlock, LlmError, Message, Request, Response, Role, StopReason};
use crate::memory::events::EventKind;
use crate::telemetry::call::{Called, ChatContent, ModelCall, Part, Said};
use crate::telemetry::content::Capture;
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
    /// The model calls under way, by id.
    calls: HashMap<u64, Asked>,
}

/// A model call under way: its failed tries before it and, captured, what it asked.
struct Asked {
    retries: u32,
    content: Option<ChatContent>,
    texts: usize,
}

impl Telemetry {
    pub fn new(options: TelemetryOptions, name: &str, root: &std::path::Path) -> Self {
        Self {
            creature: CreatureTelemetry::new(options.sink, name, root, options.capture),
            prices: Prices::builtin(),
            told: None,
            calls: HashMap::new(),
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
    pub fn think(
        &mut self,
        id: u64,
        now: DateTime<Utc>,
        retries: u32,
        request: &Request,
    ) -> Vec<(String, String)> {
        let content = self.creature.captures().then(|| ChatContent {
            system: request.system.clone(),
            input: new_input(&request.messages),
            ..ChatContent::default()
        });
        let asked = Asked {
            retries,
            content,
            texts: 0,
        };
        self.calls.insert(id, asked);
        self.traceparent(id, now)
    }

    /// An embeddings call `id` of `texts` texts begins: the headers its requests carry.
    pub fn embed(&mut self, id: u64, now: DateTime<Utc>, texts: usize) -> Vec<(String, String)> {
        let asked = Asked {
            retries: 0,
            content: None,
            texts,
        };
        self.calls.insert(id, asked);
        self.traceparent(id, now)
    }

    fn traceparent(&mut self, id: u64, now: DateTime<Utc>) -> Vec<(String, String)> {
        vec![(
            "traceparent".to_string(),
            self.creature.call_begins(id, now),
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
        let asked = self.calls.remove(&id);
        let retries = asked.as_ref().map_or(0, |a| a.retries);
        let content = asked.and_then(|a| a.content).map(|mut c| {
            if let Ok(r) = result {
                c.output = vec![said(Role::Assistant, &r.content)];
                c.finish = Some(finish_reason(r.stop_reason));
            }
            c
        });
        let tokens = result.as_ref().ok().and_then(|r| r.usage);
        let error = result
            .as_ref()
            .err()
            .map(|e| (error_type(e).to_string(), e.to_string()));
        let call = ModelCall {
            tokens,
            retries: u64::from(retries),
            error,
            ..ModelCall::new(id, now, Called::Chat { content })
        };
        self.ended(priced_as, call);
    }

    /// Embeddings call `id` came back at `now` from `priced_as` (`provider/model`; the
    /// local embedding has no provider: `local`), `model` as the embedder names it.
    pub fn embedded(
        &mut self,
        id: u64,
        now: DateTime<Utc>,
        priced_as: &str,
        result: &Result<Embeddings, String>,
    ) {
        let texts = self.calls.remove(&id).map_or(0, |a| a.texts);
        let (tokens, dims, error) = match result {
            Ok(e) => (e.usage, Some(e.dims), None),
            Err(why) => (
                None,
                None,
                Some(("embeddings_error".to_string(), why.clone())),
            ),
        };
        let priced_as = match priced_as.split_once('/') {
            Some(_) => priced_as.to_string(),
            None => format!("local/{}", result.as_ref().map_or(priced_as, |e| &e.model)),
        };
        let call = ModelCall {
            tokens,
            error,
            ..ModelCall::new(id, now, Called::Embeddings { texts, dims })
        };
        self.ended(&priced_as, call);
    }

    /// A call came back: `call`, with its provider, model and cost from `priced_as`.
    fn ended(&mut self, priced_as: &str, mut call: ModelCall) {
        let (provider, model) = priced_as.split_once('/').unwrap_or(("", priced_as));
        call.provider = provider.to_string();
        call.model = model.to_string();
        call.cost = call
            .tokens
            .and_then(|t| Some(self.prices.get(priced_as)?.of(&t)));
        self.creature.call_ends(&call);
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

/// What a request says that is new since the model last answered: the messages after
/// its last answer (the first call: all of them).
fn new_input(messages: &[Message]) -> Vec<Said> {
    let from = messages
        .iter()
        .rposition(|m| m.role == Role::Assistant)
        .map_or(0, |i| i + 1);
    messages[from..]
        .iter()
        .map(|m| said(m.role, &m.content))
        .collect()
}

fn said(role: Role, content: &[ContentBlock]) -> Said {
    let parts = content
        .iter()
        .map(|b| match b {
            ContentBlock::Text { text } => Part::Text(text.clone()),
            ContentBlock::ToolUse { id, name, input } => Part::ToolCall {
                id: id.clone(),
                name: name.clone(),
                arguments: input.to_string(),
            },
            ContentBlock::ToolResult {
                tool_use_id,
                content,
                ..
            } => Part::ToolResult {
                id: tool_use_id.clone(),
                response: content.clone(),
            },
        })
        .collect();
    let role = match role {
        Role::User
            if content
                .iter()
                .all(|b| matches!(b, ContentBlock::ToolResult { .. })) =>
        {
            "tool"
        }
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    Said { role, parts }
}

/// Why the answer stopped, as the conventions name it.
fn finish_reason(stop: StopReason) -> &'static str {
    match stop {
        StopReason::EndTurn => "stop",
        StopReason::ToolUse => "tool_call",
        StopReason::MaxTokens => "length",
        StopReason::Other => "other",
    }
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
