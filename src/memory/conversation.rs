//! `.self/conversation.jsonl`: every message of the creature's life, one per line.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;

use super::json::{LineError, parse_line};
use super::time::parse_time;

/// One line of the conversation log.
#[derive(Debug, Clone, PartialEq)]
pub struct ConversationEntry {
    pub t: Option<DateTime<Utc>>,
    pub role: String,
    pub content: Content,
}

/// The `content` field: plain text, or the JSON text of a block array.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    Text(String),
    Blocks(Vec<Block>),
    /// Block-array JSON cut short by OpenSeed's 10,000-unit limit: the text as logged.
    Cut(String),
}

/// One content block, Anthropic or AI-SDK shaped.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Text(String),
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
    ToolResult {
        tool_use_id: String,
        content: String,
        is_error: bool,
    },
    /// AI-SDK `tool-result`: the call and its output in one block.
    AiToolResult {
        tool_call_id: String,
        tool_name: String,
        input: Value,
        output: String,
    },
    Other(Value),
}

#[derive(Deserialize)]
struct RawEntry {
    #[serde(default)]
    t: Option<Value>,
    #[serde(default)]
    role: Option<String>,
    #[serde(default)]
    content: Option<Value>,
}

impl ConversationEntry {
    /// Parses one line. Errors are short reasons for the problem list.
    pub fn parse(line: &[u8]) -> Result<Self, LineError> {
        let raw: RawEntry = parse_line(line)?;
        let role = raw.role.ok_or(LineError::Missing("role"))?;
        let content = match raw.content {
            Some(Value::String(s)) => Content::from_text(s),
            Some(Value::Array(items)) => {
                Content::Blocks(items.into_iter().map(Block::from_value).collect())
            }
            Some(Value::Null) | None => Content::Text(String::new()),
            Some(other) => Content::Text(other.to_string()),
        };
        Ok(Self {
            t: raw.t.as_ref().and_then(Value::as_str).and_then(parse_time),
            role,
            content,
        })
    }

    /// Tool calls recorded in this entry: `tool_use` blocks and AI-SDK `tool-result` blocks.
    pub fn tool_calls(&self) -> usize {
        match &self.content {
            Content::Text(_) => 0,
            Content::Blocks(blocks) => blocks
                .iter()
                .filter(|b| matches!(b, Block::ToolUse { .. } | Block::AiToolResult { .. }))
                .count(),
            Content::Cut(raw) => count_tool_calls_in_raw(raw),
        }
    }
}

