//! The entities view: every entity with its relationship, and the selected one's profile.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

use super::doc;
use crate::ui::layout::Areas;
use crate::ui::state::evennia::EvenniaUi;
use crate::ui::theme::Theme;

pub fn render(frame: &mut Frame, areas: &Areas, e: &EvenniaUi, theme: &Theme) {
    if e.entities.is_empty() {
        frame.render_widget(
            Paragraph::new(Line::styled(
                "No entities yet: they come with the creature's first encounters.",
                theme.muted,
            )),
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
    let height = usize::from(area.height);
    if height == 0 {
        return;
    }
    let selected = e.selected_entity();
    let first = selected.map_or(0, |s| (s + 1).saturating_sub(height));
    let rows: Vec<Line> = e
        .entities
        .iter()
        .enumerate()
        .skip(first)
        .take(height)
        .map(|(i, row)| {
            if Some(i) == selected {
                row.line.clone().patch_style(theme.selection)
            } else {
                row.line.clone()
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(rows), area);
}
