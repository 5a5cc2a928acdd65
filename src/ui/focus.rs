//! Where the operator's attention is: the focused pane, the view shown in the main pane,
//! and the mode (the normal screen, or a popup or prompt over it). State, layout, hints
//! and drawing all speak in these.

use crate::memory::genome::Genome;

/// The pane that has the keyboard focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pane {
    Garden,
    Main,
    Side,
}

/// The view of the selected creature shown in the main pane (one tab each). Which views
/// a creature offers depends on its genome ([`MainView::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MainView {
    Observations,
    Dreams,
    Diary,
    Recall,
    /// evennia: the journal, its importance and reflections.
    Journal,
    /// evennia: entity profiles and relationships.
    Entities,
    /// evennia: semantic memory and its links.
    Memory,
    /// emergence: the soul entries.
    Soul,
    /// emergence: long-term memories, summaries and the archive.
    LongTerm,
    /// emergence: the diary by date, with mood and location.
    DiaryLog,
    /// emergence: to-dos and the calendar as an agenda.
    Plans,
    /// emergence: the relationship graph, each agent's history, the garden drawn.
    Relations,
    /// An OpenSeed creature's live events, from its orchestrator.
    Live,
    /// `events.jsonl`: errors, wakes, sleeps, messages, tool calls, dreams, pauses.
    Events,
    /// The garden's conversation: who wrote to whom, from every creature's events.
    Talk,
}

/// The views of a dreamer (and of any genome without views of its own), in tab order.
pub const DREAMER_VIEWS: &[MainView] = &[
    MainView::Observations,
    MainView::Dreams,
    MainView::Diary,
    MainView::Recall,
    MainView::Events,
];

/// The views of an evennia creature, in tab order.
pub const EVENNIA_VIEWS: &[MainView] = &[
    MainView::Journal,
    MainView::Entities,
    MainView::Memory,
    MainView::Recall,
    MainView::Events,
];

/// The views of an emergence creature, in tab order (keys 1 to 7: its own views around
/// Recall and Events, which keep their keys for every genome).
pub const EMERGENCE_VIEWS: &[MainView] = &[
    MainView::Soul,
    MainView::LongTerm,
    MainView::DiaryLog,
    MainView::Recall,
    MainView::Plans,
    MainView::Events,
    MainView::Relations,
];

/// An emergence creature's views without an events file.
const EMERGENCE_VIEWS_QUIET: &[MainView] = &[
    MainView::Soul,
    MainView::LongTerm,
    MainView::DiaryLog,
    MainView::Recall,
    MainView::Plans,
    MainView::Relations,
];

/// A dreamer's views when an attached OpenSeed orchestrator runs it.
pub const DREAMER_LIVE_VIEWS: &[MainView] = &[
    MainView::Observations,
    MainView::Dreams,
    MainView::Diary,
    MainView::Recall,
    MainView::Live,
    MainView::Events,
];

/// An evennia creature's views when an attached OpenSeed orchestrator runs it.
pub const EVENNIA_LIVE_VIEWS: &[MainView] = &[
    MainView::Journal,
    MainView::Entities,
    MainView::Memory,
    MainView::Recall,
    MainView::Live,
    MainView::Events,
];

/// `set` with its first `N - 1` views and the garden's conversation after them.
const fn talking<const N: usize>(set: &[MainView]) -> [MainView; N] {
    let mut out = [MainView::Talk; N];
    let mut i = 0;
    while i + 1 < N && i < set.len() {
        out[i] = set[i];
        i += 1;
    }
    out
}

/// Each set of views, and the same with the garden's conversation (a garden where
/// creatures talk): with and without the Events view.
const WITH_TALK: [(&[MainView], &[MainView]); 10] = {
    const D: [MainView; 6] = talking(DREAMER_VIEWS);
    const DQ: [MainView; 5] = talking(DREAMER_VIEWS);
    const E: [MainView; 6] = talking(EVENNIA_VIEWS);
    const EQ: [MainView; 5] = talking(EVENNIA_VIEWS);
    const DL: [MainView; 7] = talking(DREAMER_LIVE_VIEWS);
    const DLQ: [MainView; 6] = talking(DREAMER_LIVE_VIEWS);
    const EL: [MainView; 7] = talking(EVENNIA_LIVE_VIEWS);
    const ELQ: [MainView; 6] = talking(EVENNIA_LIVE_VIEWS);
    const M: [MainView; 8] = talking(EMERGENCE_VIEWS);
    const MQ: [MainView; 7] = talking(EMERGENCE_VIEWS_QUIET);
    [
        (DREAMER_VIEWS, &D),
        (events_if(DREAMER_VIEWS, false), &DQ),
        (EVENNIA_VIEWS, &E),
        (events_if(EVENNIA_VIEWS, false), &EQ),
        (DREAMER_LIVE_VIEWS, &DL),
        (events_if(DREAMER_LIVE_VIEWS, false), &DLQ),
        (EVENNIA_LIVE_VIEWS, &EL),
        (events_if(EVENNIA_LIVE_VIEWS, false), &ELQ),
        (EMERGENCE_VIEWS, &M),
        (EMERGENCE_VIEWS_QUIET, &MQ),
    ]
};

/// Every set of views a creature may offer. The Events view is offered only where there
/// is an events file ([`MainView::of`]).
const VIEW_SETS: [&[MainView]; 5] = [
    DREAMER_VIEWS,
    EVENNIA_VIEWS,
    DREAMER_LIVE_VIEWS,
    EVENNIA_LIVE_VIEWS,
    EMERGENCE_VIEWS,
];

