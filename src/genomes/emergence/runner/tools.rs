//! The emergence creature's tools: seed 003's (memory, soul, diary, to-dos, calendar,
//! relationships, self-care), and two that make its "searchable" true: search_memories
//! (archived memories and summaries too) and read_diary (by keyword or by day).

use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeDelta, Utc};
use serde_json::{Value, json};

use super::calendar::{self, Event};
use super::{DiaryEntry, Emergence, IdKind, SoulEntry, Todo, append, prompts};
use crate::genomes::emergence::memory::calendar::{CalendarAdd, CalendarRemove};
use crate::genomes::emergence::memory::diary::DiaryLine;
use crate::genomes::emergence::memory::soul::{SoulAdd, SoulRemove};
use crate::genomes::emergence::memory::todos::{Priority, TodoAdd, TodoComplete};
use crate::llm::ToolSpec;
use crate::memory::op_line::OpRecord;
use crate::memory::time::{format_time, parse_time};
use crate::runner::genome::{Cx, GenomeTool, ToolCall, ToolReply, ToolTime};
use crate::runner::tools::ToolOutcome;

pub const ADD_TO_LONGTERM_MEMORY: &str = "add_to_longterm_memory";
pub const SEARCH_MEMORIES: &str = "search_memories";
pub const ADD_SOUL_ENTRY: &str = "add_soul_entry";
pub const REMOVE_SOUL_ENTRY: &str = "remove_soul_entry";
pub const WRITE_DIARY: &str = "write_diary";
pub const READ_DIARY: &str = "read_diary";
pub const ADD_TODO: &str = "add_todo";
pub const COMPLETE_TODO: &str = "complete_todo";
pub const LIST_TODO: &str = "list_todo";
pub const ADD_TO_CALENDAR: &str = "add_to_calendar";
pub const CHECK_CALENDAR: &str = "check_calendar";
pub const REMOVE_FROM_CALENDAR: &str = "remove_from_calendar";
pub const UPDATE_RELATIONSHIP: &str = "update_relationship";
pub const SELF_CARE: &str = "self_care";

/// Hits a search or a listing shows at most.
const MAX_SHOWN: usize = 20;

fn spec(name: &str, description: &str, schema: Value) -> GenomeTool {
    GenomeTool {
        spec: ToolSpec {
            name: name.into(),
            description: description.into(),
            input_schema: schema,
        },
        when: ToolTime::Awake,
    }
}

