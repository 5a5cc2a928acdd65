//! OpenAI-compatible chat completions: `POST {base}/chat/completions`, the base URL
//! including `/v1` as the OpenAI SDKs take it. Works with OpenAI, OpenRouter, Ollama,
//! vLLM, llama.cpp's server and LM Studio; the key (`Authorization: Bearer`) is optional
//! for local servers.
//!
//! Mapping from the Anthropic-shaped [`Request`]:
//! - the system prompt becomes a first `system` message;
//! - a user message's `tool_result` blocks become `tool` messages (`tool_call_id`,
//!   `content`; an error result says so with an `Error: ` prefix, the format having no
//!   flag for it), followed by its text as one `user` message;
//! - an assistant message's text becomes `content` (null when there is none) and its
//!   `tool_use` blocks become `tool_calls`, their input as JSON text;
//! - tools become `{"type":"function","function":{name,description,parameters}}`.
//!
//! Back: `content` becomes a text block, each tool call a `tool_use` block whose
//! `arguments` must be a JSON object (else the answer is malformed and retried); a
//! call without an id (some local servers) gets a fresh one.

mod stream;

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use reqwest::header::HeaderMap;
use serde::Deserialize;
use serde_json::{Value, json};

use super::config::{Endpoint, ProviderError, ProviderOptions, non_empty};
use super::fault::malformed;
use super::http::{Api, Auth};
use super::retry::Fault;
use super::secret::ApiKey;
use super::usage::{FromWire, Tokens};
use super::{ContentBlock, LlmFuture, Message, Provider, Request, Response, Role, StopReason};

/// OpenAI's own API; `--base-url` replaces it (with `/v1`, as the SDKs take it).
pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
/// The model used on OpenAI's own API when none is given. Other servers need `--model`.
pub const DEFAULT_MODEL: &str = "gpt-4o-mini";

pub struct OpenAiProvider {
    api: Api,
}

impl fmt::Debug for OpenAiProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.api.debug_as("OpenAiProvider", f)
    }
}

impl OpenAiProvider {
    pub fn new(endpoint: Endpoint, options: ProviderOptions) -> Result<Self, ProviderError> {
        let auth = Auth::bearer_of(&endpoint);
        let api = Api::new(
            endpoint,
            options,
            auth,
            HeaderMap::new(),
            "/chat/completions",
            "OPENAI_API_KEY",
        )?;
        Ok(Self { api })
    }

    /// From the command line and the environment: the base URL from `base_url`, else
    /// `OPENAI_BASE_URL`, else [`DEFAULT_BASE_URL`]; the key from `OPENAI_API_KEY`,
    /// required only by OpenAI's own API (as with the SDKs, it goes to whichever server
    /// the base URL names); the model is required except on OpenAI's own API.
    pub fn from_env(
        model: Option<String>,
        base_url: Option<String>,
        env: &dyn Fn(&str) -> Option<String>,
        options: ProviderOptions,
    ) -> Result<Self, ProviderError> {
        let base = base_url
            .or_else(|| non_empty(env, "OPENAI_BASE_URL"))
            .unwrap_or_else(|| DEFAULT_BASE_URL.to_owned());
        let official = base.trim().trim_end_matches('/') == DEFAULT_BASE_URL;
        let key = non_empty(env, "OPENAI_API_KEY").map(ApiKey::new);
        if official && key.is_none() {
            return Err(ProviderError::MissingKey {
                variable: "OPENAI_API_KEY",
                hint: "a local server given with --base-url needs none",
            });
        }
        let model = match model {
            Some(model) => model,
            None if official => DEFAULT_MODEL.to_owned(),
            None => {
                return Err(ProviderError::ModelRequired(base.trim().to_owned()));
            }
        };
        Self::new(Endpoint::new(&base, model, key)?, options)
    }

