//! The message box: a multi-line editor over the screen.

use ratatui::Frame;
use ratatui::widgets::Clear;

use crate::ui::layout;
use crate::ui::state::App;

pub fn render(frame: &mut Frame, app: &App) {
    let Some(area_text) = app.message.as_ref() else {
        return;
    };
    let area = layout::message_box(frame.area());
    frame.render_widget(Clear, area);
    frame.render_widget(area_text, area);
}
