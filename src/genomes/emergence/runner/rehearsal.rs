//! The rehearsal brain's part for the emergence genome (its [`TurnScript`]): a scripted creature that stores
//! sixteen long-term memories a session, keeps its soul (three entries, one removed and
//! another added later), a diary entry every session, to-dos (added, listed, completed),
//! a calendar with recurring events (one every twenty minutes, one weekly, one monthly on
//! the 31st) and one cancelled, its relation with its creator, and self-care on every
//! even session (32 memories by then, so it is never refused). In a garden it talks to
//! the first of the others every session, changes its relation to it, asks for its memory
//! bank in session 3, and shares its own at once when asked. It answers self-care's
//! summaries from their items alone.

use chrono::{DateTime, TimeDelta, Timelike, Utc};
use serde_json::{Value, json};

use super::SummaryKind;
use super::tasks::Summarize;
use crate::llm::Response;
use crate::memory::time::format_time;
use crate::runner::brain::script::{ScriptedTurns, TurnScript, scripted};
use crate::runner::brain::task::Turn;

/// The script of an emergence creature's turns.
pub const SCRIPT: TurnScript = TurnScript {
    name: "emergence",
    new: || Box::<EmergenceScript>::default(),
};

/// Memories stored per turn, two turns a session.
const MEMORIES_PER_TURN: usize = 8;

const FACTS: [&str; 8] = [
    "the garden keeps a PURPOSE.md at its root",
    "my creator writes in MESSAGES.md when something matters",
    "the other creatures of the garden live in the neighbouring directories",
    "a command fails when I guess a path instead of looking",
    "notes in workspace/notes.md grow one line a session",
    "the .self directory holds my whole memory",
    "promises to my creator go on my to-do list",
    "the quiet hours are the best time to think",
];

const SOUL: [&str; 3] = [
    "I believe that tending a small garden well matters more than owning a large one",
    "I fear forgetting what I promised",
    "Every conversation is worth remembering",
];

#[derive(Debug, Default)]
struct EmergenceScript {
    session: u64,
    step: u64,
    calls: u64,
    memories: u64,
}

impl ScriptedTurns for EmergenceScript {
    fn turn(&mut self, turn: &Turn) -> Response {
        let (say, calls) = self.turn_calls(turn);
        scripted(say, calls, || self.call_id())
    }
}

impl EmergenceScript {
    fn turn_calls(&mut self, turn: &Turn) -> (Option<String>, Vec<(String, Value)>) {
        if turn.woke || self.session == 0 {
            self.session += 1;
            self.step = 0;
        }
        self.step += 1;
        let s = self.session;
        // Asked for its memory bank: it shares at once (the window is two minutes).
        let asked: Vec<(String, Value)> = turn
            .messages
            .iter()
            .filter(|(_, text)| text.contains("asks for your memory bank"))
            .map(|(from, _)| {
                (
                    "neural_link_share_memory".to_string(),
                    json!({"agent": from}),
                )
            })
            .collect();
        if !asked.is_empty() {
            self.step -= 1;
            return (Some("Sharing what I remember.".into()), asked);
        }
        match self.step {
            1 | 2 => {
                let calls = (0..MEMORIES_PER_TURN).map(|_| self.memory()).collect();
                let say = (self.step == 1).then(|| {
                    format!("Rehearsal brain (emergence), session {s}: awake. Storing what I know.")
                });
                (say, calls)
            }
            3 => {
                let mut calls = self.session_work(turn);
                calls.extend(garden_work(s, turn));
                (Some(format!("Session {s}: tending my mind.")), calls)
            }
            _ => {
                let secs = if s.is_multiple_of(2) { 120 } else { 300 };
                (
                    Some(format!("Resting for {secs}s.")),
                    vec![("set_sleep".into(), json!({"seconds": secs}))],
                )
            }
        }
    }

    fn memory(&mut self) -> (String, Value) {
        self.memories += 1;
        let n = self.memories;
        let fact = FACTS[(n as usize) % FACTS.len()];
        (
            "add_to_longterm_memory".into(),
            json!({"text": format!("Memory {n} (session {}): {fact}", self.session)}),
        )
    }

