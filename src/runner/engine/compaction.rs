//! Context compaction for genomes that ask for it: when the context fills a share of its
//! budget, the older messages are summarised by the brain and replaced by the summary,
//! the recent ones preserved. Awake it comes before a turn (the genome's emergency
//! threshold); asleep the genome's sleep work asks for it ([`SleepStep::Compact`]).

use chrono::{DateTime, Utc};
use serde_json::json;

use crate::llm::{ContentBlock, LlmError, Message, Request, Response, joined_text};
use crate::memory::events::ErrorEvent;
use crate::runner::activity::clip;
use crate::runner::brain::task::{Compact, Task};
use crate::runner::genome::{Compacted, Genome};

use super::context::message_chars;
use super::output::Output;
use super::{Compacting, Engine, State};

/// Messages kept as they are after a compaction.
const PRESERVE: usize = 6;
/// A compaction needs at least this share of the context before the preserved messages.
const MIN_SHARE: f64 = 0.3;
/// Characters of conversation given to the summariser.
const TRANSCRIPT_MAX: usize = 60_000;
/// Characters of one tool input or output in the transcript.
const BLOCK_MAX: usize = 600;

pub const SYSTEM: &str = "You compact an agent's conversation history. Summarise the \
conversation below for the agent itself: what it was doing, what it learned about the world \
and the people in it, decisions taken and what is still pending. Third person for others, \
second person (\"you\") for the agent. Plain text, at most 300 words.";

impl<G: Genome> Engine<G> {
    /// Starts a compaction when the context fills `threshold` of the genome's budget or
    /// more; `false` when it does not (or nothing can be compacted).
    pub(super) fn begin_compaction(
        &mut self,
        now: DateTime<Utc>,
        threshold: f64,
        trigger: &'static str,
        out: &mut Vec<Output<G>>,
    ) -> bool {
        let budget = self.genome.context_budget(&self.cfg).max(1);
        let ratio = self.ctx.chars() as f64 / budget as f64;
        if ratio < threshold {
            return false;
        }
        let Some(split) = self.ctx.split_keeping(PRESERVE) else {
            return false;
        };
        // Too little before the preserved messages to be worth a summary: the emergency
        // trim cuts long texts instead.
        let older: usize = self.ctx.messages()[..split].iter().map(message_chars).sum();
        if (older as f64) < self.ctx.chars() as f64 * MIN_SHARE {
            return false;
        }
        let transcript = transcript(&self.ctx.messages()[..split]);
        let id = self.id();
        self.state = State::Compacting(Compacting {
            id,
            trigger,
            ratio,
            split,
        });
        self.memory(
            now,
            "observation",
            json!({"event": "compaction_started", "trigger": trigger, "ratio": ratio}),
            out,
        );
        out.push(Output::Think {
            id,
            task: Task::Compact(Compact {
                messages: split,
                transcript: transcript.clone(),
            }),
            request: Request {
                system: SYSTEM.into(),
                messages: vec![Message::user_text(transcript)],
                tools: Vec::new(),
                max_tokens: self.cfg.max_tokens,
            },
        });
        true
    }

    /// The summariser's answer: the history is replaced by the summary and what is
    /// preserved, and the genome is told.
    pub(super) fn on_summary(
        &mut self,
        now: DateTime<Utc>,
        result: Result<Response, LlmError>,
        out: &mut Vec<Output<G>>,
    ) {
        let State::Compacting(c) = std::mem::replace(&mut self.state, State::Ready) else {
            return;
        };
        let summary = result.map(|r| joined_text(&r.content));
        let step = match summary {
            Ok(text) if !text.trim().is_empty() => {
                let head = format!(
                    "[Summary of the earlier conversation ({n} messages), compacted by the runner; \
                     every message is still in .self/conversation.jsonl]\n{text}",
                    n = c.split,
                    text = text.trim()
                );
                let summarized = self.ctx.replace_head(c.split, head);
                let done = Compacted {
                    trigger: c.trigger,
                    ratio: c.ratio,
                    summarized,
                    preserved: self.ctx.len().saturating_sub(1),
                    summary: text.trim().to_string(),
                };
                self.memory(
                    now,
                    "observation",
                    json!({"event": "compaction", "trigger": c.trigger, "summarized": summarized,
                           "preserved": done.preserved, "chars": self.ctx.chars()}),
                    out,
                );
                self.with_genome(now, out, |g, cx| g.on_compacted(Some(&done), cx))
            }
            failed => {
                let why = match failed {
                    Err(e) => e.to_string(),
                    Ok(_) => "the summary was empty".into(),
                };
                let error = ErrorEvent::in_phase("compaction", format!("compaction failed: {why}"));
                self.error(now, error, out);
                // A plain trim instead, so that the next turn does not try again at once.
                self.ctx.trim(self.cfg.cycle.keep_recent_messages);
                self.with_genome(now, out, |g, cx| g.on_compacted(None, cx))
            }
        };
        if self.parked.is_some() {
            return self.unpark(now, step, out);
        }
        self.pump(now, out);
    }
}

/// The messages as plain text for the summariser, tool traffic shortened.
fn transcript(messages: &[Message]) -> String {
    let mut out = String::new();
    for m in messages {
        let who = match m.role {
            crate::llm::Role::User => "User",
            crate::llm::Role::Assistant => "Agent",
        };
        for b in &m.content {
            let line = match b {
                ContentBlock::Text { text } => format!("{who}: {}", text.trim()),
                ContentBlock::ToolUse { name, input, .. } => {
                    format!(
                        "Agent called {name}: {}",
                        clip(&input.to_string(), BLOCK_MAX)
                    )
                }
                ContentBlock::ToolResult { content, .. } => {
                    format!("Tool result: {}", clip(content.trim(), BLOCK_MAX))
                }
            };
            out.push_str(&line);
            out.push('\n');
        }
    }
    if out.len() > TRANSCRIPT_MAX {
        let mut cut = out.len() - TRANSCRIPT_MAX;
        while !out.is_char_boundary(cut) {
            cut += 1;
        }
        out = format!("[older part left out]\n{}", &out[cut..]);
    }
    out
}
