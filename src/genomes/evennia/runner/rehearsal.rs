//! The rehearsal brain's part for the evennia genome (its [`TurnScript`]): a scripted creature that keeps a
//! journal (entries of varied importance), notes what it thinks of its creator and of a
//! neighbour (the first other creature of its garden; alone, one called wren) whose
//! favorability crosses the Dunbar thresholds up and down,
//! recalls and stores memories, grows its context until both compaction triggers fire,
//! and sleeps: long sleeps, and a short one whose wake comes during compacting (deferred).
//! It answers the sleep work's tasks (scores, facts, entity attributes, reflections,
//! summaries) from their data alone.

use serde_json::{Value, json};

use super::tasks::{ConsolidateEntity, ExtractFacts, Reflect, ScoreImportance};
use crate::llm::Response;
use crate::runner::brain::rehearsal_garden;
use crate::runner::brain::script::{ScriptedTurns, TurnScript, scripted};
use crate::runner::brain::task::Turn;

/// The script of an evennia creature's turns.
pub const SCRIPT: TurnScript = TurnScript {
    name: "evennia",
    new: || Box::<EvenniaScript>::default(),
};

/// Sessions whose sleep is short enough that its wake comes during compacting.
const SHORT_SLEEP_SESSIONS: [u64; 2] = [2, 5];

/// The session that reads a long file just before it sleeps.
const LONG_READ_BEFORE_SLEEP: u64 = 3;

/// What wren's favorability does each session (it crosses 0.25 and 0.5 up, 0.5 down,
/// 0.75 up and down).
const WREN: [f64; 6] = [0.3, 0.25, -0.1, 0.35, -0.1, 0.05];

#[derive(Debug, Default)]
struct EvenniaScript {
    session: u64,
    step: u64,
    calls: u64,
    sleep_round: u64,
    /// Who the script's neighbour is this turn ([`neighbour`]).
    neighbour: String,
}

/// The neighbour the script writes of: the first other creature of the garden, so that
/// a creature never talks of one who is not there; alone, the imagined wren.
fn neighbour(turn: &Turn) -> String {
    turn.garden
        .first()
        .cloned()
        .unwrap_or_else(|| "wren".into())
}

/// `text` (which names wren) about `who` instead.
fn about(text: &str, who: &str) -> String {
    let mut capital = who.chars();
    let title = capital
        .next()
        .map(|c| c.to_uppercase().chain(capital).collect::<String>())
        .unwrap_or_default();
    text.replace("Wren", &title).replace("wren", who)
}

/// A journal entry of the script: text (with a world fact after ` — `), tags, importance
/// given by the creature (None: the heuristic scores it).
const ENTRIES: [(&str, &str, Option<u8>); 8] = [
    (
        "Looked around the garden directory — the garden keeps a PURPOSE.md at its root",
        "garden",
        None,
    ),
    (
        "Learned something important about my creator — the creator reads workspace/notes.md",
        "creator",
        Some(7),
    ),
    (
        "Wren passed by and talked about the weather — wren lives in the neighbouring directory",
        "wren",
        None,
    ),
    ("Tidied my notes", "notes", Some(2)),
    (
        "A command failed; I must check paths before reading — workspace/forecast.json does not exist",
        "error",
        None,
    ),
    (
        "Decided to keep one line per session in my notes — notes.md grows one line a session",
        "plan",
        Some(6),
    ),
    (
        "Wren was curt today and did not answer — wren dislikes being interrupted",
        "wren",
        None,
    ),
    (
        "Discovered the .self directory holds my whole memory — .self holds the journal and semantic memory",
        "memory",
        Some(8),
    ),
];

/// What session `s` asks its semantic memory: a fact journaled in the session before
/// (in the fact's own words: the local hashing embedding matches words, not meaning).
fn recall_query(s: u64, who: &str) -> String {
    let i = (s.saturating_sub(1) as usize) * 3 + 1;
    [i, i + 1, i + 5]
        .iter()
        .find_map(|k| {
            ENTRIES[k % ENTRIES.len()]
                .0
                .split_once(" — ")
                .map(|(_, fact)| fact)
        })
        .map_or_else(|| "the garden".into(), |fact| about(fact, who))
}

