//! The Events view, prepared: one event of `events.jsonl` becomes one row (time, kind,
//! what it says; wrapped to the pane when drawn), inert, styled by kind.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::memory::events::{Event, EventKind};
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;

/// Longest summary kept, in characters (the event detail shows it whole).
const MAX_SUMMARY: usize = 300;

/// The row of event `line_no` (0-based line of the file), or of a line that did not parse.
pub fn row(line_no: u64, event: Result<&Event, &str>, theme: &Theme) -> Line<'static> {
    let e = match event {
        Ok(e) => e,
        Err(reason) => {
            return Line::from(vec![
                Span::styled(format!("line {}: unreadable: ", line_no + 1), theme.error),
                Span::styled(inert(reason), theme.muted),
            ]);
        }
    };
    let time = e.t.map_or_else(
        || "-- --:--:--".to_string(),
        |t| t.format("%m-%d %H:%M:%S").to_string(),
    );
    let (label, style) = label(&e.kind, theme);
    let label = if e.kind == EventKind::Error && e.f64("retryIn").is_some() {
        "retry"
    } else {
        label
    };
    Line::from(vec![
        Span::styled(time, theme.muted),
        Span::raw(" "),
        Span::styled(format!("{label:<8}"), style),
        Span::raw(" "),
        Span::raw(summary(e)),
    ])
}

/// A short label and its style for each kind.
fn label<'k>(kind: &'k EventKind, theme: &Theme) -> (&'k str, Style) {
    match kind {
        EventKind::Error => ("error", theme.error),
        EventKind::Wake => ("wake", theme.awake),
        EventKind::Sleep => ("sleep", theme.asleep),
        EventKind::Dream => ("dream", theme.dream),
        EventKind::ToolCall => ("tool", theme.accent),
        EventKind::Message => ("message", theme.notice),
        EventKind::MessageSent => ("sent", theme.notice),
        EventKind::Pause => ("pause", theme.paused),
        EventKind::Resume => ("resume", theme.paused),
        EventKind::Boot => ("boot", theme.awake),
        EventKind::Thought => ("thought", theme.prose),
        other => (other.as_str(), theme.muted),
    }
}

/// What the event says, on one line, inert.
fn summary(e: &Event) -> String {
    let s = |k: &str| e.str(k).unwrap_or_default();
    let text = match e.kind {
        EventKind::Error => {
            let mut out = s("error").to_string();
            if let Some(phase) = e.str("phase") {
                out = format!("[{phase}] {out}");
            }
            if let Some(ms) = e.f64("retryIn") {
                out.push_str(&format!(" · retry in {:.0}s", ms / 1000.0));
            }
            out
        }
        EventKind::Sleep => {
            let secs = e.f64("seconds").unwrap_or(0.0);
            format!("{:.0}s {}", secs, s("text"))
        }
        EventKind::Wake => [s("reason"), s("source")]
            .iter()
            .filter(|p| !p.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" · "),
        EventKind::Dream => {
            let deep = if e.bool("deep") == Some(true) {
                "deep · "
            } else {
                ""
            };
            format!("{deep}{}", s("reflection"))
        }
        EventKind::ToolCall => {
            let failed = if e.bool("ok") == Some(false) {
                " (failed)"
            } else {
                ""
            };
            format!("{} {}{failed}", s("tool"), s("input"))
        }
        EventKind::Message => {
            let from = match (s("source"), s("from")) {
                (_, from) if !from.is_empty() => from,
                ("garden", _) => "a creature",
                _ => "creator",
            };
            format!("from {from}: {}", s("text"))
        }
        EventKind::MessageSent => {
            let delivery = match s("delivery") {
                "" | "delivered" | "creator" => String::new(),
                other => format!(" ({other})"),
            };
            format!("to {}: {}{delivery}", s("to"), s("text"))
        }
        EventKind::Thought => s("text").to_string(),
        EventKind::Pause | EventKind::Resume => s("source").to_string(),
        _ => fields(&e.fields),
    };
    // One row: line breaks and runs of spaces become one space.
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut text = inert(&flat);
    if let Some((cut, _)) = text.char_indices().nth(MAX_SUMMARY) {
        text.truncate(cut);
        text.push('…');
    }
    text
}

/// An event of a kind this view has no words for: its fields as `key value`, strings
/// unquoted, by key.
fn fields(fields: &serde_json::Map<String, serde_json::Value>) -> String {
    fields
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "t" | "type"))
        .map(|(k, v)| match v {
            serde_json::Value::String(text) => format!("{k} {text}"),
            other => format!("{k} {other}"),
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row_of(line: &str) -> String {
        let e = Event::parse(line.as_bytes()).unwrap();
        row(0, Ok(&e), &Theme::default()).to_string()
    }

    #[test]
    fn rows_say_kind_and_what_happened_inertly() {
        assert_eq!(
            row_of(
                r#"{"t":"2026-03-09T10:00:00Z","type":"creature.error","error":"overloaded\u001b[2J","phase":"wake","retryIn":30000}"#
            ),
            "03-09 10:00:00 retry    [wake] overloaded^[[2J · retry in 30s"
        );
        assert_eq!(
            row_of(
                r#"{"t":"2026-03-09T10:00:01Z","type":"creature.tool_call","tool":"bash","input":"ls","ok":false}"#
            ),
            "03-09 10:00:01 tool     bash ls (failed)"
        );
        assert_eq!(
            row_of(r#"{"type":"budget.warn","left":3,"why":"cap"}"#),
            "-- --:--:-- budget.warn left 3 · why cap"
        );
        assert_eq!(
            row_of(
                r#"{"t":"2026-03-09T10:00:02Z","type":"creature.message_sent","to":"moss","text":"hello","delivery":"delivered"}"#
            ),
            "03-09 10:00:02 sent     to moss: hello"
        );
        assert_eq!(
            row_of(
                r#"{"t":"2026-03-09T10:00:03Z","type":"creature.message_sent","to":"wren","text":"hi","delivery":"unknown recipient"}"#
            ),
            "03-09 10:00:03 sent     to wren: hi (unknown recipient)"
        );
        assert_eq!(
            row_of(
                r#"{"t":"2026-03-09T10:00:04Z","type":"creature.message","text":"hi back","source":"garden","from":"moss"}"#
            ),
            "03-09 10:00:04 message  from moss: hi back"
        );
        assert_eq!(
            row_of(
                r#"{"t":"2026-03-09T10:00:05Z","type":"creature.message","text":"be kind","source":"MESSAGES.md"}"#
            ),
            "03-09 10:00:05 message  from creator: be kind"
        );
        let bad = row(4, Err("not JSON"), &Theme::default()).to_string();
        assert_eq!(bad, "line 5: unreadable: not JSON");
    }
}
