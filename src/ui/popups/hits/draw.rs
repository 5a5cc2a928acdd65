//! The list of a search's hits: a box over the screen, one prepared row per hit, the
//! selected one marked; its keys are in the hint bar.

use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::visible_top;
use crate::ui::draw::DrawContext;
use crate::ui::layout;
use crate::ui::state::search::SearchState;

/// Draws the list of `search`'s hits.
pub fn draw(frame: &mut Frame, search: &SearchState, cx: &DrawContext) {
    let theme = cx.theme;
    let list = &search.list;
    let area = layout::hit_list(frame.area());
    frame.render_widget(Clear, area);
    let query = search.query.as_deref().unwrap_or_default();
    let more = if search.running { "…" } else { "" };
    let kept = if search.count > list.rows.len() {
        format!(" (the first {} kept)", list.rows.len())
    } else {
        String::new()
    };
    let title = format!(
        " Hits of {}/{query}: {}/{}{kept}{more} ",
        search.scope(),
        (list.selected + 1).min(list.rows.len()),
        search.count,
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border_focused)
        .style(theme.base)
        .title(Span::styled(title, theme.title));
    let inner = block.inner(area);
    let height = usize::from(inner.height);
    let top = visible_top(list.top, list.selected, height);
    let marks = [
        (top > 0, "↑ more above"),
        (top + height < list.rows.len(), "↓ more below"),
    ];
    let more: Vec<&str> = marks.iter().filter(|(m, _)| *m).map(|(_, t)| *t).collect();
    let block = if more.is_empty() {
        block
    } else {
        let marker = format!(" {} ", more.join(" · "));
        block.title_bottom(Line::styled(marker, theme.muted).right_aligned())
    };
    let rows: Vec<Line> = list
        .rows
        .iter()
        .enumerate()
        .skip(top)
        .take(height)
        .map(|(i, row)| {
            if i == list.selected {
                row.clone().patch_style(theme.selection)
            } else {
                row.clone()
            }
        })
        .collect();
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(rows), inner);
}
