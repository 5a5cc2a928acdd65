//! Drawing the Events view: the page of events prepared for the reader's position, and
//! what the title says of it (kind filter, order, where the page is).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::EventsView;
use crate::ui::draw::DrawContext;

impl EventsView {
    pub fn draw(&self, frame: &mut Frame, area: Rect, cx: &DrawContext) {
        let rows = self.rows();
        if rows.is_empty() {
            let text = format!("No events of kind \"{}\".", self.filter.label());
            frame.render_widget(Paragraph::new(Line::styled(text, cx.theme.muted)), area);
            return;
        }
        frame.render_widget(Paragraph::new(self.screen().to_vec()), area);
    }

    /// The title's right-hand part: the kind shown, the order, and following or the
    /// position (`total`: the lines of the log).
    pub fn status(&self, total: u64, cx: &DrawContext) -> Vec<Span<'static>> {
        let theme = cx.theme;
        let order = if self.newest_first {
            "newest first"
        } else {
            "oldest first"
        };
        let mut spans = vec![
            Span::styled(format!(" kind: {} ", self.filter.label()), theme.accent),
            Span::styled(format!("· {order} "), theme.muted),
        ];
        match (self.top, self.newest_first) {
            (None, false) => spans.push(Span::styled("· following ", theme.accent)),
            (None, true) => spans.push(Span::styled(format!("· {total} lines "), theme.muted)),
            (Some(_), _) => {
                let line = self.rows().first().map_or(0, |r| r.0 + 1);
                spans.push(Span::styled(format!("· line {line}/{total} "), theme.muted));
            }
        }
        spans
    }
}