pub fn specs() -> Vec<GenomeTool> {
    let text = |what: &str| json!({"type": "object", "properties": {"text": {"type": "string", "description": what}}, "required": ["text"]});
    vec![
        spec(
            ADD_TO_LONGTERM_MEMORY,
            "Store a long-term memory: an observation, a fact learned, an outcome, an insight, a \
             promise made or received.",
            text("the memory"),
        ),
        spec(
            SEARCH_MEMORIES,
            "Search your long-term memories (archived ones too) and their summaries for words.",
            json!({"type": "object", "properties": {
                "query": {"type": "string"}}, "required": ["query"]}),
        ),
        spec(
            ADD_SOUL_ENTRY,
            "Add a soul entry: a core belief, value, fear or conviction (not a fact). Soul entries \
             are always in your mind and never summarised.",
            text("the belief, value, fear or conviction"),
        ),
        spec(
            REMOVE_SOUL_ENTRY,
            "Remove one of your soul entries by its id.",
            json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}),
        ),
        spec(
            WRITE_DIARY,
            "Write today's diary entry (one per date: writing again replaces it), with your mood \
             and where you are.",
            json!({"type": "object", "properties": {
                "text": {"type": "string"}, "mood": {"type": "string"},
                "location": {"type": "string"},
                "date": {"type": "string", "description": "YYYY-MM-DD, default today"}},
                "required": ["text"]}),
        ),
        spec(
            READ_DIARY,
            "Read your diary: the entry of one day (`date`), the entries containing `query`, or \
             the latest ones.",
            json!({"type": "object", "properties": {
                "date": {"type": "string", "description": "YYYY-MM-DD"},
                "query": {"type": "string"}}}),
        ),
        spec(
            ADD_TODO,
            "Add a to-do: a title, a description, a priority and an optional due date.",
            json!({"type": "object", "properties": {
                "title": {"type": "string"}, "description": {"type": "string"},
                "priority": {"type": "string", "enum": ["low", "medium", "high"]},
                "due": {"type": "string", "description": "YYYY-MM-DD or an ISO 8601 time"}},
                "required": ["title"]}),
        ),
        spec(
            COMPLETE_TODO,
            "Mark a to-do as finished, by its id.",
            json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}),
        ),
        spec(
            LIST_TODO,
            "List your pending to-dos.",
            json!({"type": "object", "properties": {}}),
        ),
        spec(
            ADD_TO_CALENDAR,
            "Schedule an event with its time, location and description; it may recur (none, \
             daily, weekly, or an RFC 5545 RRULE such as FREQ=MONTHLY;BYMONTHDAY=1). You are \
             told when it is due.",
            json!({"type": "object", "properties": {
                "at": {"type": "string", "description": "ISO 8601 time (UTC unless an offset is given)"},
                "description": {"type": "string"}, "location": {"type": "string"},
                "recurrence": {"type": "string"}},
                "required": ["at", "description"]}),
        ),
        spec(
            CHECK_CALENDAR,
            "List the coming calendar events (recurrences expanded) of the next `days` (7).",
            json!({"type": "object", "properties": {"days": {"type": "integer", "minimum": 1}}}),
        ),
        spec(
            REMOVE_FROM_CALENDAR,
            "Cancel a calendar event (every occurrence), by its id.",
            json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}),
        ),
        spec(
            UPDATE_RELATIONSHIP,
            "Record how you see another agent: relationship type (ally, rival, mentor, \
             romantic_partner, neutral...), trust level (0..1), emotional tone, your rationale, \
             notes. Fields you leave out stay as they were.",
            json!({"type": "object", "properties": {
                "agent": {"type": "string"}, "relationship_type": {"type": "string"},
                "trust_level": {"type": "number", "minimum": 0, "maximum": 1},
                "emotional_tone": {"type": "string"}, "rationale": {"type": "string"},
                "notes": {"type": "string"}}, "required": ["agent"]}),
        ),
        spec(
            SELF_CARE,
            "Cognitive maintenance, when you choose: your long-term memories are summarised \
             around `focus` (what matters most to you now) and archived (still searchable), \
             then your recent dialogues are summarised with the earlier summary folded in. \
             Needs at least 30 memories. Your fatigue starts over afterwards.",
            json!({"type": "object", "properties": {"focus": {"type": "string"}},
                "required": ["focus"]}),
        ),
    ]
}

/// The neural link's two tools (`send_message` is the garden's).
pub fn link_specs() -> Vec<GenomeTool> {
    let agent = |what: &str| {
        json!({"type": "object", "properties": {
        "agent": {"type": "string", "description": what}}, "required": ["agent"]})
    };
    vec![
        spec(
            super::link::REQUEST_MEMORY,
            "Ask another creature of your garden for its whole memory bank (its long-term \
             memories and summaries, never its soul). It has 2 minutes to accept; nothing is \
             taken from it.",
            agent("the creature to ask"),
        ),
        spec(
            super::link::SHARE_MEMORY,
            "Accept a neural-link request: copy your whole memory bank (long-term memories and \
             summaries, not your soul) to the creature that asked, within 2 minutes of its \
             request. You lose nothing.",
            agent("the creature that asked"),
        ),
    ]
}

pub(super) fn done(ok: bool, text: String) -> ToolOutcome {
    ToolOutcome {
        ok,
        display: text.clone(),
        content: text,
        ms: 0,
    }
}

fn reply(ok: bool, text: String) -> Option<ToolReply> {
    Some(ToolReply::Done(done(ok, text)))
}

pub(super) fn str_arg<'a>(input: &'a Value, key: &str) -> Option<&'a str> {
    input
        .get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// A time the creature wrote: RFC 3339, or `YYYY-MM-DD HH:MM[:SS]` / `YYYY-MM-DDTHH:MM`
/// in UTC, or a date (midnight UTC).
pub fn parse_when(s: &str) -> Option<DateTime<Utc>> {
    let s = s.trim();
    parse_time(s)
        .or_else(|| {
            [
                "%Y-%m-%d %H:%M:%S",
                "%Y-%m-%d %H:%M",
                "%Y-%m-%dT%H:%M:%S",
                "%Y-%m-%dT%H:%M",
            ]
            .iter()
            .find_map(|f| NaiveDateTime::parse_from_str(s, f).ok())
            .map(|t| t.and_utc())
        })
        .or_else(|| {
            NaiveDate::parse_from_str(s, "%Y-%m-%d")
                .ok()
                .and_then(|d| d.and_hms_opt(0, 0, 0))
                .map(|t| t.and_utc())
        })
}

