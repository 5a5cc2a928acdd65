//! Drawing the Talk view, and what its title says (where the reader is, how many
//! messages, following).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Span;

use super::TalkView;
use crate::ui::doc::scroll;
use crate::ui::draw::{DrawContext, doc};

impl TalkView {
    pub fn draw(&self, frame: &mut Frame, area: Rect, cx: &DrawContext) {
        doc::render(
            frame,
            area,
            &self.doc,
            self.anchor,
            "No messages yet: what the creatures write to each other (send_message) and their creator's messages show here, newest first.",
            cx.theme,
        );
    }

    pub fn status(&self, cx: &DrawContext) -> Vec<Span<'static>> {
        let n = self.said.len();
        if self.doc.is_empty() {
            return Vec::new();
        }
        let top = scroll::top(&self.doc, self.anchor, cx.areas.main_viewport());
        let plural = if n == 1 { "" } else { "s" };
        let mut spans = vec![Span::styled(
            format!(" {}/{n} · {n} message{plural} · newest first ", top + 1),
            cx.theme.muted,
        )];
        if top == 0 {
            spans.push(Span::styled("following ", cx.theme.accent));
        }
        spans
    }
}
