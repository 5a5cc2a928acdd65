//! A document shown whole over the screen (an event of the Events view), scrolled like
//! the help; Esc closes it.

use ratatui::Frame;

use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::draw::DrawContext;

#[derive(Debug, Clone)]
pub struct Detail {
    title: String,
    lines: Vec<DocLine>,
    anchor: Anchor,
}

impl Detail {
    /// `lines` under `title`, from their top.
    pub fn new(title: String, lines: Vec<DocLine>) -> Self {
        Self {
            title,
            lines,
            anchor: Anchor::Line(0),
        }
    }

    pub fn scroll(&mut self, vp: Viewport, step: Step) {
        self.anchor = scroll::scroll(&self.lines, self.anchor, vp, step);
    }

    pub fn draw(&self, frame: &mut Frame, cx: &DrawContext) {
        super::frame::document(frame, &self.title, &self.lines, self.anchor, cx);
    }
}
