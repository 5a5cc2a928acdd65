//! The relations view, prepared: one row per agent (most trusted first), and the selected
//! agent's relationship now with its whole history, newest first.

use std::cmp::Ordering;

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

use super::figures::{stamp, text_under, trust_bar, trust_style};
use crate::genomes::emergence::memory::EmergenceMemory;
use crate::genomes::emergence::memory::dialogues::Dialogues;
use crate::genomes::emergence::memory::relations::{AgentRelation, Relation};
use crate::text::wrap::truncate;
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;

/// Columns of an agent's name in the list at most.
const NAME_WIDTH: usize = 12;
/// Cells of the trust bar in a row, and in the detail.
const ROW_CELLS: usize = 5;
const DETAIL_CELLS: usize = 20;

/// One agent in the list.
#[derive(Debug, Clone, PartialEq)]
pub struct RelationRow {
    /// As in the file (to look it up).
    pub agent: String,
    pub line: Line<'static>,
}

/// Every agent, most trusted first, then by name: name, type, trust and interactions in
/// columns.
pub fn rows(m: &EmergenceMemory, theme: &Theme) -> Vec<RelationRow> {
    let mut agents: Vec<&AgentRelation> = m.relations.agents().collect();
    let trust = |a: &AgentRelation| a.current().and_then(|r| r.trust_level);
    agents.sort_by(|a, b| {
        trust(b)
            .partial_cmp(&trust(a))
            .unwrap_or(Ordering::Equal)
            .then(a.agent.cmp(&b.agent))
    });
    let width = agents
        .iter()
        .map(|a| inert(&a.agent).width())
        .max()
        .unwrap_or(0)
        .min(NAME_WIDTH);
    agents
        .into_iter()
        .map(|a| {
            let name = truncate(&inert(&a.agent), width);
            let pad = " ".repeat(width.saturating_sub(name.width()) + 1);
            let now = a.current().cloned().unwrap_or_default();
            let kind = now.relationship_type.as_deref().map_or("—".into(), inert);
            let trust = now.trust_level;
            RelationRow {
                agent: a.agent.clone(),
                line: Line::from(vec![
                    Span::styled(format!("{name}{pad}"), theme.base),
                    Span::styled(format!("{:<11}", truncate(&kind, 10)), theme.dream),
                    Span::styled(trust_bar(trust, ROW_CELLS), trust_style(trust, theme)),
                    Span::styled(
                        trust.map_or("     ".into(), |t| format!(" {t:.2}")),
                        theme.muted,
                    ),
                    Span::styled(
                        now.interaction_count
                            .map_or(String::new(), |n| format!(" ×{n}")),
                        theme.muted,
                    ),
                ]),
            }
        })
        .collect()
}

/// The relationship with `a` now, then every change kept, newest first.
pub fn history(a: &AgentRelation, theme: &Theme) -> Vec<DocLine> {
    let mut out = Vec::new();
    let now = a.current().cloned().unwrap_or_default();
    let mut head = vec![Span::styled(inert(&a.agent), theme.accent)];
    if let Some(kind) = &now.relationship_type {
        head.push(Span::styled(format!(" · {}", inert(kind)), theme.dream));
    }
    out.push(DocLine::hanging(Line::from(head), 1));
    out.push(DocLine::word(
        Line::from(vec![
            Span::styled("trust ", theme.muted),
            Span::styled(
                trust_bar(now.trust_level, DETAIL_CELLS),
                trust_style(now.trust_level, theme),
            ),
            Span::styled(
                now.trust_level.map_or(" —".into(), |t| format!(" {t:.2}")),
                trust_style(now.trust_level, theme),
            ),
        ]),
        6,
    ));
    let mut fact = |label: &str, value: Option<String>, style: Style| {
        if let Some(value) = value {
            let lead = vec![Span::styled(format!("{label:<13}"), theme.muted)];
            out.extend(text_under(lead, &value, style));
        }
    };
    fact("tone", now.emotional_tone.clone(), theme.base);
    fact(
        "interactions",
        now.interaction_count.map(|n| n.to_string()),
        theme.base,
    );
    fact(
        "first met",
        now.first_met_at.map(|t| stamp(Some(t))),
        theme.base,
    );
    fact("rationale", now.rationale.clone(), theme.base);
    fact("notes", now.notes.clone(), theme.base);

    out.push(DocLine::hard(Line::default()));
    let kept = a.history.as_slice();
    let shown = if (kept.len() as u64) < a.changes {
        format!(" · the last {} of {} changes", kept.len(), a.changes)
    } else {
        format!(" · {} changes", a.changes)
    };
    out.push(DocLine::word(
        Line::from(vec![
            Span::styled("History", theme.title),
            Span::styled(format!("{shown}, newest first"), theme.muted),
        ]),
        2,
    ));
    for (i, r) in kept.iter().enumerate().rev() {
        let before = i.checked_sub(1).and_then(|b| kept.get(b));
        out.extend(change(r, before, theme));
    }
    out
}

