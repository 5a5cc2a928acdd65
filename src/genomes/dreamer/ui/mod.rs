//! The dreamer in the observatory: observations, dreams and the diary, and a side panel of
//! priorities, rules and the briefing.

mod pictures;
mod side;

use crate::ui::focus::MainView;
use crate::ui::genome::GenomeViews;

/// A dreamer's views (and those of any genome without views of its own), in tab order.
pub const VIEWS: &[MainView] = &[
    MainView::Observations,
    MainView::Dreams,
    MainView::Diary,
    MainView::Recall,
    MainView::Events,
];

/// ... without an events file.
const QUIET: &[MainView] = &[
    MainView::Observations,
    MainView::Dreams,
    MainView::Diary,
    MainView::Recall,
];

/// A dreamer's views when an attached OpenSeed orchestrator runs it.
const LIVE: &[MainView] = &[
    MainView::Observations,
    MainView::Dreams,
    MainView::Diary,
    MainView::Recall,
    MainView::Live,
    MainView::Events,
];

const LIVE_QUIET: &[MainView] = &[
    MainView::Observations,
    MainView::Dreams,
    MainView::Diary,
    MainView::Recall,
    MainView::Live,
];

/// The dreamer as the observatory shows it.
pub static GENOME: GenomeViews = GenomeViews {
    genome: super::NAME,
    views: VIEWS,
    quiet: QUIET,
    live: Some((LIVE, LIVE_QUIET)),
    side_title: " Priorities & rules ",
    side: side::side,
    own: None,
    search: &[],
    garden: None,
    garden_part: None,
    pictures: pictures::PICTURES,
};
