//! A genome's tab, prepared: markdown rendered as the diary is, text line by line, a
//! `jsonl` file's rows newest first (each its time and a summary, as OpenSeed's dashboard
//! shows them, its other fields under it). Everything from the file is made inert.

use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::openseed::{Content, Tab, TabKind};
use crate::text::markdown::render;
use crate::text::sanitize::sanitize;
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;
use crate::ui::views::diary::prepare::styles;

/// How much of a row's summary is shown (the dashboard's `summarize(..., 120)`).
const SUMMARY: usize = 120;

/// The tab's lines at `width` columns (markdown is laid out at that width).
pub fn tab_lines(tab: &Tab, theme: &Theme, width: u16) -> Vec<DocLine> {
    let mut lines = vec![DocLine::word(
        Line::from(vec![
            Span::styled(inert(&tab.file), theme.muted),
            Span::styled(format!("  ({})", kind_word(tab.kind)), theme.muted),
        ]),
        2,
    )];
    lines.push(DocLine::hard(Line::default()));
    match &tab.content {
        Content::Refused(why) => {
            lines.push(DocLine::word(Line::styled(inert(why), theme.error), 0))
        }
        Content::Text { text, .. } if text.trim().is_empty() => {
            lines.push(DocLine::hard(Line::styled("Empty.", theme.muted)));
        }
        Content::Text { text, cut } => {
            match tab.kind {
                TabKind::Markdown => lines.extend(
                    render(text, &styles(theme), width)
                        .into_iter()
                        .map(DocLine::hard),
                ),
                _ => lines.extend(
                    sanitize(text)
                        .lines()
                        .map(|l| DocLine::word(Line::styled(l.to_owned(), theme.base), 0)),
                ),
            }
            if *cut {
                lines.push(DocLine::word(
                    Line::styled("[cut: only the file's first 4 MiB are read]", theme.notice),
                    0,
                ));
            }
        }
        Content::Rows(rows) if rows.is_empty() => {
            lines.push(DocLine::hard(Line::styled("No entries yet.", theme.muted)));
        }
        Content::Rows(rows) => {
            for row in rows.iter().rev() {
                lines.extend(row_lines(row, theme));
                lines.push(DocLine::hard(Line::default()));
            }
        }
    }
    lines
}

fn kind_word(kind: TabKind) -> &'static str {
    match kind {
        TabKind::Markdown => "markdown",
        TabKind::Jsonl => "jsonl: its last rows, newest first",
        TabKind::Text => "text",
    }
}

/// One row: its time (`t`) and the summary of its first field that says something (a
/// string longer than 10 characters, else its first field), then every field but `t`.
fn row_lines(row: &Value, theme: &Theme) -> Vec<DocLine> {
    let Some(fields) = row.as_object() else {
        return vec![DocLine::word(
            Line::styled(inert(&row.to_string()), theme.base),
            2,
        )];
    };
    let rest: Vec<(&String, &Value)> = fields.iter().filter(|(k, _)| *k != "t").collect();
    let summary_field = rest
        .iter()
        .find(|(_, v)| v.as_str().is_some_and(|s| s.chars().count() > 10))
        .or(rest.first());
    let summary = summary_field.map_or_else(|| "...".to_owned(), |(_, v)| summarize(&shown(v)));
    let time = fields.get("t").map(shown).unwrap_or_default();
    let mut lines = vec![DocLine::hanging(
        Line::from(vec![
            Span::styled(format!("{} ", inert(&time)), theme.muted),
            Span::styled(inert(&summary), theme.md_strong),
        ]),
        1,
    )];
    for (key, value) in rest {
        let mut text = shown(value);
        if value.is_object() || value.is_array() {
            text = serde_json::to_string_pretty(value).unwrap_or(text);
        }
        let mut body = sanitize(&text)
            .lines()
            .map(str::to_owned)
            .collect::<Vec<_>>();
        let first = if body.is_empty() {
            String::new()
        } else {
            body.remove(0)
        };
        lines.push(DocLine::hanging(
            Line::from(vec![
                Span::styled(format!("  {}: ", inert(key)), theme.key),
                Span::styled(first, theme.base),
            ]),
            1,
        ));
        lines.extend(
            body.into_iter()
                .map(|l| DocLine::word(Line::styled(format!("    {l}"), theme.base), 4)),
        );
    }
    lines
}

/// A field as the dashboard shows it (`String(v)`: a string bare, the rest as JSON).
fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The dashboard's `summarize`: the first line with something in it that is not a
/// heading, cut at 120 characters.
fn summarize(text: &str) -> String {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap_or_else(|| text.trim());
    if line.chars().count() > SUMMARY {
        format!("{}...", line.chars().take(SUMMARY).collect::<String>())
    } else {
        line.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn text_of(lines: &[DocLine]) -> Vec<String> {
        lines.iter().map(|l| l.line.to_string()).collect()
    }

    #[test]
    fn rows_newest_first_with_a_summary_and_inert() {
        let tab = Tab {
            id: "dreams".into(),
            label: "dreams".into(),
            file: ".self/dreams.jsonl".into(),
            kind: TabKind::Jsonl,
            content: Content::Rows(vec![
                json!({"t": "2026-03-09T10:00:00Z", "priority": 1, "reflection": "the first dream, long"}),
                json!({"t": "2026-03-09T11:00:00Z", "reflection": "# head\nsecond \u{1b}[2J dream"}),
            ]),
        };
        let text = text_of(&tab_lines(&tab, &Theme::default(), 60));
        let second = text.iter().position(|l| l.contains("second")).unwrap();
        let first = text
            .iter()
            .position(|l| l.contains("the first dream"))
            .unwrap();
        assert!(second < first, "{text:?}");
        assert!(text.iter().all(|l| !l.contains('\u{1b}')), "{text:?}");
        assert!(text.iter().any(|l| l.contains("priority: 1")), "{text:?}");
    }
}
