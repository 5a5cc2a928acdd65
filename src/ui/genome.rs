//! Genomes as the observatory knows them: the views each offers and its side panel. A
//! genome's `ui` part gives a [`GenomeViews`]; the composition root installs the list
//! once ([`install`]); nothing here names a genome. A creature of a genome nothing knows
//! is shown as the first installed genome's (the default) would be.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::text::Span;

use crate::memory::creature::Creature;
use crate::memory::genome::Genome;
use crate::memory::layout::FileKind;
use crate::memory::summary::Summary;
use crate::search::SearchSource;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::draw::doc;
use crate::ui::draw::fmt::Part;
use crate::ui::focus::{MainView, OwnView};
use crate::ui::layout::Areas;
use crate::ui::screenshot::Pictures;
use crate::ui::state::FrameClock;
use crate::ui::state::selection::Selection;
use crate::ui::theme::Theme;

/// What a genome's view draws with.
pub struct ViewCx<'a> {
    pub areas: &'a Areas,
    pub theme: &'a Theme,
    /// The creature's name (inert).
    pub name: &'a str,
    /// What the genome keeps of the whole garden ([`GenomeViews::garden_part`]).
    pub garden: Option<&'a dyn GardenState>,
}

/// What the garden list's row of a creature is drawn with.
pub struct GardenCx<'a> {
    /// The cells of the activity column, where the list shows one (the counts are
    /// padded to it).
    pub spark: Option<usize>,
    pub now: FrameClock<'a>,
    pub theme: &'a Theme,
}

impl GardenCx<'_> {
    /// `  ◆3`: a count after its glyph, padded to the activity column where there is one.
    pub fn count(&self, glyph: char, n: u64) -> String {
        match self.spark {
            Some(_) => format!("  {glyph}{n:<3}"),
            None => format!("  {glyph}{n}"),
        }
    }
}

/// A search hit shown in a genome's view: the view, and what to say when the line is
/// about something the view no longer shows.
pub struct HitShown {
    pub view: MainView,
    pub missing: Option<&'static str>,
}

/// What the observatory keeps for one creature of a genome with views of its own
/// ([`MainView::Own`]), a component: each view's state (documents prepared when its
/// files or the events log change, never in draw; where each is scrolled, what is
/// selected), how the generic keys (up, down, pages, the wheel) move it, how it is drawn,
/// what search hits into its files show, and the genome's figures in the header and the
/// garden list.
pub trait GenomeUi: std::fmt::Debug + Send {
    /// Prepares the documents again from what the creature's files say now.
    fn prepare(&mut self, c: &Creature, now: DateTime<Utc>, theme: &Theme);

    /// Files of `kinds` changed (or were read again), and the events log when `events`:
    /// prepares again what shows them. Returns whether the side panel shows some of it.
    fn changed(
        &mut self,
        c: &Creature,
        _kinds: &[FileKind],
        _events: bool,
        now: DateTime<Utc>,
        theme: &Theme,
    ) -> bool {
        self.prepare(c, now, theme);
        true
    }

    /// The clock moved on (views that depend on it are prepared again).
    fn tick(&mut self, _c: &Creature, _now: DateTime<Utc>, _theme: &Theme) {}

    /// Whether [`GenomeUi::tick`] does anything: a genome whose views read the clock says
    /// so, and its creatures are never left out of a tick.
    fn ticks(&self) -> bool {
        false
    }

    /// The document of the own view `view` (newest first: the top is where new items
    /// arrive, as in the other views).
    fn doc(&self, view: &OwnView) -> &[DocLine];

    /// Where `view`'s document is scrolled.
    fn anchor(&self, view: &OwnView) -> Anchor;

    /// ... to scroll it.
    fn anchor_mut(&mut self, view: &OwnView) -> Option<&mut Anchor>;

    /// Prepares what `view` shows only while shown (a selected row's detail).
    fn before_draw(&mut self, _c: &Creature, _view: &OwnView, _theme: &Theme) {}

    /// Draws `view` in the main pane.
    fn draw(&self, frame: &mut Frame, view: &OwnView, cx: &ViewCx) {
        doc::render(
            frame,
            cx.areas.main_view,
            self.doc(view),
            self.anchor(view),
            view.empty,
            cx.theme,
        );
    }

