//! The popup of a dream held for review: its lines, scrolled, in a box over the screen;
//! its keys are in the hint bar.

use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear};

use super::doc;
use crate::ui::doc::scroll;
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
    let vp = layout::viewport(inner);
    let top = scroll::top(&lines, app.review.anchor, vp);
    let marks = [
        (top > 0, "↑ more above"),
        (top < scroll::end_top(&lines, vp), "↓ more below"),
    ];
    let more: Vec<&str> = marks.iter().filter(|(m, _)| *m).map(|(_, t)| *t).collect();
    let block = if more.is_empty() {
        block
    } else {
        let marker = format!(" {} ", more.join(" · "));
        block.title_bottom(Line::styled(marker, theme.muted).right_aligned())
    };
    frame.render_widget(block, area);
    doc::render(
        frame,
        inner,
        &lines,
        app.review.anchor,
        "no dream awaiting review",
        theme,
    );
}
