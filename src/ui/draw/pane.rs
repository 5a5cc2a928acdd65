//! The frame every pane is drawn in: a border, brighter while the pane has the focus.

use ratatui::widgets::{Block, Borders};

use crate::ui::theme::Theme;

/// A bordered pane, its border in the focused style when `focused`; the caller titles it.
pub fn block<'a>(theme: &Theme, focused: bool) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(if focused {
            theme.border_focused
        } else {
            theme.border
        })
}
