//! An emergence creature in the observatory: its soul, memory, diary, plans and
//! relations, and a side panel of its soul and open to-dos.

mod side;

use crate::genomes::emergence::memory;
use crate::search::SearchSource;
use crate::ui::focus::MainView;
use crate::ui::genome::{GardenColumn, GenomeViews};

/// An emergence creature's views, in tab order (keys 1 to 7: its own views around Recall
/// and Events, which keep their keys for every genome).
pub const VIEWS: &[MainView] = &[
    MainView::Soul,
    MainView::LongTerm,
    MainView::DiaryLog,
    MainView::Recall,
    MainView::Plans,
    MainView::Events,
    MainView::Relations,
];

/// ... without an events file.
const QUIET: &[MainView] = &[
    MainView::Soul,
    MainView::LongTerm,
    MainView::DiaryLog,
    MainView::Recall,
    MainView::Plans,
    MainView::Relations,
];

/// The genome as the observatory shows it (OpenSeed runs no such genome: no live views).
pub static GENOME: GenomeViews = GenomeViews {
    genome: memory::NAME,
    views: VIEWS,
    quiet: QUIET,
    live: None,
    side_title: " Soul & to-dos ",
    side: side::side,
    own: None,
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
    }),
};
