//! A `minimal` creature in the observatory: its cycles (newest first, each with its
//! thoughts and tool calls), the live and events views every OpenSeed creature has, and a
//! side panel of where its loop stands.

use chrono::{DateTime, Utc};
use ratatui::text::{Line, Span};

use super::memory::{self, Cycle, Step};
use crate::memory::creature::Creature;
use crate::memory::figures::counted;
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

/// Its cycles, newest first.
const CYCLES: MainView = MainView::Own(&OwnView::text(
    Action::ViewOwnFirst,
    "Cycles",
    "No cycles yet: one begins when the creature boots or wakes.",
));

/// Its views, in tab order.
pub const VIEWS: &[MainView] = &[CYCLES, MainView::Events];

/// The genome as the observatory shows it.
pub static GENOME: GenomeViews = GenomeViews {
    genome: memory::NAME,
    views: VIEWS,
    quiet: &[CYCLES],
    live: Some((
        &[CYCLES, MainView::Live, MainView::Events],
        &[CYCLES, MainView::Live],
    )),
    side_title: " Loop ",
    side,
    own: Some(|c, now, theme| {
        let mut ui = MinimalUi::new();
        ui.prepare(c, now, theme);
        Box::new(ui)
    }),
    search: &[],
    garden: Some(GardenColumn {
        label: "cycle calls",
        short: "calls",
        glyph: "✗",
        legend: "⟳ the cycle it is in, then its tool calls, ✗ those that failed",
    }),
    garden_part: None,
    pictures: Pictures {
        shots: &[Shot {
            name: "minimal-cycles",
            theme: None,
            input: &[],
            min_width: 0,
        }],
        staged: &[],
    },
};

/// The cycles view and the header's figures, prepared.
#[derive(Debug)]
struct MinimalUi {
    /// Where the view is scrolled.
    anchor: Anchor,
    cycles: Vec<DocLine>,
    /// Cycle count, cycles ended, tool calls, failed, and whether one is under way.
    figures: (Option<u64>, u64, u64, u64, bool),
}

impl MinimalUi {
    /// Nothing prepared yet, the view at its top (the newest).
    fn new() -> Self {
        Self {
            anchor: Anchor::Line(0),
            cycles: Vec::new(),
            figures: Default::default(),
        }
    }
}

impl GenomeUi for MinimalUi {
    fn prepare(&mut self, c: &Creature, _now: DateTime<Utc>, theme: &Theme) {
        let m = memory::of(c);
        self.figures = (
            m.cycle_count,
            m.cycles.ended,
            m.cycles.tool_calls,
            m.cycles.failed,
            m.cycles.current().is_some(),
        );
        let all: Vec<&Cycle> = m.cycles.all().collect();
        // The cycle count is the number of the newest cycle.
        let first = m
            .cycle_count
            .and_then(|n| n.checked_sub((all.len() as u64).saturating_sub(1)));
        self.cycles = all
            .into_iter()
            .enumerate()
            .rev()
            .flat_map(|(i, cycle)| cycle_lines(first.map(|f| f + i as u64), cycle, theme))
            .collect();
    }

    fn doc(&self, _view: &OwnView) -> &[DocLine] {
        &self.cycles
    }

    fn anchor(&self, _view: &OwnView) -> Anchor {
        self.anchor
    }

    fn anchor_mut(&mut self, _view: &OwnView) -> Option<&mut Anchor> {
        Some(&mut self.anchor)
    }

    fn header(&self, _s: &Summary, _now: FrameClock, theme: &Theme) -> Vec<Part> {
        let (count, ended, calls, failed, under_way) = self.figures;
        let count = count.map_or("?".to_string(), |n| n.to_string());
        let mut spans = vec![
            Span::styled("cycle ", theme.muted),
            Span::styled(count, theme.accent),
            Span::styled(format!("  {ended} ended in a sleep  "), theme.muted),
            Span::styled(counted(calls, "tool call", "tool calls"), theme.base),
        ];
        if failed > 0 {
            spans.push(Span::styled(format!(" ({failed} failed)"), theme.red));
        }
        if under_way {
            spans.push(Span::styled("  a cycle under way", theme.muted));
        }
        spans.into_iter().map(Part::keep).collect()
    }

