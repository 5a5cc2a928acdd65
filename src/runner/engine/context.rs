//! The creature's in-context memory: the message list sent to the model.
//!
//! Invariants kept here: roles alternate (a pushed message with the same role as the last
//! one is merged into it), the first message is the user's, and every `tool_use` of an
//! assistant message is answered by a `tool_result` in the next user message.

use std::collections::HashSet;

use crate::llm::{ContentBlock, Message, Role};
use crate::memory::conversation::{Block, Content};

use super::super::wake::trim_note;

/// The note heading the context after a trim, given how many messages were dropped.
pub type TrimNote = fn(usize) -> String;

#[derive(Debug, Clone)]
pub struct ContextWindow {
    messages: Vec<Message>,
    chars: usize,
    note: TrimNote,
}

impl Default for ContextWindow {
    fn default() -> Self {
        Self::new(trim_note)
    }
}

impl ContextWindow {
    /// An empty context whose trims leave `note` (the genome says where the rest went).
    pub fn new(note: TrimNote) -> Self {
        Self {
            messages: Vec::new(),
            chars: 0,
            note,
        }
    }

    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    pub fn len(&self) -> usize {
        self.messages.len()
    }

    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }

    /// Characters of text, tool input and tool output in context.
    pub fn chars(&self) -> usize {
        self.chars
    }

    pub fn last_role(&self) -> Option<Role> {
        self.messages.last().map(|m| m.role)
    }

    /// Appends a message, merged into the last one when the role is the same.
    pub fn push(&mut self, message: Message) {
        self.chars += message_chars(&message);
        match self.messages.last_mut() {
            Some(last) if last.role == message.role => last.content.extend(message.content),
            _ => self.messages.push(message),
        }
    }

    /// Keeps the last `keep` messages behind a note saying where the rest went. The kept part
    /// starts with an assistant message so roles still alternate. Returns how many messages
    /// were dropped.
    pub fn trim(&mut self, keep: usize) -> usize {
        match self.split_keeping(keep) {
            Some(split) => self.replace_head(split, (self.note)(split)),
            None => 0,
        }
    }

    /// Where the context splits to keep about the last `keep` messages: the kept part
    /// starts with an assistant message. `None` when there is nothing to drop.
    pub fn split_keeping(&self, keep: usize) -> Option<usize> {
        let len = self.messages.len();
        if len <= keep + 1 {
            return None;
        }
        let mut split = len.saturating_sub(keep).max(1);
        while split < len && self.messages[split].role != Role::Assistant {
            split += 1;
        }
        (split < len).then_some(split)
    }

    /// Replaces the messages before `split` with one user message, `head` (a trim note or
    /// a compaction's summary). Returns how many were replaced.
    pub fn replace_head(&mut self, split: usize, head: String) -> usize {
        if split == 0 || split >= self.messages.len() {
            return 0;
        }
        let kept = self.messages.split_off(split);
        self.messages = Vec::with_capacity(kept.len() + 1);
        self.messages.push(Message::user_text(head));
        self.messages.extend(kept);
        self.recount();
        split
    }

    /// The emergency trim: when context exceeds `max_chars`, trims to `keep` messages, then
    /// halves what is kept, and at last cuts the longest texts, until it fits.
    pub fn emergency_trim(&mut self, keep: usize, max_chars: usize) -> usize {
        if self.chars <= max_chars {
            return 0;
        }
        let mut dropped = 0;
        let mut k = keep;
        loop {
            dropped += self.trim(k);
            if self.chars <= max_chars || k <= 2 {
                break;
            }
            k /= 2;
        }
        if self.chars > max_chars {
            self.cut_texts(max_chars);
        }
        dropped
    }

    /// Shortens text and tool-result blocks, longest first, until the context fits.
    fn cut_texts(&mut self, max_chars: usize) {
        let budget = (max_chars / 4).max(200);
        while self.chars > max_chars {
            let longest = self
                .messages
                .iter_mut()
                .flat_map(|m| m.content.iter_mut())
                .filter_map(|b| match b {
                    ContentBlock::Text { text } => Some(text),
                    ContentBlock::ToolResult { content, .. } => Some(content),
                    ContentBlock::ToolUse { .. } => None,
                })
                .filter(|t| t.chars().count() > budget)
                .max_by_key(|t| t.len());
            let Some(text) = longest else { break };
            let total = text.chars().count();
            let head: String = text.chars().take(budget).collect();
            *text = format!("{head}\n[cut by the runner: {total} characters, context too long]");
            self.recount();
        }
    }

    fn recount(&mut self) {
        self.chars = self.messages.iter().map(message_chars).sum();
    }

    /// The tool calls of the last assistant message that no user message answers yet.
    pub fn unanswered_tool_uses(&self) -> Vec<String> {
        match self.messages.last() {
            Some(m) if m.role == Role::Assistant => m.tool_use_ids(),
            _ => Vec::new(),
        }
    }

    /// Rebuilds context from the tail of `conversation.jsonl` (oldest first): at most `keep`
    /// messages, starting at an assistant turn behind a trim note, every tool call paired
    /// with its result (results without a call are dropped, missing ones left to the caller
    /// through [`Self::unanswered_tool_uses`] when at the end, filled in elsewhere).
    pub fn rebuild(
        entries: Vec<(String, Content)>,
        keep: usize,
        whole_log: bool,
        note: TrimNote,
    ) -> Self {
        let mut merged = ContextWindow::new(note);
        for (role, content) in entries {
            let role = match role.as_str() {
                "assistant" => Role::Assistant,
                "user" | "tool" => Role::User,
                _ => continue,
            };
            let blocks = blocks_of(content);
            if !blocks.is_empty() {
                merged.push(Message {
                    role,
                    content: blocks,
                });
            }
        }
        let mut messages = merged.messages;
        pair_tool_calls(&mut messages);
        let mut ctx = ContextWindow {
            messages,
            chars: 0,
            note,
        };
        ctx.recount();
        let starts_clean = ctx.messages.first().is_some_and(|m| m.role == Role::User);
        if ctx.trim(keep) == 0 && !(whole_log && starts_clean) {
            // Nothing dropped here, but the log's start was cut off (or begins with the
            // assistant): start at an assistant turn behind the note.
            match ctx.messages.iter().position(|m| m.role == Role::Assistant) {
                Some(first) => {
                    let kept = ctx.messages.split_off(first);
                    ctx.messages = vec![Message::user_text(note(first))];
                    ctx.messages.extend(kept);
                    ctx.recount();
                }
                None => ctx.messages.clear(),
            }
        }
        ctx.recount();
        ctx
    }
}

