//! The popup of a dream held for review: its lines, scrolled, in a box over the screen;
//! its keys are in the hint bar.

use ratatui::Frame;
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Clear};

use super::doc;
use crate::ui::layout;
use crate::ui::state::App;

pub fn render(frame: &mut Frame, app: &App) {
    let Some(ui) = app.selected_ui() else {
        return;
    };
    let theme = &app.theme;
    let lines = app.review_document();
    let area = layout::review(frame.area(), lines.len());
    frame.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border_focused)
        .style(theme.base)
        .title(Span::styled(
            format!(" {}: a dream awaiting review ", ui.name),
            theme.title,
        ));
    let inner = block.inner(area);
    frame.render_widget(
        doc::more_marks(block, inner, &lines, app.review.anchor, theme),
        area,
    );
    doc::render(
        frame,
        inner,
        &lines,
        app.review.anchor,
        "no dream awaiting review",
        theme,
    );
}
