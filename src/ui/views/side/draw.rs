//! Drawing the side panel in its pane.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Span;

use super::SidePanel;
use crate::ui::draw::{DrawContext, doc, pane};

impl SidePanel {
    /// Draws the pane (`side`: the creature's, where one is selected), titled `title`.
    pub fn draw(
        side: Option<&Self>,
        frame: &mut Frame,
        area: Rect,
        title: &str,
        focused: bool,
        cx: &DrawContext,
    ) {
        let theme = cx.theme;
        let block = pane::block(theme, focused).title(Span::styled(title.to_string(), theme.title));
        let inner = block.inner(area);
        frame.render_widget(block, area);
        if let Some(side) = side {
            doc::render(frame, inner, &side.lines, side.anchor, "", theme);
        }
    }
}
