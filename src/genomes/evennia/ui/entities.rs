//! The entities view, prepared: one row per entity (allies first), and the profile of the
//! selected one: its type, attributes (Pa), recent observations (Pf), relationship and its
//! history, and its conversation in working memory.

use std::cmp::Ordering;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use unicode_width::UnicodeWidthStr;

use super::ENTITIES;
use super::figures::{pending, state_style};
use super::state::EvenniaUi;
use crate::genomes::evennia::memory::EvenniaMemory;
use crate::genomes::evennia::memory::entities::{Entity, RelationshipState};
use crate::genomes::evennia::memory::working::Conversation;
use crate::text::wrap::truncate;
use crate::ui::doc::DocLine;
use crate::ui::draw::doc;
use crate::ui::layout::Areas;
use crate::ui::prepare::inert;
use crate::ui::prepare::items::{clock, text_lines};
use crate::ui::theme::Theme;

/// Cells of the favorability bar in a profile (0.0 to 1.0).
const FAVORABILITY_CELLS: usize = 20;
/// Recent observations shown in a profile.
const OBSERVATIONS_SHOWN: usize = 10;

/// One entity in the list.
#[derive(Debug, Clone, PartialEq)]
pub struct EntityRow {
    /// As in the file (to look it up), and inert (to show).
    pub id: String,
    pub name: String,
    pub state: Option<RelationshipState>,
    pub favorability: Option<f64>,
    pub line: Line<'static>,
}

/// Columns of an entity's name in the list at most.
const NAME_WIDTH: usize = 14;

