//! An evennia creature in the observatory: its journal, entities and semantic memory, and
//! a side panel of sleeps, compactions and working memory.

mod side;

use crate::ui::focus::MainView;
use crate::ui::genome::GenomeViews;

/// An evennia creature's views, in tab order.
pub const VIEWS: &[MainView] = &[
    MainView::Journal,
    MainView::Entities,
    MainView::Memory,
    MainView::Recall,
    MainView::Events,
];

/// ... without an events file.
const QUIET: &[MainView] = &[
    MainView::Journal,
    MainView::Entities,
    MainView::Memory,
    MainView::Recall,
];

/// An evennia creature's views when an attached OpenSeed orchestrator runs it.
const LIVE: &[MainView] = &[
    MainView::Journal,
    MainView::Entities,
    MainView::Memory,
    MainView::Recall,
    MainView::Live,
    MainView::Events,
];

const LIVE_QUIET: &[MainView] = &[
    MainView::Journal,
    MainView::Entities,
    MainView::Memory,
    MainView::Recall,
    MainView::Live,
];

/// The genome as the observatory shows it.
pub static GENOME: GenomeViews = GenomeViews {
    genome: super::memory::NAME,
    views: VIEWS,
    quiet: QUIET,
    live: Some((LIVE, LIVE_QUIET)),
    side_title: " Sleep & working memory ",
    side: side::side,
    own: None,
};
