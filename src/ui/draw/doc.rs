//! Drawing a scrolled document into a rectangle.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph};

use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{Anchor, end_top, top, window};
use crate::ui::layout::viewport;
use crate::ui::theme::Theme;

/// Draws the rows of `lines` at `anchor`, or `empty` (muted) when there are none.
pub fn render(
    frame: &mut Frame,
    area: Rect,
    lines: &[DocLine],
    anchor: Anchor,
    empty: &str,
    theme: &Theme,
) {
    if lines.is_empty() {
        frame.render_widget(
            Paragraph::new(Line::styled(empty.to_string(), theme.muted)),
            area,
        );
        return;
    }
    let rows = window(lines, anchor, viewport(area));
    frame.render_widget(Paragraph::new(rows), area);
}

/// `block` (a scrolled popup's frame around `inner`) with `↑ more above` / `↓ more below`
/// at its bottom right where `lines` at `anchor` go on past the view.
pub fn more_marks<'a>(
    block: Block<'a>,
    inner: Rect,
    lines: &[DocLine],
    anchor: Anchor,
    theme: &Theme,
) -> Block<'a> {
    let vp = viewport(inner);
    let first = top(lines, anchor, vp);
    let marks = [
        (first > 0, "↑ more above"),
        (first < end_top(lines, vp), "↓ more below"),
    ];
    let more: Vec<&str> = marks.iter().filter(|(m, _)| *m).map(|(_, t)| *t).collect();
    if more.is_empty() {
        return block;
    }
    let marker = format!(" {} ", more.join(" · "));
    block.title_bottom(Line::styled(marker, theme.muted).right_aligned())
}

/// A list of one-row items in `area`, the `selected` one highlighted and kept on screen
/// (the list beside a detail pane: entities, relations).
pub fn selectable_list<'a>(
    frame: &mut Frame,
    area: Rect,
    rows: impl Iterator<Item = &'a Line<'static>>,
    selected: Option<usize>,
    theme: &Theme,
) {
    let height = usize::from(area.height);
    if height == 0 {
        return;
    }
    let first = selected.map_or(0, |s| (s + 1).saturating_sub(height));
    let rows: Vec<Line> = rows
        .enumerate()
        .skip(first)
        .take(height)
        .map(|(i, line)| {
            if Some(i) == selected {
                line.clone().patch_style(theme.selection)
            } else {
                line.clone()
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(rows), area);
}
