//! The selected dream as a document: its priority, counts, what it changed (the pruned
//! line picked to restore marked), its reflection. The detail pane shows it scrolled.

use ratatui::text::{Line, Span};

use super::prepare::{DreamDetail, PreparedDream};
use crate::ui::doc::DocLine;
use crate::ui::prepare::changes::{self, DreamChanges};
use crate::ui::theme::Theme;

/// Dream `d` (`full`: read whole from disk, `changes`: what it changed, `picked`: the
/// line of `changes` picked to restore).
pub fn document(
    d: &PreparedDream,
    full: Option<&DreamDetail>,
    changes: Option<&DreamChanges>,
    picked: Option<usize>,
    theme: &Theme,
) -> Vec<DocLine> {
    let mut lines = vec![DocLine::word(
        Line::from(vec![
            Span::styled("priority ", theme.muted),
            Span::styled(
                full.map_or_else(|| d.priority.clone(), |f| f.priority.clone()),
                theme.accent,
            ),
        ]),
        9,
    )];
    lines.push(DocLine::word(
        Line::styled(
            format!("{} actions · {} observations", d.actions, d.observations),
            theme.muted,
        ),
        0,
    ));
    lines.push(DocLine::word(Line::default(), 0));
    if let Some(changed) = changes.filter(|c| !c.lines.is_empty()) {
        lines.push(DocLine::word(
            Line::styled("What it changed", theme.title),
            0,
        ));
        let picked = picked
            .and_then(|p| changed.pruned.get(p))
            .map(|(line, _)| *line);
        lines.extend(changed.lines.iter().enumerate().map(|(n, c)| {
            let line = Line::styled(c.text.clone(), changes::style(c.mark, theme));
            let line = if Some(n) == picked {
                line.patch_style(theme.selection)
            } else {
                line
            };
            DocLine::word(line, 2)
        }));
        lines.push(DocLine::word(Line::default(), 0));
    }
    lines.extend(
        full.iter()
            .flat_map(|f| &f.reflection)
            .map(|l| DocLine::word(Line::styled(l.clone(), theme.base), 0)),
    );
    lines
}