/// Makes every user message answer exactly the tool calls of the assistant before it.
fn pair_tool_calls(messages: &mut [Message]) {
    let mut i = 0;
    while i < messages.len() {
        if messages[i].role != Role::User {
            i += 1;
            continue;
        }
        let asked: Vec<String> = match i.checked_sub(1) {
            Some(prev) => messages[prev].tool_use_ids(),
            None => Vec::new(),
        };
        let user = &mut messages[i];
        user.content.retain(|b| match b {
            ContentBlock::ToolResult { tool_use_id, .. } => asked.contains(tool_use_id),
            _ => true,
        });
        let answered: HashSet<&str> = user
            .content
            .iter()
            .filter_map(ContentBlock::tool_result_id)
            .collect();
        let missing: Vec<ContentBlock> = asked
            .iter()
            .filter(|id| !answered.contains(id.as_str()))
            .map(|id| interrupted_result(id))
            .collect();
        // Results first, as the Messages API wants them.
        let (mut results, texts): (Vec<_>, Vec<_>) = std::mem::take(&mut user.content)
            .into_iter()
            .partition(|b| matches!(b, ContentBlock::ToolResult { .. }));
        results.extend(missing);
        results.extend(texts);
        if results.is_empty() {
            results.push(ContentBlock::Text {
                text: super::super::wake::CONTINUE.into(),
            });
        }
        user.content = results;
        i += 1;
    }
}

/// The result given for a tool call that never finished (the runner was stopped).
pub fn interrupted_result(id: &str) -> ContentBlock {
    ContentBlock::ToolResult {
        tool_use_id: id.to_string(),
        content: "Error: the runner stopped before this tool call finished".into(),
        is_error: true,
    }
}

fn blocks_of(content: Content) -> Vec<ContentBlock> {
    match content {
        Content::Text(t) | Content::Cut(t) => vec![ContentBlock::Text { text: t }],
        Content::Blocks(blocks) => blocks
            .into_iter()
            .filter_map(|b| match b {
                Block::Text(text) => Some(ContentBlock::Text { text }),
                Block::ToolUse { id, name, input } => {
                    Some(ContentBlock::ToolUse { id, name, input })
                }
                Block::ToolResult {
                    tool_use_id,
                    content,
                    is_error,
                } => Some(ContentBlock::ToolResult {
                    tool_use_id,
                    content,
                    is_error,
                }),
                Block::AiToolResult { .. } | Block::Other(_) => None,
            })
            .collect(),
    }
}

pub fn message_chars(m: &Message) -> usize {
    m.content
        .iter()
        .map(|b| match b {
            ContentBlock::Text { text } => text.len(),
            ContentBlock::ToolUse { name, input, .. } => name.len() + input.to_string().len(),
            ContentBlock::ToolResult { content, .. } => content.len(),
        })
        .sum()
}

