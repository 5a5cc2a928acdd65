//! One model call as the runner saw it (a chat or an embeddings request), and its
//! content as the conventions' message attributes (`gen_ai.system_instructions`,
//! `gen_ai.input.messages`, `gen_ai.output.messages`), made only while capture is on,
//! each text inert and capped.

use chrono::{DateTime, Utc};
use serde_json::{Value as Json, json};

use super::content::Capture;
use super::semconv as sc;
use super::span::Value;
use crate::memory::usage::Tokens;

/// One model call, as the runner saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelCall {
    /// The runner's id of the call (unique within its run).
    pub id: u64,
    pub end: DateTime<Utc>,
    /// `anthropic`, `openai`... (the part of `provider/model` before the slash).
    pub provider: String,
    pub model: String,
    pub tokens: Option<Tokens>,
    /// Dollars, when the model has a price.
    pub cost: Option<f64>,
    pub retries: u64,
    /// The error's kind and words, when the call failed.
    pub error: Option<(String, String)>,
    pub what: Called,
}

/// What a model call was.
#[derive(Debug, Clone, PartialEq)]
pub enum Called {
    /// A chat. Its content, given only while capture is on: the system prompt, what the
    /// request says that is new since the model last answered (the earlier messages are
    /// the earlier calls' spans), and the answer with why it stopped.
    Chat { content: Option<ChatContent> },
    /// The embeddings of `texts` texts, `dims` long each when they came back.
    Embeddings { texts: usize, dims: Option<usize> },
}

/// A chat's messages, in the neutral shape the conventions' attributes are made from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChatContent {
    pub system: String,
    pub input: Vec<Said>,
    pub output: Vec<Said>,
    /// `stop`, `tool_call`, `length` or `other`.
    pub finish: Option<&'static str>,
}

/// One message: its role (`user`, `assistant`, `tool`) and parts.
#[derive(Debug, Clone, PartialEq)]
pub struct Said {
    pub role: &'static str,
    pub parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    Text(String),
    ToolCall {
        id: String,
        name: String,
        /// The arguments as JSON text.
        arguments: String,
    },
    ToolResult {
        id: String,
        response: String,
    },
}

impl ModelCall {
    /// Call `id`, ended at `end`: no provider, model, tokens, cost, retry or error yet.
    pub fn new(id: u64, end: DateTime<Utc>, what: Called) -> Self {
        Self {
            id,
            end,
            provider: String::new(),
            model: String::new(),
            tokens: None,
            cost: None,
            retries: 0,
            error: None,
            what,
        }
    }

    /// The span's name: `chat {model}`, `embeddings {model}` (the operation alone when
    /// the model is not known).
    pub fn span_name(&self) -> String {
        match self.model.as_str() {
            "" => self.operation().to_string(),
            model => format!("{} {model}", self.operation()),
        }
    }

    /// The operation's name: `chat` or `embeddings`.
    pub fn operation(&self) -> &'static str {
        match self.what {
            Called::Chat { .. } => sc::CHAT,
            Called::Embeddings { .. } => sc::EMBEDDINGS,
        }
    }

    /// The span's attributes that say what the call was (and, captured, what it said).
    pub fn attributes(&self, capture: &Capture) -> Vec<(&'static str, Value)> {
        let mut out = vec![(sc::OPERATION, self.operation().into())];
        if !self.provider.is_empty() {
            out.push((sc::PROVIDER, self.provider.as_str().into()));
        }
        if !self.model.is_empty() {
            out.push((sc::REQUEST_MODEL, self.model.as_str().into()));
        }
        out.push((sc::RETRIES, self.retries.into()));
        if let Some(tokens) = self.tokens {
            out.push((
                sc::INPUT_TOKENS,
                (tokens.input + tokens.cache_read + tokens.cache_write).into(),
            ));
            if matches!(self.what, Called::Chat { .. }) {
                out.push((sc::OUTPUT_TOKENS, tokens.output.into()));
            }
        }
        if let Some(cost) = self.cost {
            out.push((sc::COST, cost.into()));
        }
        if let Some((kind, _)) = &self.error {
            out.push((sc::ERROR_TYPE, kind.as_str().into()));
        }
        match &self.what {
            Called::Embeddings { texts, dims } => {
                out.push((sc::EMBEDDING_TEXTS, (*texts as u64).into()));
                if let Some(dims) = dims {
                    out.push((sc::EMBEDDING_DIMS, (*dims as u64).into()));
                }
            }
            Called::Chat {
                content: Some(content),
            } if capture.on => out.extend(content.attributes(capture)),
            Called::Chat { .. } => {}
        }
        out
    }
}

