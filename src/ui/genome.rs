//! Genomes as the observatory knows them: the views each offers and its side panel. A
//! genome's `ui` part gives a [`GenomeViews`]; the composition root installs the list
//! once ([`install`]); nothing here names a genome. A creature of a genome nothing knows
//! is shown as the first installed genome's (the default) would be.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use chrono::{DateTime, Utc};
use ratatui::text::Span;

use crate::memory::creature::Creature;
use crate::memory::genome::Genome;
use crate::ui::doc::DocLine;
use crate::ui::focus::MainView;
use crate::ui::theme::Theme;

/// What the observatory keeps for one creature of a genome with views of its own
/// ([`MainView::Own`]): each view's document, prepared when the genome's files or the
/// events log change, never while drawing.
pub trait GenomeUi: std::fmt::Debug + Send {
    /// Prepares the documents again from what the creature's files say now.
    fn prepare(&mut self, c: &Creature, now: DateTime<Utc>, theme: &Theme);

    /// The document of the own view `slot` (newest first: the top is where new items
    /// arrive, as in the other views).
    fn doc(&self, slot: u8) -> &[DocLine];

    /// The header's second line, where the genome has its own figures for it (else the
    /// cycle's fatigue and dreams).
    fn header(&self, _theme: &Theme) -> Vec<Span<'static>> {
        Vec::new()
    }
}

/// Makes the state behind a genome's own views for one creature, prepared.
pub type NewGenomeUi = fn(&Creature, DateTime<Utc>, &Theme) -> Box<dyn GenomeUi>;

/// What the observatory shows of a genome's creatures.
#[derive(Debug)]
pub struct GenomeViews {
    /// The genome's name (as BIRTH.json writes it).
    pub genome: &'static str,
    /// Its views in tab order, for a creature with an events file.
    pub views: &'static [MainView],
    /// ... and for one without.
    pub quiet: &'static [MainView],
    /// Its views while an attached OpenSeed orchestrator runs the creature (with and
    /// without an events file); `None`: as without one (OpenSeed runs no such genome).
    pub live: Option<(&'static [MainView], &'static [MainView])>,
    /// The side panel's title.
    pub side_title: &'static str,
    /// The side panel's genome part (the shared part follows it).
    pub side: fn(&mut Vec<DocLine>, &Creature, &Theme),
    /// The state behind its own views ([`MainView::Own`]), for a genome that has any.
    pub own: Option<NewGenomeUi>,
}

impl GenomeViews {
    /// Its views in tab order: the Events view only with an events file.
    pub fn offered(&self, events: bool) -> &'static [MainView] {
        if events { self.views } else { self.quiet }
    }
}

/// A genome shown with nothing but what every creature has.
static NONE: GenomeViews = GenomeViews {
    genome: "unknown",
    views: &[MainView::Recall, MainView::Events],
    quiet: &[MainView::Recall],
    live: None,
    side_title: " Creature ",
    side: |_, _, _| {},
    own: None,
};

static INSTALLED: OnceLock<&'static [&'static GenomeViews]> = OnceLock::new();

/// Installs the genomes' views (the composition root does, before the observatory
/// starts). A second call changes nothing.
pub fn install(genomes: &'static [&'static GenomeViews]) {
    let _ = INSTALLED.set(genomes);
}

/// Every installed genome's views.
pub fn installed() -> &'static [&'static GenomeViews] {
    INSTALLED.get().copied().unwrap_or(&[])
}

/// The views of `genome`'s creatures: its own, else the default's.
pub fn of(genome: &Genome) -> &'static GenomeViews {
    let all = installed();
    all.iter()
        .find(|g| g.genome == genome.name())
        .or(all.first())
        .copied()
        .unwrap_or(&NONE)
}

/// The views of a creature nothing is known of yet (the default genome's).
pub fn default_views() -> &'static [MainView] {
    installed().first().map_or(NONE.views, |g| g.views)
}

/// Every set of views some creature may offer (with and without events, live or not).
pub fn view_sets() -> impl Iterator<Item = &'static [MainView]> {
    installed().iter().flat_map(|g| {
        [g.views, g.quiet]
            .into_iter()
            .chain(g.live.into_iter().flat_map(|(a, b)| [a, b]))
    })
}

/// The views a creature of `genome` offers, in tab order: the Events view only when it
/// has an events file.
pub fn offered(genome: &Genome, events: bool) -> &'static [MainView] {
    of(genome).offered(events)
}

/// `views` with the live view of an OpenSeed creature added (where its genome has views
/// for that: OpenSeed runs only some genomes).
pub fn with_live(views: &'static [MainView]) -> &'static [MainView] {
    for g in installed() {
        if let Some((live, quiet)) = g.live {
            if views == g.views {
                return live;
            }
            if views == g.quiet {
                return quiet;
            }
        }
    }
    views
}

/// `view` where `offered` has it, else the view in the same tab there (a creature of
/// another genome selected keeps the operator on the same tab).
pub fn within(view: MainView, offered: &[MainView]) -> MainView {
    if offered.contains(&view) {
        return view;
    }
    let tab = view_sets()
        .find_map(|set| set.iter().position(|v| *v == view))
        .unwrap_or(0);
    offered
        .get(tab)
        .or(offered.first())
        .copied()
        .unwrap_or(view)
}

/// Whether some creature offers both views (then they cannot share a key).
pub fn offered_together(a: MainView, b: MainView) -> bool {
    // The garden's conversation goes with every creature's views.
    a == MainView::Talk
        || b == MainView::Talk
        || view_sets().any(|set| set.contains(&a) && set.contains(&b))
}

/// `views` with the garden's conversation after them: made once per set and kept for the
/// life of the process (a handful of sets).
pub fn with_talk(views: &'static [MainView]) -> &'static [MainView] {
    static MADE: OnceLock<Mutex<HashMap<&'static [MainView], &'static [MainView]>>> =
        OnceLock::new();
    if views.contains(&MainView::Talk) {
        return views;
    }
    let Ok(mut made) = MADE.get_or_init(Default::default).lock() else {
        return views;
    };
    made.entry(views).or_insert_with(|| {
        let mut talk = views.to_vec();
        talk.push(MainView::Talk);
        Box::leak(talk.into_boxed_slice())
    })
}
