//! The Diary view: the creature's diary, markdown rendered at the main pane's width
//! (prepared again when the width or the file changes).

mod draw;
pub mod prepare;

use crate::memory::creature::Creature;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::state::selection::{text_of, top_line};
use crate::ui::theme::Theme;

/// One creature's Diary view.
#[derive(Debug)]
pub struct DiaryView {
    /// The diary at `width` columns; width 0 means "prepare again".
    lines: Vec<DocLine>,
    width: u16,
    anchor: Anchor,
}

impl Default for DiaryView {
    fn default() -> Self {
        Self {
            lines: Vec::new(),
            width: 0,
            anchor: Anchor::End,
        }
    }
}

impl DiaryView {
    /// The file changed: prepared again before it is next shown.
    pub fn changed(&mut self) {
        self.width = 0;
    }

    /// Renders the diary at `width` columns, unless it is already.
    pub fn prepare(&mut self, c: &Creature, theme: &Theme, width: u16) {
        if self.width != width {
            self.lines = prepare::prepare(c.diary_text(), theme, width);
            self.width = width;
        }
    }

    pub fn scroll(&mut self, vp: Viewport, step: Step) {
        self.anchor = scroll::scroll(&self.lines, self.anchor, vp, step);
    }

    /// Shows line `line` of the file (a search hit). The diary is rendered, not line for
    /// line: goes to the rendered line that holds the hit's text, else near the same
    /// fraction of the file.
    pub fn show_line(&mut self, c: &Creature, theme: &Theme, width: u16, line: usize) {
        self.prepare(c, theme, width);
        let text = c.diary_text();
        let file_lines = text.lines().count().max(1);
        let wanted = text.lines().nth(line).unwrap_or_default().trim();
        let at = self
            .lines
            .iter()
            .position(|l| !wanted.is_empty() && l.line.to_string().contains(wanted))
            .unwrap_or(self.lines.len() * line / file_lines);
        self.anchor = Anchor::Line(at);
    }

    /// The text on the top row.
    pub fn selection(&self, vp: Viewport) -> Option<String> {
        let top = top_line(&self.lines, self.anchor, vp)?;
        self.lines.get(top).map(|l| text_of(&l.line))
    }
}