impl Emergence {
    pub(super) fn tool(&mut self, call: &ToolCall, cx: &mut Cx<'_, Self>) -> Option<ToolReply> {
        let input = &call.input;
        match call.name.as_str() {
            ADD_TO_LONGTERM_MEMORY => match str_arg(input, "text") {
                None => reply(false, "Error: add_to_longterm_memory needs `text`".into()),
                Some(text) => {
                    let id = self.remember(text, None, cx);
                    let n = self.active_memories().count();
                    reply(
                        true,
                        format!("Stored as memory {id} ({n} long-term memories)."),
                    )
                }
            },
            SEARCH_MEMORIES => match str_arg(input, "query") {
                None => reply(false, "Error: search_memories needs `query`".into()),
                Some(q) => reply(true, self.search(q)),
            },
            ADD_SOUL_ENTRY => match str_arg(input, "text") {
                None => reply(false, "Error: add_soul_entry needs `text`".into()),
                Some(text) => {
                    let id = self.new_id(IdKind::Soul);
                    append(
                        cx,
                        crate::genomes::emergence::memory::SOUL,
                        vec![
                            SoulAdd {
                                id: Some(id.clone()),
                                text: Some(text.to_string()),
                            }
                            .line(),
                        ],
                    );
                    self.soul.push(SoulEntry {
                        id: id.clone(),
                        text: text.to_string(),
                    });
                    reply(true, format!("Soul entry {id} added; it stays with you."))
                }
            },
            REMOVE_SOUL_ENTRY => {
                let id = str_arg(input, "id").unwrap_or_default();
                match self.soul.iter().position(|s| s.id == id) {
                    None => reply(
                        false,
                        format!("Error: no soul entry `{id}`; yours are {}", self.soul_ids()),
                    ),
                    Some(i) => {
                        let gone = self.soul.remove(i);
                        append(
                            cx,
                            crate::genomes::emergence::memory::SOUL,
                            vec![
                                SoulRemove {
                                    id: Some(gone.id.clone()),
                                }
                                .line(),
                            ],
                        );
                        reply(
                            true,
                            format!("Soul entry {} removed: {}", gone.id, gone.text),
                        )
                    }
                }
            }
            WRITE_DIARY => self.write_diary(input, cx),
            READ_DIARY => reply(true, self.read_diary(input)),
            ADD_TODO => self.add_todo(input, cx),
            COMPLETE_TODO => {
                let id = str_arg(input, "id").unwrap_or_default();
                match self.todos.iter_mut().find(|t| t.id == id) {
                    None => reply(false, format!("Error: no to-do `{id}`")),
                    Some(t) if t.done => reply(false, format!("To-do {id} was already done.")),
                    Some(t) => {
                        t.done = true;
                        let title = t.title.clone();
                        append(
                            cx,
                            crate::genomes::emergence::memory::TODOS,
                            vec![
                                TodoComplete {
                                    id: Some(id.to_string()),
                                }
                                .line(),
                            ],
                        );
                        reply(true, format!("Done: {id} {title}."))
                    }
                }
            }
            LIST_TODO => reply(true, prompts::todo_list(&self.todos, cx.now)),
            ADD_TO_CALENDAR => self.add_event(input, cx),
            CHECK_CALENDAR => {
                let days = input
                    .get("days")
                    .and_then(Value::as_u64)
                    .unwrap_or(7)
                    .clamp(1, 366);
                let to = cx.now + TimeDelta::days(days as i64);
                let coming = calendar::agenda(self.calendar.iter(), cx.now, to, MAX_SHOWN as u16);
                if coming.is_empty() {
                    return reply(
                        true,
                        format!("Nothing on your calendar in the next {days} days."),
                    );
                }
                let lines: Vec<String> = coming
                    .iter()
                    .map(|(at, e)| format!("- {}", prompts::occurrence(*at, e)))
                    .collect();
                reply(true, lines.join("\n"))
            }
            REMOVE_FROM_CALENDAR => {
                let id = str_arg(input, "id").unwrap_or_default();
                match self.calendar.iter().position(|e| e.id == id) {
                    None => reply(false, format!("Error: no calendar event `{id}`")),
                    Some(i) => {
                        let gone = self.calendar.remove(i);
                        append(
                            cx,
                            crate::genomes::emergence::memory::CALENDAR,
                            vec![
                                CalendarRemove {
                                    id: Some(gone.id.clone()),
                                }
                                .line(),
                            ],
                        );
                        reply(
                            true,
                            format!("Cancelled {}: {}.", gone.id, gone.description),
                        )
                    }
                }
            }
            UPDATE_RELATIONSHIP => self.update_relationship(input, cx),
            SELF_CARE => Some(self.self_care(input, cx)),
            _ => None,
        }
    }

