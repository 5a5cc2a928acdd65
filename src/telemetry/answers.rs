//! The model's answers a watched creature's conversation log records
//! (`.self/conversation.jsonl`, its `assistant` entries), each one model call for
//! `export-otel`: a `chat` span from when the message before it was logged to when the
//! answer was. OpenSeed's creatures of early 2026 and dreamwatch's runner log the answers;
//! OpenSeed's later creatures log only the user's and the tools' side, and so give none.
//! The model is BIRTH.json's, its provider inferred as OpenSeed's proxy infers it
//! (`src/host/proxy.ts`, `inferProvider`); no tokens are known.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::call::{Called, ChatContent, ModelCall, Part, Said};
use super::content::Capture;
use crate::memory::conversation::{Block, Content, ConversationEntry};

/// The most bytes of the log read at one look.
const MAX_READ: u64 = 8 << 20;

/// Where the reading of the conversation log stopped.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AnswersCursor {
    pub offset: u64,
    /// When the entry before `offset` was logged (the next answer's call began then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous: Option<DateTime<Utc>>,
}

#[derive(Debug)]
pub struct AnswerTail {
    path: PathBuf,
    cursor: AnswersCursor,
    provider: String,
    model: String,
}

impl AnswerTail {
    pub fn open(root: &Path, cursor: AnswersCursor) -> Self {
        let (provider, model) = model_of(root);
        Self {
            path: root.join(".self/conversation.jsonl"),
            cursor,
            provider,
            model,
        }
    }

    pub fn cursor(&self) -> &AnswersCursor {
        &self.cursor
    }

    /// The calls answered since the last read, each with when it began, up to `until`
    /// (the time of the newest event read): the entries after it are read again next
    /// time, once the events of their time are, so each call finds its wake or sleep.
    pub fn read(
        &mut self,
        until: Option<DateTime<Utc>>,
        capture: &Capture,
    ) -> Vec<(DateTime<Utc>, ModelCall)> {
        let Some(until) = until else {
            return Vec::new();
        };
        let lines = crate::tail::lines_since(&self.path, &mut self.cursor.offset, MAX_READ);
        let read: u64 = lines.iter().map(|l| l.len() as u64 + 1).sum();
        let mut at = self.cursor.offset - read;
        let mut out = Vec::new();
        for line in lines {
            let start = at;
            at += line.len() as u64 + 1;
            let Ok(entry) = ConversationEntry::parse(&line) else {
                continue;
            };
            let Some(t) = entry.t else { continue };
            if t > until {
                self.cursor.offset = start;
                break;
            }
            let previous = self.cursor.previous.replace(t);
            if entry.role != "assistant" {
                continue;
            }
            let content = capture.on.then(|| ChatContent {
                output: vec![said(&entry.content)],
                ..ChatContent::default()
            });
            let call = ModelCall {
                provider: self.provider.clone(),
                model: self.model.clone(),
                ..ModelCall::new(start, t, Called::Chat { content })
            };
            out.push((previous.filter(|p| *p <= t).unwrap_or(t), call));
        }
        out
    }
}

/// The answer's parts: its text and tool calls.
fn said(content: &Content) -> Said {
    let parts = match content {
        Content::Text(text) | Content::Cut(text) => vec![Part::Text(text.clone())],
        Content::Blocks(blocks) => blocks
            .iter()
            .filter_map(|b| match b {
                Block::Text(text) => Some(Part::Text(text.clone())),
                Block::ToolUse { id, name, input } => Some(Part::ToolCall {
                    id: id.clone(),
                    name: name.clone(),
                    arguments: input.to_string(),
                }),
                _ => None,
            })
            .collect(),
    };
    Said {
        role: "assistant",
        parts,
    }
}

/// BIRTH.json's model and its provider: `provider/model` as dreamwatch's runner writes
/// it, else as OpenSeed's proxy routes it; both empty when BIRTH.json names none.
fn model_of(root: &Path) -> (String, String) {
    let birth = std::fs::read(root.join("BIRTH.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok());
    let field = |k: &str| {
        birth
            .as_ref()
            .and_then(|b| b.get(k))
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string()
    };
    let model = field("model");
    if field("created_by") == "dreamwatch"
        && let Some((provider, name)) = model.split_once('/')
    {
        return (provider.to_string(), name.to_string());
    }
    (openseed_provider(&model).to_string(), model)
}

/// OpenSeed's `inferProvider` (src/host/proxy.ts at 815f9fd).
fn openseed_provider(model: &str) -> &'static str {
    if model.is_empty() {
        ""
    } else if model.contains('/') {
        "openrouter"
    } else if model.starts_with("gpt-") || model.starts_with("o3") || model.starts_with("o4") {
        "openai"
    } else if model.starts_with("gemini-") {
        "gemini"
    } else {
        "anthropic"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, lines: &[&str]) {
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let self_dir = dir.join(".self");
        std::fs::create_dir_all(&self_dir).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(self_dir.join("conversation.jsonl"), text).unwrap_or_else(|e| panic!("{e}"));
    }

    fn at(second: u32) -> DateTime<Utc> {
        use chrono::TimeZone;
        Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, second)
            .single()
            .unwrap_or_default()
    }

    #[test]
    fn an_answer_is_a_call_from_the_message_before_it_held_until_its_events_are_read() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(
            tmp.path().join("BIRTH.json"),
            r#"{"name":"pip","model":"claude-opus-4-6"}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        write(
            tmp.path(),
            &[
                r#"{"t":"2026-03-01T09:00:01Z","role":"user","content":"wake"}"#,
                r#"{"t":"2026-03-01T09:00:03Z","role":"assistant","content":"[{\"type\":\"text\",\"text\":\"hi\"}]"}"#,
                r#"{"t":"2026-03-01T09:00:04Z","role":"user","content":"ok"}"#,
                r#"{"t":"2026-03-01T09:00:09Z","role":"assistant","content":"later"}"#,
            ],
        );
        let mut tail = AnswerTail::open(tmp.path(), AnswersCursor::default());
        assert!(
            tail.read(None, &Capture::default()).is_empty(),
            "no events yet"
        );
        let calls = tail.read(Some(at(5)), &Capture { on: true, cap: 10 });
        assert_eq!(calls.len(), 1);
        let (began, call) = &calls[0];
        assert_eq!((*began, call.end), (at(1), at(3)));
        assert_eq!(
            (call.provider.as_str(), call.model.as_str()),
            ("anthropic", "claude-opus-4-6")
        );
        let Called::Chat { content: Some(c) } = &call.what else {
            panic!("{call:?}");
        };
        assert_eq!(c.output[0].parts, [Part::Text("hi".into())]);
        let again = tail.read(Some(at(10)), &Capture::default());
        assert_eq!(again.len(), 1, "the held answer, once");
        assert_eq!((again[0].0, again[0].1.end), (at(4), at(9)));
        assert!(tail.read(Some(at(10)), &Capture::default()).is_empty());
    }

    #[test]
    fn the_provider_is_inferred_as_openseed_does() {
        assert_eq!(openseed_provider("claude-sonnet-4-6"), "anthropic");
        assert_eq!(openseed_provider("gpt-5"), "openai");
        assert_eq!(openseed_provider("openai/o3-mini"), "openrouter");
        assert_eq!(openseed_provider("gemini-2.5-pro"), "gemini");
        assert_eq!(openseed_provider("mystery"), "anthropic");
    }
}
