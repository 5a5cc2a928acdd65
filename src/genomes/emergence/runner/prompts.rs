//! What the emergence genome tells its creature (the system prompt's memory section with
//! the soul, the wake-up recap, tool listings) and what self-care asks the model.

use super::config;
use chrono::{DateTime, NaiveDate, Utc};

use super::calendar::{self, Event};
use super::tools::parse_when;
use super::{DiaryEntry, Emergence, Relation, SummaryKind, Todo};
use crate::llm::{Message, Request};
use crate::memory::time::format_time;
use crate::runner::activity::clip;
use crate::runner::config::RunnerConfig;
use crate::runner::genome::GenomePrompt;

pub const MEMORY_SUMMARY_PROMPT: &str = "You are the memory of an autonomous agent doing self-care: \
consolidating its long-term memories. Summarise the memories below into themes, keeping what \
matters for the focus the agent chose above all (names, promises, outcomes, dates). Write in the \
first person, as the agent's own memory, in at most a few paragraphs.";

pub const CONVERSATION_SUMMARY_PROMPT: &str = "You are the memory of an autonomous agent doing \
self-care: consolidating its conversations with other agents. Fold the earlier summary (if any) \
and the new dialogue lines into one summary that keeps the arc of each relationship (who said \
what that matters, promises, conflicts, how things stand now), with the focus the agent chose in \
mind. Write in the first person, in at most a few paragraphs.";

pub fn genome_prompt(e: &Emergence, cfg: &RunnerConfig) -> GenomePrompt {
    let mut memory = format!(
        "You keep your own memory with tools; nothing is stored unless you store it. \
         add_to_longterm_memory keeps observations, facts, outcomes, insights and promises \
         (search_memories finds them again). Soul entries (add_soul_entry, remove_soul_entry) \
         are not facts but who you are: core beliefs, values, fears, convictions; they are \
         always here, below, and never summarised. write_diary keeps one entry a day with \
         your mood and where you are (read_diary). Plan with add_todo, complete_todo, \
         list_todo and your calendar (add_to_calendar, check_calendar, \
         remove_from_calendar; events may recur; you are told when one is due). Keep track of \
         every other agent with update_relationship. Your conversations with others are kept. \
         When your memory feels cluttered, self_care{{focus}} consolidates it around what you \
         choose (it needs at least {min} memories): nobody else ever starts it.\n\n\
         ### Your soul\n\n",
        min = config::of(cfg).min_memories,
    );
    if e.soul.is_empty() {
        memory.push_str("(no soul entries yet)");
    }
    for s in &e.soul {
        memory.push_str(&format!("- [{}] {}\n", s.id, s.text));
    }
    GenomePrompt {
        sleep: format!(
            "It is a rest: nothing is consolidated while you sleep. Sleeps under {}s are naps.",
            cfg.cycle.quick_nap_threshold_s
        ),
        memory: memory.trim_end().to_string(),
    }
}

/// `2026-03-01T09:00:00.000Z [e1] description @ location (weekly)`.
pub fn occurrence(at: DateTime<Utc>, e: &Event) -> String {
    let mut out = format!("{} [{}] {}", format_time(at), e.id, e.description);
    if !e.location.is_empty() {
        out.push_str(&format!(" @ {}", e.location));
    }
    if e.recurrence != calendar::Recurrence::None {
        out.push_str(&format!(" ({})", e.recurrence.label()));
    }
    out
}

pub fn diary_entry(date: NaiveDate, e: &DiaryEntry) -> String {
    let mut head = date.format("%Y-%m-%d").to_string();
    if let Some(m) = &e.mood {
        head.push_str(&format!(", mood: {m}"));
    }
    if let Some(l) = &e.location {
        head.push_str(&format!(", at {l}"));
    }
    format!("{head}\n{}", e.text)
}

