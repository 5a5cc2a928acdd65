//! The emergence genome's figures (what `inspect` shows): soul entries, long-term memories and the
//! archive, summaries, diary, to-dos, the next calendar event, relations, dialogues.

use std::io::Write;

use chrono::{DateTime, Utc};
use serde_json::{Map, Value, json};

use super::{
    CALENDAR, DIALOGUES, DIARY_LOG, EmergenceMemory, FILES, LONG_TERM, RELATIONS, SOUL, SUMMARIES,
    TODOS,
};
use crate::memory::figures::{counted, time};
use crate::memory::layout::FileKind;
use crate::text::sanitize::sanitize_line;

/// The `emergence` object of `inspect --json`: the figures of every file at `now`.
pub(super) fn json(m: &EmergenceMemory, now: DateTime<Utc>) -> Value {
    let mut all = Map::new();
    for kind in FILES {
        all.extend(figures(m, kind, now));
    }
    Value::Object(all)
}

/// The figures that the file `kind` gives.
pub(super) fn figures(
    m: &EmergenceMemory,
    kind: FileKind,
    now: DateTime<Utc>,
) -> Map<String, Value> {
    let bad_lines = m.counts(kind).bad_lines;
    let (name, value) = match kind {
        SOUL => (
            "soul",
            json!({
                "entries": m.soul.len(),
                "added": m.soul.added,
                "removed": m.soul.removed,
            }),
        ),
        LONG_TERM => (
            "memories",
            json!({
                "current": m.longterm.current_count(),
                "archived": m.longterm.archived,
                "copied": m.longterm.copied,
                "neural_links": m.longterm.neural_links,
            }),
        ),
        SUMMARIES => (
            "summaries",
            json!({
                "memories": m.summaries.memories,
                "conversations": m.summaries.conversations,
                "watermark": m.summaries.watermark,
            }),
        ),
        DIARY_LOG => (
            "diary",
            json!({
                "entries": m.diary.len(),
                "replaced": m.diary.replaced,
                "last_date": m.diary.days().next_back().map(|d| d.date.to_string()),
            }),
        ),
        TODOS => (
            "todos",
            json!({
                "open": m.todos.open(),
                "done": m.todos.done(),
                "overdue": m.todos.overdue(now),
            }),
        ),
        CALENDAR => {
            let next = m.calendar.next_after(now);
            (
                "calendar",
                json!({
                    "events": m.calendar.len(),
                    "recurring": m.calendar.events().filter(|e| e.repeats()).count(),
                    "next": next.found.map(|o| json!({
                        "id": o.event.id,
                        "at": time(Some(o.at)),
                        "description": o.event.description,
                        "location": o.event.location,
                        "recurrence": o.event.recurrence.label(),
                    })),
                    "not_within_bound": next.not_within_bound,
                    "not_searched": next.not_searched,
                }),
            )
        }
        RELATIONS => (
            "relations",
            json!({
                "agents": m.relations.len() as u64 + m.relations.not_kept,
                "by_type": m.relations.by_type(),
                "changes": m.relations.agents().map(|a| a.changes).sum::<u64>(),
            }),
        ),
        DIALOGUES => (
            "dialogues",
            json!({
                "lines": m.dialogues.said,
                "partners": m.dialogues.per_party.len(),
                "lines_with_other_partners": m.dialogues.other_parties,
                "archived": m.dialogues.archived,
                "live": m.dialogues.live(),
                "unsummarised": m.unsummarised_dialogues(),
            }),
        ),
        _ => return Map::new(),
    };
    let mut value = value;
    if let Value::Object(fields) = &mut value {
        fields.insert("bad_lines".into(), json!(bad_lines));
    }
    Map::from_iter([(name.to_string(), value)])
}

/// The text lines of `inspect` for an emergence creature at `now`.
pub(super) fn write_text(
    out: &mut dyn Write,
    m: &EmergenceMemory,
    now: DateTime<Utc>,
) -> std::io::Result<()> {
    writeln!(
        out,
        "  soul          {} ({} removed)",
        counted(m.soul.len() as u64, "entry", "entries"),
        m.soul.removed
    )?;
    writeln!(
        out,
        "  memories      {} long-term, {} archived, {} copied by neural link",
        m.longterm.current_count(),
        m.longterm.archived,
        m.longterm.copied
    )?;
    writeln!(
        out,
        "  summaries     {} of memories, {} of conversations{}",
        m.summaries.memories,
        m.summaries.conversations,
        m.summaries
            .watermark
            .as_deref()
            .map(|w| format!(" (summarised up to {})", sanitize_line(w)))
            .unwrap_or_default()
    )?;
    writeln!(
        out,
        "  diary         {}",
        counted(m.diary.len() as u64, "entry", "entries")
    )?;
    let overdue = m.todos.overdue(now);
    writeln!(
        out,
        "  to-dos        {} open{}, {} done",
        m.todos.open(),
        if overdue > 0 {
            format!(" ({overdue} overdue)")
        } else {
            String::new()
        },
        m.todos.done()
    )?;
    let look = m.calendar.next_after(now);
    let mut next = look
        .found
        .map(|o| {
            format!(
                "; next {} {}",
                o.at.format("%Y-%m-%d %H:%M"),
                sanitize_line(&o.event.description)
            )
        })
        .unwrap_or_default();
    if look.not_within_bound > 0 {
        next.push_str(&format!(
            "; {} whose rule finds no occurrence within the search bound",
            look.not_within_bound
        ));
    }
    if look.not_searched > 0 {
        next.push_str(&format!(
            "; {} not searched (the search budget was spent)",
            look.not_searched
        ));
    }
    writeln!(
        out,
        "  calendar      {}{next}",
        counted(m.calendar.len() as u64, "event", "events")
    )?;
    let types: Vec<String> = m
        .relations
        .by_type()
        .into_iter()
        .map(|(kind, n)| format!("{n} {}", sanitize_line(&kind)))
        .collect();
    writeln!(
        out,
        "  relations     {}{}{}",
        m.relations.len() as u64 + m.relations.not_kept,
        if types.is_empty() { "" } else { ": " },
        types.join(", ")
    )?;
    writeln!(
        out,
        "  dialogues     {} ({} archived, {} not yet summarised)",
        counted(m.dialogues.said, "line", "lines"),
        m.dialogues.archived,
        m.unsummarised_dialogues()
    )
}
