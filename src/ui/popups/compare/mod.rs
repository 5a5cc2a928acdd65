//! The compare view (`C`): first a list of the garden's other creatures to pick the one
//! to compare with, then the two memories side by side file by file (the lines only one
//! has highlighted) and how far apart they drifted after each dream both dreamt. The
//! comparison is made off the UI thread ([`CompareAsk`] is the job's question).

mod draw;
mod prepare;

use std::path::PathBuf;

use crate::recorder::compare::Comparison;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::theme::Theme;

/// Two creatures to compare: `a` (the selected one) and `b`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompareAsk {
    pub a: PathBuf,
    pub b: PathBuf,
    /// Their names (inert).
    pub a_name: String,
    pub b_name: String,
}

/// The popup's state: the picker, then the comparison.
#[derive(Debug, Default)]
pub struct ComparePopup {
    /// The creatures to pick from (path, name), and the one selected.
    choices: Vec<(PathBuf, String)>,
    chosen: usize,
    ask: Option<CompareAsk>,
    /// `None` while comparing; the error said plainly.
    answer: Option<Result<Comparison, String>>,
    /// The document, at `width` columns (0: prepare again).
    lines: Vec<DocLine>,
    width: u16,
    anchor: Anchor,
}

impl ComparePopup {
    /// The picker over `choices` (the garden's other creatures, in its order).
    pub fn pick(&mut self, choices: Vec<(PathBuf, String)>) {
        *self = Self {
            choices,
            ..Self::default()
        };
    }

    /// Moves the picker's selection.
    pub fn move_pick(&mut self, step: Step) {
        let n = self.choices.len();
        self.chosen = scroll::list_step(self.chosen, n, Viewport::default(), step);
    }

    /// The creature the picker selects.
    pub fn chosen(&self) -> Option<&(PathBuf, String)> {
        self.choices.get(self.chosen)
    }

    /// Comparing `ask`: "comparing…" until the answer comes.
    pub fn open(&mut self, ask: CompareAsk) {
        self.ask = Some(ask);
        self.answer = None;
        self.width = 0;
        self.anchor = Anchor::Line(0);
    }

    pub fn asked(&self) -> Option<&CompareAsk> {
        self.ask.as_ref()
    }

    /// The answer to `ask` came; an answer to an older question is dropped.
    pub fn answered(&mut self, ask: &CompareAsk, answer: Result<Comparison, String>) {
        if self.ask.as_ref() == Some(ask) {
            self.answer = Some(answer);
            self.width = 0;
        }
    }

    /// Prepares the document at `width` columns, unless it is already.
    pub fn prepare(&mut self, theme: &Theme, width: u16) {
        if self.width == width {
            return;
        }
        self.width = width;
        self.lines = match &self.ask {
            Some(ask) => prepare::document(ask, self.answer.as_ref(), theme, width),
            None => Vec::new(),
        };
    }

    pub fn scroll(&mut self, vp: Viewport, step: Step) {
        self.anchor = scroll::scroll(&self.lines, self.anchor, vp, step);
    }

    pub fn close(&mut self) {
        *self = Self::default();
    }
}
