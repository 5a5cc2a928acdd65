//! The genome's state at start, read from the memory model's typed state (the folds of
//! its files, `memory::emergence`): each item as the runner keeps it, with the defaults
//! the runner writes for what a file leaves out.

use std::collections::BTreeMap;

use super::calendar::Event;
use super::{
    DiaryEntry, EmergenceRestored, IdKind, Memory, Relation, Said, SoulEntry, Summary, SummaryKind,
    Todo,
};
use crate::genomes::emergence::memory::{self as mem, EmergenceMemory};
use crate::memory::time::format_time;

impl EmergenceRestored {
    /// What the files say, as the genome holds it; `name` is BIRTH.json's.
    pub fn from_memory(m: &EmergenceMemory, name: String) -> Self {
        let summaries: Vec<Summary> = m.summaries.all().filter_map(summary).collect();
        // Which conversation summary of its own covers each dialogue line.
        let mut covered: BTreeMap<&str, &str> = BTreeMap::new();
        for s in summaries
            .iter()
            .filter(|s| s.kind == SummaryKind::Conversations && s.from.is_none())
        {
            for id in &s.covers {
                covered.insert(id, &s.id);
            }
        }
        let dialogues = m
            .dialogues
            .all()
            .map(|d| Said {
                id: d.id.clone(),
                t: d.t.unwrap_or_default(),
                with: d.with.clone(),
                from: d.from.clone(),
                text: d.text.clone(),
                summary: covered
                    .get(d.id.as_str())
                    .map(|s| (*s).to_string())
                    .or_else(|| d.archived.clone()),
                archived: d.archived.is_some(),
            })
            .collect();
        let next_ids = [
            (IdKind::Soul, mem::SOUL),
            (IdKind::Memory, mem::LONG_TERM),
            (IdKind::Summary, mem::SUMMARIES),
            (IdKind::Todo, mem::TODOS),
            (IdKind::Event, mem::CALENDAR),
            (IdKind::Said, mem::DIALOGUES),
        ]
        .into_iter()
        .map(|(kind, file)| (kind, m.counts(file).max_number))
        .collect();
        EmergenceRestored {
            soul: m.soul.entries().map(SoulEntry::from).collect(),
            memories: m.longterm.all().map(Memory::from).collect(),
            diary: m
                .diary
                .days()
                .map(|d| (d.date, DiaryEntry::from(d)))
                .collect(),
            todos: m.todos.all().map(Todo::from).collect(),
            calendar: m.calendar.events().map(Event::from).collect(),
            relations: m
                .relations
                .agents()
                .filter_map(|a| Some((a.agent.clone(), Relation::from(a.current()?))))
                .collect(),
            dialogues,
            last_self_care_at: summaries
                .iter()
                .rev()
                .find(|s| s.from.is_none())
                .map(|s| s.t),
            self_cares: self_cares(&summaries),
            summaries,
            next_ids,
            name,
        }
    }
}

/// A summary of a kind the genome makes (others are left out).
fn summary(s: &mem::summaries::Summary) -> Option<Summary> {
    let kind = match s.kind {
        mem::summaries::SummaryKind::Memories => SummaryKind::Memories,
        mem::summaries::SummaryKind::Conversations => SummaryKind::Conversations,
        mem::summaries::SummaryKind::Other(_) => return None,
    };
    Some(Summary {
        id: s.id.clone(),
        t: s.t.unwrap_or_default(),
        kind,
        focus: s.focus.clone().unwrap_or_default(),
        text: s.text.clone(),
        covers: s.covers.clone(),
        folded: s.folded.clone(),
        watermark: s.watermark.clone(),
        from: s.from.clone(),
    })
}

/// Self-cares on disk: each begins with a memory summary of its own that follows a
/// conversation summary, or another focus, or nothing.
fn self_cares(summaries: &[Summary]) -> u64 {
    let mut n = 0;
    let mut last: Option<&Summary> = None;
    for s in summaries.iter().filter(|s| s.from.is_none()) {
        let starts = s.kind == SummaryKind::Memories
            && last.is_none_or(|l| l.kind == SummaryKind::Conversations || l.focus != s.focus);
        n += u64::from(starts);
        last = Some(s);
    }
    n
}

impl From<&mem::soul::SoulEntry> for SoulEntry {
    fn from(e: &mem::soul::SoulEntry) -> Self {
        SoulEntry {
            id: e.id.clone(),
            text: e.text.clone(),
        }
    }
}

impl From<&mem::longterm::LongTermMemory> for Memory {
    fn from(m: &mem::longterm::LongTermMemory) -> Self {
        Memory {
            id: m.id.clone(),
            t: m.t.unwrap_or_default(),
            text: m.text.clone(),
            archived: m.archived.clone(),
            from: m.from.clone(),
        }
    }
}

impl From<&mem::diary::DiaryDay> for DiaryEntry {
    fn from(d: &mem::diary::DiaryDay) -> Self {
        DiaryEntry {
            text: d.text.clone(),
            mood: d.mood.clone(),
            location: d.location.clone(),
        }
    }
}

impl From<&mem::todos::Todo> for Todo {
    fn from(t: &mem::todos::Todo) -> Self {
        Todo {
            id: t.id.clone(),
            title: t.title.clone(),
            description: t.description.clone().unwrap_or_default(),
            priority: t.priority.clone().unwrap_or_else(|| "medium".into()),
            due: t.due.map(|d| match d {
                mem::todos::Due::Date(d) => d.format("%Y-%m-%d").to_string(),
                mem::todos::Due::At(t) => format_time(t),
            }),
            done: t.done,
        }
    }
}

impl From<&mem::calendar::CalendarEvent> for Event {
    fn from(e: &mem::calendar::CalendarEvent) -> Self {
        Event {
            id: e.id.clone(),
            at: e.at,
            location: e.location.clone().unwrap_or_default(),
            description: e.description.clone(),
            recurrence: e.recurrence.clone(),
        }
    }
}

impl From<&mem::relations::Relation> for Relation {
    fn from(r: &mem::relations::Relation) -> Self {
        Relation {
            relationship_type: r.relationship_type.clone().unwrap_or_default(),
            trust_level: r.trust_level,
            emotional_tone: r.emotional_tone.clone().unwrap_or_default(),
            rationale: r.rationale.clone().unwrap_or_default(),
            interaction_count: r.interaction_count.unwrap_or(0),
            first_met_at: r.first_met_at,
            notes: r.notes.clone().unwrap_or_default(),
        }
    }
}
