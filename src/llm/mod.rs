//! LLM providers behind one trait: Anthropic Messages API and OpenAI-compatible chat
//! completions; and embeddings ([`embed`]: OpenAI-compatible, or a local hashing one).
//! (The offline rehearsal brain is the runner's: `runner::brain::rehearsal`.)
//!
//! The runner speaks only these types; each provider translates them to its own wire format.
//! [`build_provider`] makes the provider `dreamwatch run` asks for. Providers retry
//! transient faults themselves; a request the model finds too long comes back as
//! [`LlmError::ContextTooLong`], and the runner trims its context and sends it again.
//!
//! The two HTTP providers are a small typed client on reqwest rather than a crate. The
//! Rust crates that speak both APIs with tool use (`genai`, `rig-core`) are pre-1.0 with
//! breaking changes every few releases and bring far more than a chat call, and
//! `async-openai` covers only OpenAI. None gives the fault handling the creature needs:
//! `retry-after` honoured within a bound, context overflow as its own error across
//! Anthropic, OpenAI, vLLM and llama.cpp wordings, the key scrubbed from every error.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub mod anthropic;
mod config;
pub mod embed;
mod fault;
mod http;
pub mod openai;
pub mod prices;
pub mod retry;
mod secret;
mod usage;

pub use config::{Endpoint, ProviderError, ProviderOptions, Timeouts};
pub use embed::{
    ChosenEmbedder, EmbedFuture, EmbedSettings, Embedder, Embeddings, HashingEmbedder,
    build_embedder,
};
pub use http::with_headers;
pub use retry::{RetryClock, RetryPolicy};
pub use secret::ApiKey;
pub use usage::Tokens;

/// A tool the model may call, with its JSON schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub input_schema: serde_json::Value,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
}

/// One block of a message, in the Anthropic shape (the richest of the wire formats).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    Text {
        text: String,
    },
    ToolUse {
        id: String,
        name: String,
        input: serde_json::Value,
    },
    ToolResult {
        tool_use_id: String,
        content: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        is_error: bool,
    },
}

impl ContentBlock {
    /// The text of a text block.
    pub fn text(&self) -> Option<&str> {
        match self {
            Self::Text { text } => Some(text),
            _ => None,
        }
    }

    /// The id of a tool call.
    pub fn tool_use_id(&self) -> Option<&str> {
        match self {
            Self::ToolUse { id, .. } => Some(id),
            _ => None,
        }
    }

    /// The id of the tool call a tool result answers.
    pub fn tool_result_id(&self) -> Option<&str> {
        match self {
            Self::ToolResult { tool_use_id, .. } => Some(tool_use_id),
            _ => None,
        }
    }
}

/// The text blocks among `content`, joined by newlines.
pub fn joined_text(content: &[ContentBlock]) -> String {
    content
        .iter()
        .filter_map(ContentBlock::text)
        .collect::<Vec<_>>()
        .join("\n")
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: Vec<ContentBlock>,
}

impl Message {
    pub fn user_text(text: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            content: vec![ContentBlock::Text { text: text.into() }],
        }
    }

    /// The ids of this message's tool calls, in order.
    pub fn tool_use_ids(&self) -> Vec<String> {
        self.content
            .iter()
            .filter_map(ContentBlock::tool_use_id)
            .map(str::to_owned)
            .collect()
    }
}

/// One request to a model.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub system: String,
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
    pub max_tokens: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    EndTurn,
    ToolUse,
    MaxTokens,
    Other,
}

/// A model's answer: assistant content blocks.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    pub content: Vec<ContentBlock>,
    pub stop_reason: StopReason,
    /// The tokens the call used, when the answer says.
    pub usage: Option<Tokens>,
}