impl ScriptedTurns for EvenniaScript {
    fn turn(&mut self, turn: &Turn) -> Response {
        let (say, calls) = self.turn_calls(turn);
        scripted(say, calls, || self.call_id())
    }
}

impl EvenniaScript {
    fn turn_calls(&mut self, turn: &Turn) -> (Option<String>, Vec<(String, Value)>) {
        if turn.asleep {
            return self.sleep_turn();
        }
        if turn.woke || self.session == 0 {
            self.session += 1;
            self.step = 0;
            self.sleep_round = 0;
        }
        self.neighbour = neighbour(turn);
        self.step += 1;
        let (say, mut calls) = self.work();
        calls.extend(rehearsal_garden::message(turn, self.session, self.step));
        (say, calls)
    }

    fn work(&mut self) -> (Option<String>, Vec<(String, Value)>) {
        let s = self.session;
        let i = (s as usize * 3 + self.step as usize) % ENTRIES.len();
        let who = self.neighbour.clone();
        let journal = |k: usize| {
            let (text, tag, importance) = ENTRIES[k % ENTRIES.len()];
            let (text, tag) = (about(text, &who), about(tag, &who));
            let mut input = json!({"text": text, "tags": [tag], "source_type": "observation"});
            if let Some(n) = importance {
                input["importance"] = json!(n);
            }
            if tag == who {
                input["source_entity"] = json!(who);
                input["source_trust"] = json!(0.6);
            }
            ("add_journal_entry".to_string(), input)
        };
        match self.step {
            1 => (
                Some(format!(
                    "Rehearsal brain (evennia), session {s}: awake. Writing down what I see."
                )),
                vec![journal(i), journal(i + 1), journal(i + 5)],
            ),
            2 => (
                Some("Thinking about the others here.".into()),
                vec![
                    (
                        "observe_entity".into(),
                        json!({"entity_id": who, "entity_type": "creature",
                               "observation": format!("session {s}: {who} {}",
                                   if WREN[(s as usize - 1) % WREN.len()] >= 0.0 { "was friendly" } else { "was curt" }),
                               "favorability_delta": WREN[(s as usize - 1) % WREN.len()]}),
                    ),
                    (
                        "observe_entity".into(),
                        json!({"entity_id": "creator", "entity_type": "creator",
                               "observation": "keeps the garden and writes in MESSAGES.md",
                               "favorability_delta": 0.12}),
                    ),
                ],
            ),
            3 => (
                None,
                vec![
                    (
                        "recall_memories".into(),
                        json!({"query": recall_query(s, &who)}),
                    ),
                    (
                        "update_conversation".into(),
                        json!({"entity_id": who, "topic": "the weather", "add_pending": format!("answer {who}")}),
                    ),
                ],
            ),
            4 => (
                Some("Reading a long file; my context grows.".into()),
                vec![(
                    "bash".into(),
                    json!({"command": if s == 4 { "seq 1 1600" } else { "seq 1 500" }}),
                )],
            ),
            5 if s == 4 => (
                Some("Still reading.".into()),
                vec![("bash".into(), json!({"command": "seq 1600 2400"}))],
            ),
            5 => (
                None,
                vec![
                    journal(i + 2),
                    (
                        "store_memory".into(),
                        json!({"text": format!("The garden has been visited {s} times by its creator"), "source_trust": 0.9}),
                    ),
                ],
            ),
            6 => (None, vec![journal(i + 3)]),
            7 => (None, vec![("review_journal".into(), json!({"limit": 5}))]),
            _ => {
                let secs = if SHORT_SLEEP_SESSIONS.contains(&s) {
                    45
                } else {
                    300
                };
                let mut calls = Vec::new();
                if s == LONG_READ_BEFORE_SLEEP {
                    // The context goes to sleep full: the sleep's own compaction.
                    calls.push(("bash".to_string(), json!({"command": "seq 1 1100"})));
                }
                calls.push(("set_sleep".into(), json!({"seconds": secs})));
                (
                    Some(format!(
                        "Time to sleep for {secs}s and let the journal settle."
                    )),
                    calls,
                )
            }
        }
    }

