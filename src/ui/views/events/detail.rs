//! One event of the Events view, whole: its time and kind, then every field on lines of
//! its own, long texts wrapped and their line breaks kept, inert.

use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::memory::events::Event;
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;

/// The detail's title and lines for the event at 0-based `line` of the file.
pub fn document(line: u64, event: &Event, theme: &Theme) -> (String, Vec<DocLine>) {
    let when = event.t.map_or_else(
        || "no time".to_string(),
        |t| t.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
    );
    let title = format!(
        " {} · line {} · {when} ",
        inert(event.kind.as_str()),
        line + 1
    );
    let width = event
        .fields
        .keys()
        .map(|k| k.chars().count())
        .max()
        .unwrap_or(0)
        + 2;
    let mut out = Vec::new();
    for (key, value) in &event.fields {
        let text = match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        for (i, part) in text.split('\n').enumerate() {
            let label = if i == 0 {
                format!("{key}:")
            } else {
                String::new()
            };
            out.push(DocLine::hanging(
                Line::from(vec![
                    Span::styled(format!("{:<width$}", inert(&label)), theme.key),
                    Span::styled(inert(part), theme.base),
                ]),
                1,
            ));
        }
    }
    (title, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_whole_and_inert() {
        let e = Event::parse(
            br#"{"t":"2026-03-09T10:00:00Z","type":"creature.error","error":"cannot connect to http://127.0.0.1:9/v1/messages: connection refused\nsecond line \u001b[2J","retryIn":30000}"#,
        )
        .unwrap();
        let (title, lines) = document(4, &e, &Theme::default());
        assert_eq!(title, " creature.error · line 5 · 2026-03-09 10:00:00 UTC ");
        let text: Vec<String> = lines.iter().map(|l| l.line.to_string()).collect();
        assert_eq!(
            text,
            [
                "error:   cannot connect to http://127.0.0.1:9/v1/messages: connection refused",
                "         second line ^[[2J",
                "retryIn: 30000",
            ]
        );
    }
}
