//! The journal view: the gauge of cumulative importance toward the next reflection, then
//! the entries and reflections, newest first.

use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::doc;
use super::fmt::{self, Part};
use crate::ui::layout::Areas;
use crate::ui::prepare::evennia::EvenniaSummary;
use crate::ui::state::evennia::EvenniaUi;
use crate::ui::theme::Theme;

/// Cells of the gauge at most.
const GAUGE_CELLS: usize = 40;

pub fn render(frame: &mut Frame, areas: &Areas, e: &EvenniaUi, theme: &Theme) {
    if let Some(area) = areas.gauge {
        let width = usize::from(area.width);
        let rule = Line::styled("─".repeat(width), theme.border);
        frame.render_widget(
            Paragraph::new(vec![
                gauge(&e.summary, width, theme),
                counts(&e.summary, width, theme),
                rule,
            ]),
            area,
        );
    }
    doc::render(
        frame,
        areas.main_view,
        &e.journal.lines,
        e.journal_anchor,
        "No journal entries yet: the creature writes them as it goes (add_journal_entry).",
        theme,
    );
}

/// `importance ██████░░░░ 49/150 toward the next reflection`: full (and red) when a
/// reflection is due.
fn gauge(s: &EvenniaSummary, width: usize, theme: &Theme) -> Line<'static> {
    let label = "importance ";
    let figures = format!(" {}/{}", s.cumulative, s.threshold);
    let tail = " toward the next reflection";
    let cells = width
        .saturating_sub(label.len() + figures.len() + tail.len())
        .min(GAUGE_CELLS);
    let due = s.cumulative >= s.threshold.max(1);
    let mut spans = vec![Span::styled(label, theme.muted)];
    spans.extend(fmt::reflection_bar(s, cells, theme));
    spans.push(Span::styled(figures, fmt::reflection_style(s, theme)));
    spans.push(Span::styled(
        if due { " reflection due" } else { tail },
        theme.muted,
    ));
    Line::from(spans)
}

/// `34 entries · 2 pruned · 26 scored by the model, 8 heuristic · 1 reflection, last r1
/// 16:48`, the least useful parts left out first when narrow.
fn counts(s: &EvenniaSummary, width: usize, theme: &Theme) -> Line<'static> {
    let part = |drop, text: String| Part::optional(drop, Span::styled(text, theme.muted));
    let reflections = if s.reflections == 1 {
        "reflection"
    } else {
        "reflections"
    };
    let last = s
        .last_reflection
        .as_deref()
        .map_or(String::new(), |r| format!(", last {r}"));
    fmt::fit(
        vec![
            Part::keep(Span::styled(format!("{} entries", s.entries), theme.muted)),
            part(2, format!(" · {} pruned", s.pruned)),
            part(
                3,
                format!(
                    " · {} scored by the model, {} heuristic",
                    s.llm, s.heuristic
                ),
            ),
            Part {
                drop: 1,
                spans: vec![Span::styled(
                    format!(" · {} {reflections}{last}", s.reflections),
                    theme.muted,
                )],
                short: Some((
                    1,
                    vec![Span::styled(
                        format!(" · ◆{}", s.reflections),
                        theme.deep_sleep,
                    )],
                )),
            },
        ],
        width,
    )
}
