//! Drawing the popup of a dream held for review: its lines, scrolled, in a box over the
//! screen; its keys are in the hint bar.

use ratatui::Frame;
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Clear};

use super::ReviewPopup;
use crate::ui::doc::DocLine;
use crate::ui::draw::{DrawContext, doc};
use crate::ui::layout;

impl ReviewPopup {
    /// Draws `lines`, the dream of the creature `name` awaiting review.
    pub fn draw(&self, frame: &mut Frame, name: &str, lines: &[DocLine], cx: &DrawContext) {
        let theme = cx.theme;
        let area = layout::review(frame.area(), lines.len());
        frame.render_widget(Clear, area);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border_focused)
            .style(theme.base)
            .title(Span::styled(
                format!(" {name}: a dream awaiting review "),
                theme.title,
            ));
        let inner = block.inner(area);
        frame.render_widget(
            doc::more_marks(block, inner, lines, self.anchor, theme),
            area,
        );
        doc::render(
            frame,
            inner,
            lines,
            self.anchor,
            "no dream awaiting review",
            theme,
        );
    }
}