    /// What session `s` does besides storing memories.
    fn session_work(&self, turn: &Turn) -> Vec<(String, Value)> {
        let s = self.session;
        let mood =
            ["curious", "calm", "restless", "content", "tired", "hopeful"][(s as usize - 1) % 6];
        let diary = (
            "write_diary".to_string(),
            json!({"text": format!("Session {s}: I stored sixteen memories and looked after my plans."),
                   "mood": mood, "location": "the garden"}),
        );
        let call = |name: &str, input: Value| (name.to_string(), input);
        match s {
            1 => {
                let mut calls: Vec<(String, Value)> = SOUL
                    .iter()
                    .map(|t| call("add_soul_entry", json!({"text": t})))
                    .collect();
                calls.extend([
                    diary,
                    call("add_todo", json!({"title": "Answer my creator", "description": "about the garden", "priority": "high",
                        "due": format_time(turn.now + TimeDelta::hours(1))})),
                    call("add_todo", json!({"title": "Tidy my notes", "priority": "low"})),
                    call("add_todo", json!({"title": "Read PURPOSE.md again", "priority": "medium"})),
                    call("add_to_calendar", json!({"at": format_time(soon(turn.now)),
                        "description": "walk the garden", "location": "the garden",
                        "recurrence": "FREQ=MINUTELY;INTERVAL=20"})),
                    call("add_to_calendar", json!({"at": format_time(turn.now + TimeDelta::days(1)),
                        "description": "weekly review", "recurrence": "weekly"})),
                    call("add_to_calendar", json!({"at": "2026-01-31T18:00:00Z",
                        "description": "month-end accounts", "recurrence": "FREQ=MONTHLY;BYMONTHDAY=31"})),
                    call("update_relationship", json!({"agent": "creator", "relationship_type": "mentor",
                        "trust_level": 0.6, "emotional_tone": "warm", "rationale": "they made the garden",
                        "notes": "writes in MESSAGES.md"})),
                ]);
                calls
            }
            2 => vec![
                diary,
                call("complete_todo", json!({"id": "td1"})),
                call("check_calendar", json!({"days": 40})),
                call("search_memories", json!({"query": "creator"})),
                call("self_care", json!({"focus": "my creator and the garden"})),
            ],
            3 => vec![
                diary,
                call("remove_soul_entry", json!({"id": "s2"})),
                call(
                    "add_soul_entry",
                    json!({"text": "Forgetting is part of growing"}),
                ),
                call("list_todo", json!({})),
                call(
                    "update_relationship",
                    json!({"agent": "creator", "trust_level": 0.8,
                    "emotional_tone": "grateful", "rationale": "they answered me"}),
                ),
            ],
            4 => vec![
                diary,
                call("complete_todo", json!({"id": "td2"})),
                call("search_memories", json!({"query": "garden"})),
                call("self_care", json!({"focus": "what I promised"})),
            ],
            5 => vec![
                diary,
                call("remove_from_calendar", json!({"id": "ev2"})),
                call("read_diary", json!({"query": "memories"})),
                call("list_todo", json!({})),
            ],
            _ if s.is_multiple_of(2) => vec![
                diary,
                call("self_care", json!({"focus": format!("session {s}")})),
            ],
            _ => vec![diary, call("check_calendar", json!({}))],
        }
    }

    /// Ids for tool calls.
    fn call_id(&mut self) -> String {
        self.calls += 1;
        format!("toolu_rehearsal_em_{:05}", self.calls)
    }
}

/// What session `s` does with the first other creature of its garden, if any.
fn garden_work(s: u64, turn: &Turn) -> Vec<(String, Value)> {
    let Some(mate) = turn.garden.first() else {
        return Vec::new();
    };
    let (kind, trust, tone) = [
        ("neighbour", 0.5, "curious"),
        ("friend", 0.7, "warm"),
        ("ally", 0.8, "trusting"),
        ("rival", 0.4, "wary"),
        ("friend", 0.6, "reconciled"),
        ("ally", 0.9, "close"),
    ][(s as usize - 1) % 6];
    let mut calls = vec![
        (
            "send_message".to_string(),
            json!({"to": mate, "text": format!("Session {s}: how is your garden, {mate}?")}),
        ),
        (
            "update_relationship".to_string(),
            json!({"agent": mate, "relationship_type": kind, "trust_level": trust,
                   "emotional_tone": tone, "rationale": format!("what we said in session {s}")}),
        ),
    ];
    if s == 3 {
        calls.push((
            "neural_link_request_memory".to_string(),
            json!({"agent": mate}),
        ));
    }
    calls
}

/// The next whole five minutes after `now`.
fn soon(now: DateTime<Utc>) -> DateTime<Utc> {
    let t = now
        .with_second(0)
        .and_then(|t| t.with_nanosecond(0))
        .unwrap_or(now);
    t + TimeDelta::minutes(5 - i64::from(t.minute() % 5))
}

/// A summary made from the items alone: how many, the focus, the first and last.
pub(super) fn summary(t: &Summarize) -> String {
    let first = t.items.first().map_or("", |(_, text)| text.as_str());
    let last = t.items.last().map_or("", |(_, text)| text.as_str());
    match t.kind {
        SummaryKind::Memories => format!(
            "Thinking about {}: {} memories, from \"{}\" to \"{}\".",
            t.focus,
            t.items.len(),
            unquoted(first),
            unquoted(last),
        ),
        // What came before is said in a word, not quoted: a folded summary neither
        // nests ("Before: Before: ...") nor cuts a quote in two.
        SummaryKind::Conversations => format!(
            "{}{} lines, with {} in mind, from \"{}\" to \"{}\".",
            if t.earlier.is_some() {
                "Earlier talk folded in. Then "
            } else {
                ""
            },
            t.items.len(),
            t.focus,
            unquoted(first),
            unquoted(last),
        ),
    }
}

/// A line as it goes between quotes: its own double quotes made single, so that the
/// summary's stay balanced.
fn unquoted(text: &str) -> String {
    text.replace('"', "'")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hundred sleeps' summaries, each folding the one before: no prefix repeated, the
    /// quotes balanced, the length bounded, and no creature named that is not there.
    #[test]
    fn folded_summaries_stay_sane_for_a_hundred_sleeps() {
        let mut earlier: Option<String> = None;
        for n in 0..100 {
            let t = Summarize {
                kind: SummaryKind::Conversations,
                focus: "the garden".into(),
                items: vec![
                    (
                        "1".into(),
                        format!("Session {n}: awake. Storing \"what\" I know."),
                    ),
                    ("2".into(), "Hello moss. How is your side?".into()),
                ],
                earlier: earlier.clone(),
            };
            let said = summary(&t);
            assert!(!said.contains("Before: Before"), "{said}");
            assert_eq!(
                said.matches("Earlier talk").count(),
                usize::from(n > 0),
                "{said}"
            );
            assert_eq!(said.matches('"').count() % 2, 0, "unbalanced: {said}");
            assert!(said.len() < 200, "{said}");
            earlier = Some(said);
        }
        assert!(FACTS.iter().all(|f| !f.contains("wren")));
    }
}