    fn body(&self, request: &Request) -> Value {
        let mut messages = Vec::new();
        if !request.system.is_empty() {
            messages.push(json!({"role": "system", "content": request.system}));
        }
        for message in &request.messages {
            push_message(&mut messages, message);
        }
        let mut body = json!({"model": self.api.endpoint.model, "messages": messages});
        // OpenAI's reasoning models refuse `max_tokens`; every other server reads it.
        let limit = if self.api.endpoint.base_url == DEFAULT_BASE_URL {
            "max_completion_tokens"
        } else {
            "max_tokens"
        };
        body[limit] = json!(request.max_tokens);
        let mut body = self.api.finish_body(body, request, |tool| {
            json!({
                "type": "function",
                "function": {
                    "name": tool.name,
                    "description": tool.description,
                    "parameters": tool.input_schema,
                },
            })
        });
        // A stream tells its usage only when asked (in a last chunk without choices).
        if body["stream"] == json!(true) {
            body["stream_options"] = json!({"include_usage": true});
        }
        body
    }
}

impl Provider for OpenAiProvider {
    fn label(&self) -> String {
        self.api.endpoint.label("openai", DEFAULT_BASE_URL)
    }

    fn priced_as(&self) -> String {
        format!("openai/{}", self.api.endpoint.model)
    }

    fn complete<'a>(&'a self, request: &'a Request) -> LlmFuture<'a> {
        Box::pin(async move {
            let body = self.body(request);
            let label = self.label();
            self.api
                .complete::<stream::Assembler>(&label, &body, parse_completion)
                .await
        })
    }
}

/// Appends the chat messages one Anthropic-shaped message becomes. Blocks that have no
/// place in their role (a tool call in a user turn) are left out.
fn push_message(out: &mut Vec<Value>, message: &Message) {
    let mut texts = Vec::new();
    let mut calls = Vec::new();
    for block in &message.content {
        match (message.role, block) {
            (_, ContentBlock::Text { text }) if !text.is_empty() => texts.push(text.as_str()),
            (
                Role::User,
                ContentBlock::ToolResult {
                    tool_use_id,
                    content,
                    is_error,
                },
            ) => {
                let content = if *is_error && !content.starts_with("Error") {
                    format!("Error: {content}")
                } else {
                    content.clone()
                };
                out.push(json!({"role": "tool", "tool_call_id": tool_use_id, "content": content}));
            }
            (Role::Assistant, ContentBlock::ToolUse { id, name, input }) => calls.push(json!({
                "id": id,
                "type": "function",
                "function": {"name": name, "arguments": input.to_string()},
            })),
            _ => {}
        }
    }
    let text = texts.join("\n\n");
    match message.role {
        Role::User if !text.is_empty() => out.push(json!({"role": "user", "content": text})),
        Role::User => {}
        Role::Assistant => {
            let mut turn = json!({"role": "assistant", "content": if text.is_empty() { Value::Null } else { json!(text) }});
            if !calls.is_empty() {
                turn["tool_calls"] = json!(calls);
            }
            out.push(turn);
        }
    }
}

#[derive(Deserialize)]
struct Completion {
    #[serde(default)]
    choices: Vec<Choice>,
    #[serde(default)]
    usage: Value,
}

