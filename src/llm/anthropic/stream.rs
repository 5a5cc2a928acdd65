//! A streamed Messages answer, put back together: `content_block_start` opens a block at
//! an index, `content_block_delta` adds `text_delta` text or `input_json_delta` pieces
//! of a tool's input JSON, `message_delta` carries the stop reason, `message_stop` ends
//! it, and an `error` event fails it. The usage comes in `message_start`, its final
//! counts in `message_delta`. `ping`, `content_block_stop` and event kinds added later
//! are skipped.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::{malformed, object_or_empty, stop_reason};
use crate::llm::fault;
use crate::llm::http::StreamAssembler;
use crate::llm::retry::Fault;
use crate::llm::usage::{FromWire, Tokens};
use crate::llm::{ContentBlock, Response};
use crate::text::sse::SseEvent;

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Event {
    ContentBlockStart {
        index: usize,
        content_block: StartBlock,
    },
    ContentBlockDelta {
        index: usize,
        delta: Delta,
    },
    MessageStart {
        #[serde(default)]
        message: StartMessage,
    },
    MessageDelta {
        delta: MessageDelta,
        #[serde(default)]
        usage: Value,
    },
    MessageStop,
    Error,
    #[serde(other)]
    Other,
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum StartBlock {
    Text {
        #[serde(default)]
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

/// The two deltas dreamwatch reads: `text_delta` and `input_json_delta`.
#[derive(Deserialize)]
#[serde(tag = "type")]
enum Delta {
    #[serde(rename = "text_delta")]
    Text { text: String },
    #[serde(rename = "input_json_delta")]
    InputJson { partial_json: String },
    #[serde(other)]
    Other,
}

#[derive(Default, Deserialize)]
struct StartMessage {
    #[serde(default)]
    usage: Value,
}

#[derive(Deserialize)]
struct MessageDelta {
    stop_reason: Option<String>,
}

/// A block being received.
enum Partial {
    Text(String),
    ToolUse {
        id: String,
        name: String,
        /// The input `content_block_start` gave, used when no JSON pieces follow.
        input: Value,
        json: String,
    },
    /// A kind dreamwatch does not use (thinking, server tools).
    Skipped,
}

#[derive(Default)]
pub(super) struct Assembler {
    blocks: BTreeMap<usize, Partial>,
    stop_reason: Option<String>,
    usage: Option<Tokens>,
    stopped: bool,
}

impl StreamAssembler for Assembler {
    fn event(&mut self, event: &SseEvent) -> Result<(), Fault> {
        let parsed: Event = serde_json::from_str(&event.data)
            .map_err(|e| malformed(format!("unreadable stream event: {e}")))?;
        match parsed {
            Event::ContentBlockStart {
                index,
                content_block,
            } => {
                let partial = match content_block {
                    StartBlock::Text { text } => Partial::Text(text),
                    StartBlock::ToolUse { id, name, input } => Partial::ToolUse {
                        id,
                        name,
                        input,
                        json: String::new(),
                    },
                    StartBlock::Other => Partial::Skipped,
                };
                self.blocks.insert(index, partial);
            }
            Event::ContentBlockDelta { index, delta } => {
                let block = self.blocks.get_mut(&index).ok_or_else(|| {
                    malformed(format!("a delta for block {index}, which never started"))
                })?;
                match (block, delta) {
                    (Partial::Text(text), Delta::Text { text: more }) => text.push_str(&more),
                    (Partial::ToolUse { json, .. }, Delta::InputJson { partial_json }) => {
                        json.push_str(&partial_json);
                    }
                    _ => {}
                }
            }
            Event::MessageStart { message } => self.usage = Tokens::from_anthropic(&message.usage),
            Event::MessageDelta { delta, usage } => {
                self.stop_reason = delta.stop_reason.or(self.stop_reason.take());
                // Final counts (of output, and lately of input too) replace the start's.
                let mut merged = self.usage.unwrap_or_default();
                if merged.merge_anthropic(&usage) {
                    self.usage = Some(merged);
                }
            }
            Event::MessageStop => self.stopped = true,
            Event::Error => return Err(fault::from_error_body(event.data.as_bytes())),
            Event::Other => {}
        }
        Ok(())
    }

    /// Whether `message_stop` has come: nothing after it matters.
    fn is_done(&self) -> bool {
        self.stopped
    }

    fn finish(self) -> Result<Response, Fault> {
        if !self.stopped {
            return Err(malformed("the stream ended before message_stop".into()));
        }
        let mut content = Vec::new();
        for partial in self.blocks.into_values() {
            match partial {
                Partial::Text(text) => content.push(ContentBlock::Text { text }),
                Partial::ToolUse {
                    id,
                    name,
                    input,
                    json,
                } => {
                    let input = if json.trim().is_empty() {
                        object_or_empty(input)
                    } else {
                        serde_json::from_str(&json).map_err(|e| {
                            malformed(format!("the input of tool call {name} is not JSON: {e}"))
                        })?
                    };
                    content.push(ContentBlock::ToolUse { id, name, input });
                }
                Partial::Skipped => {}
            }
        }
        Ok(Response {
            content,
            stop_reason: stop_reason(self.stop_reason.as_deref()),
            usage: self.usage,
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::llm::{LlmError, StopReason};

    fn feed(events: &[Value]) -> Result<Response, Fault> {
        let mut assembler = Assembler::default();
        for event in events {
            assembler.event(&SseEvent {
                event: event["type"].as_str().map(str::to_owned),
                data: event.to_string(),
            })?;
        }
        assembler.finish()
    }

    #[test]
    fn text_and_tool_input_come_together() {
        let response = feed(&[
            json!({"type": "message_start", "message": {"content": [], "usage": {"input_tokens": 25, "cache_read_input_tokens": 300, "output_tokens": 1}}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hel"}}),
            json!({"type": "ping"}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "lo"}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "t1", "name": "bash", "input": {}}}),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"cmd\": \"l"}}),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "s\"}"}}),
            json!({"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "t2", "name": "noop", "input": {}}}),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}}),
            json!({"type": "message_stop"}),
        ])
        .unwrap();
        assert_eq!(
            response.content,
            vec![
                ContentBlock::Text {
                    text: "Hello".into()
                },
                ContentBlock::ToolUse {
                    id: "t1".into(),
                    name: "bash".into(),
                    input: json!({"cmd": "ls"})
                },
                ContentBlock::ToolUse {
                    id: "t2".into(),
                    name: "noop".into(),
                    input: json!({})
                },
            ]
        );
        assert_eq!(response.stop_reason, StopReason::ToolUse);
        assert_eq!(
            response.usage,
            Some(Tokens {
                input: 25,
                output: 9,
                cache_read: 300,
                cache_write: 0
            })
        );
    }

    #[test]
    fn broken_streams_are_malformed() {
        let cut = feed(&[
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": "a"}}),
        ]);
        assert!(matches!(cut.unwrap_err().error, LlmError::Malformed(_)));
        let bad_json = feed(&[
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t", "name": "n", "input": {}}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"a\":"}}),
            json!({"type": "message_stop"}),
        ]);
        assert!(matches!(
            bad_json.unwrap_err().error,
            LlmError::Malformed(_)
        ));
        let orphan = feed(&[
            json!({"type": "content_block_delta", "index": 4, "delta": {"type": "text_delta", "text": "x"}}),
        ]);
        assert!(matches!(orphan.unwrap_err().error, LlmError::Malformed(_)));
    }

    #[test]
    fn an_error_event_is_classified() {
        let overloaded = feed(&[
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        ]);
        assert!(matches!(
            overloaded.unwrap_err().error,
            LlmError::Server { status: 529, .. }
        ));
    }
}