/// Every entity, allies first, then by favorability, then by id; names, states and
/// favorabilities in columns.
pub fn rows(m: &EvenniaMemory, theme: &Theme) -> Vec<EntityRow> {
    let mut rows: Vec<EntityRow> = m
        .entities
        .all()
        .map(|e| {
            let relationship = e.relationship();
            EntityRow {
                id: e.id.clone(),
                name: inert(&e.id),
                state: relationship.map(|r| r.state),
                favorability: relationship.and_then(|r| r.favorability),
                line: Line::default(),
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        b.state
            .cmp(&a.state)
            .then(
                b.favorability
                    .partial_cmp(&a.favorability)
                    .unwrap_or(Ordering::Equal),
            )
            .then(a.id.cmp(&b.id))
    });
    let width = rows
        .iter()
        .map(|r| r.name.width())
        .max()
        .unwrap_or(0)
        .min(NAME_WIDTH);
    for row in &mut rows {
        let name = truncate(&row.name, width);
        let pad = " ".repeat(width.saturating_sub(name.width()) + 1);
        let (label, style) = match row.state {
            Some(s) => (s.as_str(), state_style(s, theme)),
            None => ("—", theme.muted),
        };
        row.line = Line::from(vec![
            Span::styled(format!("{name}{pad}"), theme.base),
            Span::styled(format!("{label:<13}"), style),
            Span::styled(
                row.favorability
                    .map_or(String::new(), |f| format!("{f:.2}")),
                theme.muted,
            ),
        ]);
    }
    rows
}

/// The profile of `e`, with its conversation in working memory if it has one.
pub fn profile(e: &Entity, conversation: Option<&Conversation>, theme: &Theme) -> Vec<DocLine> {
    let mut out = Vec::new();
    let title = |out: &mut Vec<DocLine>, text: &str, extra: String| {
        out.push(DocLine::hard(Line::default()));
        out.push(DocLine::word(
            Line::from(vec![
                Span::styled(text.to_string(), theme.title),
                Span::styled(extra, theme.muted),
            ]),
            2,
        ));
    };
    let kind = e
        .entity_type
        .as_deref()
        .map(inert)
        .unwrap_or("entity".into());
    out.push(DocLine::word(
        Line::from(vec![
            Span::styled(inert(&e.id), theme.accent),
            Span::styled(format!(" · {kind}"), theme.muted),
        ]),
        2,
    ));
    out.extend(relationship_lines(e, theme));

    title(&mut out, "Attributes (Pa)", String::new());
    if let Some(t) = e.consolidated_at {
        out.push(DocLine::word(
            Line::styled(
                format!(
                    "from {} of {} observations, {}",
                    e.consolidated,
                    e.observed,
                    clock(Some(t))
                ),
                theme.muted,
            ),
            0,
        ));
    }
    if e.attributes.is_empty() {
        out.push(DocLine::word(
            Line::styled("none yet (consolidated while dreaming)", theme.muted),
            0,
        ));
    }
    let key_width = e
        .attributes
        .keys()
        .map(|k| inert(k).chars().count())
        .max()
        .unwrap_or(0);
    for (k, v) in &e.attributes {
        out.push(DocLine::word(
            Line::from(vec![
                Span::styled(format!("{:<key_width$}  ", inert(k)), theme.muted),
                Span::styled(inert(v), theme.base),
            ]),
            (key_width + 2) as u16,
        ));
    }

    title(&mut out, "Observations (Pf)", format!(" · {}", e.observed));
    for o in e
        .observations
        .as_slice()
        .iter()
        .rev()
        .take(OBSERVATIONS_SHOWN)
    {
        let pending = if o.n > e.consolidated { " •" } else { "  " };
        out.push(DocLine::hanging(
            Line::from(vec![
                Span::styled(format!("{}{pending} ", clock(o.t)), theme.muted),
                Span::styled(text_lines(&o.text).join(" "), theme.base),
            ]),
            1,
        ));
    }
    if e.observed > e.consolidated {
        out.push(DocLine::word(
            Line::styled("• not consolidated yet", theme.muted),
            0,
        ));
    }

    title(
        &mut out,
        "History",
        format!(" · {} changes", e.relationship_lines),
    );
    let history = e.history.as_slice();
    for (i, r) in history.iter().enumerate().rev() {
        let before = i.checked_sub(1).and_then(|p| history[p].favorability);
        let delta = match (r.favorability, before) {
            (Some(f), Some(b)) => format!(" ({:+.2})", f - b),
            _ => String::new(),
        };
        let count = r
            .interaction_count
            .map_or(String::new(), |n| format!("{n:>3}×"));
        out.push(DocLine::hanging(
            Line::from(vec![
                Span::styled(format!("{} ", clock(r.t)), theme.muted),
                Span::styled(
                    format!("{:<12} ", r.state.as_str()),
                    state_style(r.state, theme),
                ),
                Span::styled(
                    r.favorability.map_or("    ".into(), |f| format!("{f:.2}")),
                    theme.base,
                ),
                Span::styled(format!("{delta:<8}"), theme.muted),
                Span::styled(format!("{count:<5}"), theme.muted),
                Span::raw("  "),
                Span::styled(
                    r.reason.as_deref().map(inert).unwrap_or_default(),
                    theme.base,
                ),
            ]),
            1,
        ));
    }
    if history.is_empty() {
        out.push(DocLine::word(
            Line::styled("no interaction yet", theme.muted),
            0,
        ));
    }

    if let Some(c) = conversation {
        let since = c
            .started_at
            .map_or(String::new(), |t| format!(" · since {}", clock(Some(t))));
        title(&mut out, "Working memory", since);
        if let Some(topic) = &c.topic {
            out.push(DocLine::word(
                Line::from(vec![
                    Span::styled("topic ", theme.muted),
                    Span::styled(inert(topic), theme.base),
                ]),
                6,
            ));
        }
        for msg in &c.messages {
            let from = msg.from.as_deref().map(inert).unwrap_or_default();
            out.push(DocLine::word(
                Line::from(vec![
                    Span::styled(format!("{from}: "), theme.accent),
                    Span::styled(
                        text_lines(msg.text.as_deref().unwrap_or_default()).join(" "),
                        theme.base,
                    ),
                ]),
                2,
            ));
        }
        for action in &c.pending_actions {
            out.push(pending(action, 0, theme));
        }
    }
    out
}

/// `friend 0.55 · 13 interactions`, then the favorability as a bar (ticks at the
/// thresholds) and over time.
fn relationship_lines(e: &Entity, theme: &Theme) -> Vec<DocLine> {
    let Some(r) = e.relationship() else {
        return vec![DocLine::word(
            Line::styled("no relationship yet", theme.muted),
            0,
        )];
    };
    let style = state_style(r.state, theme);
    let mut head = vec![Span::styled(r.state.as_str(), style)];
    if let Some(f) = r.favorability {
        head.push(Span::styled(format!(" {f:.2}"), theme.base));
    }
    if let Some(n) = r.interaction_count {
        head.push(Span::styled(format!(" · {n} interactions"), theme.muted));
    }
    let mut out = vec![DocLine::word(Line::from(head), 2)];
    if let Some(f) = r.favorability {
        let filled = ((f.clamp(0.0, 1.0) * FAVORABILITY_CELLS as f64).round()) as usize;
        let empty: String = (filled..FAVORABILITY_CELLS)
            .map(|i| if i % 5 == 0 { '▏' } else { '░' })
            .collect();
        out.push(DocLine::hard(Line::from(vec![
            Span::styled("█".repeat(filled), style),
            Span::styled(empty, theme.gauge_empty),
        ])));
    }
    let shape: String = e
        .history
        .as_slice()
        .iter()
        .filter_map(|r| r.favorability)
        .map(spark)
        .collect();
    if shape.chars().count() > 1 {
        out.push(DocLine::hard(Line::from(vec![
            Span::styled("over time ", theme.muted),
            Span::styled(shape, theme.dream),
        ])));
    }
    out
}

/// One favorability (0..1) as a block of eight heights.
fn spark(f: f64) -> char {
    const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    BLOCKS[((f.clamp(0.0, 1.0) * 7.0).round() as usize).min(7)]
}

/// The list of entities beside the selected one's profile.
pub fn draw(frame: &mut Frame, areas: &Areas, e: &EvenniaUi, theme: &Theme) {
    if e.entities.is_empty() {
        frame.render_widget(
            Paragraph::new(Line::styled(ENTITIES.empty, theme.muted)),
            areas.main_view,
        );
        return;
    }
    list(frame, areas.main_view, e, theme);
    if let Some(area) = areas.detail {
        let block = Block::default()
            .borders(Borders::LEFT)
            .border_style(theme.border);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let inner = Rect {
            x: inner.x.saturating_add(1),
            width: inner.width.saturating_sub(1),
            ..inner
        };
        doc::render(frame, inner, &e.profile, e.profile_anchor, "", theme);
    }
}

fn list(frame: &mut Frame, area: Rect, e: &EvenniaUi, theme: &Theme) {
    let rows = e.entities.iter().map(|row| &row.line);
    doc::selectable_list(frame, area, rows, e.selected_entity(), theme);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory() -> EvenniaMemory {
        let mut m = EvenniaMemory::default();
        for (i, l) in [
            r#"{"t":"2026-11-22T10:00:00Z","op":"observe","entity_id":"moss","entity_type":"creature","text":"laughed"}"#,
            r#"{"t":"2026-11-22T10:01:00Z","op":"relationship","entity_id":"moss","favorability":0.56,"interaction_count":6,"reason":"shared a rumour"}"#,
            r#"{"t":"2026-11-22T10:02:00Z","op":"relationship","entity_id":"moss","favorability":0.47,"interaction_count":7,"reason":"ignored my question"}"#,
            r#"{"t":"2026-11-22T10:03:00Z","op":"relationship","entity_id":"ada","favorability":0.8}"#,
            r#"{"t":"2026-11-22T10:04:00Z","op":"observe","entity_id":"the well","text":"dry"}"#,
        ]
        .iter()
        .enumerate()
        {
            m.fold(crate::genomes::evennia::memory::ENTITIES, i as u64, l.as_bytes()).unwrap();
        }
        m
    }

    #[test]
    fn allies_first_then_by_favorability() {
        let rows = rows(&memory(), &Theme::default());
        let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["ada", "moss", "the well"]);
        assert_eq!(rows[1].line.to_string(), "moss     acquaintance 0.47");
        assert_eq!(rows[2].line.to_string(), "the well —            ");
    }

    #[test]
    fn a_profile_tells_the_relationship_and_its_history() {
        let m = memory();
        let text: Vec<String> = profile(m.entities.get("moss").unwrap(), None, &Theme::default())
            .iter()
            .map(|l| l.line.to_string())
            .collect();
        assert_eq!(text[0], "moss · creature");
        assert_eq!(text[1], "acquaintance 0.47 · 7 interactions");
        assert_eq!(text[2], "█████████░▏░░░░▏░░░░");
        assert_eq!(text[3], "over time ▅▄");
        assert!(
            text.iter()
                .any(|l| l == "10:02 acquaintance 0.47 (-0.09)  7×   ignored my question"),
            "{text:?}"
        );
        assert!(text.iter().any(|l| l == "10:00 • laughed"), "{text:?}");
    }
}
