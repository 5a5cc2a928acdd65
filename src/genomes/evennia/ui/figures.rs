//! What the evennia views share, prepared: importance bars, relationship colours, and the
//! figures of the header and the garden list.

use std::collections::BTreeMap;

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::genomes::evennia::memory::EvenniaMemory;
use crate::genomes::evennia::memory::entities::RelationshipState;
use crate::genomes::evennia::memory::journal::ImportanceMethod;
use crate::memory::summary::Summary;
use crate::ui::doc::DocLine;
use crate::ui::draw::fmt::Part;
use crate::ui::genome::GardenCx;
use crate::ui::prepare::inert;
use crate::ui::prepare::items::clock;
use crate::ui::state::FrameClock;
use crate::ui::theme::Theme;

/// Cells of an importance bar: one per point of the 1..10 scale.
pub const IMPORTANCE_CELLS: usize = 10;

/// The importance 1..10 as a bar of [`IMPORTANCE_CELLS`] cells, coloured by how much it
/// matters (GRN, YLW, RED as the observations are).
pub fn importance_bar(importance: Option<u32>, theme: &Theme) -> Vec<Span<'static>> {
    let n = importance.unwrap_or(0).min(IMPORTANCE_CELLS as u32) as usize;
    vec![
        Span::styled("█".repeat(n), importance_style(importance, theme)),
        Span::styled("░".repeat(IMPORTANCE_CELLS - n), theme.gauge_empty),
    ]
}

pub fn importance_style(importance: Option<u32>, theme: &Theme) -> Style {
    match importance.unwrap_or(0) {
        0 => theme.muted,
        1..=3 => theme.grn,
        4..=6 => theme.ylw,
        _ => theme.red,
    }
}

/// `llm` or `heur` (or what the file says), and its style.
pub fn method(method: Option<&ImportanceMethod>, theme: &Theme) -> Span<'static> {
    match method {
        Some(ImportanceMethod::Llm) => Span::styled("llm ", theme.accent),
        Some(ImportanceMethod::Heuristic) => Span::styled("heur", theme.muted),
        Some(ImportanceMethod::Other(s)) => Span::styled(format!("{:<4}", inert(s)), theme.muted),
        None => Span::styled("    ", theme.muted),
    }
}

/// The colour of a relationship state.
pub fn state_style(state: RelationshipState, theme: &Theme) -> Style {
    match state {
        RelationshipState::Ally => theme.grn,
        RelationshipState::Friend => theme.dream,
        RelationshipState::Acquaintance => theme.ylw,
        RelationshipState::Stranger => theme.muted,
    }
}

/// A pending action of a conversation in working memory, `lead` columns in.
pub fn pending(action: &str, lead: usize, theme: &Theme) -> DocLine {
    DocLine::hanging(
        Line::from(vec![
            Span::styled(format!("{}pending ", " ".repeat(lead)), theme.ylw),
            Span::styled(inert(action), theme.base),
        ]),
        1,
    )
}

/// The figures the header and the garden list show for an evennia creature.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EvenniaSummary {
    /// `asleep · compacting · wake deferred`, inert.
    pub mode: String,
    pub cumulative: u64,
    pub threshold: u64,
    pub reflections: u64,
    pub entries: u64,
    pub pruned: u64,
    /// Current entries by the method of their importance.
    pub heuristic: u64,
    pub llm: u64,
    /// `r1 16:48`, inert.
    pub last_reflection: Option<String>,
    pub memories: u64,
    pub links: u64,
    pub orphans: u64,
    pub entities: u64,
    pub by_state: BTreeMap<RelationshipState, u64>,
}

impl EvenniaSummary {
    pub fn of(m: &EvenniaMemory) -> Self {
        let (links, orphans) = m.semantic.links();
        let (heuristic, llm) = m.journal.by_method();
        Self {
            mode: inert(&m.mode.label()),
            cumulative: m.cumulative_importance(),
            threshold: m.threshold(),
            reflections: m.reflections.count,
            entries: m.journal.current(),
            pruned: m.journal.pruned,
            heuristic,
            llm,
            last_reflection: m
                .reflections
                .recent()
                .last()
                .map(|r| format!("{} {}", inert(&r.id), clock(r.t))),
            memories: m.semantic.memories().len() as u64 + m.semantic.not_kept(),
            links,
            orphans,
            entities: m.entities.len() as u64 + m.entities.not_kept,
            by_state: m.entities.by_state(),
        }
    }
}

/// The style of the importance toward the next reflection: red once a reflection is due.
pub fn reflection_style(e: &EvenniaSummary, theme: &Theme) -> Style {
    if e.cumulative >= e.threshold.max(1) {
        theme.red
    } else {
        theme.deep_sleep
    }
}

/// A bar of `cells` cells filled to the cumulative importance over the threshold.
pub fn reflection_bar(e: &EvenniaSummary, cells: usize, theme: &Theme) -> Vec<Span<'static>> {
    let threshold = e.threshold.max(1);
    let filled = (e.cumulative.min(threshold) as usize * cells).div_ceil(threshold as usize);
    vec![
        Span::styled("█".repeat(filled), reflection_style(e, theme)),
        Span::styled("░".repeat(cells - filled), theme.gauge_empty),
    ]
}

/// Cells of the importance gauge in the header.
const GAUGE: usize = 20;

/// The header's second line: the importance toward the next reflection, the journal,
/// memories and entities.
pub fn header(e: &EvenniaSummary, s: &Summary, now: FrameClock, theme: &Theme) -> Vec<Part> {
    vec![
        Part::optional(2, Span::styled("importance ", theme.muted)),
        Part {
            drop: 1,
            spans: reflection_bar(e, GAUGE, theme),
            short: None,
        },
        Part::keep(Span::styled(
            format!(" {}/{}", e.cumulative, e.threshold),
            reflection_style(e, theme),
        )),
        Part::optional(
            4,
            Span::styled(format!("  journal {}", e.entries), theme.muted),
        ),
        Part::optional(
            4,
            Span::styled(format!("  memories {}", e.memories), theme.muted),
        ),
        Part::optional(
            4,
            Span::styled(format!("  entities {}", e.entities), theme.muted),
        ),
        Part::keep(Span::styled(
            format!("  active {}", now.ago(s.last_activity)),
            theme.muted,
        )),
    ]
}

/// The garden list's figures: the importance toward the next reflection, the reflections.
pub fn garden(e: &EvenniaSummary, cx: &GardenCx) -> Vec<Part> {
    let theme = cx.theme;
    vec![
        Part {
            drop: 0,
            spans: reflection_bar(e, 6, theme),
            short: None,
        },
        Part::keep(Span::styled(
            format!(" {:>2}", e.cumulative),
            reflection_style(e, theme),
        )),
        Part::keep(Span::styled(cx.count('◆', e.reflections), theme.deep_sleep)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_fill_one_cell_per_point() {
        let theme = Theme::default();
        let bar: String = importance_bar(Some(7), &theme)
            .iter()
            .map(|s| s.content.to_string())
            .collect();
        assert_eq!(bar, "███████░░░");
        let over: String = importance_bar(Some(12), &theme)
            .iter()
            .map(|s| s.content.to_string())
            .collect();
        assert_eq!(over, "██████████");
    }
}
