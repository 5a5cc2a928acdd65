//! The runner's side of `.sys/usage.jsonl` ([`crate::memory::usage`]): each model call's
//! tokens appended as its answer comes back, with the running sums carried on from the
//! file's last line when the creature starts again.
//!
//! An answer that says nothing of its tokens (the rehearsal brain, some local servers)
//! is counted here, marked as an estimate: about four characters a token, of what was
//! sent (system prompt, messages, tool specs) and of what came back.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, NaiveDate, Utc};

use crate::llm::{ContentBlock, Request, Response};
use crate::memory::usage::{self, Call, Tokens, Totals, UsageLine};
use crate::memory::write::append_line;

/// Characters counted as one token in an estimate (the usual rule of thumb for English).
const CHARS_PER_TOKEN: u64 = 4;

/// The sums so far and where they go.
#[derive(Debug)]
pub struct UsageBook {
    path: PathBuf,
    totals: Totals,
    day: Option<NaiveDate>,
    today: Totals,
    /// Estimated input tokens of the chat calls under way, by the engine's request id.
    pending: HashMap<u64, u64>,
}

impl UsageBook {
    /// Carries on from the last line of the creature's usage file (nothing when it has
    /// none, or when it cannot be read: the sums then start again, said in the warning).
    pub fn open(root: &Path) -> (Self, Option<String>) {
        let path = usage::path(root);
        let (last, warning) = match usage::last_line(&path) {
            Ok(last) => (last, None),
            Err(e) => (
                None,
                Some(format!("cannot read {}: {e}", usage::USAGE_FILE)),
            ),
        };
        let book = Self {
            path,
            day: last.as_ref().map(|l| l.day),
            totals: last.as_ref().map(|l| l.totals.clone()).unwrap_or_default(),
            today: last.map(|l| l.today).unwrap_or_default(),
            pending: HashMap::new(),
        };
        (book, warning)
    }

    /// A chat request is on its way: its input is counted now, should the answer not say.
    pub fn asked(&mut self, id: u64, request: &Request) {
        self.pending.insert(id, estimate_request(request));
    }

    /// The answer to request `id` came back: its usage (or the estimate) is appended.
    pub fn answered(
        &mut self,
        id: u64,
        model: &str,
        answer: Option<&Response>,
        now: DateTime<Utc>,
    ) -> std::io::Result<()> {
        let asked = self.pending.remove(&id);
        let Some(answer) = answer else {
            return Ok(());
        };
        match (answer.usage, asked) {
            (Some(tokens), _) => self.append(now, Call::Chat, model, tokens, false),
            (None, asked) => {
                let tokens = Tokens {
                    input: asked.unwrap_or(0),
                    output: estimate_blocks(&answer.content),
                    ..Tokens::default()
                };
                self.append(now, Call::Chat, model, tokens, true)
            }
        }
    }

    /// An embeddings call's usage, when its answer says (the local embedding costs nothing
    /// and says nothing).
    pub fn embedded(
        &mut self,
        model: &str,
        tokens: Option<Tokens>,
        now: DateTime<Utc>,
    ) -> std::io::Result<()> {
        match tokens {
            Some(tokens) => self.append(now, Call::Embed, model, tokens, false),
            None => Ok(()),
        }
    }

    fn append(
        &mut self,
        now: DateTime<Utc>,
        call: Call,
        model: &str,
        tokens: Tokens,
        estimated: bool,
    ) -> std::io::Result<()> {
        let day = now.date_naive();
        if self.day != Some(day) {
            self.day = Some(day);
            self.today.clear();
        }
        self.totals
            .entry(model.to_owned())
            .or_default()
            .add(&tokens, estimated);
        self.today
            .entry(model.to_owned())
            .or_default()
            .add(&tokens, estimated);
        let line = UsageLine {
            t: Some(now),
            call,
            model: model.to_owned(),
            tokens,
            estimated,
            day,
            totals: self.totals.clone(),
            today: self.today.clone(),
        };
        let text = serde_json::to_string(&line).map_err(std::io::Error::other)?;
        append_line(&self.path, &text).map(|_| ())
    }
}

/// The estimated tokens of a request: its system prompt, messages and tool specs.
fn estimate_request(request: &Request) -> u64 {
    let tools: usize = request
        .tools
        .iter()
        .map(|t| t.name.len() + t.description.len() + t.input_schema.to_string().len())
        .sum();
    let messages: u64 = request
        .messages
        .iter()
        .map(|m| estimate_blocks(&m.content))
        .sum();
    tokens_of(request.system.len() + tools) + messages
}

/// The estimated tokens of some content blocks.
fn estimate_blocks(blocks: &[ContentBlock]) -> u64 {
    let chars: usize = blocks
        .iter()
        .map(|b| match b {
            ContentBlock::Text { text } => text.len(),
            ContentBlock::ToolUse { name, input, .. } => name.len() + input.to_string().len(),
            ContentBlock::ToolResult { content, .. } => content.len(),
        })
        .sum();
    tokens_of(chars)
}

fn tokens_of(chars: usize) -> u64 {
    (chars as u64).div_ceil(CHARS_PER_TOKEN)
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;
    use crate::llm::{Message, StopReason};

    fn answer(usage: Option<Tokens>) -> Response {
        Response {
            content: vec![ContentBlock::Text {
                text: "x".repeat(40),
            }],
            stop_reason: StopReason::EndTurn,
            usage,
        }
    }

    #[test]
    fn sums_carry_on_across_runs_and_today_starts_each_day() {
        let dir = tempfile::tempdir().unwrap();
        let at = |d, h| Utc.with_ymd_and_hms(2026, 11, d, h, 0, 0).unwrap();
        let request = Request {
            system: "s".repeat(400),
            messages: vec![Message::user_text("u".repeat(200))],
            tools: Vec::new(),
            max_tokens: 10,
        };
        let real = Tokens {
            input: 1000,
            output: 50,
            cache_read: 24,
            cache_write: 0,
        };
        let (mut book, warning) = UsageBook::open(dir.path());
        assert_eq!(warning, None);
        std::fs::create_dir_all(dir.path().join(".sys")).unwrap();
        book.asked(1, &request);
        book.answered(1, "openai/m", Some(&answer(Some(real))), at(24, 23))
            .unwrap();
        book.asked(2, &request);
        book.answered(2, "openai/m", None, at(24, 23)).unwrap();
        drop(book);

        let (mut book, _) = UsageBook::open(dir.path());
        book.asked(3, &request);
        book.answered(3, "rehearsal", Some(&answer(None)), at(25, 1))
            .unwrap();
        book.embedded("openai/e", None, at(25, 1)).unwrap();
        let last = usage::last_line(&usage::path(dir.path())).unwrap().unwrap();
        assert_eq!(
            last.totals["openai/m"].calls, 1,
            "a failed call is not counted"
        );
        assert_eq!(last.totals["openai/m"].tokens, real);
        assert!(!last.totals["openai/m"].estimated);
        let guess = last.totals["rehearsal"];
        assert!(guess.estimated && last.estimated);
        assert_eq!((guess.tokens.input, guess.tokens.output), (150, 10));
        assert_eq!(last.day, at(25, 1).date_naive());
        assert_eq!(last.today.len(), 1, "{:?}", last.today);
        let lines = std::fs::read_to_string(usage::path(dir.path())).unwrap();
        assert_eq!(lines.lines().count(), 2);
    }
}
