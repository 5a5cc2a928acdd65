//! Drawing the Diary view.

use ratatui::Frame;
use ratatui::layout::Rect;

use super::DiaryView;
use crate::ui::draw::DrawContext;
use crate::ui::draw::doc;

impl DiaryView {
    /// Draws the diary; `runner`: a dreamwatch runner keeps the creature (it writes a
    /// diary at deep sleep; an OpenSeed creature's genome may keep none at all).
    pub fn draw(&self, frame: &mut Frame, area: Rect, runner: bool, cx: &DrawContext) {
        let empty = if runner {
            "No diary yet: it is written at deep sleep."
        } else {
            "This creature writes no diary (an OpenSeed creature whose genome keeps none)."
        };
        doc::render(frame, area, &self.lines, self.anchor, empty, cx.theme);
    }
}
