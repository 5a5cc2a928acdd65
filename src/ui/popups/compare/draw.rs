//! The compare view over the screen (all of it but a margin), and its picker.

use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::ComparePopup;
use crate::ui::draw::DrawContext;
use crate::ui::layout;

impl ComparePopup {
    /// The comparison, titled with both names.
    pub fn draw(&self, frame: &mut Frame, cx: &DrawContext) {
        let Some(ask) = &self.ask else {
            return;
        };
        let title = format!(" Compare · {} and {} ", ask.a_name, ask.b_name);
        let area = layout::compare(frame.area());
        super::super::frame::document_in(frame, area, &title, &self.lines, self.anchor, cx);
    }

    /// The list of creatures to compare `name` with.
    pub fn draw_pick(&self, frame: &mut Frame, name: &str, cx: &DrawContext) {
        let theme = cx.theme;
        let area = layout::compare_pick(frame.area(), self.choices.len().max(1));
        frame.render_widget(Clear, area);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border_focused)
            .style(theme.base)
            .title(Span::styled(format!(" Compare {name} with "), theme.title));
        let inner = block.inner(area);
        let height = usize::from(inner.height.max(1));
        let top = self.chosen.saturating_sub(height - 1);
        let rows: Vec<Line> = if self.choices.is_empty() {
            vec![Line::styled(
                "no other creature in the garden to compare with",
                theme.muted,
            )]
        } else {
            self.choices
                .iter()
                .enumerate()
                .skip(top)
                .take(height)
                .map(|(i, (_, n))| {
                    let style = if i == self.chosen {
                        theme.selection
                    } else {
                        theme.base
                    };
                    Line::styled(format!(" {n}"), style)
                })
                .collect()
        };
        frame.render_widget(block, area);
        frame.render_widget(Paragraph::new(rows), inner);
    }
}
