//! An OpenSeed creature's live events as a document: one line each (time, kind, what it
//! says), styled by kind. Their text was made inert when it arrived.

use std::collections::VecDeque;

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::openseed::{EventKind, LiveEvent};
use crate::ui::doc::DocLine;
use crate::ui::theme::Theme;

/// How much of a tool's input or output a line shows.
const SHOWN: usize = 160;

fn cut(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(SHOWN).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// The kind's label, its style and what the event says.
fn parts(kind: &EventKind, theme: &Theme) -> (String, Style, String) {
    match kind {
        EventKind::Thought { text } => ("thought".into(), theme.role_assistant, cut(text)),
        EventKind::ToolCall {
            tool,
            input,
            ok,
            output,
        } => {
            let style = if *ok { theme.tool_name } else { theme.exit_err };
            let mark = if *ok { "" } else { " ✗" };
            (
                format!("{tool}{mark}"),
                style,
                format!("{} → {}", cut(input), cut(output)),
            )
        }
        EventKind::Sleep { text, seconds } => {
            let long = seconds
                .map(|s| format!(" {}s", s.round()))
                .unwrap_or_default();
            (format!("sleep{long}"), theme.asleep, cut(text))
        }
        EventKind::Wake { reason, source } => {
            (format!("wake ({source})"), theme.awake, cut(reason))
        }
        EventKind::Message { text, source } => {
            (format!("message from {source}"), theme.role_user, cut(text))
        }
        EventKind::Error { error, fatal } => {
            let label = if *fatal { "fatal error" } else { "error" };
            (label.into(), theme.error, cut(error))
        }
        EventKind::BudgetExceeded { spent, cap } => (
            "budget".into(),
            theme.error,
            format!("${spent:.2} of ${cap:.2} spent today: paused until the day resets"),
        ),
        EventKind::BudgetReset => (
            "budget".into(),
            theme.notice,
            "the day reset: awake again".into(),
        ),
        EventKind::Boot => (
            "boot".into(),
            theme.muted,
            "the creature's process started".into(),
        ),
        EventKind::Spawning => ("spawning".into(), theme.muted, String::new()),
        EventKind::Spawned => ("spawned".into(), theme.muted, String::new()),
        EventKind::SpawnFailed { error } => ("spawn failed".into(), theme.error, cut(error)),
        EventKind::Orchestrator { healthy, down } => {
            let said = if *healthy {
                "healthy".to_string()
            } else {
                format!("degraded: {} down", down.join(", "))
            };
            ("orchestrator".into(), theme.muted, said)
        }
        EventKind::Narration { text } => ("narrator".into(), theme.prose, cut(text)),
        EventKind::Other { kind } => (kind.clone(), theme.muted, String::new()),
    }
}

/// The events as lines, oldest first.
pub fn live(events: Option<&VecDeque<LiveEvent>>, theme: &Theme) -> Vec<DocLine> {
    events
        .into_iter()
        .flatten()
        .map(|e| {
            let time = e.t.map_or_else(
                || "--:--:--".to_string(),
                |t| t.format("%H:%M:%S").to_string(),
            );
            let (label, style, text) = parts(&e.kind, theme);
            DocLine::hanging(
                Line::from(vec![
                    Span::styled(time, theme.muted),
                    Span::raw(" "),
                    Span::styled(format!("{label} "), style),
                    Span::styled(text, theme.base),
                ]),
                3,
            )
        })
        .collect()
}

/// The side pane of a creature whose files are not on this machine (`name` is inert).
pub fn no_files_side(name: &str, theme: &Theme) -> Vec<DocLine> {
    [
        format!("{name}'s files are not on this machine."),
        String::new(),
        "Its OpenSeed orchestrator tells its status, why it sleeps, what it spent today and its live events.".into(),
        "Observations, dreams, diary and priorities need its files: run dreamwatch where they are, or follow them with ssh://HOST/PATH.".into(),
    ]
    .into_iter()
    .map(|text| DocLine::word(Line::styled(text, theme.muted), 0))
    .collect()
}

/// What a view that needs files shows of a creature whose files are not on this
/// machine; `live` says how to reach its live view.
pub fn no_files_view(name: &str, view: &str, live: &str, theme: &Theme) -> Vec<DocLine> {
    [
        format!("{name}'s files are not on this machine: its {view} cannot be shown here."),
        format!("Its OpenSeed orchestrator tells its status, costs and live events{live}."),
    ]
    .into_iter()
    .map(|text| DocLine::word(Line::styled(text, theme.muted), 0))
    .collect()
}
