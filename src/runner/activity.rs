//! What the creature did since its last dream: the material of consolidation.

use crate::memory::events::{CreatureEvent, Event};
use crate::memory::iterations::IterationAction;

/// Actions kept in detail for the consolidating mind; older ones are only counted.
const KEEP_ACTIONS: usize = 200;
/// Characters of the creature's own words kept for the consolidating mind.
const KEEP_MONOLOGUE: usize = 8_000;
/// Characters of an action summary (first line of the output or the error).
const SUMMARY_CHARS: usize = 150;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Activity {
    /// The most recent actions, oldest first (at most `KEEP_ACTIONS`).
    pub actions: Vec<IterationAction>,
    /// Every action since the last dream, including those no longer kept in detail.
    pub total: u64,
    pub failed: u64,
    /// The creature's text since the last dream, newest kept.
    pub monologue: String,
    pub creator_messages: Vec<String>,
}

impl Activity {
    pub fn push_action(&mut self, action: IterationAction) {
        self.total += 1;
        if !action.ok {
            self.failed += 1;
        }
        if self.actions.len() == KEEP_ACTIONS {
            self.actions.remove(0);
        }
        self.actions.push(action);
    }

    pub fn push_thought(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        if !self.monologue.is_empty() {
            self.monologue.push_str("\n\n");
        }
        self.monologue.push_str(text);
        if self.monologue.len() > KEEP_MONOLOGUE {
            let mut cut = self.monologue.len() - KEEP_MONOLOGUE;
            while !self.monologue.is_char_boundary(cut) {
                cut += 1;
            }
            self.monologue.drain(..cut);
        }
    }

    /// Rebuilds the activity since the last dream from `.sys/events.jsonl` events (given
    /// oldest first, all after the last dream).
    pub fn from_events(events: &[Event]) -> Self {
        let mut a = Self::default();
        for e in events {
            match e.payload() {
                Some(CreatureEvent::ToolCall(c)) => a.push_action(IterationAction {
                    tool: c.tool.unwrap_or_else(|| "?".into()),
                    ok: c.ok.unwrap_or(false),
                    summary: summarize(c.output.as_deref().unwrap_or_default()),
                    ms: c.ms.unwrap_or(0),
                    command: c.input.map(|i| clip(&i, 100)),
                }),
                Some(CreatureEvent::Thought(t)) => {
                    a.push_thought(t.text.as_deref().unwrap_or_default())
                }
                Some(CreatureEvent::Message(m)) => a.creator_messages.extend(m.text),
                _ => {}
            }
        }
        a
    }
}

/// First non-empty line of a tool output, at most `SUMMARY_CHARS` characters.
pub fn summarize(output: &str) -> String {
    let first = output
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    clip(first, SUMMARY_CHARS)
}

/// The first `max` characters of `s`.
pub fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => s[..at].to_string(),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn action(ok: bool) -> IterationAction {
        IterationAction {
            tool: "bash".into(),
            ok,
            summary: String::new(),
            ms: 1,
            command: None,
        }
    }

    #[test]
    fn counts_beyond_what_it_keeps() {
        let mut a = Activity::default();
        for i in 0..(KEEP_ACTIONS + 5) {
            a.push_action(action(i % 2 == 0));
        }
        assert_eq!(a.total, (KEEP_ACTIONS + 5) as u64);
        assert_eq!(a.actions.len(), KEEP_ACTIONS);
        assert_eq!(a.failed, ((KEEP_ACTIONS + 5) / 2) as u64);
    }

    #[test]
    fn monologue_keeps_the_newest_text_on_char_boundaries() {
        let mut a = Activity::default();
        for _ in 0..3000 {
            a.push_thought("é🌱x");
        }
        assert!(a.monologue.len() <= KEEP_MONOLOGUE);
        assert!(a.monologue.ends_with("é🌱x"));
    }

    #[test]
    fn rebuilt_from_events() {
        let lines = [
            r#"{"t":"2026-03-01T10:00:00Z","type":"creature.tool_call","tool":"bash","input":"ls","ok":true,"output":"\n a\nb","ms":5}"#,
            r#"{"t":"2026-03-01T10:00:01Z","type":"creature.tool_call","tool":"bash","input":"cat x","ok":false,"output":"Error: no x","ms":3}"#,
            r#"{"t":"2026-03-01T10:00:02Z","type":"creature.thought","text":"hmm"}"#,
            r#"{"t":"2026-03-01T10:00:03Z","type":"creature.message","text":"be brief","source":"operator"}"#,
        ];
        let events: Vec<Event> = lines
            .iter()
            .map(|l| Event::parse(l.as_bytes()).unwrap())
            .collect();
        let a = Activity::from_events(&events);
        assert_eq!((a.total, a.failed), (2, 1));
        assert_eq!(a.actions[0].summary, "a");
        assert_eq!(a.actions[1].command.as_deref(), Some("cat x"));
        assert_eq!(a.monologue, "hmm");
        assert_eq!(a.creator_messages, vec!["be brief"]);
    }

    #[test]
    fn clip_counts_characters() {
        assert_eq!(clip("héllo", 2), "hé");
        assert_eq!(clip("hi", 5), "hi");
    }
}
