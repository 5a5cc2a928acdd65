//! Drawing the Observations view, and what its title says (position, filter, order).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Span;

use super::ObservationsView;
use crate::ui::doc::scroll;
use crate::ui::draw::DrawContext;
use crate::ui::draw::doc;

impl ObservationsView {
    pub fn draw(&self, frame: &mut Frame, area: Rect, cx: &DrawContext) {
        doc::render(
            frame,
            area,
            &self.doc.lines,
            self.anchor,
            "No observations shown: none yet (they come with the first dream), or all filtered out.",
            cx.theme,
        );
    }

    /// The title's right-hand part: where the reader is, the priorities shown, the order.
    pub fn status(&self, cx: &DrawContext) -> Vec<Span<'static>> {
        let theme = cx.theme;
        let f = self.filter;
        let mut spans = Vec::new();
        let lines = &self.doc.lines;
        if !lines.is_empty() {
            let top = scroll::top(lines, self.anchor, cx.areas.main_viewport());
            spans.push(Span::styled(
                format!(" {}/{} ·", top + 1, lines.len()),
                theme.muted,
            ));
        }
        for (shown, tag, style) in [
            (f.red, "RED", theme.red),
            (f.ylw, "YLW", theme.ylw),
            (f.grn, "GRN", theme.grn),
        ] {
            let (mark, style) = if shown {
                ("✓", style)
            } else {
                ("✗", theme.muted)
            };
            spans.push(Span::styled(format!(" {tag}{mark}"), style));
        }
        let order = if self.newest_first {
            " · newest first "
        } else {
            " · oldest first "
        };
        spans.push(Span::styled(order, theme.muted));
        spans
    }
}
