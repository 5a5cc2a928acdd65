//! The Anthropic Messages API: `POST {base}/v1/messages` with `x-api-key` and
//! `anthropic-version: 2023-06-01`, streamed or not.
//!
//! [`Request`] is already Anthropic-shaped, so the mapping is nearly one to one: the system
//! prompt goes in the top-level `system` field, tools keep their `input_schema`, and
//! `tool_use` / `tool_result` blocks travel as they are. Text blocks that are empty or
//! only whitespace are left out (the API refuses them); a message left with no block
//! at all carries [`EMPTY_MESSAGE`] instead, so the turn order survives.

mod stream;

use std::fmt;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde::Deserialize;
use serde_json::{Value, json};

use super::config::{Endpoint, ProviderError, ProviderOptions, non_empty};
use super::fault::malformed;
use super::http::{Api, Auth};
use super::retry::Fault;
use super::secret::ApiKey;
use super::usage::{FromWire, Tokens};
use super::{ContentBlock, LlmFuture, Message, Provider, Request, Response, StopReason};

/// Where the official SDKs send requests; `--base-url` replaces it (without `/v1`).
pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
pub const DEFAULT_MODEL: &str = "claude-sonnet-4-5";
const API_VERSION: &str = "2023-06-01";
/// Stands in for a message whose blocks were all empty.
pub const EMPTY_MESSAGE: &str = "(empty)";

pub struct AnthropicProvider {
    api: Api,
}

impl fmt::Debug for AnthropicProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.api.debug_as("AnthropicProvider", f)
    }
}

impl AnthropicProvider {
    pub fn new(endpoint: Endpoint, options: ProviderOptions) -> Result<Self, ProviderError> {
        let auth = match &endpoint.api_key {
            Some(key) => Auth::Header(HeaderName::from_static("x-api-key"), key.clone()),
            None => Auth::None,
        };
        let mut headers = HeaderMap::new();
        headers.insert("anthropic-version", HeaderValue::from_static(API_VERSION));
        let api = Api::new(
            endpoint,
            options,
            auth,
            headers,
            "/v1/messages",
            "ANTHROPIC_API_KEY",
        )?;
        Ok(Self { api })
    }

    /// From the command line and the environment: the key from `ANTHROPIC_API_KEY`
    /// (required for the official API), the base URL from `base_url`, else
    /// `ANTHROPIC_BASE_URL`, else [`DEFAULT_BASE_URL`]. A base URL ending in `/v1` is
    /// taken without it, since `/v1/messages` is added to it.
    pub fn from_env(
        model: Option<String>,
        base_url: Option<String>,
        env: &dyn Fn(&str) -> Option<String>,
        options: ProviderOptions,
    ) -> Result<Self, ProviderError> {
        let base = base_url
            .or_else(|| non_empty(env, "ANTHROPIC_BASE_URL"))
            .unwrap_or_else(|| DEFAULT_BASE_URL.to_owned());
        let base = base.trim().trim_end_matches('/');
        let base = base.strip_suffix("/v1").unwrap_or(base);
        let key = non_empty(env, "ANTHROPIC_API_KEY").map(ApiKey::new);
        let endpoint = Endpoint::new(base, model.unwrap_or_else(|| DEFAULT_MODEL.to_owned()), key)?;
        if endpoint.api_key.is_none() && endpoint.base_url == DEFAULT_BASE_URL {
            return Err(ProviderError::MissingKey {
                variable: "ANTHROPIC_API_KEY",
                hint: "or use --provider rehearsal, the offline demo brain",
            });
        }
        Self::new(endpoint, options)
    }

    fn body(&self, request: &Request) -> Value {
        let messages: Vec<Value> = request.messages.iter().map(message).collect();
        let mut body = json!({
            "model": self.api.endpoint.model,
            "max_tokens": request.max_tokens,
            "messages": messages,
        });
        if !request.system.is_empty() {
            body["system"] = json!(request.system);
        }
        self.api.finish_body(body, request, |tool| {
            json!({
                "name": tool.name,
                "description": tool.description,
                "input_schema": tool.input_schema,
            })
        })
    }
}

impl Provider for AnthropicProvider {
    fn label(&self) -> String {
        self.api.endpoint.label("anthropic", DEFAULT_BASE_URL)
    }

    fn priced_as(&self) -> String {
        format!("anthropic/{}", self.api.endpoint.model)
    }

    fn complete<'a>(&'a self, request: &'a Request) -> LlmFuture<'a> {
        Box::pin(async move {
            let body = self.body(request);
            let label = self.label();
            self.api
                .complete::<stream::Assembler>(&label, &body, parse_message)
                .await
        })
    }
}

fn message(message: &Message) -> Value {
    let mut blocks: Vec<Value> = message.content.iter().filter_map(block).collect();
    if blocks.is_empty() {
        blocks.push(json!({"type": "text", "text": EMPTY_MESSAGE}));
    }
    json!({"role": message.role, "content": blocks})
}

fn block(block: &ContentBlock) -> Option<Value> {
    Some(match block {
        ContentBlock::Text { text } if text.trim().is_empty() => return None,
        ContentBlock::Text { text } => json!({"type": "text", "text": text}),
        ContentBlock::ToolUse { id, name, input } => {
            json!({"type": "tool_use", "id": id, "name": name, "input": input})
        }
        ContentBlock::ToolResult {
            tool_use_id,
            content,
            is_error,
        } => {
            let mut result =
                json!({"type": "tool_result", "tool_use_id": tool_use_id, "content": content});
            if *is_error {
                result["is_error"] = json!(true);
            }
            result
        }
    })
}

/// A whole (not streamed) answer.
#[derive(Deserialize)]
struct WireMessage {
    #[serde(default)]
    content: Vec<WireBlock>,
    stop_reason: Option<String>,
    #[serde(default)]
    usage: Value,
}

/// An answer block; kinds dreamwatch does not use (thinking, server tools) are skipped.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum WireBlock {
    Text {
        text: String,
    },
    ToolUse {
        id: String,
        name: String,
        #[serde(default)]
        input: Value,
    },
    #[serde(other)]
    Other,
}

fn parse_message(body: &[u8]) -> Result<Response, Fault> {
    let json: Value = serde_json::from_slice(body)
        .map_err(|e| malformed(format!("the answer is not JSON: {e}")))?;
    if json.get("type").and_then(Value::as_str) == Some("error") {
        return Err(super::fault::from_error_body(body));
    }
    let message: WireMessage = serde_json::from_value(json)
        .map_err(|e| malformed(format!("the answer is not a message: {e}")))?;
    let content = message
        .content
        .into_iter()
        .filter_map(|block| match block {
            WireBlock::Text { text } => Some(ContentBlock::Text { text }),
            WireBlock::ToolUse { id, name, input } => Some(ContentBlock::ToolUse {
                id,
                name,
                input: object_or_empty(input),
            }),
            WireBlock::Other => None,
        })
        .collect();
    Ok(Response {
        content,
        stop_reason: stop_reason(message.stop_reason.as_deref()),
        usage: Tokens::from_anthropic(&message.usage),
    })
}

/// A tool's input as the API gives it, with a missing one read as `{}`.
fn object_or_empty(input: Value) -> Value {
    if input.is_null() { json!({}) } else { input }
}

fn stop_reason(reason: Option<&str>) -> StopReason {
    match reason {
        Some("end_turn" | "stop_sequence") => StopReason::EndTurn,
        Some("tool_use") => StopReason::ToolUse,
        Some("max_tokens" | "model_context_window_exceeded") => StopReason::MaxTokens,
        _ => StopReason::Other,
    }
}
