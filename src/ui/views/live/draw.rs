//! Drawing the Live view, and what its title says (the position, how many events are
//! kept, following).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Span;

use super::LiveView;
use crate::ui::doc::scroll::{self, Anchor};
use crate::ui::draw::{DrawContext, doc};

impl LiveView {
    /// Draws the document scrolled to `anchor` (the selected creature's).
    pub fn draw(&self, frame: &mut Frame, area: Rect, anchor: Anchor, cx: &DrawContext) {
        doc::render(
            frame,
            area,
            &self.doc,
            anchor,
            "No live events yet: they come as the orchestrator sends them.",
            cx.theme,
        );
    }

    pub fn status(&self, anchor: Anchor, cx: &DrawContext) -> Vec<Span<'static>> {
        let lines = &self.doc;
        if lines.is_empty() {
            return Vec::new();
        }
        let top = scroll::top(lines, anchor, cx.areas.main_viewport());
        let follow = if anchor == Anchor::End {
            " · following"
        } else {
            ""
        };
        vec![Span::styled(
            format!(" {}/{} events{follow} ", top + 1, lines.len()),
            cx.theme.muted,
        )]
    }
}
