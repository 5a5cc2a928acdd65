//! The blame popup (`b`): who wrote the selected line of a memory file and when, what it
//! replaced, what later became of it; Enter shows the whole file's blame. The blame is
//! computed off the UI thread ([`BlameAsk`] is the job's question, [`Blamed`] its answer)
//! as of a moment: now, or a [`crate::recorder::At`] (the time cursor's).

mod draw;
mod prepare;

use std::path::PathBuf;

use crate::recorder::At;
use crate::recorder::blame::Blame;
use crate::recorder::entries::LogBlame;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::theme::Theme;

/// What to blame: a line of a creature's memory file, as of a moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlameAsk {
    pub creature: PathBuf,
    /// The creature's name (inert), for the title.
    pub name: String,
    /// The file, a path in the creature's directory; `None`: the memory document that
    /// holds `text` (a line of the side panel).
    pub file: Option<String>,
    /// The selected line of the file (1-based), when the view knows it.
    pub line: Option<usize>,
    /// The selected entry's text as shown, to find its line by when the line is not known.
    pub text: Option<String>,
    /// The moment: `None` is now.
    pub at: Option<At>,
}

/// The file's blame, line by line (a document) or entry by entry (an op log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileBlame {
    Doc(Blame),
    Log(LogBlame),
}

/// The answer: the file's blame, the selected line in it, and (asked of the past) the
/// file's blame now, which says what became of the line later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blamed {
    pub file: String,
    pub blame: FileBlame,
    /// The selected line's number (`n`) in the blame, when found.
    pub line: Option<usize>,
    pub now: Option<Blame>,
}

/// The popup's state.
#[derive(Debug, Default)]
pub struct BlamePopup {
    ask: Option<BlameAsk>,
    /// `None` while blaming; the error said plainly.
    answer: Option<Result<Blamed, String>>,
    /// The whole file's blame, not only the selected line's.
    whole: bool,
    lines: Vec<DocLine>,
    anchor: Anchor,
}

impl BlamePopup {
    /// Asked again: "blaming…" until the answer comes.
    pub fn open(&mut self, ask: BlameAsk, theme: &Theme) {
        self.ask = Some(ask);
        self.answer = None;
        self.whole = false;
        self.prepare(theme);
    }

    /// The question the popup waits for the answer to (or shows it of).
    pub fn asked(&self) -> Option<&BlameAsk> {
        self.ask.as_ref()
    }

    /// The answer to `ask` came; an answer to an older question is dropped.
    pub fn answered(&mut self, ask: &BlameAsk, answer: Result<Blamed, String>, theme: &Theme) {
        if self.ask.as_ref() != Some(ask) {
            return;
        }
        self.answer = Some(answer);
        self.prepare(theme);
    }

    /// The selected line's blame, or the whole file's (Enter).
    pub fn toggle_whole(&mut self, theme: &Theme) {
        self.whole = !self.whole;
        self.prepare(theme);
    }

    pub fn close(&mut self) {
        *self = Self::default();
    }

    fn prepare(&mut self, theme: &Theme) {
        self.lines = match &self.ask {
            Some(ask) => prepare::document(ask, self.answer.as_ref(), self.whole, theme),
            None => Vec::new(),
        };
        self.anchor = Anchor::Line(match (&self.answer, self.whole) {
            // The whole file opens at the selected line.
            (Some(Ok(b)), true) => prepare::line_at(&self.lines, b.line),
            _ => 0,
        });
    }

    pub fn scroll(&mut self, vp: Viewport, step: Step) {
        self.anchor = scroll::scroll(&self.lines, self.anchor, vp, step);
    }

    pub fn document(&self) -> &[DocLine] {
        &self.lines
    }
}
