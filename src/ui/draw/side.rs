//! The side panel: priorities, rules and the rest, without leaving the creature.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Span;

use super::{doc, pane};
use crate::ui::focus::Pane;
use crate::ui::state::App;

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let genome = app.selected_ui().map(|ui| &ui.genome);
    let title = genome.map_or(" Creature ", |g| crate::ui::genome::of(g).side_title);
    let block = pane::block(theme, app.pane == Pane::Side).title(Span::styled(title, theme.title));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if let Some(ui) = app.selected_ui() {
        doc::render(frame, inner, &ui.side, ui.side_anchor, "", theme);
    }
}