impl ChatContent {
    fn attributes(&self, capture: &Capture) -> Vec<(&'static str, Value)> {
        let mut out = Vec::new();
        if let Some(system) = capture.text(&self.system).filter(|s| !s.is_empty()) {
            let parts = json!([{ "type": "text", "content": system }]);
            out.push((sc::SYSTEM_INSTRUCTIONS, parts.to_string().into()));
        }
        let input: Vec<Json> = self.input.iter().map(|m| m.json(capture, None)).collect();
        out.push((sc::INPUT_MESSAGES, Json::Array(input).to_string().into()));
        if !self.output.is_empty() {
            let output: Vec<Json> = self
                .output
                .iter()
                .map(|m| m.json(capture, self.finish))
                .collect();
            out.push((sc::OUTPUT_MESSAGES, Json::Array(output).to_string().into()));
        }
        out
    }
}

impl Said {
    /// The message in the conventions' JSON shape, each text inert and capped.
    fn json(&self, capture: &Capture, finish: Option<&str>) -> Json {
        let text = |s: &str| capture.text(s).unwrap_or_default();
        let parts: Vec<Json> = self
            .parts
            .iter()
            .map(|p| match p {
                Part::Text(t) => json!({ "type": "text", "content": text(t) }),
                Part::ToolCall {
                    id,
                    name,
                    arguments,
                } => json!({
                    "type": "tool_call", "id": text(id), "name": text(name),
                    "arguments": text(arguments),
                }),
                Part::ToolResult { id, response } => json!({
                    "type": "tool_call_response", "id": text(id), "response": text(response),
                }),
            })
            .collect();
        let mut message = json!({ "role": self.role, "parts": parts });
        if let (Some(finish), Some(m)) = (finish, message.as_object_mut()) {
            m.insert("finish_reason".into(), finish.into());
        }
        message
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(what: Called) -> ModelCall {
        ModelCall {
            provider: "openai".into(),
            model: "m".into(),
            ..ModelCall::new(1, DateTime::UNIX_EPOCH, what)
        }
    }

    fn content() -> ChatContent {
        ChatContent {
            system: "be \u{1b}[31mkind".into(),
            input: vec![Said {
                role: "tool",
                parts: vec![Part::ToolResult {
                    id: "t1".into(),
                    response: "ok".into(),
                }],
            }],
            output: vec![Said {
                role: "assistant",
                parts: vec![Part::Text("hello".into())],
            }],
            finish: Some("stop"),
        }
    }

    fn attribute<'a>(attrs: &'a [(&'static str, Value)], key: &str) -> Option<&'a Value> {
        attrs.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    #[test]
    fn a_chat_says_its_messages_only_while_capture_is_on() {
        let c = call(Called::Chat {
            content: Some(content()),
        });
        let off = c.attributes(&Capture::default());
        assert!(attribute(&off, sc::INPUT_MESSAGES).is_none());
        assert!(attribute(&off, sc::SYSTEM_INSTRUCTIONS).is_none());
        let on = c.attributes(&Capture { on: true, cap: 64 });
        let Some(Value::Str(input)) = attribute(&on, sc::INPUT_MESSAGES) else {
            panic!("no input messages: {on:?}");
        };
        let input: Json = serde_json::from_str(input).unwrap_or_default();
        assert_eq!(input[0]["role"], "tool");
        assert_eq!(input[0]["parts"][0]["type"], "tool_call_response");
        assert_eq!(input[0]["parts"][0]["response"], "ok");
        let Some(Value::Str(output)) = attribute(&on, sc::OUTPUT_MESSAGES) else {
            panic!("no output messages: {on:?}");
        };
        let output: Json = serde_json::from_str(output).unwrap_or_default();
        assert_eq!(output[0]["finish_reason"], "stop");
        assert_eq!(output[0]["parts"][0]["content"], "hello");
        let Some(Value::Str(system)) = attribute(&on, sc::SYSTEM_INSTRUCTIONS) else {
            panic!("no system instructions: {on:?}");
        };
        assert!(!system.contains('\u{1b}'), "inert: {system}");
    }

    #[test]
    fn embeddings_say_how_many_texts_and_dimensions() {
        let c = call(Called::Embeddings {
            texts: 3,
            dims: Some(256),
        });
        assert_eq!(c.operation(), "embeddings");
        let attrs = c.attributes(&Capture::default());
        assert_eq!(
            attribute(&attrs, sc::EMBEDDING_DIMS),
            Some(&Value::Int(256))
        );
        assert_eq!(attribute(&attrs, sc::EMBEDDING_TEXTS), Some(&Value::Int(3)));
        assert!(attribute(&attrs, sc::OUTPUT_TOKENS).is_none());
    }
}
