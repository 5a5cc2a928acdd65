//! What the evennia views share, prepared (and the emergence views: the item document,
//! text lines, clock): a document whose items can be found by their file lines (for search
//! hits), importance bars, relationship colours, and the figures of the header and the
//! garden list.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::inert;
use crate::genomes::evennia::memory::EvenniaMemory;
use crate::genomes::evennia::memory::entities::RelationshipState;
use crate::genomes::evennia::memory::journal::ImportanceMethod;
use crate::memory::layout::FileKind;
use crate::text::sanitize::sanitize;
use crate::ui::doc::DocLine;
use crate::ui::theme::Theme;

/// Cells of an importance bar: one per point of the 1..10 scale.
pub const IMPORTANCE_CELLS: usize = 10;

/// One item of a document (an entry, a reflection, a memory): where it starts in the
/// document, and which lines of which file it was folded from.
#[derive(Debug, Clone, PartialEq)]
pub struct DocItem {
    pub at: usize,
    pub file: FileKind,
    pub lines: Vec<u64>,
}

/// A document of items.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ItemDoc {
    pub lines: Vec<DocLine>,
    pub items: Vec<DocItem>,
}

impl ItemDoc {
    /// Starts an item at the current end of the document.
    pub fn item(&mut self, file: FileKind, lines: &[u64]) {
        self.items.push(DocItem {
            at: self.lines.len(),
            file,
            lines: lines.to_vec(),
        });
    }

    /// The document line where the item folded from `line` (0-based) of `file` starts.
    pub fn find(&self, file: FileKind, line: u64) -> Option<usize> {
        self.items
            .iter()
            .find(|i| i.file == file && i.lines.contains(&line))
            .map(|i| i.at)
    }
}

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

/// Text from a creature as inert lines (empty lines dropped).
pub fn text_lines(text: &str) -> Vec<String> {
    sanitize(text.trim())
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
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

/// `HH:MM`, or `--:--` without a time.
pub fn clock(t: Option<DateTime<Utc>>) -> String {
    t.map_or_else(|| "--:--".into(), |t| t.format("%H:%M").to_string())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_found_by_any_of_their_lines() {
        let mut doc = ItemDoc::default();
        doc.item(crate::genomes::evennia::memory::JOURNAL, &[0, 4]);
        doc.lines.push(DocLine::hard(Default::default()));
        doc.item(crate::genomes::evennia::memory::REFLECTIONS, &[0]);
        assert_eq!(
            doc.find(crate::genomes::evennia::memory::JOURNAL, 4),
            Some(0)
        );
        assert_eq!(
            doc.find(crate::genomes::evennia::memory::REFLECTIONS, 0),
            Some(1)
        );
        assert_eq!(doc.find(crate::genomes::evennia::memory::JOURNAL, 1), None);
    }

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
