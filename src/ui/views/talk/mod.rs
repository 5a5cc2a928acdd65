//! The garden's conversation as the Talk view and the garden list show it: merged from
//! every creature's events ([`crate::memory::talk`]) when some creature's messages grew,
//! its document prepared again when it changed or another creature is selected.

mod draw;
mod prepare;

use chrono::Duration;

use crate::memory::creature::Creature;
use crate::memory::talk::{self, Said};
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::state::FrameClock;
use crate::ui::theme::Theme;

/// Messages of the garden kept for the view: the newest.
const SHOWN: usize = 1000;

/// How long a creature's row says whom it just wrote to, by the observatory's clock.
pub const FRESH: Duration = Duration::seconds(30);

#[derive(Debug)]
pub struct TalkView {
    /// Newest first, as written (made inert when prepared).
    pub said: Vec<Said>,
    /// The messages every creature had recorded at the last merge, and how many creatures.
    merged: (u64, usize),
    pub doc: Vec<DocLine>,
    /// One line per message. The top line follows: new messages arrive there. Anywhere
    /// else it stays on its message as messages arrive above it.
    pub anchor: Anchor,
    /// The creature the document was prepared for; `None` once the messages changed.
    prepared: Option<String>,
}

impl Default for TalkView {
    fn default() -> Self {
        Self {
            said: Vec::new(),
            merged: (0, 0),
            doc: Vec::new(),
            anchor: Anchor::Line(0),
            prepared: None,
        }
    }
}

impl TalkView {
    /// Merges the garden's messages again when some creature's grew or creatures came or
    /// went; whether they changed.
    pub fn refresh<'a>(&mut self, creatures: impl Iterator<Item = &'a Creature> + Clone) -> bool {
        let recorded = creatures
            .clone()
            .map(|c| c.events().mail().recorded())
            .sum::<u64>();
        let merged = (recorded, creatures.clone().count());
        if merged == self.merged {
            return false;
        }
        self.merged = merged;
        let said = talk::conversation(
            creatures.map(|c| (c.name(), c.events().mail().as_slice())),
            SHOWN,
        );
        if said == self.said {
            return false;
        }
        self.anchor = self.kept_anchor(&said);
        self.said = said;
        self.prepared = None;
        true
    }

    /// The anchor that keeps the message on the top row there once `said` replaces the
    /// messages (new ones arrive above it); on the top line it stays, following.
    fn kept_anchor(&self, said: &[Said]) -> Anchor {
        let Anchor::Line(top) = self.anchor else {
            return self.anchor;
        };
        let Some(shown) = self.said.get(top).filter(|_| top > 0) else {
            return self.anchor;
        };
        // The same message said twice: its twins below it tell which one it is.
        let below = self.said[top + 1..].iter().filter(|s| *s == shown).count();
        said.iter()
            .enumerate()
            .rev()
            .filter(|(_, s)| *s == shown)
            .nth(below)
            .map_or(self.anchor, |(i, _)| Anchor::Line(i))
    }

    pub fn scroll(&mut self, vp: Viewport, step: Step) {
        self.anchor = scroll::scroll(&self.doc, self.anchor, vp, step);
    }

    /// Whether the Talk view is offered: creatures have talked, or several are hosted
    /// here (a garden whose creatures will).
    pub fn offered(&self, hosted: usize) -> bool {
        !self.said.is_empty() || hosted > 1
    }

    /// The document for the view, the messages of `selected` marked.
    pub fn prepare(&mut self, selected: &str, theme: &Theme) {
        if self.prepared.as_deref() == Some(selected) {
            return;
        }
        self.doc = prepare::document(&self.said, selected, theme);
        self.prepared = Some(selected.to_string());
    }

    /// Whom `name` wrote to last, if within [`FRESH`] of `now` (inert).
    pub fn fresh_recipient(&self, name: &str, now: FrameClock) -> Option<String> {
        let said = talk::last_sent(&self.said, name)?;
        let fresh_until = said.t? + FRESH;
        now.before(fresh_until)
            .then(|| crate::ui::prepare::inert(&said.to))
    }
}