    fn soul_ids(&self) -> String {
        if self.soul.is_empty() {
            return "none".into();
        }
        self.soul
            .iter()
            .map(|s| s.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Memories (archived ones marked) and summaries containing every word of `query`.
    fn search(&self, query: &str) -> String {
        let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
        let hit = |text: &str| {
            let t = text.to_lowercase();
            words.iter().all(|w| t.contains(w.as_str()))
        };
        let mut lines: Vec<String> = self
            .memories
            .iter()
            .rev()
            .filter(|m| hit(&m.text))
            .map(|m| {
                let mut tags = Vec::new();
                if let Some(s) = &m.archived {
                    tags.push(format!("archived in {s}"));
                }
                if let Some(a) = &m.from {
                    tags.push(format!("from {a}"));
                }
                let tags = if tags.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", tags.join(", "))
                };
                format!("[{}]{tags} {}", m.id, m.text)
            })
            .collect();
        lines.extend(
            self.summaries
                .iter()
                .rev()
                .filter(|s| hit(&s.text))
                .map(|s| format!("[{}] summary of {}: {}", s.id, s.kind.as_str(), s.text)),
        );
        if lines.is_empty() {
            return format!("No memory or summary mentions {query:?}.");
        }
        let n = lines.len();
        lines.truncate(MAX_SHOWN);
        if n > MAX_SHOWN {
            lines.push(format!("... and {} more", n - MAX_SHOWN));
        }
        lines.join("\n")
    }

    fn write_diary(&mut self, input: &Value, cx: &mut Cx<'_, Self>) -> Option<ToolReply> {
        let Some(text) = str_arg(input, "text") else {
            return reply(false, "Error: write_diary needs `text`".into());
        };
        let date = match str_arg(input, "date") {
            None => cx.now.date_naive(),
            Some(d) => match NaiveDate::parse_from_str(d, "%Y-%m-%d") {
                Ok(d) => d,
                Err(_) => {
                    return reply(
                        false,
                        format!("Error: `date` must be YYYY-MM-DD, not {d:?}"),
                    );
                }
            },
        };
        let entry = DiaryEntry {
            text: text.to_string(),
            mood: str_arg(input, "mood").map(str::to_string),
            location: str_arg(input, "location").map(str::to_string),
        };
        append(
            cx,
            crate::genomes::emergence::memory::DIARY_LOG,
            vec![
                DiaryLine {
                    date: Some(date.format("%Y-%m-%d").to_string()),
                    text: Some(entry.text.clone()),
                    mood: entry.mood.clone(),
                    location: entry.location.clone(),
                }
                .line(),
            ],
        );
        let replaced = self.diary.insert(date, entry).is_some();
        let what = if replaced { "replaced" } else { "written" };
        reply(true, format!("Diary entry of {date} {what}."))
    }

    fn read_diary(&self, input: &Value) -> String {
        let show = |(d, e): (&NaiveDate, &DiaryEntry)| prompts::diary_entry(*d, e);
        if let Some(d) = str_arg(input, "date") {
            return match NaiveDate::parse_from_str(d, "%Y-%m-%d") {
                Err(_) => format!("`date` must be YYYY-MM-DD, not {d:?}"),
                Ok(date) => self
                    .diary
                    .get_key_value(&date)
                    .map_or_else(|| format!("No diary entry on {date}."), show),
            };
        }
        let query = str_arg(input, "query").map(str::to_lowercase);
        let found: Vec<String> = self
            .diary
            .iter()
            .rev()
            .filter(|(_, e)| {
                query.as_ref().is_none_or(|q| {
                    [Some(&e.text), e.mood.as_ref(), e.location.as_ref()]
                        .into_iter()
                        .flatten()
                        .any(|t| t.to_lowercase().contains(q.as_str()))
                })
            })
            .take(if query.is_some() { MAX_SHOWN } else { 3 })
            .map(show)
            .collect();
        if found.is_empty() {
            return "No diary entry matches.".into();
        }
        found.join("\n\n")
    }

    fn add_todo(&mut self, input: &Value, cx: &mut Cx<'_, Self>) -> Option<ToolReply> {
        let Some(title) = str_arg(input, "title") else {
            return reply(false, "Error: add_todo needs `title`".into());
        };
        let due = match str_arg(input, "due") {
            None => None,
            Some(d) if parse_when(d).is_some() => Some(d.to_string()),
            Some(d) => {
                return reply(
                    false,
                    format!("Error: `due` must be a date or a time, not {d:?}"),
                );
            }
        };
        let priority = str_arg(input, "priority")
            .unwrap_or("medium")
            .to_lowercase();
        let todo = Todo {
            id: self.new_id(IdKind::Todo),
            title: title.to_string(),
            description: str_arg(input, "description")
                .unwrap_or_default()
                .to_string(),
            priority,
            due,
            done: false,
        };
        append(
            cx,
            crate::genomes::emergence::memory::TODOS,
            vec![
                TodoAdd {
                    id: Some(todo.id.clone()),
                    title: Some(todo.title.clone()),
                    description: Some(todo.description.clone()),
                    priority: Some(Priority::Text(todo.priority.clone())),
                    due: todo.due.clone(),
                }
                .line(),
            ],
        );
        let text = format!("To-do {} added: {}.", todo.id, todo.title);
        self.todos.push(todo);
        reply(true, text)
    }

    fn add_event(&mut self, input: &Value, cx: &mut Cx<'_, Self>) -> Option<ToolReply> {
        let (Some(at), Some(description)) = (str_arg(input, "at"), str_arg(input, "description"))
        else {
            return reply(
                false,
                "Error: add_to_calendar needs `at` and `description`".into(),
            );
        };
        let Some(at) = parse_when(at) else {
            return reply(
                false,
                format!("Error: `at` must be an ISO 8601 time, not {at:?}"),
            );
        };
        let recurrence =
            match calendar::recurrence(str_arg(input, "recurrence").unwrap_or("none"), at) {
                Ok(r) => r,
                Err(e) => return reply(false, format!("Error: {e}")),
            };
        let event = Event {
            id: self.new_id(IdKind::Event),
            at,
            location: str_arg(input, "location").unwrap_or_default().to_string(),
            description: description.to_string(),
            recurrence,
        };
        append(
            cx,
            crate::genomes::emergence::memory::CALENDAR,
            vec![
                CalendarAdd {
                    id: Some(event.id.clone()),
                    at: Some(format_time(event.at)),
                    location: Some(event.location.clone()),
                    description: Some(event.description.clone()),
                    recurrence: Some(recurrence_text(&event.recurrence).to_string()),
                }
                .line(),
            ],
        );
        let next = calendar::agenda(
            std::iter::once(&event),
            cx.now,
            cx.now + TimeDelta::days(400),
            1,
        );
        let when = next
            .first()
            .map_or("no time ahead".to_string(), |(at, _)| format_time(*at));
        let text = format!(
            "Event {} added ({}); next: {when}.",
            event.id,
            recurrence_text(&event.recurrence)
        );
        self.calendar.push(event);
        reply(true, text)
    }

    fn update_relationship(&mut self, input: &Value, cx: &mut Cx<'_, Self>) -> Option<ToolReply> {
        let Some(agent) = str_arg(input, "agent") else {
            return reply(false, "Error: update_relationship needs `agent`".into());
        };
        let agent = agent.to_string();
        let now = cx.now;
        let r = self.relations.entry(agent.clone()).or_default();
        r.first_met_at.get_or_insert(now);
        for (key, field) in [
            ("relationship_type", &mut r.relationship_type),
            ("emotional_tone", &mut r.emotional_tone),
            ("rationale", &mut r.rationale),
            ("notes", &mut r.notes),
        ] {
            if let Some(v) = str_arg(input, key) {
                *field = v.to_string();
            }
        }
        if let Some(t) = input
            .get("trust_level")
            .and_then(Value::as_f64)
            .filter(|t| t.is_finite())
        {
            r.trust_level = Some(t.clamp(0.0, 1.0));
        }
        let text = format!("{agent}: {}.", prompts::relation(r));
        self.relation_line(&agent, cx);
        reply(true, text)
    }
}

/// As the calendar file writes it (`none` for a one-off).
pub(super) fn recurrence_text(r: &calendar::Recurrence) -> &str {
    match r {
        calendar::Recurrence::None => "none",
        other => other.label(),
    }
}
