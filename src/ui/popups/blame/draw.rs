//! The blame popup drawn in the help's place: its title says whose file, which line and
//! as of when.

use ratatui::Frame;

use super::BlamePopup;
use crate::ui::draw::DrawContext;
use crate::ui::input::action::Action;
use crate::ui::prepare::inert;

impl BlamePopup {
    pub fn draw(&self, frame: &mut Frame, cx: &DrawContext) {
        let Some(ask) = &self.ask else {
            return;
        };
        let file = self
            .answer
            .as_ref()
            .and_then(|a| a.as_ref().ok())
            .map(|b| b.file.clone())
            .or_else(|| ask.file.clone())
            .unwrap_or_else(|| "memory".into());
        let line = self
            .answer
            .as_ref()
            .and_then(|a| a.as_ref().ok())
            .and_then(|b| b.line)
            .or(ask.line)
            .map(|n| format!(" line {n}"))
            .unwrap_or_default();
        let when = ask
            .at
            .map_or_else(|| "now".to_string(), |at| at.to_string());
        let key = cx.keymap.mention(
            Action::BlameWhole,
            if self.whole {
                " · {}: the line "
            } else {
                " · {}: whole file "
            },
        );
        let title = format!(
            " Blame · {} · {}{line} · as of {when}{key}",
            ask.name,
            inert(&file)
        );
        super::super::frame::document(frame, &title, &self.lines, self.anchor, cx);
    }
}
