//! Sparklines as text: one block character per interval, eight heights, a dot where
//! nothing happened (so that an idle stretch still shows the time axis).

use ratatui::style::Style;
use ratatui::text::Span;

use super::fmt;
use crate::ui::state::creature::CreatureUi;
use crate::ui::theme::Theme;

const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
const NOTHING: char = '·';

/// The height of `value` against `max`: a dot for nothing, else one of eight blocks
/// (the smallest value above nothing still shows).
fn glyph(value: u64, max: u64) -> char {
    if value == 0 {
        return NOTHING;
    }
    let level = (value.min(max.max(1)) * 8).div_ceil(max.max(1)).clamp(1, 8);
    LEVELS[level as usize - 1]
}

/// `values` against `max`, each styled by `style(i)`; runs of one style are one span.
fn line(
    values: impl Iterator<Item = u64>,
    max: u64,
    style: impl Fn(usize, u64) -> Style,
    muted: Style,
) -> Vec<Span<'static>> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut run = String::new();
    let mut run_style = None;
    for (i, v) in values.enumerate() {
        let s = if v == 0 { muted } else { style(i, v) };
        if run_style.is_some_and(|r| r != s) {
            spans.push(Span::styled(
                std::mem::take(&mut run),
                run_style.unwrap_or(s),
            ));
        }
        run_style = Some(s);
        run.push(glyph(v, max));
    }
    if let Some(s) = run_style {
        spans.push(Span::styled(run, s));
    }
    spans
}

/// The last `cells` intervals of a creature's prepared series (fewer when fewer are
/// prepared): the calls and the fatigue of each.
fn window(ui: &CreatureUi, cells: usize) -> (&[u32], &[u64]) {
    let calls = &ui.pulse.calls;
    let from = calls.len().saturating_sub(cells);
    let fatigue = ui.pulse.fatigue.get(from..).unwrap_or_default();
    (&calls[from..], fatigue)
}

/// Tool calls per interval, scaled to the busiest shown; where `by_fatigue`, each
/// coloured by the fatigue at its end against the warning and the limit.
pub fn activity(
    ui: &CreatureUi,
    cells: usize,
    by_fatigue: bool,
    theme: &Theme,
) -> Vec<Span<'static>> {
    let (calls, fatigue) = window(ui, cells);
    let max = calls.iter().copied().max().map_or(1, u64::from);
    let (warning, limit) = (ui.cycle.fatigue_warning, ui.cycle.fatigue_limit);
    let style = |i: usize, _| match fatigue.get(i) {
        Some(f) if by_fatigue => fmt::fatigue_style(*f, warning, limit, theme),
        _ => theme.accent,
    };
    let mut spans = line(
        calls.iter().map(|c| u64::from(*c)),
        max,
        style,
        theme.gauge_empty,
    );
    pad(&mut spans, cells, calls.len(), theme);
    spans
}

/// Fatigue at the end of each interval, scaled to the limit, coloured against the
/// warning and the limit.
pub fn fatigue(ui: &CreatureUi, cells: usize, theme: &Theme) -> Vec<Span<'static>> {
    let (_, fatigue) = window(ui, cells);
    let (warning, limit) = (ui.cycle.fatigue_warning, ui.cycle.fatigue_limit);
    let style = |_, f| fmt::fatigue_style(f, warning, limit, theme);
    let mut spans = line(fatigue.iter().copied(), limit, style, theme.gauge_empty);
    pad(&mut spans, cells, fatigue.len(), theme);
    spans
}

/// Blank cells before a series shorter than its place (nothing prepared yet).
fn pad(spans: &mut Vec<Span<'static>>, cells: usize, len: usize, theme: &Theme) {
    if len < cells {
        spans.insert(0, Span::styled(" ".repeat(cells - len), theme.muted));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heights_scale_to_the_maximum_and_nothing_is_a_dot() {
        let text: String = [0, 1, 4, 8, 20].iter().map(|v| glyph(*v, 8)).collect();
        assert_eq!(text, "·▁▄██");
        assert_eq!(glyph(1, 100), '▁', "the smallest call still shows");
        assert_eq!(glyph(3, 0), '█');
    }

    #[test]
    fn runs_of_one_style_are_one_span() {
        use ratatui::style::Color;
        let (busy, idle) = (
            Style::new().fg(Color::Red),
            Style::new().fg(Color::DarkGray),
        );
        let spans = line([0, 0, 2, 4, 0].into_iter(), 4, |_, _| busy, idle);
        let parts: Vec<_> = spans
            .iter()
            .map(|s| (s.content.to_string(), s.style))
            .collect();
        assert_eq!(
            parts,
            [("··".into(), idle), ("▄█".into(), busy), ("·".into(), idle)]
        );
    }
}