    /// What the main pane's title says of `view`: where the reader is, the counts.
    fn status(&self, view: &OwnView, vp: Viewport, theme: &Theme) -> Vec<Span<'static>> {
        let lines = self.doc(view);
        if lines.is_empty() {
            return Vec::new();
        }
        let top = scroll::top(lines, self.anchor(view), vp);
        vec![Span::styled(
            format!(" {}/{} ", top + 1, lines.len()),
            theme.muted,
        )]
    }

    /// Moves `view` by a key (or the wheel): scrolls its document, or moves its list's
    /// selection.
    fn scroll(&mut self, view: &OwnView, vp: Viewport, step: Step) {
        let new = scroll::scroll(self.doc(view), self.anchor(view), vp, step);
        if let Some(anchor) = self.anchor_mut(view) {
            *anchor = new;
        }
    }

    /// The wheel over `view`'s detail pane (`vp`) scrolls it; returns whether it has one.
    fn scroll_detail(&mut self, _view: &OwnView, _vp: Viewport, _step: Step) -> bool {
        false
    }

    /// What `view` selects for the keys that open, view and copy (`None`: its file).
    fn selection(&self, _view: &OwnView, _vp: Viewport, _c: &Creature) -> Option<Selection> {
        None
    }

    /// Shows the item folded from `line` of the file of a search `source` of the
    /// genome's ([`GenomeViews::search`]).
    fn show_hit(
        &mut self,
        _c: &Creature,
        _source: SearchSource,
        _line: u64,
        _theme: &Theme,
    ) -> Option<HitShown> {
        None
    }

    /// The header's second line, where the genome has its own figures for it (else the
    /// cycle's fatigue and dreams).
    fn header(&self, _s: &Summary, _now: FrameClock, _theme: &Theme) -> Vec<Part> {
        Vec::new()
    }

    /// What the header says the creature is doing while awake or asleep, where the
    /// genome knows better than the status.
    fn mode(&self) -> Option<&str> {
        None
    }

    /// The garden list's figures of the creature (under [`GenomeViews::garden`]).
    fn garden(&self, _cx: &GardenCx) -> Vec<Part> {
        Vec::new()
    }
}

/// What a genome keeps of the whole garden, for its views (the emergence relations of
/// every creature, drawn as one graph).
pub trait GardenState: std::any::Any + std::fmt::Debug + Send {}

/// How a genome's state of the whole garden is made: from every creature the observatory
/// sees, again when one comes or goes, its identity changes, or one of `files` changes.
#[derive(Debug)]
pub struct GardenPart {
    pub make: fn(&[&Creature]) -> Box<dyn GardenState>,
    pub files: &'static [FileKind],
}

/// Every genome's state of the whole garden, by genome.
#[derive(Debug, Default)]
pub struct Gardens(Vec<(&'static str, Box<dyn GardenState>)>);

impl Gardens {
    /// Makes again the states of the genomes that keep one: all of them, or (`changed`)
    /// those that read one of the files of these kinds.
    pub fn prepare(&mut self, creatures: &[&Creature], changed: Option<&[FileKind]>) {
        for g in installed() {
            let Some(part) = &g.garden_part else {
                continue;
            };
            if changed.is_some_and(|kinds| !kinds.iter().any(|k| part.files.contains(k))) {
                continue;
            }
            let state = (part.make)(creatures);
            match self.0.iter_mut().find(|(name, _)| *name == g.genome) {
                Some((_, kept)) => *kept = state,
                None => self.0.push((g.genome, state)),
            }
        }
    }

    /// The state of the garden `genome`'s views show, where it keeps one.
    pub fn of(&self, genome: &Genome) -> Option<&dyn GardenState> {
        let name = of(genome).genome;
        self.0
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, state)| state.as_ref())
    }
}

/// Makes the state behind a genome's own views for one creature, prepared.
pub type NewGenomeUi = fn(&Creature, DateTime<Utc>, &Theme) -> Box<dyn GenomeUi>;

/// The garden list's column of a genome's figures (instead of the cycle's fatigue and
/// dreams): its header alone, in a mixed garden, and its glyph.
#[derive(Debug)]
pub struct GardenColumn {
    pub label: &'static str,
    pub short: &'static str,
    pub glyph: &'static str,
    /// What the row's figures are, for the help's legend.
    pub legend: &'static str,
}

/// The cycle's column, for a creature whose genome has none of its own: fatigue and
/// dreams.
pub const FATIGUE: GardenColumn = GardenColumn {
    label: "fatigue",
    short: "fatig",
    glyph: "☾",
    legend: "the bar and number: fatigue (the mark: where it warns), ☾ dreams",
};

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
    /// The search's sources in its files, each with the file it searches.
    pub search: &'static [(SearchSource, FileKind)],
    /// Its column in the garden list, where it is not the cycle's fatigue and dreams.
    pub garden: Option<GardenColumn>,
    /// What it keeps of the whole garden, where its views show some.
    pub garden_part: Option<GardenPart>,
    /// Its pictures for `dreamwatch screenshot`, on the fixtures of its creatures.
    pub pictures: Pictures,
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
    search: &[],
    garden: None,
    garden_part: None,
    pictures: Pictures::NONE,
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