impl ConversationEntry {
    /// What the entry says, at most `max` characters (and whether more was cut): its
    /// text, or its text blocks one per line (a cut block array as it was logged).
    pub fn text(&self, max: usize) -> (String, bool) {
        let whole = match &self.content {
            Content::Text(text) | Content::Cut(text) => text.clone(),
            Content::Blocks(blocks) => blocks
                .iter()
                .filter_map(|b| match b {
                    Block::Text(text) => Some(text.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n"),
        };
        match whole.char_indices().nth(max) {
            Some((at, _)) => (whole[..at].to_string(), true),
            None => (whole, false),
        }
    }
}

/// Counts tool calls in cut (unparseable) block-array text by their type tags.
fn count_tool_calls_in_raw(raw: &str) -> usize {
    ["\"type\":\"tool_use\"", "\"type\":\"tool-result\""]
        .iter()
        .map(|needle| memchr::memmem::find_iter(raw.as_bytes(), needle).count())
        .sum()
}

impl Content {
    fn from_text(s: String) -> Self {
        let trimmed = s.trim_start();
        if !trimmed.starts_with("[{") {
            return Content::Text(s);
        }
        match serde_json::from_str::<Vec<Value>>(&s) {
            Ok(items) => Content::Blocks(items.into_iter().map(Block::from_value).collect()),
            Err(e) if e.is_eof() => Content::Cut(s),
            Err(_) => match super::json::repair_lone_surrogates(&s)
                .and_then(|fixed| serde_json::from_str::<Vec<Value>>(&fixed).ok())
            {
                Some(items) => Content::Blocks(items.into_iter().map(Block::from_value).collect()),
                None if looks_like_blocks(&s) => Content::Cut(s),
                None => Content::Text(s),
            },
        }
    }

    /// Whether the text was cut short by the logger.
    pub fn is_cut(&self) -> bool {
        matches!(self, Content::Cut(_))
    }
}

fn looks_like_blocks(s: &str) -> bool {
    s.contains("\"type\":")
}

fn str_field(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// Text of a `tool_result` content, which may be a string or a block array.
fn result_text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|i| i.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

impl Block {
    fn from_value(v: Value) -> Self {
        let kind = v.get("type").and_then(Value::as_str).unwrap_or_default();
        match kind {
            "text" => Block::Text(str_field(&v, "text")),
            "tool_use" | "tool-call" => Block::ToolUse {
                id: v
                    .get("id")
                    .or_else(|| v.get("toolCallId"))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                name: v
                    .get("name")
                    .or_else(|| v.get("toolName"))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                input: v.get("input").cloned().unwrap_or(Value::Null),
            },
            "tool_result" => Block::ToolResult {
                tool_use_id: str_field(&v, "tool_use_id"),
                content: result_text(v.get("content")),
                is_error: v.get("is_error").and_then(Value::as_bool).unwrap_or(false),
            },
            "tool-result" => Block::AiToolResult {
                tool_call_id: str_field(&v, "toolCallId"),
                tool_name: str_field(&v, "toolName"),
                input: v.get("input").cloned().unwrap_or(Value::Null),
                output: match v.get("output") {
                    Some(Value::Object(o)) => match o.get("value") {
                        Some(Value::String(s)) => s.clone(),
                        Some(other) => other.to_string(),
                        None => Value::Object(o.clone()).to_string(),
                    },
                    other => result_text(other),
                },
            },
            _ => Block::Other(v),
        }
    }
}

/// A tool's logged output, split into its parts where it is `{"stdout","stderr"}` JSON.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolOutput {
    pub stdout: String,
    pub stderr: String,
    pub exit_code: Option<i64>,
    /// `Error: ...` outputs and results flagged as errors.
    pub error: Option<String>,
    /// The `[TRUNCATED ... Full output: PATH]` note, when present.
    pub truncated_note: Option<String>,
}

impl ToolOutput {
    pub fn parse(text: &str) -> Self {
        let (body, note) = match text.rfind("[TRUNCATED") {
            Some(at) => (&text[..at], Some(text[at..].trim().to_string())),
            None => (text, None),
        };
        let trimmed = body.trim();
        if let Some(rest) = trimmed.strip_prefix("Error:") {
            return Self {
                error: Some(rest.trim().to_string()),
                truncated_note: note,
                ..Self::default()
            };
        }
        if trimmed.starts_with('{')
            && let Ok(Value::Object(o)) = serde_json::from_str::<Value>(trimmed)
        {
            let text = |key: &str| {
                o.get(key)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            return Self {
                stdout: text("stdout"),
                stderr: text("stderr"),
                exit_code: o
                    .get("exitCode")
                    .or_else(|| o.get("exit_code"))
                    .and_then(Value::as_i64),
                error: o.get("error").and_then(Value::as_str).map(str::to_string),
                truncated_note: note,
            };
        }
        Self {
            stdout: body.to_string(),
            truncated_note: note,
            ..Self::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_text_is_capped_at_a_character_boundary() {
        let e =
            ConversationEntry::parse(br#"{"role":"user","content":"d\u00e9j\u00e0 vu"}"#).unwrap();
        assert_eq!(e.text(3), ("d\u{e9}j".to_string(), true));
        assert_eq!(e.text(100), ("d\u{e9}j\u{e0} vu".to_string(), false));
        let blocks = ConversationEntry::parse(
            br#"{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"tool_use","id":"1","name":"bash","input":{}},{"type":"text","text":"b"}]}"#,
        )
        .unwrap();
        assert_eq!(blocks.text(100), ("a\nb".to_string(), false));
    }

    #[test]
    fn plain_text_entry() {
        let e = ConversationEntry::parse(
            br#"{"t":"2026-03-01T10:00:00.000Z","role":"user","content":"hello"}"#,
        )
        .unwrap();
        assert_eq!(e.role, "user");
        assert_eq!(e.content, Content::Text("hello".into()));
        assert!(e.t.is_some());
        assert_eq!(e.tool_calls(), 0);
    }

    #[test]
    fn anthropic_blocks_count_tool_use() {
        let line = br#"{"t":"2026-02-12T17:32:32.909Z","role":"assistant","content":"[{\"type\":\"text\",\"text\":\"hi\"},{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"bash\",\"input\":{\"command\":\"ls\"}},{\"type\":\"tool_use\",\"id\":\"b\",\"name\":\"bash\",\"input\":{\"command\":\"pwd\"}}]"}"#;
        let e = ConversationEntry::parse(line).unwrap();
        assert_eq!(e.tool_calls(), 2);
        let Content::Blocks(blocks) = &e.content else {
            panic!("blocks expected")
        };
        assert_eq!(blocks[0], Block::Text("hi".into()));
    }

    #[test]
    fn tool_result_blocks_are_not_calls() {
        let line = br#"{"t":"2026-02-12T17:32:32.909Z","role":"user","content":"[{\"type\":\"tool_result\",\"tool_use_id\":\"a\",\"content\":\"{\\\"stdout\\\":\\\"x\\\"}\"}]"}"#;
        let e = ConversationEntry::parse(line).unwrap();
        assert_eq!(e.tool_calls(), 0);
    }

    #[test]
    fn ai_sdk_tool_result_counts_and_keeps_output() {
        let line = br#"{"t":"2026-03-09T10:00:00Z","role":"tool","content":"[{\"type\":\"tool-result\",\"toolCallId\":\"c1\",\"toolName\":\"bash\",\"input\":{\"command\":\"ls\"},\"output\":{\"type\":\"text\",\"value\":\"{\\\"stdout\\\":\\\"a\\\\nb\\\",\\\"stderr\\\":\\\"\\\"}\"}}]"}"#;
        let e = ConversationEntry::parse(line).unwrap();
        assert_eq!(e.tool_calls(), 1);
        let Content::Blocks(blocks) = &e.content else {
            panic!("blocks expected")
        };
        let Block::AiToolResult {
            output, tool_name, ..
        } = &blocks[0]
        else {
            panic!("tool-result expected")
        };
        assert_eq!(tool_name, "bash");
        assert_eq!(ToolOutput::parse(output).stdout, "a\nb");
    }

    #[test]
    fn cut_block_json_is_kept_and_marked() {
        let line = br#"{"t":"2026-03-09T10:00:00Z","role":"tool","content":"[{\"type\":\"tool-result\",\"toolCallId\":\"c1\",\"toolName\":\"bash\",\"output\":{\"type\":\"text\",\"value\":\"aaaa"}"#;
        let e = ConversationEntry::parse(line).unwrap();
        assert!(e.content.is_cut());
        assert_eq!(e.tool_calls(), 1);
    }

    #[test]
    fn lone_surrogate_line_is_an_entry() {
        let line = br#"{"t":"2026-03-09T10:00:00Z","role":"user","content":"emoji cut \ud83d"}"#;
        let e = ConversationEntry::parse(line).unwrap();
        assert_eq!(e.content, Content::Text("emoji cut \u{fffd}".into()));
    }

    #[test]
    fn bad_lines_are_errors() {
        assert!(ConversationEntry::parse(b"garbage").is_err());
        assert!(ConversationEntry::parse(br#"{"t":"x"}"#).is_err());
    }

    #[test]
    fn tool_output_variants() {
        let o = ToolOutput::parse(
            "Error: command not found\n[TRUNCATED 5000 chars. Full output: /tmp/x]",
        );
        assert_eq!(o.error.as_deref(), Some("command not found"));
        assert!(o.truncated_note.unwrap().contains("/tmp/x"));
        assert_eq!(ToolOutput::parse("plain").stdout, "plain");
    }
}
