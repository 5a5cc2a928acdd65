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
use crate::memory::write::append_bytes;

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
    /// Lines counted and not written yet ([`Self::flush`] writes them, oldest first).
    unwritten: Vec<String>,
    /// The file ends without a newline (a torn or foreign last line): the next line
    /// starts a new one.
    torn_end: bool,
}

/// Most lines kept for a later write (a full disk); older ones are dropped beyond it.
const MAX_UNWRITTEN: usize = 10_000;

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
            unwritten: Vec::new(),
            torn_end: ends_torn(&usage::path(root)),
        };
        (book, warning)
    }

    /// The sums of `day`, when the last call counted was on it.
    pub fn today_on(&self, day: NaiveDate) -> Option<&Totals> {
        (self.day == Some(day)).then_some(&self.today)
    }

    /// Whether lines counted wait to be written.
    pub fn has_unwritten(&self) -> bool {
        !self.unwritten.is_empty()
    }

    /// Writes the lines counted so far, oldest first; on a failure the rest stay for the
    /// next call.
    pub fn flush(&mut self) -> std::io::Result<()> {
        let mut done = 0;
        let mut result = Ok(());
        for line in &self.unwritten {
            let mut bytes = Vec::with_capacity(line.len() + 2);
            if self.torn_end {
                bytes.push(b'\n');
            }
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
            if let Err(e) = append_bytes(&self.path, &bytes) {
                result = Err(e);
                break;
            }
            self.torn_end = false;
            done += 1;
        }
        self.unwritten.drain(..done);
        result
    }

    /// Forgets the lines not written (they cannot be: not for want of room).
    pub fn drop_unwritten(&mut self) -> usize {
        std::mem::take(&mut self.unwritten).len()
    }

    /// A chat request is on its way: its input is counted now, should the answer not say.
    pub fn asked(&mut self, id: u64, request: &Request) {
        self.pending.insert(id, estimate_request(request));
    }

    /// The answer to request `id` came back: its usage (or the estimate) is counted, to
    /// be written by [`Self::flush`].
    pub fn answered(
        &mut self,
        id: u64,
        model: &str,
        answer: Option<&Response>,
        now: DateTime<Utc>,
    ) {
        let asked = self.pending.remove(&id);
        let Some(answer) = answer else {
            return;
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
    /// and says nothing), to be written by [`Self::flush`].
    pub fn embedded(&mut self, model: &str, tokens: Option<Tokens>, now: DateTime<Utc>) {
        if let Some(tokens) = tokens {
            self.append(now, Call::Embed, model, tokens, false);
        }
    }

    fn append(
        &mut self,
        now: DateTime<Utc>,
        call: Call,
        model: &str,
        tokens: Tokens,
        estimated: bool,
    ) {
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
        if let Ok(text) = serde_json::to_string(&line) {
            if self.unwritten.len() >= MAX_UNWRITTEN {
                self.unwritten.remove(0);
            }
            self.unwritten.push(text);
        }
    }
}

/// Whether the file at `path` ends without its last newline.
fn ends_torn(path: &Path) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = crate::tail::open_regular(path) else {
        return false;
    };
    let mut last = [0u8; 1];
    file.seek(SeekFrom::End(-1))
        .and_then(|_| file.read_exact(&mut last))
        .is_ok_and(|()| last[0] != b'\n')
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
        book.answered(1, "openai/m", Some(&answer(Some(real))), at(24, 23));
        book.asked(2, &request);
        book.answered(2, "openai/m", None, at(24, 23));
        book.flush().unwrap();
        drop(book);

        let (mut book, _) = UsageBook::open(dir.path());
        book.asked(3, &request);
        book.answered(3, "rehearsal", Some(&answer(None)), at(25, 1));
        book.embedded("openai/e", None, at(25, 1));
        book.flush().unwrap();
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

    #[test]
    fn a_line_not_written_waits_and_a_torn_end_is_not_glued_to() {
        let dir = tempfile::tempdir().unwrap();
        let at = Utc.with_ymd_and_hms(2026, 11, 24, 10, 0, 0).unwrap();
        std::fs::create_dir_all(dir.path().join(".sys")).unwrap();
        // A huge unterminated last line: not read, and the sums start again.
        std::fs::write(usage::path(dir.path()), "x".repeat(5 << 20)).unwrap();
        let (mut book, warning) = UsageBook::open(dir.path());
        assert!(
            warning
                .as_deref()
                .is_some_and(|w| w.contains("no readable line")),
            "{warning:?}"
        );
        let tokens = Tokens {
            input: 5,
            ..Tokens::default()
        };
        // The file cannot be written (a directory in its place): the line waits.
        let path = usage::path(dir.path());
        std::fs::rename(&path, dir.path().join("aside")).unwrap();
        std::fs::create_dir(&path).unwrap();
        book.embedded("m", Some(tokens), at);
        assert!(book.flush().is_err());
        assert!(book.has_unwritten());
        std::fs::remove_dir(&path).unwrap();
        std::fs::rename(dir.path().join("aside"), &path).unwrap();
        book.flush().unwrap();
        assert!(!book.has_unwritten());
        let last = usage::last_line(&path).unwrap().unwrap();
        assert_eq!(last.totals["m"].tokens.input, 5);
    }
}
