//! A `wonders` creature in the observatory: its subconscious (newest first: what it
//! wondered, what its searches found, what it surfaced), the live and events views every
//! OpenSeed creature has, and a side panel of the memories it surfaced.

use chrono::{DateTime, Utc};
use ratatui::text::{Line, Span};

use super::memory::{self, SubconsciousStep};
use crate::memory::creature::Creature;
use crate::memory::summary::Summary;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::Anchor;
use crate::ui::draw::fmt::Part;
use crate::ui::focus::{MainView, OwnView};
use crate::ui::genome::{GardenColumn, GardenCx, GenomeUi, GenomeViews};
use crate::ui::input::action::Action;
use crate::ui::prepare::inert;
use crate::ui::screenshot::{Pictures, Shot};
use crate::ui::state::FrameClock;
use crate::ui::theme::Theme;
use crate::ui::views::side::prepare::{none, title};

/// Its subconscious, newest first.
const SUBCONSCIOUS: MainView = MainView::Own(&OwnView::text(
    Action::ViewOwnFirst,
    "Subconscious",
    "Nothing yet: the subconscious runs after each turn that used a tool.",
));

/// Its views, in tab order.
pub const VIEWS: &[MainView] = &[SUBCONSCIOUS, MainView::Events];

/// Surfaced memories listed in the side panel, the newest.
const SURFACED_SHOWN: usize = 6;

/// The genome as the observatory shows it.
pub static GENOME: GenomeViews = GenomeViews {
    genome: memory::NAME,
    views: VIEWS,
    quiet: &[SUBCONSCIOUS],
    live: Some((
        &[SUBCONSCIOUS, MainView::Live, MainView::Events],
        &[SUBCONSCIOUS, MainView::Live],
    )),
    side_title: " Surfaced memories ",
    side,
    own: Some(|c, now, theme| {
        let mut ui = WondersUi::new();
        ui.prepare(c, now, theme);
        Box::new(ui)
    }),
    search: &[],
    garden: Some(GardenColumn {
        label: "cycle surf",
        short: "surf",
        glyph: "✧",
        legend: "⟳ the cycle it is in, then memories its subconscious surfaced, ✧ times it wondered",
    }),
    garden_part: None,
    pictures: Pictures {
        shots: &[Shot {
            name: "wonders-subconscious",
            theme: None,
            input: &[],
            min_width: 0,
        }],
        staged: &[],
    },
};

/// The subconscious view and the header's figures, prepared.
#[derive(Debug)]
struct WondersUi {
    /// Where the view is scrolled.
    anchor: Anchor,
    steps: Vec<DocLine>,
    /// Cycle count, memories surfaced, wonders, searches.
    figures: (Option<u64>, u64, u64, u64),
}

impl WondersUi {
    /// Nothing prepared yet, the view at its top (the newest).
    fn new() -> Self {
        Self {
            anchor: Anchor::Line(0),
            steps: Vec::new(),
            figures: Default::default(),
        }
    }
}

impl GenomeUi for WondersUi {
    fn prepare(&mut self, c: &Creature, _now: DateTime<Utc>, theme: &Theme) {
        let m = memory::of(c);
        self.figures = (
            m.cycle_count,
            m.surfaced_total,
            m.subconscious.wonders,
            m.subconscious.searches,
        );
        self.steps = m
            .subconscious
            .kept
            .as_slice()
            .iter()
            .rev()
            .flat_map(|(t, _, step)| step_lines(*t, step, theme))
            .collect();
    }

    fn doc(&self, _view: &OwnView) -> &[DocLine] {
        &self.steps
    }

    fn anchor(&self, _view: &OwnView) -> Anchor {
        self.anchor
    }

    fn anchor_mut(&mut self, _view: &OwnView) -> Option<&mut Anchor> {
        Some(&mut self.anchor)
    }

    fn header(&self, _s: &Summary, _now: FrameClock, theme: &Theme) -> Vec<Part> {
        let (count, surfaced, wonders, searches) = self.figures;
        let count = count.map_or("?".to_string(), |n| n.to_string());
        [
            Span::styled("cycle ", theme.muted),
            Span::styled(count, theme.accent),
            Span::styled("  surfaced ", theme.muted),
            Span::styled(surfaced.to_string(), theme.grn),
            Span::styled(
                format!("  {wonders} wonders  {searches} searches"),
                theme.muted,
            ),
        ]
        .into_iter()
        .map(Part::keep)
        .collect()
    }

