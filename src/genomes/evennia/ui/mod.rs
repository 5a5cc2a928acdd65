//! An evennia creature in the observatory: its journal, entities and semantic memory, and
//! a side panel of sleeps, compactions and working memory.

mod entities;
mod figures;
mod journal;
mod pictures;
mod semantic;
mod side;
mod state;

use crate::genomes::evennia::memory;
use crate::search::SearchSource;
use crate::ui::focus::{MainView, OwnView, ViewLayout};
use crate::ui::genome::{GardenColumn, GenomeViews};
use crate::ui::input::action::Action;

/// The journal: the gauge of importance toward the next reflection over the entries and
/// reflections.
const JOURNAL: OwnView = OwnView {
    show: Action::ViewJournal,
    title: "Journal",
    empty: "No journal entries yet: the creature writes them as it goes (add_journal_entry).",
    file: memory::JOURNAL,
    layout: ViewLayout::Gauge,
};

/// The entity list beside the selected entity's profile.
const ENTITIES: OwnView = OwnView {
    show: Action::ViewEntities,
    title: "Entities",
    empty: "No entities yet: they come with the creature's first encounters.",
    file: memory::ENTITIES,
    layout: ViewLayout::List { width: 34 },
};

/// Semantic memory and its links.
const MEMORY: OwnView = OwnView {
    show: Action::ViewMemory,
    title: "Memory",
    empty: "No semantic memories yet: journal entries become facts while the creature sleeps.",
    file: memory::SEMANTIC,
    layout: ViewLayout::Text,
};

/// An evennia creature's views, in tab order.
pub const VIEWS: &[MainView] = &[
    MainView::Own(&JOURNAL),
    MainView::Own(&ENTITIES),
    MainView::Own(&MEMORY),
    MainView::Recall,
    MainView::Events,
];

/// ... without an events file.
const QUIET: &[MainView] = &[
    MainView::Own(&JOURNAL),
    MainView::Own(&ENTITIES),
    MainView::Own(&MEMORY),
    MainView::Recall,
];

/// An evennia creature's views when an attached OpenSeed orchestrator runs it.
const LIVE: &[MainView] = &[
    MainView::Own(&JOURNAL),
    MainView::Own(&ENTITIES),
    MainView::Own(&MEMORY),
    MainView::Recall,
    MainView::Live,
    MainView::Events,
];

const LIVE_QUIET: &[MainView] = &[
    MainView::Own(&JOURNAL),
    MainView::Own(&ENTITIES),
    MainView::Own(&MEMORY),
    MainView::Recall,
    MainView::Live,
];

/// The genome as the observatory shows it.
pub static GENOME: GenomeViews = GenomeViews {
    genome: memory::NAME,
    views: VIEWS,
    quiet: QUIET,
    live: Some((LIVE, LIVE_QUIET)),
    side_title: " Sleep & working memory ",
    side: side::side,
    own: Some(|c, _, theme| Box::new(state::EvenniaUi::new(c, theme))),
    search: &[
        (SearchSource::Journal, memory::JOURNAL),
        (SearchSource::Semantic, memory::SEMANTIC),
        (SearchSource::Entities, memory::ENTITIES),
        (SearchSource::Reflections, memory::REFLECTIONS),
    ],
    garden: Some(GardenColumn {
        label: "importance",
        short: "imp",
        glyph: "◆",
        legend: "the bar and number: importance gathered toward the next reflection, ◆ reflections",
    }),
    garden_part: None,
    pictures: pictures::PICTURES,
};