impl MainView {
    pub fn title(self) -> &'static str {
        match self {
            MainView::Observations => "Observations",
            MainView::Dreams => "Dreams",
            MainView::Diary => "Diary",
            MainView::Recall => "Recall",
            MainView::Journal => "Journal",
            MainView::Entities => "Entities",
            MainView::Memory | MainView::LongTerm => "Memory",
            MainView::Soul => "Soul",
            MainView::DiaryLog => "Diary",
            MainView::Plans => "Plans",
            MainView::Relations => "Relations",
            MainView::Live => "Live",
            MainView::Events => "Events",
            MainView::Talk => "Talk",
        }
    }

    /// `views` with the live view of an OpenSeed creature added (an emergence creature's
    /// as they are: OpenSeed runs no such genome).
    pub fn with_live(views: &'static [MainView]) -> &'static [MainView] {
        if views.contains(&MainView::Soul) {
            return views;
        }
        let live = if views.contains(&MainView::Journal) {
            EVENNIA_LIVE_VIEWS
        } else {
            DREAMER_LIVE_VIEWS
        };
        events_if(live, views.contains(&MainView::Events))
    }

    /// `views` with the garden's conversation after them.
    pub fn with_talk(views: &'static [MainView]) -> &'static [MainView] {
        WITH_TALK
            .iter()
            .find(|(set, _)| *set == views)
            .map_or(views, |(_, talk)| talk)
    }

    /// The views a creature of `genome` offers, in tab order: the Events view only when
    /// it has an events file.
    pub fn of(genome: &Genome, events: bool) -> &'static [MainView] {
        let all = match genome {
            Genome::Evennia => EVENNIA_VIEWS,
            Genome::Emergence if events => EMERGENCE_VIEWS,
            Genome::Emergence => EMERGENCE_VIEWS_QUIET,
            Genome::Dreamer | Genome::Other(_) => DREAMER_VIEWS,
        };
        if genome == &Genome::Emergence {
            return all;
        }
        events_if(all, events)
    }

    /// This view where `offered` has it, else the view in the same tab there (a creature
    /// of another genome selected keeps the operator on the same tab).
    pub fn within(self, offered: &[MainView]) -> MainView {
        if offered.contains(&self) {
            return self;
        }
        let tab = VIEW_SETS
            .iter()
            .find_map(|set| set.iter().position(|v| *v == self))
            .unwrap_or(0);
        offered
            .get(tab)
            .or(offered.first())
            .copied()
            .unwrap_or(self)
    }

    /// Whether some creature offers both views (then they cannot share a key).
    pub fn offered_together(a: MainView, b: MainView) -> bool {
        // The garden's conversation goes with every creature's views.
        a == MainView::Talk
            || b == MainView::Talk
            || VIEW_SETS
                .iter()
                .any(|set| set.contains(&a) && set.contains(&b))
    }
}

/// `set` (whose last view is Events: a dreamer's or an evennia creature's), without its Events view unless `events`.
const fn events_if(set: &'static [MainView], events: bool) -> &'static [MainView] {
    match set.split_last() {
        Some((_, rest)) if !events => rest,
        _ => set,
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_not_offered_becomes_the_one_in_its_tab() {
        assert_eq!(MainView::Dreams.within(EVENNIA_VIEWS), MainView::Entities);
        assert_eq!(MainView::Memory.within(DREAMER_VIEWS), MainView::Diary);
        assert_eq!(MainView::Recall.within(EVENNIA_VIEWS), MainView::Recall);
        assert_eq!(MainView::Journal.within(EVENNIA_VIEWS), MainView::Journal);
        assert!(MainView::offered_together(
            MainView::Journal,
            MainView::Recall
        ));
        assert!(!MainView::offered_together(
            MainView::Journal,
            MainView::Observations
        ));
        assert_eq!(
            MainView::of(&Genome::Other("x".into()), true),
            DREAMER_VIEWS
        );
        assert!(!MainView::of(&Genome::Evennia, false).contains(&MainView::Events));
        assert_eq!(MainView::Events.within(EVENNIA_VIEWS), MainView::Events);
        let live = MainView::with_live(MainView::of(&Genome::Dreamer, false));
        assert_eq!(live.last(), Some(&MainView::Live));
        let emergence = MainView::of(&Genome::Emergence, false);
        assert!(!emergence.contains(&MainView::Events));
        assert_eq!(MainView::of(&Genome::Emergence, true), EMERGENCE_VIEWS);
        assert_eq!(MainView::with_live(emergence), emergence);
        assert_eq!(MainView::Diary.within(EMERGENCE_VIEWS), MainView::DiaryLog);
        assert_eq!(MainView::Relations.within(EVENNIA_VIEWS), MainView::Journal);
        assert!(!MainView::offered_together(MainView::Plans, MainView::Live));
    }

    #[test]
    fn every_set_of_views_can_add_the_garden_conversation() {
        for genome in [Genome::Dreamer, Genome::Evennia, Genome::Emergence] {
            for events in [false, true] {
                let views = MainView::of(&genome, events);
                for views in [views, MainView::with_live(views)] {
                    let talk = MainView::with_talk(views);
                    assert_eq!(&talk[..views.len()], views, "{genome:?} {events}");
                    assert_eq!(talk.last(), Some(&MainView::Talk));
                    assert_eq!(MainView::Talk.within(talk), MainView::Talk);
                }
            }
        }
        assert_eq!(MainView::Talk.within(DREAMER_VIEWS), MainView::Observations);
        assert!(MainView::offered_together(MainView::Talk, MainView::Soul));
    }
}