    /// The cycle it is in, the memories it surfaced, and how often it wondered.
    fn garden(&self, cx: &GardenCx) -> Vec<Part> {
        let (count, surfaced, wonders, _) = self.figures;
        let count = count.map_or("?".to_string(), |n| n.to_string());
        vec![
            Part::keep(Span::styled(format!("⟳{count:<5}"), cx.theme.accent)),
            Part::keep(Span::styled(format!("{surfaced:>3}"), cx.theme.grn)),
            Part::keep(Span::styled(cx.count('✧', wonders), cx.theme.dream)),
        ]
    }
}

/// One step: its time and kind, then what it found.
fn step_lines(t: Option<DateTime<Utc>>, step: &SubconsciousStep, theme: &Theme) -> Vec<DocLine> {
    let when = t.map_or("?".to_string(), |t| t.format("%m-%d %H:%M:%S").to_string());
    let head = |kind: &str, rest: String, style| {
        DocLine::hanging(
            Line::from(vec![
                Span::styled(format!("{when} "), theme.muted),
                Span::styled(format!("{kind:<9}"), style),
                Span::styled(rest, theme.base),
            ]),
            2,
        )
    };
    let detail = |text: String| {
        DocLine::hanging(
            Line::from(vec![Span::raw("    "), Span::styled(text, theme.muted)]),
            6,
        )
    };
    let mut out = Vec::new();
    match step {
        SubconsciousStep::Wonder { wonders } if wonders.is_empty() => {
            out.push(head("wonder", "no hypotheses".into(), theme.muted));
        }
        SubconsciousStep::Wonder { wonders } => {
            out.push(head(
                "wonder",
                format!("{} hypotheses", wonders.len()),
                theme.accent,
            ));
            for w in wonders {
                out.push(detail(format!(
                    "{} (query: {})",
                    inert(&w.wonder),
                    inert(&w.query)
                )));
            }
        }
        SubconsciousStep::Search { hits, missed } => {
            let found: u64 = hits.iter().map(|h| h.match_count).sum();
            out.push(head(
                "search",
                format!("{} queries with hits, {found} thoughts found", hits.len()),
                theme.ylw,
            ));
            for hit in hits {
                for m in &hit.matches {
                    out.push(detail(format!("{}: {}", inert(&hit.query), inert(m))));
                }
            }
            if !missed.is_empty() {
                let missed: Vec<String> = missed.iter().map(|q| inert(q)).collect();
                out.push(detail(format!("nothing for: {}", missed.join(", "))));
            }
        }
        SubconsciousStep::Prepare {
            surfaced: Some(memory),
            candidates,
        } => {
            out.push(head(
                "surfaced",
                format!("from {candidates} candidates"),
                theme.grn,
            ));
            out.push(detail(inert(memory)));
        }
        SubconsciousStep::Prepare {
            surfaced: None,
            candidates,
        } => out.push(head(
            "prepare",
            format!("nothing surfaced from {candidates} candidates"),
            theme.muted,
        )),
        SubconsciousStep::Skip { reason } => out.push(head("skip", inert(reason), theme.muted)),
        SubconsciousStep::Other(step) => out.push(head("step", inert(step), theme.muted)),
    }
    out
}

fn side(out: &mut Vec<DocLine>, c: &Creature, theme: &Theme) {
    let m = memory::of(c);
    title(out, theme, "Surfaced", Some(m.surfaced_total.to_string()));
    if m.surfaced.as_slice().is_empty() {
        none(out, theme, "none yet");
    }
    for (_, text) in m.surfaced.as_slice().iter().rev().take(SURFACED_SHOWN) {
        out.push(DocLine::word(
            Line::from(vec![
                Span::styled("• ", theme.accent),
                Span::styled(inert(text), theme.base),
            ]),
            2,
        ));
    }
    let cycle = m.cycle_count.map(|n| n.to_string());
    title(out, theme, "Cycle", cycle);
    let s = &m.subconscious;
    out.push(DocLine::word(
        Line::styled(
            format!(
                "{} wonders, {} searches, {} steps",
                s.wonders, s.searches, s.steps
            ),
            theme.muted,
        ),
        0,
    ));
}
