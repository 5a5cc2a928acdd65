//! The Ranger: OpenSeed's diagnostic agent, one conversation per orchestrator. Read in its
//! code at 815f9fd:
//! - `POST /api/ranger/chat` (`src/host/index.ts:740`) takes `{message, context:
//!   {creature?}}` (`message || text`; none: `400 message is required`; a body that is
//!   not JSON: a 400 with the parser's words; before the Ranger exists: `503 ranger not
//!   initialized`). It answers server-sent events (`src/host/ranger.ts`, `chat`): `data:
//!   {"type": ...}` lines, `thinking` (`text`), `tool_call` (`name`, `input`),
//!   `tool_result` (`name`, `result`: its first 2,000 characters), `text` (the answer),
//!   `error` (`text`: `LLM call failed`), and `done` last. Nothing is sent before a model
//!   call ends, and up to 15 rounds of tools are made, so the whole answer may take
//!   minutes. With no `ANTHROPIC_API_KEY` the orchestrator has no Ranger to ask: a
//!   `200` with no content type whose events are `error` (`No ANTHROPIC_API_KEY
//!   configured`) and `done`.
//! - `DELETE /api/ranger/chat` forgets the conversation (`{"ok": true}`).
//! - Its tools read any file of OpenSeed's home with bash, write a creature's `.self/`
//!   files and `PURPOSE.md`, edit any of its files, restart, wake and message creatures;
//!   its model calls are charged to `_ranger` in `/api/usage`.
//! - The dashboard's panel (`dashboard/src/components/RangerPanel.tsx`) sends the
//!   creature selected as the context, shows tool calls with their results, and an
//!   error answer (`!res.ok`) as `Error: <text>`.

use std::time::Duration;

use serde_json::{Value, json};

use super::OpenSeedError;
use super::client::{Client, MAX_BODY};
use crate::text::sse::SseDecoder;

/// How long the Ranger may take to answer (its model calls and tools, 15 rounds at most).
const RANGER_WAIT: Duration = Duration::from_secs(600);

/// What the orchestrator says when it has no Ranger to ask (no model key).
pub const NO_KEY: &str = "No ANTHROPIC_API_KEY configured";

/// One thing the Ranger's answer holds, in the order it came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RangerPart {
    Thinking(String),
    ToolCall {
        name: String,
        input: Value,
    },
    ToolResult {
        name: String,
        result: String,
    },
    /// Its answer in words (markdown).
    Text(String),
    /// Its own error (`LLM call failed`, no model key).
    Error(String),
}

/// The Ranger's answer to one message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RangerAnswer {
    pub parts: Vec<RangerPart>,
    /// It said `done` (else the answer ended early).
    pub done: bool,
}

impl RangerAnswer {
    /// The answer's events (the body of the orchestrator's answer, whole).
    pub fn parse(body: &[u8]) -> Self {
        let mut decoder = SseDecoder::default();
        let mut events = decoder.push(body).unwrap_or_default();
        events.extend(decoder.finish().ok().flatten());
        let mut answer = Self::default();
        for event in events {
            let Ok(v) = serde_json::from_str::<Value>(&event.data) else {
                continue;
            };
            let text = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default();
            let part = match text("type") {
                "thinking" => RangerPart::Thinking(text("text").to_owned()),
                "tool_call" => RangerPart::ToolCall {
                    name: text("name").to_owned(),
                    input: v.get("input").cloned().unwrap_or(Value::Null),
                },
                "tool_result" => RangerPart::ToolResult {
                    name: text("name").to_owned(),
                    result: text("result").to_owned(),
                },
                "text" => RangerPart::Text(text("text").to_owned()),
                "error" => RangerPart::Error(text("text").to_owned()),
                "done" => {
                    answer.done = true;
                    continue;
                }
                _ => continue,
            };
            answer.parts.push(part);
        }
        answer
    }

    /// The orchestrator has no Ranger configured (no model key).
    pub fn unconfigured(&self) -> bool {
        self.parts
            .iter()
            .any(|p| matches!(p, RangerPart::Error(e) if e == NO_KEY))
    }
}

impl Client {
    /// Asks the Ranger `message`, about `creature` if one is named; waits for the whole
    /// answer.
    pub async fn ranger(
        &self,
        message: &str,
        creature: Option<&str>,
    ) -> Result<RangerAnswer, OpenSeedError> {
        let context = match creature {
            Some(name) => json!({ "creature": name }),
            None => json!({}),
        };
        let response = self
            .request(reqwest::Method::POST, &["api", "ranger", "chat"], None)
            .timeout(RANGER_WAIT)
            .json(&json!({ "message": message, "context": context }))
            .send()
            .await
            .map_err(|e| self.transport(&e))?;
        let mut response = self.check(response).await?;
        let (bytes, whole) = self.read_at_most(&mut response, MAX_BODY).await?;
        if !whole {
            return Err(self.too_large("api/ranger/chat"));
        }
        Ok(RangerAnswer::parse(&bytes))
    }

    /// Makes the Ranger forget its conversation (everyone's: it has one).
    pub async fn ranger_reset(&self) -> Result<(), OpenSeedError> {
        let _: Value = self
            .send(
                reqwest::Method::DELETE,
                &["api", "ranger", "chat"],
                None,
                None,
            )
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_in_order_and_the_missing_key() {
        let body = concat!(
            "data: {\"type\":\"thinking\",\"text\":\"look\"}\n\n",
            "data: {\"type\":\"tool_call\",\"name\":\"bash\",\"input\":{\"command\":\"ls\"}}\n\n",
            "data: {\"type\":\"tool_result\",\"name\":\"bash\",\"result\":\"a\\nb\"}\n\n",
            "data: {\"type\":\"text\",\"text\":\"It **sleeps**.\"}\n\n",
            "data: {\"type\":\"done\"}\n\n"
        );
        let a = RangerAnswer::parse(body.as_bytes());
        assert!(a.done && !a.unconfigured());
        assert_eq!(a.parts.len(), 4);
        assert_eq!(a.parts[3], RangerPart::Text("It **sleeps**.".into()));
        let none = RangerAnswer::parse(
            b"data: {\"type\":\"error\",\"text\":\"No ANTHROPIC_API_KEY configured\"}\n\ndata: {\"type\":\"done\"}\n\n",
        );
        assert!(none.unconfigured() && none.done);
        assert!(!RangerAnswer::parse(b"data: {\"type\":\"text\"").done);
    }
}
