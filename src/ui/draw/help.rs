//! The help overlay: every binding, grouped, from the same action list as the hint bar;
//! and the status line's log, drawn the same way.

use ratatui::Frame;
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Clear};

use super::doc;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::Anchor;
use crate::ui::layout;
use crate::ui::state::App;

pub fn render(frame: &mut Frame, app: &App) {
    overlay(
        frame,
        app,
        " Help: keys (from your keymap) ",
        &app.help_document(),
        app.help_anchor,
    );
}

/// The status line's log, in the help's place.
pub fn render_log(frame: &mut Frame, app: &App) {
    let lines = app.status_log.document(&app.theme);
    overlay(
        frame,
        app,
        " Status log: newest first ",
        &lines,
        app.status_log.anchor,
    );
}

/// An entry shown whole, in the help's place.
pub fn render_detail(frame: &mut Frame, app: &App) {
    if let Some(d) = &app.detail {
        overlay(frame, app, &d.title, &d.lines, d.anchor);
    }
}

fn overlay(frame: &mut Frame, app: &App, title: &str, lines: &[DocLine], anchor: Anchor) {
    let theme = &app.theme;
    let area = layout::help(frame.area());
    frame.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border_focused)
        .style(theme.base)
        .title(Span::styled(title.to_string(), theme.title));
    let inner = block.inner(area);
    frame.render_widget(doc::more_marks(block, inner, lines, anchor, theme), area);
    doc::render(frame, inner, lines, anchor, "", theme);
}