/// How a message is logged in `conversation.jsonl`: a lone text block as plain text,
/// anything else as the JSON text of the block array (so is a text that itself looks like
/// a block array, which readers would otherwise take for one).
pub fn log_content(blocks: &[ContentBlock]) -> String {
    match blocks {
        [ContentBlock::Text { text }] if !text.trim_start().starts_with("[{") => text.clone(),
        _ => serde_json::to_string(blocks).unwrap_or_else(|e| format!("[unserialisable: {e}]")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn user(t: &str) -> Message {
        Message::user_text(t)
    }
    fn assistant_calls(ids: &[&str]) -> Message {
        Message {
            role: Role::Assistant,
            content: ids
                .iter()
                .map(|id| ContentBlock::ToolUse {
                    id: (*id).into(),
                    name: "bash".into(),
                    input: json!({"command": "ls"}),
                })
                .collect(),
        }
    }
    fn results(ids: &[&str]) -> Message {
        Message {
            role: Role::User,
            content: ids
                .iter()
                .map(|id| ContentBlock::ToolResult {
                    tool_use_id: (*id).into(),
                    content: "ok".into(),
                    is_error: false,
                })
                .collect(),
        }
    }

    fn life(turns: usize) -> ContextWindow {
        let mut c = ContextWindow::default();
        c.push(user("born"));
        for i in 0..turns {
            let id = format!("t{i}");
            c.push(assistant_calls(&[&id]));
            c.push(results(&[&id]));
        }
        c
    }

    #[test]
    fn same_roles_merge() {
        let mut c = ContextWindow::default();
        c.push(user("a"));
        c.push(user("b"));
        assert_eq!(c.len(), 1);
        assert_eq!(c.messages()[0].content.len(), 2);
        assert_eq!(c.chars(), 2);
    }

    #[test]
    fn trim_table() {
        // (turns, keep) -> messages after trim (note included), dropped
        for (turns, keep, len_after, dropped) in [
            (5, 20, 11, 0),
            (10, 20, 21, 0),
            (11, 20, 21, 3),
            (30, 20, 21, 41),
            (30, 5, 5, 57),
        ] {
            let mut c = life(turns);
            assert_eq!(c.trim(keep), dropped, "turns {turns} keep {keep}");
            assert_eq!(c.len(), len_after, "turns {turns} keep {keep}");
            assert_eq!(c.messages()[0].role, Role::User);
            if dropped > 0 {
                assert_eq!(c.messages()[1].role, Role::Assistant);
            }
        }
    }

    #[test]
    fn emergency_trim_fits_the_budget() {
        let mut c = ContextWindow::default();
        c.push(user("born"));
        for i in 0..40 {
            let id = format!("t{i}");
            c.push(assistant_calls(&[&id]));
            c.push(Message {
                role: Role::User,
                content: vec![ContentBlock::ToolResult {
                    tool_use_id: id,
                    content: "x".repeat(5_000),
                    is_error: false,
                }],
            });
        }
        assert!(c.chars() > 100_000);
        assert_eq!(
            c.emergency_trim(20, 1_000_000),
            0,
            "under the limit nothing happens"
        );
        assert!(c.emergency_trim(20, 100_000) > 0);
        assert!(c.chars() <= 100_000);
        assert_eq!(c.len(), 21);
        assert!(c.emergency_trim(20, 20_000) > 0);
        assert!(c.chars() <= 20_000, "{}", c.chars());
        // One giant message: cut, not dropped.
        let mut c = ContextWindow::default();
        c.push(user(&"y".repeat(300_000)));
        c.emergency_trim(20, 100_000);
        assert!(c.chars() <= 100_000);
        assert_eq!(c.len(), 1);
    }

    #[test]
    fn rebuild_pairs_calls_and_starts_clean() {
        let raw = |m: Message| {
            let role = match m.role {
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            let line = serde_json::json!({"t": "2026-03-01T10:00:00Z", "role": role, "content": log_content(&m.content)}).to_string();
            let e = crate::memory::conversation::ConversationEntry::parse(line.as_bytes()).unwrap();
            (e.role, e.content)
        };
        let entries = vec![
            raw(results(&["old"])),
            raw(user("note")),
            raw(assistant_calls(&["a", "b"])),
            raw(results(&["b", "stray"])),
            raw(assistant_calls(&["c"])),
        ];
        let c = ContextWindow::rebuild(entries, 20, false, trim_note);
        let m = c.messages();
        assert_eq!(m[0].role, Role::User, "a trim note heads a cut log");
        assert_eq!(m[1].role, Role::Assistant);
        let ids: Vec<&str> = m[2]
            .content
            .iter()
            .filter_map(ContentBlock::tool_result_id)
            .collect();
        assert_eq!(ids, vec!["b", "a"], "stray dropped, missing one filled in");
        assert_eq!(c.unanswered_tool_uses(), vec!["c"]);
    }

    #[test]
    fn rebuild_of_a_whole_short_log_keeps_its_start() {
        let entries = vec![("user".to_string(), Content::Text("born".into()))];
        let c = ContextWindow::rebuild(entries, 20, true, trim_note);
        assert_eq!(c.messages(), &[user("born")]);
        let c = ContextWindow::rebuild(Vec::new(), 20, true, trim_note);
        assert!(c.is_empty());
    }

    #[test]
    fn log_content_shapes() {
        assert_eq!(
            log_content(&[ContentBlock::Text { text: "hi".into() }]),
            "hi"
        );
        let s = log_content(&results(&["a"]).content);
        assert!(s.starts_with("[{\"type\":\"tool_result\""));
    }
}
