//! The conversation with the Ranger, prepared: what was asked, then its answer as it came
//! (its thinking, each tool call with its input and the start of its result, its words as
//! markdown, its errors in words). Everything the orchestrator sends is made inert.

use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::openseed::{RangerAnswer, RangerPart};
use crate::text::markdown::render;
use crate::text::sanitize::sanitize;
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;
use crate::ui::views::diary::prepare::styles;

/// How many lines of a tool's result are shown.
const RESULT_LINES: usize = 6;

/// One turn of the conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Turn {
    /// What the operator asked, about which creature.
    Asked {
        about: Option<String>,
        text: String,
    },
    Answer(RangerAnswer),
    /// The orchestrator's refusal or why it could not be asked, in words.
    Failed(String),
}

/// The conversation's lines at `width`; `waiting`: an answer is awaited.
pub fn lines(turns: &[Turn], waiting: bool, theme: &Theme, width: u16) -> Vec<DocLine> {
    let mut out = Vec::new();
    for turn in turns {
        match turn {
            Turn::Asked { about, text } => {
                let about = about
                    .as_deref()
                    .map_or_else(String::new, |n| format!(" (about {})", inert(n)));
                out.push(DocLine::hard(Line::styled(
                    format!("you{about}:"),
                    theme.role_user,
                )));
                out.extend(
                    sanitize(text)
                        .lines()
                        .map(|l| DocLine::word(Line::styled(format!("  {l}"), theme.base), 2)),
                );
            }
            Turn::Answer(answer) => answer_lines(answer, theme, width, &mut out),
            Turn::Failed(why) => {
                out.push(DocLine::hard(Line::styled("ranger:", theme.role_assistant)));
                out.push(DocLine::word(
                    Line::styled(format!("  Error: {}", sanitize(why)), theme.error),
                    2,
                ));
            }
        }
        out.push(DocLine::hard(Line::default()));
    }
    if waiting {
        out.push(DocLine::hard(Line::styled(
            "ranger: thinking… (its tools and model calls may take minutes)",
            theme.muted,
        )));
    }
    out
}

fn answer_lines(answer: &RangerAnswer, theme: &Theme, width: u16, out: &mut Vec<DocLine>) {
    out.push(DocLine::hard(Line::styled("ranger:", theme.role_assistant)));
    if answer.unconfigured() {
        out.push(DocLine::word(
            Line::styled(
                "  The orchestrator has no Ranger configured: it needs ANTHROPIC_API_KEY in its environment (No ANTHROPIC_API_KEY configured).",
                theme.notice,
            ),
            2,
        ));
        return;
    }
    for part in &answer.parts {
        match part {
            RangerPart::Thinking(text) => out.extend(
                sanitize(text)
                    .lines()
                    .map(|l| DocLine::word(Line::styled(format!("  · {l}"), theme.muted), 4)),
            ),
            RangerPart::ToolCall { name, input } => out.push(DocLine::hanging(
                Line::from(vec![
                    Span::styled(format!("  ⚙ {} ", inert(name)), theme.tool_name),
                    Span::styled(inert(&arguments(input)), theme.muted),
                ]),
                1,
            )),
            RangerPart::ToolResult { result, .. } => {
                let clean = sanitize(result);
                let all: Vec<&str> = clean.lines().collect();
                for l in all.iter().take(RESULT_LINES) {
                    out.push(DocLine::word(
                        Line::styled(format!("    │ {l}"), theme.role_tool),
                        6,
                    ));
                }
                if all.len() > RESULT_LINES {
                    out.push(DocLine::hard(Line::styled(
                        format!("    │ … {} more lines", all.len() - RESULT_LINES),
                        theme.muted,
                    )));
                }
            }
            RangerPart::Text(text) => out.extend(
                render(text, &styles(theme), width.saturating_sub(2))
                    .into_iter()
                    .map(|mut l| {
                        l.spans.insert(0, Span::raw("  "));
                        DocLine::hard(l)
                    }),
            ),
            RangerPart::Error(text) => out.push(DocLine::word(
                Line::styled(format!("  Error: {}", inert(text)), theme.error),
                2,
            )),
        }
    }
    if !answer.done {
        out.push(DocLine::hard(Line::styled(
            "  [the answer ended before the Ranger said it was done]",
            theme.notice,
        )));
    }
}

/// A tool call's arguments as the dashboard sums them up: its strings and numbers,
/// `key=value`, a string past 40 characters cut.
fn arguments(input: &Value) -> String {
    let Some(fields) = input.as_object() else {
        return String::new();
    };
    fields
        .iter()
        .filter_map(|(k, v)| match v {
            Value::String(s) if s.chars().count() > 40 => {
                Some(format!("{k}={}...", s.chars().take(40).collect::<String>()))
            }
            Value::String(s) => Some(format!("{k}={s}")),
            Value::Number(n) => Some(format!("{k}={n}")),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_conversation_in_words_and_inert() {
        let turns = [
            Turn::Asked {
                about: Some("finch".into()),
                text: "why \u{1b}[2J asleep?".into(),
            },
            Turn::Answer(RangerAnswer {
                parts: vec![
                    RangerPart::ToolCall {
                        name: "bash".into(),
                        input: json!({"command": "tail -n 3 creatures/finch/.sys/events.jsonl"}),
                    },
                    RangerPart::ToolResult {
                        name: "bash".into(),
                        result: (1..=9).map(|n| format!("line {n}\n")).collect(),
                    },
                    RangerPart::Text("It hit its **budget**.".into()),
                ],
                done: true,
            }),
        ];
        let text: Vec<String> = lines(&turns, true, &Theme::default(), 60)
            .iter()
            .map(|l| l.line.to_string())
            .collect();
        assert!(text.iter().all(|l| !l.contains('\u{1b}')), "{text:?}");
        assert!(text.iter().any(|l| l.contains("you (about finch):")));
        assert!(
            text.iter()
                .any(|l| l.contains("⚙ bash command=tail -n 3 creatures/finch/.sys/events.js...")),
            "{text:?}"
        );
        assert!(text.iter().any(|l| l.contains("… 3 more lines")));
        assert!(
            text.iter().any(|l| l.contains("It hit its budget.")),
            "{text:?}"
        );
        assert!(text.last().unwrap().contains("thinking"));
    }
}