#[derive(Deserialize)]
struct Choice {
    message: ChoiceMessage,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct ChoiceMessage {
    /// Text, or (some servers) an array of `{"type":"text","text"}` parts.
    #[serde(default)]
    content: Value,
    #[serde(default)]
    tool_calls: Option<Vec<WireCall>>,
}

#[derive(Deserialize)]
struct WireCall {
    #[serde(default)]
    id: Option<String>,
    function: WireFunction,
}

#[derive(Deserialize)]
struct WireFunction {
    name: String,
    /// JSON text as the format says; a few servers send the object itself.
    #[serde(default)]
    arguments: Value,
}

fn parse_completion(body: &[u8]) -> Result<Response, Fault> {
    let json: Value = serde_json::from_slice(body)
        .map_err(|e| malformed(format!("the answer is not JSON: {e}")))?;
    if json.get("error").is_some_and(|error| !error.is_null()) {
        return Err(super::fault::from_error_body(body));
    }
    let completion: Completion = serde_json::from_value(json)
        .map_err(|e| malformed(format!("the answer is not a chat completion: {e}")))?;
    let choice = completion
        .choices
        .into_iter()
        .next()
        .ok_or_else(|| malformed("the answer has no choices".into()))?;
    let text = match choice.message.content {
        Value::String(text) => text,
        Value::Array(parts) => parts
            .iter()
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect(),
        _ => String::new(),
    };
    let calls = choice
        .message
        .tool_calls
        .unwrap_or_default()
        .into_iter()
        .map(|call| Call {
            id: call.id,
            name: call.function.name,
            arguments: call.function.arguments,
        })
        .collect();
    assemble(
        text,
        calls,
        choice.finish_reason.as_deref(),
        Tokens::from_openai(&completion.usage),
    )
}

/// A tool call as received, before its arguments are read.
struct Call {
    id: Option<String>,
    name: String,
    /// JSON text, or an object, or nothing.
    arguments: Value,
}

/// The answer from its text, its tool calls, the finish reason and the usage.
fn assemble(
    text: String,
    calls: Vec<Call>,
    finish_reason: Option<&str>,
    usage: Option<Tokens>,
) -> Result<Response, Fault> {
    let has_calls = !calls.is_empty();
    let mut content = Vec::new();
    if !text.is_empty() {
        content.push(ContentBlock::Text { text });
    }
    for call in calls {
        if call.name.is_empty() {
            return Err(malformed("a tool call without a name".into()));
        }
        let input = tool_input(&call.name, call.arguments)?;
        let id = call
            .id
            .filter(|id| !id.is_empty())
            .unwrap_or_else(fresh_call_id);
        content.push(ContentBlock::ToolUse {
            id,
            name: call.name,
            input,
        });
    }
    // Some local servers say `stop` even when they call tools.
    let stop_reason = match finish_reason {
        Some("length") => StopReason::MaxTokens,
        _ if has_calls => StopReason::ToolUse,
        Some("stop") | None => StopReason::EndTurn,
        Some(_) => StopReason::Other,
    };
    Ok(Response {
        content,
        stop_reason,
        usage,
    })
}

fn tool_input(name: &str, arguments: Value) -> Result<Value, Fault> {
    let parsed = match arguments {
        Value::String(text) if text.trim().is_empty() => Value::Null,
        Value::String(text) => serde_json::from_str(&text).map_err(|e| {
            malformed(format!(
                "the arguments of tool call {name} are not JSON: {e}"
            ))
        })?,
        other => other,
    };
    match parsed {
        Value::Null => Ok(json!({})),
        object @ Value::Object(_) => Ok(object),
        _ => Err(malformed(format!(
            "the arguments of tool call {name} are not a JSON object"
        ))),
    }
}

/// An id for a tool call the server gave none, unique across runs of the process.
fn fresh_call_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let started = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    format!(
        "call_dw{started:x}_{}",
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::LlmError;

    #[test]
    fn tool_results_become_tool_messages_before_the_text() {
        let mut out = Vec::new();
        push_message(
            &mut out,
            &Message {
                role: Role::User,
                content: vec![
                    ContentBlock::Text {
                        text: "and now?".into(),
                    },
                    ContentBlock::ToolResult {
                        tool_use_id: "c1".into(),
                        content: "ok".into(),
                        is_error: false,
                    },
                    ContentBlock::ToolResult {
                        tool_use_id: "c2".into(),
                        content: "boom".into(),
                        is_error: true,
                    },
                ],
            },
        );
        assert_eq!(
            out,
            vec![
                json!({"role": "tool", "tool_call_id": "c1", "content": "ok"}),
                json!({"role": "tool", "tool_call_id": "c2", "content": "Error: boom"}),
                json!({"role": "user", "content": "and now?"}),
            ]
        );
    }

    #[test]
    fn arguments_must_be_a_json_object() {
        assert_eq!(
            tool_input("t", json!("{\"a\":1}")).unwrap(),
            json!({"a": 1})
        );
        assert_eq!(tool_input("t", json!({"a": 1})).unwrap(), json!({"a": 1}));
        assert_eq!(tool_input("t", json!("")).unwrap(), json!({}));
        assert_eq!(tool_input("t", Value::Null).unwrap(), json!({}));
        assert!(matches!(
            tool_input("t", json!("{\"a\":")).unwrap_err().error,
            LlmError::Malformed(_)
        ));
        assert!(matches!(
            tool_input("t", json!("[1]")).unwrap_err().error,
            LlmError::Malformed(_)
        ));
    }

    #[test]
    fn calls_without_ids_get_distinct_ones() {
        assert_ne!(fresh_call_id(), fresh_call_id());
    }
}
