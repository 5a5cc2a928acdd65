//! A streamed chat completion, put back together: each `data:` chunk carries
//! `choices[0].delta` with pieces of `content` and of `tool_calls[index]` (the id and
//! name first, then fragments of `function.arguments`), the last one a `finish_reason`;
//! `data: [DONE]` ends the stream. A chunk holding `error` fails it (OpenRouter reports
//! mid-stream failures that way).
//!
//! Servers differ in the details: some send a whole call in one chunk, some leave out
//! `index` (a call is then found by its id, else the last one continues), some never
//! send `[DONE]` (a finish reason is then enough).

use serde::Deserialize;
use serde_json::Value;

use super::{Call, assemble, malformed};
use crate::llm::Response;
use crate::llm::fault;
use crate::llm::http::StreamAssembler;
use crate::llm::retry::Fault;
use crate::llm::usage::{FromWire, Tokens};
use crate::text::sse::SseEvent;

#[derive(Deserialize)]
struct Chunk {
    #[serde(default)]
    choices: Vec<ChunkChoice>,
    /// The last chunk's, when `stream_options.include_usage` asked for it.
    #[serde(default)]
    usage: Value,
}

#[derive(Deserialize)]
struct ChunkChoice {
    #[serde(default)]
    delta: Option<Delta>,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct Delta {
    content: Option<String>,
    tool_calls: Option<Vec<CallDelta>>,
}

#[derive(Deserialize)]
struct CallDelta {
    index: Option<u64>,
    id: Option<String>,
    function: Option<FunctionDelta>,
}

#[derive(Deserialize)]
struct FunctionDelta {
    name: Option<String>,
    /// A fragment of JSON text; a few servers send the whole object instead.
    arguments: Option<Value>,
}

#[derive(Default)]
struct PartialCall {
    index: Option<u64>,
    id: Option<String>,
    name: String,
    arguments: String,
}

#[derive(Default)]
pub(super) struct Assembler {
    text: String,
    calls: Vec<PartialCall>,
    finish_reason: Option<String>,
    usage: Option<Tokens>,
    done: bool,
}

impl StreamAssembler for Assembler {
    fn event(&mut self, event: &SseEvent) -> Result<(), Fault> {
        if event.data.trim() == "[DONE]" {
            self.done = true;
            return Ok(());
        }
        let json: Value = serde_json::from_str(&event.data)
            .map_err(|e| malformed(format!("unreadable stream chunk: {e}")))?;
        if json.get("error").is_some_and(|error| !error.is_null()) {
            return Err(fault::from_error_body(event.data.as_bytes()));
        }
        let chunk: Chunk = serde_json::from_value(json)
            .map_err(|e| malformed(format!("unreadable stream chunk: {e}")))?;
        if let Some(usage) = Tokens::from_openai(&chunk.usage) {
            self.usage = Some(usage);
        }
        for choice in chunk.choices {
            if let Some(delta) = choice.delta {
                if let Some(text) = delta.content {
                    self.text.push_str(&text);
                }
                for call in delta.tool_calls.unwrap_or_default() {
                    self.merge(call);
                }
            }
            if choice.finish_reason.is_some() {
                self.finish_reason = choice.finish_reason;
            }
        }
        Ok(())
    }

    /// Whether `[DONE]` has come.
    fn is_done(&self) -> bool {
        self.done
    }

