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
/// How much of a longer text (a dream's reflection, a surfaced memory, a reasoning) a
/// line shows.
const SHOWN_LONG: usize = 4 * SHOWN;

fn cut(text: &str) -> String {
    cut_at(text, SHOWN)
}

fn cut_long(text: &str) -> String {
    cut_at(text, SHOWN_LONG)
}

fn cut_at(text: &str, shown: usize) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(shown).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// How far a refusal's lines are indented under it (past the time).
const ANSWER_INDENT: u16 = 9;

/// A commit as the orchestrator's dashboard shows it: its first seven characters.
fn short_sha(sha: &str) -> String {
    sha.chars().take(7).collect()
}

/// `what` with ` · ` before it, when there is anything.
fn then(what: &str) -> String {
    if what.is_empty() {
        String::new()
    } else {
        format!(" · {what}")
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
        EventKind::Boot { sha } => (
            "boot".into(),
            theme.muted,
            format!(
                "the creature's process started{}",
                if sha.is_empty() {
                    String::new()
                } else {
                    format!(" at {}", short_sha(sha))
                }
            ),
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
        _ => host_parts(kind, theme),
    }
}

/// The label, style and text of the orchestrator's own kinds, and of a kind not known
/// here (its fields, as its dashboard lists them).
fn host_parts(kind: &EventKind, theme: &Theme) -> (String, Style, String) {
    match kind {
        EventKind::Dream {
            deep,
            observations,
            priority,
            reflection,
        } => {
            let (label, style) = if *deep {
                ("deep sleep", theme.deep_sleep)
            } else {
                ("dream", theme.dream)
            };
            let counted = observations.map_or_else(String::new, |n| format!("{n} observations"));
            let priority = if priority.is_empty() {
                String::new()
            } else {
                format!("priority: {}", cut(priority))
            };
            let reflection = if reflection.is_empty() {
                String::new()
            } else {
                format!("reflection: {}", cut_long(reflection))
            };
            let said: Vec<String> = [counted, priority, reflection]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect();
            (label.into(), style, said.join(" · "))
        }
        EventKind::Subconscious { memory } => {
            ("subconscious".into(), theme.dream, cut_long(memory))
        }
        EventKind::ProgressCheck { actions } => (
            "progress check".into(),
            theme.fatigue_warn,
            actions.map_or_else(String::new, |n| format!("{n} actions")),
        ),
        EventKind::SelfEvaluation {
            changed,
            trigger,
            reasoning,
        } => {
            let (label, code) = if *changed {
                ("self-evolved", "code modified · ")
            } else {
                ("self-evaluated", "")
            };
            let trigger = if trigger.is_empty() {
                String::new()
            } else {
                format!("trigger: {} · ", cut(trigger))
            };
            (
                label.into(),
                theme.awake,
                format!("{code}{trigger}{}", cut_long(reasoning)),
            )
        }
        EventKind::RequestRestart { reason } => {
            ("restart requested".into(), theme.notice, cut(reason))
        }
        EventKind::HostBoot => ("host boot".into(), theme.muted, String::new()),
        EventKind::HostSpawn { pid, sha } => (
            "spawn".into(),
            theme.accent,
            format!(
                "a fresh container, pid {}{}",
                pid.map_or_else(|| "?".to_string(), |p| p.to_string()),
                then(&short_sha(sha))
            ),
        ),
        EventKind::HostPromote { sha } => (
            "promoted".into(),
            theme.awake,
            format!("healthy: it runs{}", then(&short_sha(sha))),
        ),
        EventKind::HostRollback { from, to, reason } => (
            "rollback".into(),
            theme.error,
            format!("{} {} → {}", cut(reason), short_sha(from), short_sha(to)),
        ),
        EventKind::InfraFailure { reason } => ("infra failure".into(), theme.error, cut(reason)),
        EventKind::Refused { action, .. } => (
            format!("{action} refused"),
            theme.error,
            "the orchestrator answered:".into(),
        ),
        EventKind::Other { kind, fields } => {
            let said: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
            (kind.clone(), theme.muted, cut_long(&said.join(", ")))
        }
        _ => (String::new(), theme.muted, String::new()),
    }
}

/// The events as lines, oldest first.
pub fn live(events: Option<&VecDeque<LiveEvent>>, theme: &Theme) -> Vec<DocLine> {
    events
        .into_iter()
        .flatten()
        .flat_map(|e| {
            let time = e.t.map_or_else(
                || "--:--:--".to_string(),
                |t| t.format("%H:%M:%S").to_string(),
            );
            let (label, style, text) = parts(&e.kind, theme);
            let first = DocLine::hanging(
                Line::from(vec![
                    Span::styled(time, theme.muted),
                    Span::raw(" "),
                    Span::styled(format!("{label} "), style),
                    Span::styled(text, theme.base),
                ]),
                3,
            );
            // A refusal's answer, whole, one line under another.
            let answer = match &e.kind {
                EventKind::Refused { answer, .. } => answer.lines().map(str::to_owned).collect(),
                _ => Vec::new(),
            };
            std::iter::once(first).chain(answer.into_iter().map(|l| {
                let line = Line::from(vec![
                    Span::raw(" ".repeat(ANSWER_INDENT.into())),
                    Span::styled(l, theme.base),
                ]);
                DocLine::word(line, ANSWER_INDENT)
            }))
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn shown(v: serde_json::Value) -> String {
        let event = LiveEvent::parse(&v, Some("finch")).unwrap();
        let lines = live(Some(&VecDeque::from([event])), &Theme::default());
        lines
            .iter()
            .map(|l| {
                l.line
                    .spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn each_kind_says_what_its_dashboard_says() {
        let t = "2026-03-09T10:00:00Z";
        assert_eq!(
            shown(
                json!({"t": t, "type": "creature.dream", "deep": true, "observations": 3, "priority": "p", "reflection": "r"})
            ),
            "10:00:00 deep sleep 3 observations · priority: p · reflection: r"
        );
        assert_eq!(
            shown(
                json!({"t": t, "type": "creature.self_evaluation", "reasoning": "fine", "changed": false})
            ),
            "10:00:00 self-evaluated fine"
        );
        assert_eq!(
            shown(json!({"t": t, "type": "host.promote", "sha": ""})),
            "10:00:00 promoted healthy: it runs"
        );
        assert_eq!(
            shown(json!({"t": t, "type": "host.spawn", "sha": "abcdef123"})),
            "10:00:00 spawn a fresh container, pid ? · abcdef1"
        );
        assert_eq!(
            shown(json!({"t": t, "type": "genome.tick"})),
            "10:00:00 genome.tick "
        );
        assert_eq!(
            shown(json!({"t": t, "type": "creature.subconscious", "memory": &"m".repeat(700)}))
                .chars()
                .count(),
            "10:00:00 subconscious ".len() + SHOWN_LONG + 1
        );
    }

    #[test]
    fn a_refusal_keeps_its_lines() {
        let event = LiveEvent {
            creature: "finch".into(),
            t: None,
            kind: EventKind::Refused {
                action: "start".into(),
                answer: "one\ntwo".into(),
            },
        };
        let lines = live(Some(&VecDeque::from([event])), &Theme::default());
        assert_eq!(lines.len(), 3);
    }
}
