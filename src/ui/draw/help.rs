//! The help overlay: every binding, grouped, from the same action list as the hint bar.

use ratatui::Frame;
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Clear};

use super::doc;
use crate::ui::layout;
use crate::ui::state::App;

pub fn render(frame: &mut Frame, app: &App) {
    let theme = &app.theme;
    let area = layout::help(frame.area());
    frame.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border_focused)
        .style(theme.base)
        .title(Span::styled(" Help: keys (from your keymap) ", theme.title));
    let inner = block.inner(area);
    let lines = app.help_document();
    frame.render_widget(
        doc::more_marks(block, inner, &lines, app.help_anchor, theme),
        area,
    );
    doc::render(frame, inner, &lines, app.help_anchor, "", theme);
}
