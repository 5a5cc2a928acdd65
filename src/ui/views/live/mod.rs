//! The Live view of a creature an attached OpenSeed orchestrator runs: its live events
//! as they arrive, one line each, following the newest unless scrolled away. Its state
//! sits with the orchestrator's ([`crate::ui::state::openseed::OpenSeedUi`]): the
//! document of the selected creature and where each creature's view is scrolled. Taking
//! the orchestrator's updates in is not the view's job (`ui::update::openseed`).

mod draw;
pub mod prepare;

use std::collections::{BTreeMap, VecDeque};

use crate::openseed::LiveEvent;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::theme::Theme;

#[derive(Debug, Clone, Default)]
pub struct LiveView {
    /// The selected creature's live events, prepared.
    pub doc: Vec<DocLine>,
    /// Where each creature's view is scrolled, by name (the end, following, by default).
    anchors: BTreeMap<String, Anchor>,
}

impl LiveView {
    /// Where the view of the creature called `name` is scrolled.
    pub fn anchor(&self, name: Option<&str>) -> Anchor {
        name.and_then(|n| self.anchors.get(n))
            .copied()
            .unwrap_or(Anchor::End)
    }

    /// Prepares the document of a creature's events.
    pub fn prepare(&mut self, events: Option<&VecDeque<LiveEvent>>, theme: &Theme) {
        self.doc = prepare::live(events, theme);
    }

    /// Scrolls the view of the creature called `name` by `step`.
    pub fn scroll(&mut self, name: &str, vp: Viewport, step: Step) {
        let anchor = scroll::scroll(&self.doc, self.anchor(Some(name)), vp, step);
        self.anchors.insert(name.to_owned(), anchor);
    }
}
