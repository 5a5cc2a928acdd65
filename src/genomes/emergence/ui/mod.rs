//! An emergence creature in the observatory: its soul, memory, diary, plans and
//! relations, and a side panel of its soul and open to-dos.

mod diary;
mod figures;
mod graph;
mod long_term;
mod pictures;
mod plans;
mod relations;
mod relations_draw;
mod side;
mod soul;
mod state;
mod talk_picture;

use crate::genomes::emergence::memory;
use crate::search::SearchSource;
use crate::ui::focus::{MainView, OwnView, ViewLayout};
use crate::ui::genome::{GardenColumn, GardenPart, GenomeViews};
use crate::ui::input::action::Action;

/// The soul entries.
const SOUL: OwnView = OwnView {
    show: Action::ViewSoul,
    title: "Soul",
    empty: "No soul entries: only the creature adds them, by its own tool calls.",
    file: memory::SOUL,
    layout: ViewLayout::Text,
};

/// Long-term memories, summaries and the archive.
const LONG_TERM: OwnView = OwnView {
    show: Action::ViewLongTerm,
    title: "Memory",
    empty: "",
    file: memory::LONG_TERM,
    layout: ViewLayout::Text,
};

/// The diary by date, with mood and location.
const DIARY: OwnView = OwnView {
    show: Action::ViewDiaryLog,
    title: "Diary",
    empty: "No diary yet: the creature writes one entry per date when it wants to.",
    file: memory::DIARY_LOG,
    layout: ViewLayout::Text,
};

/// To-dos and the calendar as an agenda.
const PLANS: OwnView = OwnView {
    show: Action::ViewPlans,
    title: "Plans",
    empty: "",
    file: memory::TODOS,
    layout: ViewLayout::Text,
};

/// The relation list over the selected agent's history, beside the garden's graph.
const RELATIONS: OwnView = OwnView {
    show: Action::ViewRelations,
    title: "Relations",
    empty: "No relationships yet: they come as the creature meets other agents.",
    file: memory::RELATIONS,
    layout: ViewLayout::ListGraph { width: 38 },
};

/// An emergence creature's views, in tab order (keys 1 to 7: its own views around Recall
/// and Events, which keep their keys for every genome).
pub const VIEWS: &[MainView] = &[
    MainView::Own(&SOUL),
    MainView::Own(&LONG_TERM),
    MainView::Own(&DIARY),
    MainView::Recall,
    MainView::Own(&PLANS),
    MainView::Events,
    MainView::Own(&RELATIONS),
];

/// ... without an events file.
const QUIET: &[MainView] = &[
    MainView::Own(&SOUL),
    MainView::Own(&LONG_TERM),
    MainView::Own(&DIARY),
    MainView::Recall,
    MainView::Own(&PLANS),
    MainView::Own(&RELATIONS),
];

/// The genome as the observatory shows it (OpenSeed runs no such genome: no live views).
pub static GENOME: GenomeViews = GenomeViews {
    genome: memory::NAME,
    views: VIEWS,
    quiet: QUIET,
    live: None,
    side_title: " Soul & to-dos ",
    side: side::side,
    own: Some(|c, now, theme| Box::new(state::EmergenceUi::new(c, now, theme))),
    search: &[
        (SearchSource::Soul, memory::SOUL),
        (SearchSource::LongTerm, memory::LONG_TERM),
        (SearchSource::Summaries, memory::SUMMARIES),
        (SearchSource::DiaryLog, memory::DIARY_LOG),
        (SearchSource::Dialogues, memory::DIALOGUES),
    ],
    garden: Some(GardenColumn {
        label: "soul   mem",
        short: "soul",
        glyph: "↻",
        legend: "✦ soul entries, then long-term memories, ↻ time since its last self-care",
    }),
    garden_part: Some(GardenPart {
        make: graph::make,
        files: &[memory::RELATIONS],
    }),
    pictures: pictures::PICTURES,
};
