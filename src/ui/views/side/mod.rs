//! The side panel: the creature's genome's part (priorities, rules and the rest), then
//! what every creature has, without leaving the creature.

mod draw;
pub mod prepare;

use crate::memory::creature::Creature;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::theme::Theme;

/// One creature's side panel.
#[derive(Debug)]
pub struct SidePanel {
    lines: Vec<DocLine>,
    anchor: Anchor,
}

impl Default for SidePanel {
    fn default() -> Self {
        Self {
            lines: Vec::new(),
            anchor: Anchor::Line(0),
        }
    }
}

impl SidePanel {
    /// Prepares it again from what the creature's files say now.
    pub fn prepare(&mut self, c: &Creature, theme: &Theme) {
        self.lines = prepare::prepare(c, theme);
    }

    /// Shows `lines` instead (a creature whose files are not here).
    pub fn set(&mut self, lines: Vec<DocLine>) {
        self.lines = lines;
    }

    /// The text on the top row (what `b` blames while the panel is focused).
    pub fn selection(&self, vp: Viewport) -> Option<String> {
        let top = crate::ui::state::selection::top_line(&self.lines, self.anchor, vp)?;
        self.lines
            .get(top)
            .map(|l| crate::ui::state::selection::text_of(&l.line))
    }

    pub fn scroll(&mut self, vp: Viewport, step: Step) {
        self.anchor = scroll::scroll(&self.lines, self.anchor, vp, step);
    }
}
