//! The evennia genome's figures (what `inspect` shows): journal, importance toward the next
//! reflection, reflections, semantic memory, entities, mode and compactions.

use std::io::Write;

use serde_json::{Map, Value, json};

use super::{
    ENTITIES, EvenniaMemory, FILES, JOURNAL, OPERATING_MODE, REFLECTIONS, SEMANTIC, WORKING_MEMORY,
};
use crate::memory::figures::{counted, time};
use crate::memory::layout::FileKind;
use crate::text::sanitize::sanitize_line;

/// The `evennia` object of `inspect --json`: the figures of every file.
pub(super) fn json(m: &EvenniaMemory) -> Value {
    let mut all = Map::new();
    for kind in FILES {
        all.extend(figures(m, kind));
    }
    Value::Object(all)
}

/// The figures that the file `kind` gives.
pub(super) fn figures(m: &EvenniaMemory, kind: FileKind) -> Map<String, Value> {
    let importance = || {
        json!({
            "cumulative_importance": m.cumulative_importance(),
            "threshold": m.threshold(),
        })
    };
    let value = match kind {
        JOURNAL => {
            let (heuristic, llm) = m.journal.by_method();
            let mut v = json!({"journal": {
                "entries": m.journal.current(),
                "added": m.journal.added,
                "pruned": m.journal.pruned,
                "scored": m.journal.scored,
                "consolidated": m.journal.consolidated,
                "by_method": {"heuristic": heuristic, "llm": llm},
                "bad_lines": m.journal.bad_lines,
            }});
            merge(&mut v, importance());
            v
        }
        REFLECTIONS => {
            let mut v = json!({"reflections": {
                "count": m.reflections.count,
                "last": m.reflections.recent().last().map(|r| json!({
                    "id": r.id,
                    "t": time(r.t),
                    "questions": r.questions,
                    "insights": r.insights,
                    "cumulative_importance": r.cumulative_importance,
                    "threshold": r.threshold,
                })),
                "bad_lines": m.reflections.bad_lines,
            }});
            merge(&mut v, importance());
            v
        }
        SEMANTIC => {
            let (links, orphans) = m.semantic.links();
            json!({"semantic": {
                "memories": m.semantic.memories().len() as u64 + m.semantic.not_kept(),
                "forgotten": m.semantic.forgotten,
                "links": links,
                "orphan_links": orphans,
                "bad_lines": m.semantic.bad_lines,
            }})
        }
        ENTITIES => {
            let mut by_state: Map<String, Value> = m
                .entities
                .by_state()
                .into_iter()
                .map(|(state, n)| (state.as_str().to_string(), json!(n)))
                .collect();
            by_state.insert("none".into(), json!(m.entities.without_relationship()));
            json!({"entities": {
                "count": m.entities.len() as u64 + m.entities.not_kept,
                "by_state": by_state,
                "bad_lines": m.entities.bad_lines,
            }})
        }
        OPERATING_MODE => {
            let mode = &m.mode;
            json!({
                "mode": mode.mode(),
                "phase": mode.phase(),
                "wake_deferred": mode.wake_deferred().is_some(),
                "wakes_at": time(mode.wake_at()),
                "compactions": {
                    "sleep": mode.compactions_sleep,
                    "emergency": mode.compactions_emergency,
                    "other": mode.compactions_other,
                },
                "mode_bad_lines": mode.bad_lines,
            })
        }
        WORKING_MEMORY => json!({
            "working_memory": m.working.as_ref().map(|w| json!({
                "conversations": w.conversations.len(),
                "pending_actions": w.conversations.iter().map(|c| c.pending_actions.len()).sum::<usize>(),
            })),
        }),
        _ => json!({}),
    };
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// `extra`'s fields added to the object `v`.
fn merge(v: &mut Value, extra: Value) {
    if let (Value::Object(v), Value::Object(extra)) = (v, extra) {
        v.extend(extra);
    }
}

/// The text lines of `inspect` for an evennia creature.
pub(super) fn write_text(out: &mut dyn Write, m: &EvenniaMemory) -> std::io::Result<()> {
    let mode = &m.mode;
    let deferred = mode
        .wake_deferred()
        .filter(|r| !r.is_empty())
        .map(|r| format!(" ({})", sanitize_line(r)))
        .unwrap_or_default();
    writeln!(
        out,
        "  mode          {}{deferred}",
        sanitize_line(&mode.label())
    )?;
    let (heuristic, llm) = m.journal.by_method();
    writeln!(
        out,
        "  journal       {} ({} pruned; importance by {heuristic} heuristic, {llm} llm)",
        counted(m.journal.current(), "entry", "entries"),
        m.journal.pruned
    )?;
    writeln!(
        out,
        "  importance    {} / {} toward the next reflection",
        m.cumulative_importance(),
        m.threshold()
    )?;
    let last = m
        .reflections
        .recent()
        .last()
        .map(|r| {
            let when =
                r.t.map(|t| t.format(" %Y-%m-%d %H:%M").to_string())
                    .unwrap_or_default();
            format!(
                " (last {}{when}: {}, {})",
                sanitize_line(&r.id),
                counted(r.questions.len() as u64, "question", "questions"),
                counted(r.insights.len() as u64, "insight", "insights")
            )
        })
        .unwrap_or_default();
    writeln!(out, "  reflections   {}{last}", m.reflections.count)?;
    let (links, orphans) = m.semantic.links();
    writeln!(
        out,
        "  memories      {}, {} ({orphans} orphan), {} forgotten",
        counted(
            m.semantic.memories().len() as u64 + m.semantic.not_kept(),
            "semantic memory",
            "semantic memories"
        ),
        counted(links, "link", "links"),
        m.semantic.forgotten
    )?;
    let mut states: Vec<String> = m
        .entities
        .by_state()
        .into_iter()
        .rev()
        .filter(|(_, n)| *n > 0)
        .map(|(state, n)| format!("{n} {}", state.as_str()))
        .collect();
    let none = m.entities.without_relationship();
    if none > 0 {
        states.push(format!("{none} without a relationship"));
    }
    writeln!(
        out,
        "  entities      {}{}{}",
        m.entities.len() as u64 + m.entities.not_kept,
        if states.is_empty() { "" } else { ": " },
        states.join(", ")
    )?;
    writeln!(
        out,
        "  compactions   {} sleep, {} emergency",
        mode.compactions_sleep, mode.compactions_emergency
    )
}