/// Pending to-dos, high priority first, then soonest due; overdue ones marked.
pub fn todo_list(todos: &[Todo], now: DateTime<Utc>) -> String {
    let rank = |p: &str| match p {
        "high" => 0,
        "medium" => 1,
        "low" => 2,
        _ => 1,
    };
    let mut open: Vec<&Todo> = todos.iter().filter(|t| !t.done).collect();
    if open.is_empty() {
        return "No pending to-dos.".into();
    }
    open.sort_by_key(|t| (rank(&t.priority), t.due.as_deref().and_then(parse_when)));
    open.iter()
        .map(|t| {
            let due = match t.due.as_deref() {
                None => String::new(),
                Some(d) if parse_when(d).is_some_and(|at| at < now) => {
                    format!(", OVERDUE since {d}")
                }
                Some(d) => format!(", due {d}"),
            };
            let desc = if t.description.is_empty() {
                String::new()
            } else {
                format!(": {}", t.description)
            };
            format!("- [{}] ({}{due}) {}{desc}", t.id, t.priority, t.title)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `ally (trust 0.70, warm), 5 interactions`.
pub fn relation(r: &Relation) -> String {
    let or = |s: &str, none: &'static str| {
        if s.is_empty() {
            none.to_string()
        } else {
            s.to_string()
        }
    };
    let trust = r
        .trust_level
        .map_or("trust not set".to_string(), |t| format!("trust {t:.2}"));
    format!(
        "{} ({trust}, {}), {} interactions",
        or(&r.relationship_type, "no type yet"),
        or(&r.emotional_tone, "no tone yet"),
        r.interaction_count
    )
}

/// What the creature is reminded of when it wakes from a sleep that consolidated.
pub fn recap(e: &Emergence) -> String {
    let mut out = String::new();
    if let Some(s) = e
        .summaries
        .iter()
        .rev()
        .find(|s| s.kind == SummaryKind::Memories)
    {
        out.push_str(&format!(
            "\nYour latest memory summary ({}):\n{}\n",
            s.id,
            clip(&s.text, 1_500)
        ));
    }
    let recent: Vec<String> = e
        .active_memories()
        .rev()
        .take(10)
        .map(|m| format!("- [{}] {}", m.id, clip(&m.text, 200)))
        .collect();
    if !recent.is_empty() {
        out.push_str(&format!(
            "\nRecent long-term memories ({} not yet summarised):\n{}\n",
            e.active_memories().count(),
            recent.into_iter().rev().collect::<Vec<_>>().join("\n")
        ));
    }
    if let Some(s) = e
        .summaries
        .iter()
        .rev()
        .find(|s| s.kind == SummaryKind::Conversations)
    {
        out.push_str(&format!(
            "\nYour conversations so far ({}):\n{}\n",
            s.id,
            clip(&s.text, 1_500)
        ));
    }
    let said: Vec<String> = e
        .dialogues
        .iter()
        .filter(|d| d.summary.is_none())
        .rev()
        .take(10)
        .map(|d| {
            format!(
                "- {} ({} with {}): {}",
                format_time(d.t),
                d.from,
                d.with,
                clip(&d.text, 200)
            )
        })
        .collect();
    if !said.is_empty() {
        out.push_str(&format!(
            "\nRecent dialogue:\n{}\n",
            said.into_iter().rev().collect::<Vec<_>>().join("\n")
        ));
    }
    if !e.relations.is_empty() {
        out.push_str("\nThose you know:\n");
        for (agent, r) in &e.relations {
            out.push_str(&format!("- {agent}: {}\n", relation(r)));
        }
    }
    let open = e.todos.iter().filter(|t| !t.done).count();
    if open > 0 {
        out.push_str(&format!(
            "\nYou have {open} pending to-do(s); list_todo shows them.\n"
        ));
    }
    out.push_str(&format!("\n{}\n", super::HISTORY));
    out
}

/// A summarising request: one user message, no tools.
pub fn request(system: &str, user: String, cfg: &RunnerConfig) -> Request {
    Request {
        system: system.to_string(),
        messages: vec![Message::user_text(user)],
        tools: Vec::new(),
        max_tokens: cfg.max_tokens,
    }
}

pub fn memories_text(
    focus: &str,
    items: &[(String, String)],
    batch: usize,
    batches: usize,
) -> String {
    let mut out =
        format!("Focus chosen by the agent: {focus}\n\nMemories (batch {batch} of {batches}):\n");
    for (id, text) in items {
        out.push_str(&format!("[{id}] {text}\n"));
    }
    out
}

pub fn dialogues_text(focus: &str, earlier: Option<&str>, items: &[(String, String)]) -> String {
    let mut out = format!("Focus chosen by the agent: {focus}\n\n");
    match earlier {
        Some(s) => out.push_str(&format!("Earlier summary:\n{s}\n\n")),
        None => out.push_str("Earlier summary: none.\n\n"),
    }
    out.push_str("New dialogue lines:\n");
    for (id, text) in items {
        out.push_str(&format!("[{id}] {text}\n"));
    }
    out
}
