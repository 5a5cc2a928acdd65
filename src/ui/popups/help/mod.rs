//! The help popup: every binding, grouped, from the same action list as the hint bar
//! (its document is made from the keymap and what the selected creature offers).

pub mod prepare;

use ratatui::Frame;

use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::draw::DrawContext;

#[derive(Debug)]
pub struct HelpPopup {
    anchor: Anchor,
}

impl Default for HelpPopup {
    fn default() -> Self {
        Self {
            anchor: Anchor::Line(0),
        }
    }
}

impl HelpPopup {
    /// Opened again: at its top.
    pub fn open(&mut self) {
        self.anchor = Anchor::Line(0);
    }

    pub fn scroll(&mut self, lines: &[DocLine], vp: Viewport, step: Step) {
        self.anchor = scroll::scroll(lines, self.anchor, vp, step);
    }

    pub fn draw(&self, frame: &mut Frame, lines: &[DocLine], cx: &DrawContext) {
        super::frame::document(
            frame,
            " Help: keys (from your keymap) ",
            lines,
            self.anchor,
            cx,
        );
    }
}
