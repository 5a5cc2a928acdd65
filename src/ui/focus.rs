//! Where the operator's attention is: the focused pane, the view shown in the main pane,
//! and the mode (the normal screen, or a popup or prompt over it). State, layout, hints
//! and drawing all speak in these.

use crate::memory::layout::FileKind;
use crate::ui::input::action::Action;

/// The pane that has the keyboard focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pane {
    Garden,
    Main,
    Side,
}

/// The view of the selected creature shown in the main pane (one tab each). Which views
/// a creature offers depends on its genome ([`crate::ui::genome::offered`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MainView {
    Observations,
    Dreams,
    Diary,
    Recall,
    /// An OpenSeed creature's live events, from its orchestrator.
    Live,
    /// `events.jsonl`: errors, wakes, sleeps, messages, tool calls, dreams, pauses.
    Events,
    /// The garden's conversation: who wrote to whom, from every creature's events.
    Talk,
    /// A view of the genome's own (a plug-in's: [`crate::ui::genome::GenomeUi`]).
    Own(&'static OwnView),
}

/// A view a genome adds through the plug-in seam: the state behind it is the genome's
/// ([`crate::ui::genome::GenomeUi`]), its key that of the action that shows it.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct OwnView {
    /// The action that shows it (a view action of the keymap: its keys, hint and help).
    pub show: Action,
    pub title: &'static str,
    /// What it says while it has nothing to show.
    pub empty: &'static str,
    /// The file its entries are lines of (what the keys that open and copy select).
    pub file: FileKind,
    /// How the main pane is divided for it.
    pub layout: ViewLayout,
}

/// How the main pane is divided for a genome's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ViewLayout {
    /// One document.
    Text,
    /// A gauge of [`crate::ui::layout::GAUGE_ROWS`] rows over a document.
    Gauge,
    /// A list at most `width` columns wide, beside the selected row's detail.
    List { width: u16 },
    /// A list at least `width` wide over the selected row's detail, beside a graph; as
    /// [`ViewLayout::List`] where the pane is too small for the graph.
    ListGraph { width: u16 },
}

impl OwnView {
    /// A view of one document, shown by `show`.
    pub const fn text(show: Action, title: &'static str, empty: &'static str) -> Self {
        Self {
            show,
            title,
            empty,
            file: FileKind::Events,
            layout: ViewLayout::Text,
        }
    }
}

impl MainView {
    pub fn title(self) -> &'static str {
        match self {
            MainView::Observations => "Observations",
            MainView::Dreams => "Dreams",
            MainView::Diary => "Diary",
            MainView::Recall => "Recall",
            MainView::Live => "Live",
            MainView::Events => "Events",
            MainView::Talk => "Talk",
            MainView::Own(view) => view.title,
        }
    }
}

/// What takes the keys: the normal screen, or a popup or prompt over it. An action's key
/// is looked up in the modes the action lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    Normal,
    /// Not a state of its own: the keys looked up first on the normal screen while the
    /// garden pane has the focus (its filter and sort), before the normal screen's.
    Garden,
    Help,
    Message,
    Search,
    /// Typing the garden's filter.
    Filter,
    /// The popup of a dream held for review.
    Review,
    /// The list of a search's hits.
    Hits,
    /// The status line's log.
    Log,
    /// One entry shown whole (an event).
    Detail,
    /// Who wrote the selected memory line ([`crate::ui::popups::blame`]).
    Blame,
    /// Picking the creature to compare with.
    ComparePick,
    /// Two memories side by side ([`crate::ui::popups::compare`]).
    Compare,
    /// The `:` command palette.
    Palette,
    /// The menu of an OpenSeed orchestrator's actions.
    OpenSeedMenu,
    /// A form for the orchestrator (a spawn, a budget, mail, the narrator's settings).
    OpenSeedForm,
    /// The creatures' mail ([`crate::ui::popups::mail`]).
    Mail,
    /// The narrator's story ([`crate::ui::popups::narration`]).
    Narration,
    /// A creature's files as its genome's tabs declare them
    /// ([`crate::ui::popups::genome_files`]).
    GenomeFiles,
    /// The conversation with OpenSeed's Ranger ([`crate::ui::popups::ranger`]).
    Ranger,
    /// Not a state of its own: the keys looked up on the normal screen while the time
    /// cursor is on (after the garden's, before the normal screen's).
    Past,
    /// Typing the time cursor's jump prompt.
    Jump,
}

/// Sets of views for the unit tests of keys and layout (the genomes' own come from
/// their plug-ins, installed by the composition root).
#[cfg(test)]
pub(crate) mod test_views {
    use super::{MainView, OwnView, ViewLayout};
    use crate::ui::input::action::Action;

    pub const OBSERVATIONS_FIRST: &[MainView] = &[
        MainView::Observations,
        MainView::Dreams,
        MainView::Diary,
        MainView::Recall,
        MainView::Events,
    ];

    /// A genome's own views: a gauge over its first, a list beside its second.
    pub const FIRST: MainView = MainView::Own(&OwnView {
        layout: ViewLayout::Gauge,
        ..OwnView::text(Action::ViewOwnFirst, "Journal", "")
    });
    pub const SECOND: MainView = MainView::Own(&OwnView {
        layout: ViewLayout::List { width: 34 },
        ..OwnView::text(Action::ViewOwnSecond, "Entities", "")
    });

    pub const OWN_FIRST: &[MainView] = &[FIRST, SECOND, MainView::Recall, MainView::Events];
}