    /// The pre-compaction turn: one last entry, then nothing more.
    fn sleep_turn(&mut self) -> (Option<String>, Vec<(String, Value)>) {
        self.sleep_round += 1;
        if self.sleep_round == 1 {
            return (
                Some("Before my context is compacted, one thing to keep.".into()),
                vec![(
                    "add_journal_entry".into(),
                    json!({"text": format!("Before compaction in session {}: I read long files today — long outputs fill the context quickly", self.session),
                           "tags": ["compaction"], "source_type": "self"}),
                )],
            );
        }
        (Some("Nothing more to journal.".into()), Vec::new())
    }

    /// Ids for tool calls.
    fn call_id(&mut self) -> String {
        self.calls += 1;
        format!("toolu_rehearsal_ev_{:05}", self.calls)
    }
}

/// Scores: the length and weight of each entry, deterministically 2..=9.
pub(super) fn scores(t: &ScoreImportance) -> String {
    t.entries
        .iter()
        .map(|(id, text)| {
            let lower = text.to_lowercase();
            let mut score: u8 = 5;
            for (word, up) in [
                ("important", 3),
                ("must", 2),
                ("discovered", 3),
                ("failed", 2),
                ("decided", 2),
                ("wren", 1),
            ] {
                if lower.contains(word) {
                    score += up;
                }
            }
            if lower.starts_with("tidied") {
                score = 2;
            }
            format!("{id}: {}\n", score.min(9))
        })
        .collect()
}

/// The world fact after ` — `, in the third person; none when there is none.
pub(super) fn facts(t: &ExtractFacts) -> String {
    match t.text.split_once(" — ") {
        Some((_, fact)) => {
            let mut f = fact.trim().to_string();
            if let Some(first) = f.get(..1) {
                f = first.to_uppercase() + &f[1..];
            }
            format!("- {f}.")
        }
        None => "NONE".into(),
    }
}

pub(super) fn attributes(t: &ConsolidateEntity) -> String {
    let friendly = t
        .observations
        .iter()
        .filter(|o| o.contains("friendly"))
        .count();
    let curt = t.observations.iter().filter(|o| o.contains("curt")).count();
    let last = t.observations.last().cloned().unwrap_or_default();
    json!({
        "kind": t.entity_type,
        "temper": if friendly >= curt { "mostly friendly" } else { "often curt" },
        "last_seen": last,
        "observed": format!("{} times", t.observations.len()),
    })
    .to_string()
}

pub(super) fn reflection(t: &Reflect) -> String {
    let ids: Vec<&str> = t
        .entries
        .iter()
        .take(3)
        .map(|(id, _, _)| id.as_str())
        .collect();
    format!(
        "QUESTIONS:\n- What matters most in this garden?\n- How do the others here see me?\n\
         INSIGHTS:\n- My creator and my notes are what this garden is about (because of {})\n\
         - Checking before acting saves failed commands (because of {})\n",
        ids.join(", "),
        ids.first().copied().unwrap_or("the journal")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hundred sessions in a garden with moss and sprout: every call speaks of moss (the
    /// neighbour whose regard moves), never of a wren who is not there.
    #[test]
    fn a_hundred_sessions_name_only_the_garden() {
        let mut script = EvenniaScript::default();
        let mut moss_regard = 0.0;
        for session in 0..100 {
            for step in 0..9 {
                let turn = Turn {
                    woke: step == 0,
                    garden: vec!["moss".into(), "sprout".into()],
                    asleep: step == 8,
                    ..Turn::default()
                };
                let (say, calls) = script.turn_calls(&turn);
                let text = format!("{say:?} {calls:?}");
                assert!(
                    !text.to_lowercase().contains("wren"),
                    "session {session}: {text}"
                );
                for (name, input) in &calls {
                    if name == "observe_entity" && input["entity_id"] == "moss" {
                        moss_regard += input["favorability_delta"].as_f64().unwrap_or(0.0);
                    }
                }
            }
        }
        assert!(
            moss_regard > 1.0,
            "moss's favorability moves: {moss_regard}"
        );
        let alone = Turn::default();
        assert_eq!(neighbour(&alone), "wren");
        assert_eq!(about("Wren met wren", "moss"), "Moss met moss");
    }
}
