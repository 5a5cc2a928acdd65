//! The box a scrolled document popup is drawn in (help, the status log, an entry shown
//! whole): cleared, bordered, titled, with "more above / below" marks.

use ratatui::Frame;
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Clear};

use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::Anchor;
use crate::ui::draw::{DrawContext, doc};
use crate::ui::layout;

/// Draws `lines` at `anchor` in the help's place, titled `title`.
pub fn document(
    frame: &mut Frame,
    title: &str,
    lines: &[DocLine],
    anchor: Anchor,
    cx: &DrawContext,
) {
    document_in(frame, layout::help(frame.area()), title, lines, anchor, cx);
}

/// As [`document`], in `area`.
pub fn document_in(
    frame: &mut Frame,
    area: ratatui::layout::Rect,
    title: &str,
    lines: &[DocLine],
    anchor: Anchor,
    cx: &DrawContext,
) {
    let theme = cx.theme;
    frame.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border_focused)
        .style(theme.base)
        .title(Span::styled(title.to_string(), theme.title));
    let inner = block.inner(area);
    frame.render_widget(doc::more_marks(block, inner, lines, anchor, theme), area);
    doc::render(frame, inner, lines, anchor, "", theme);
}