/// Dialogue lines with one agent shown at most: the newest.
const DIALOGUE_SHOWN: usize = 200;

/// What the creature and `agent` said to each other (`.self/dialogues.jsonl`), newest
/// first, each line archived by self-care marked with its summary; beside the lines, the
/// file line of each row shown (for a search hit).
pub fn dialogue(d: &Dialogues, agent: &str, theme: &Theme) -> (Vec<DocLine>, Vec<(u64, usize)>) {
    let said: Vec<_> = d.all().rev().filter(|s| s.with == agent).collect();
    if said.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let mut out = vec![
        DocLine::hard(Line::default()),
        DocLine::word(
            Line::from(vec![
                Span::styled("Dialogue", theme.title),
                Span::styled(
                    format!(
                        " · {} lines with {}, newest first",
                        said.len(),
                        inert(agent)
                    ),
                    theme.muted,
                ),
            ]),
            2,
        ),
    ];
    let mut rows = Vec::new();
    for s in said.into_iter().take(DIALOGUE_SHOWN) {
        rows.push((s.line, out.len()));
        let speaker = if s.from == agent {
            theme.accent
        } else {
            theme.title
        };
        let mut lead = vec![
            Span::styled(format!("{:<13}", stamp(s.t)), theme.muted),
            Span::styled(format!("{}: ", inert(&s.from)), speaker),
        ];
        if let Some(sum) = &s.archived {
            lead.push(Span::styled(format!("→ {} ", inert(sum)), theme.muted));
        }
        let n = lead.len() as u16;
        lead.push(Span::styled(inert(&s.text), theme.base));
        out.push(DocLine::hanging(Line::from(lead), n));
    }
    (out, rows)
}

/// One line of history: its time, then each field (what changed from the line before it
/// bright, the rest muted), then its rationale.
fn change(r: &Relation, before: Option<&Relation>, theme: &Theme) -> Vec<DocLine> {
    let style = |changed: bool| if changed { theme.base } else { theme.muted };
    let kind = r.relationship_type.as_deref().map_or("—".into(), inert);
    let mut lead = vec![
        Span::styled(format!("{:<13}", stamp(r.t)), theme.muted),
        Span::styled(
            format!("{kind} "),
            style(before.is_none_or(|b| b.relationship_type != r.relationship_type)),
        ),
        Span::styled(
            r.trust_level.map_or(String::new(), |t| format!("{t:.2} ")),
            if before.is_none_or(|b| b.trust_level != r.trust_level) {
                trust_style(r.trust_level, theme)
            } else {
                theme.muted
            },
        ),
        Span::styled(
            r.emotional_tone
                .as_deref()
                .map_or(String::new(), |t| format!("{} ", inert(t))),
            style(before.is_none_or(|b| b.emotional_tone != r.emotional_tone)),
        ),
        Span::styled(
            r.interaction_count
                .map_or(String::new(), |n| format!("×{n}")),
            theme.muted,
        ),
    ];
    let said = before.is_none_or(|b| b.rationale != r.rationale);
    match r.rationale.as_deref().filter(|_| said) {
        Some(why) => {
            let mut lines = vec![DocLine::hanging(Line::from(std::mem::take(&mut lead)), 1)];
            let indent = vec![Span::raw(" ".repeat(13))];
            lines.extend(text_under(indent, why, theme.base));
            lines
        }
        None => vec![DocLine::hanging(Line::from(lead), 1)],
    }
}