    /// The cycle it is in, its tool calls, and how many failed.
    fn garden(&self, cx: &GardenCx) -> Vec<Part> {
        let (count, _, calls, failed, _) = self.figures;
        let count = count.map_or("?".to_string(), |n| n.to_string());
        vec![
            Part::keep(Span::styled(format!("⟳{count:<5}"), cx.theme.accent)),
            Part::keep(Span::styled(format!("{calls:>3}"), cx.theme.base)),
            Part::keep(Span::styled(
                cx.count('✗', failed),
                if failed > 0 {
                    cx.theme.red
                } else {
                    cx.theme.muted
                },
            )),
        ]
    }
}

/// One cycle: a heading (its number, when it began and why, how it ended), then its steps.
fn cycle_lines(number: Option<u64>, cycle: &Cycle, theme: &Theme) -> Vec<DocLine> {
    let when = cycle
        .t
        .map_or("?".to_string(), |t| t.format("%m-%d %H:%M:%S").to_string());
    let ended = match cycle.slept_s {
        Some(s) => format!("slept {s:.0} s"),
        None => "under way (or stopped)".to_string(),
    };
    let number = number.map_or(String::new(), |n| format!("cycle {n} · "));
    let failed = if cycle.failed > 0 {
        format!(", {} failed", cycle.failed)
    } else {
        String::new()
    };
    let about = format!(
        "{} · {ended} · {}{failed}",
        inert(&cycle.began),
        counted(cycle.tool_calls, "tool call", "tool calls")
    );
    let mut out = vec![DocLine::hanging(
        Line::from(vec![
            Span::styled(format!("{number}{when} "), theme.title),
            Span::styled(about, theme.muted),
        ]),
        2,
    )];
    for step in &cycle.steps {
        let (mark, style, text) = match step {
            Step::Thought(text) => ("  ", theme.base, first_line(text)),
            Step::Tool { tool, input, ok } => (
                if *ok { "✓ " } else { "✗ " },
                if *ok { theme.grn } else { theme.red },
                format!("{tool}: {}", first_line(input)),
            ),
            Step::Message(text) => ("✉ ", theme.accent, first_line(text)),
            Step::Error(text) => ("! ", theme.error, first_line(text)),
        };
        out.push(DocLine::hanging(
            Line::from(vec![
                Span::styled(format!("  {mark}"), style),
                Span::styled(inert(&text), theme.base),
            ]),
            4,
        ));
    }
    if cycle.steps_dropped > 0 {
        out.push(DocLine::word(
            Line::styled(
                format!("    … and {} more", cycle.steps_dropped),
                theme.muted,
            ),
            0,
        ));
    }
    out.push(DocLine::hard(Line::default()));
    out
}

/// The first line of a creature's text.
fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().to_string()
}

fn side(out: &mut Vec<DocLine>, c: &Creature, theme: &Theme) {
    let m = memory::of(c);
    let count = m.cycle_count.map(|n| n.to_string());
    title(out, theme, "Cycle", count);
    if m.cycles.all().next().is_none() {
        none(out, theme, "none seen yet");
    }
    for (label, value) in [
        ("ended in a sleep", m.cycles.ended),
        ("tool calls", m.cycles.tool_calls),
        ("failed", m.cycles.failed),
        ("thoughts", m.cycles.thoughts),
    ] {
        out.push(DocLine::word(
            Line::from(vec![
                Span::styled(format!("{value:>5} "), theme.accent),
                Span::styled(label.to_string(), theme.base),
            ]),
            6,
        ));
    }
}