    fn finish(self) -> Result<Response, Fault> {
        if !self.done && self.finish_reason.is_none() {
            return Err(malformed(
                "the stream ended before the answer was finished".into(),
            ));
        }
        let calls = self
            .calls
            .into_iter()
            .map(|call| Call {
                id: call.id,
                name: call.name,
                arguments: Value::String(call.arguments),
            })
            .collect();
        assemble(self.text, calls, self.finish_reason.as_deref(), self.usage)
    }
}

impl Assembler {
    fn merge(&mut self, delta: CallDelta) {
        let id = delta.id.filter(|id| !id.is_empty());
        let found = match (delta.index, &id) {
            (Some(index), _) => self.calls.iter().position(|call| call.index == Some(index)),
            (None, Some(id)) => self
                .calls
                .iter()
                .position(|call| call.id.as_ref() == Some(id)),
            (None, None) => self.calls.len().checked_sub(1),
        };
        let position = found.unwrap_or_else(|| {
            self.calls.push(PartialCall {
                index: delta.index,
                ..PartialCall::default()
            });
            self.calls.len() - 1
        });
        let Some(call) = self.calls.get_mut(position) else {
            return;
        };
        if call.id.is_none() {
            call.id = id;
        }
        let Some(function) = delta.function else {
            return;
        };
        // The name comes whole; servers that repeat it in every chunk must not double it.
        if let Some(name) = function.name.filter(|_| call.name.is_empty()) {
            call.name = name;
        }
        match function.arguments {
            Some(Value::String(fragment)) => call.arguments.push_str(&fragment),
            Some(Value::Null) | None => {}
            Some(whole) => call.arguments.push_str(&whole.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::llm::{ContentBlock, LlmError, StopReason};

    fn feed(chunks: &[&str]) -> Result<Response, Fault> {
        let mut assembler = Assembler::default();
        for chunk in chunks {
            assembler.event(&SseEvent {
                event: None,
                data: (*chunk).to_owned(),
            })?;
        }
        assembler.finish()
    }

    #[test]
    fn text_and_argument_fragments_come_together() {
        let response = feed(&[
            r#"{"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{"content":"Let me look"},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"bash","arguments":""}}]}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"cmd\":"}}]}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_2","function":{"name":"noop","arguments":"{}"}}]}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":" \"ls\"}"}}]}}]}"#,
            r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
            r#"{"choices":[],"usage":{"prompt_tokens":40,"completion_tokens":12,"total_tokens":52}}"#,
            "[DONE]",
        ])
        .unwrap();
        assert_eq!(
            response.usage,
            Some(Tokens {
                input: 40,
                output: 12,
                ..Tokens::default()
            })
        );
        assert_eq!(
            response.content,
            vec![
                ContentBlock::Text {
                    text: "Let me look".into()
                },
                ContentBlock::ToolUse {
                    id: "call_1".into(),
                    name: "bash".into(),
                    input: json!({"cmd": "ls"})
                },
                ContentBlock::ToolUse {
                    id: "call_2".into(),
                    name: "noop".into(),
                    input: json!({})
                },
            ]
        );
        assert_eq!(response.stop_reason, StopReason::ToolUse);
    }

    #[test]
    fn calls_without_index_and_with_whole_objects() {
        let response = feed(&[
            r#"{"choices":[{"delta":{"tool_calls":[{"id":"a","function":{"name":"f","arguments":{"x":1}}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"id":"b","function":{"name":"g","arguments":"{\"y\""}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"function":{"name":"g","arguments":":2}"}}]},"finish_reason":"stop"}]}"#,
        ])
        .unwrap();
        assert_eq!(
            response.content,
            vec![
                ContentBlock::ToolUse {
                    id: "a".into(),
                    name: "f".into(),
                    input: json!({"x": 1})
                },
                ContentBlock::ToolUse {
                    id: "b".into(),
                    name: "g".into(),
                    input: json!({"y": 2})
                },
            ]
        );
        assert_eq!(response.stop_reason, StopReason::ToolUse);
    }

    #[test]
    fn cut_streams_and_error_chunks_fail() {
        let cut = feed(&[r#"{"choices":[{"delta":{"content":"Hel"}}]}"#]);
        assert!(matches!(cut.unwrap_err().error, LlmError::Malformed(_)));
        let error = feed(&[r#"{"error":{"message":"upstream overloaded","code":502}}"#]);
        assert!(matches!(
            error.unwrap_err().error,
            LlmError::Server { status: 502, .. }
        ));
        let bad_arguments = feed(&[
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{oops"}}]}}]}"#,
            "[DONE]",
        ]);
        assert!(matches!(
            bad_arguments.unwrap_err().error,
            LlmError::Malformed(_)
        ));
    }
}