/// What can go wrong talking to a model. None of these carries an API key.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    #[error("rate limited (retry after {retry_after:?})")]
    RateLimited { retry_after: Option<Duration> },
    #[error("server error {status}: {body}")]
    Server { status: u16, body: String },
    /// The server said the request timed out (408).
    #[error("request timed out")]
    Timeout,
    /// No whole answer within the overall timeout.
    #[error("no answer from {url} within {secs}s")]
    NoAnswer { url: String, secs: u64 },
    #[error("context too long: {0}")]
    ContextTooLong(String),
    #[error("malformed answer: {0}")]
    Malformed(String),
    #[error("request rejected {status}: {body}")]
    Rejected { status: u16, body: String },
    /// The request did not get through, or its answer broke off: said in words, with
    /// the URL (credentials stripped), the cause first.
    #[error("{0}")]
    Connection(String),
    /// The server refused the key (401/403, or an authentication error in the body):
    /// waiting will not help. `variable` is where the key comes from, once the provider
    /// has named it.
    #[error("{}", auth_words(*status, body, *variable))]
    Auth {
        status: u16,
        body: String,
        variable: Option<&'static str>,
    },
}

/// An [`LlmError::Auth`] in words: the variable to check first, then what the server said.
fn auth_words(status: u16, body: &str, variable: Option<&str>) -> String {
    let check = variable.map_or_else(String::new, |v| format!(": check {v}"));
    let said = if body.is_empty() {
        String::new()
    } else {
        format!(" ({body})")
    };
    format!("the model refused the key ({status}){check}{said}")
}

impl LlmError {
    /// Whether the same request may succeed if sent again later.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            Self::RateLimited { .. }
                | Self::Server { .. }
                | Self::Timeout
                | Self::NoAnswer { .. }
                | Self::Malformed(_)
                | Self::Connection(_)
        )
    }

    /// An auth error with the variable its key comes from named (other errors as they are).
    pub(crate) fn naming_key(self, variable: &'static str) -> Self {
        match self {
            Self::Auth { status, body, .. } => Self::Auth {
                status,
                body,
                variable: Some(variable),
            },
            other => other,
        }
    }
}

pub type LlmFuture<'a> = Pin<Box<dyn Future<Output = Result<Response, LlmError>> + Send + 'a>>;

/// A model the runner can talk to.
pub trait Provider: Send + Sync {
    /// Short label shown in the observatory and written to BIRTH.json, e.g.
    /// `anthropic/claude-sonnet-4-5` or `rehearsal (offline demo brain)`.
    fn label(&self) -> String;
    /// What its usage is priced as: `provider/model` (e.g. `openai/gpt-4o-mini`), whatever
    /// server answers.
    fn priced_as(&self) -> String {
        self.label()
    }
    fn complete<'a>(&'a self, request: &'a Request) -> LlmFuture<'a>;
}

/// The brains a creature can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProviderKind {
    Anthropic,
    Openai,
    /// The offline rehearsal brain: built by the runner, not by [`build_provider`].
    Rehearsal,
}

/// The provider `dreamwatch run --provider KIND [--model M] [--base-url URL]` asks for,
/// with keys and base URLs from the environment (see [`anthropic::AnthropicProvider::from_env`]
/// and [`openai::OpenAiProvider::from_env`]) and default timeouts and retries. The error
/// is a sentence for the operator.
pub fn build_provider(
    kind: ProviderKind,
    model: Option<String>,
    base_url: Option<String>,
) -> Result<Box<dyn Provider>, ProviderError> {
    build_provider_with(
        kind,
        model,
        base_url,
        &|name| std::env::var(name).ok(),
        ProviderOptions::default(),
    )
}

/// [`build_provider`] with the environment and the options given.
pub fn build_provider_with(
    kind: ProviderKind,
    model: Option<String>,
    base_url: Option<String>,
    env: &dyn Fn(&str) -> Option<String>,
    options: ProviderOptions,
) -> Result<Box<dyn Provider>, ProviderError> {
    match kind {
        ProviderKind::Anthropic => Ok(Box::new(anthropic::AnthropicProvider::from_env(
            model, base_url, env, options,
        )?)),
        ProviderKind::Openai => Ok(Box::new(openai::OpenAiProvider::from_env(
            model, base_url, env, options,
        )?)),
        ProviderKind::Rehearsal => Err(ProviderError::Rehearsal),
    }
}
