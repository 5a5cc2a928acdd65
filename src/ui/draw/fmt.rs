//! Small formatting shared by the panes: durations, status glyphs, fatigue bars, cutting
//! text to a width.

use chrono::{DateTime, Utc};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

use crate::memory::status::Status;
use crate::ui::theme::Theme;

/// `45s`, `4m`, `2h05m`, `3d04h`.
pub fn duration(secs: i64) -> String {
    let s = secs.max(0);
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m", s / 60),
        3600..86_400 => format!("{}h{:02}m", s / 3600, (s % 3600) / 60),
        _ => format!("{}d{:02}h", s / 86_400, (s % 86_400) / 3600),
    }
}

/// A duration in its largest unit only, for a column three cells wide: `45s`, `59m`,
/// `23h`, `6d`.
pub fn coarse_duration(secs: i64) -> String {
    let s = secs.max(0);
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m", s / 60),
        3600..86_400 => format!("{}h", s / 3600),
        _ => format!("{}d", s / 86_400),
    }
}

/// `4m ago`, `just now` under a minute (so that only minutes tick), `-` when unknown.
pub fn ago(t: Option<DateTime<Utc>>, now: DateTime<Utc>) -> String {
    match t.map(|t| (now - t).num_seconds()) {
        None => "-".into(),
        Some(s) if s < 60 => "just now".into(),
        Some(s) => format!("{} ago", duration(s)),
    }
}

/// The glyph and style of a status.
pub fn status_glyph(status: &Status, theme: &Theme) -> (&'static str, Style) {
    match status {
        Status::Awake => ("●", theme.awake),
        Status::Napping { .. } => ("◐", theme.asleep),
        Status::Asleep { .. } => ("☾", theme.asleep),
        Status::Dreaming => ("✦", theme.dreaming),
        Status::DeepSleep { .. } => ("◆", theme.deep_sleep),
        Status::Paused => ("‖", theme.paused),
        Status::Stopped => ("○", theme.stopped),
        Status::Unknown => ("?", theme.stopped),
    }
}

/// `asleep 4m` (time left), `deep sleep`, `awake`.
pub fn status_text(status: &Status, now: DateTime<Utc>) -> String {
    match status.wakes_at() {
        Some(t) if t > now => format!("{} {}", status.label(), duration((t - now).num_seconds())),
        _ => status.label().to_string(),
    }
}

/// The fatigue level's style: ok, warning, limit.
pub fn fatigue_style(fatigue: u64, warning: u64, limit: u64, theme: &Theme) -> Style {
    if fatigue >= limit {
        theme.fatigue_limit
    } else if fatigue >= warning {
        theme.fatigue_warn
    } else {
        theme.fatigue_ok
    }
}

/// A bar of `cells` cells filled to `fatigue / limit`, a tick where the warning starts.
pub fn fatigue_bar(
    fatigue: u64,
    warning: u64,
    limit: u64,
    cells: usize,
    theme: &Theme,
) -> Vec<Span<'static>> {
    let limit = limit.max(1);
    let filled = (fatigue.min(limit) as usize * cells).div_ceil(limit as usize);
    let tick = (warning as usize * cells) / limit as usize;
    let style = fatigue_style(fatigue, warning, limit, theme);
    let mut spans = Vec::with_capacity(3);
    spans.push(Span::styled("█".repeat(filled), style));
    let empty: String = (filled..cells)
        .map(|i| if i == tick { '▏' } else { '░' })
        .collect();
    spans.push(Span::styled(empty, theme.gauge_empty));
    spans
}

/// One piece of a line that may be shortened or left out when the line is too wide: `drop`
/// 0 always stays; otherwise the highest `drop` goes first (the later piece among equals),
/// replaced by its `short` form (with that form's own `drop`) where it has one.
#[derive(Clone)]
pub struct Part {
    pub drop: u8,
    pub spans: Vec<Span<'static>>,
    pub short: Option<(u8, Vec<Span<'static>>)>,
}

impl Part {
    pub fn keep(span: Span<'static>) -> Self {
        Self {
            drop: 0,
            spans: vec![span],
            short: None,
        }
    }

    pub fn optional(drop: u8, span: Span<'static>) -> Self {
        Self {
            drop,
            spans: vec![span],
            short: None,
        }
    }

    fn width(&self) -> usize {
        self.spans.iter().map(|s| s.content.width()).sum()
    }
}

/// The parts as one line of at most `width` columns where leaving out optional parts is
/// enough; what still does not fit is cut at the edge as before.
pub fn fit(mut parts: Vec<Part>, width: usize) -> Line<'static> {
    while parts.iter().map(Part::width).sum::<usize>() > width {
        let Some(i) = next_to_drop(&parts) else {
            break;
        };
        shorten(&mut parts, i);
    }
    Line::from(parts.into_iter().flat_map(|p| p.spans).collect::<Vec<_>>())
}

/// The parts as by [`fit`], and `right` at the right edge (at least two columns away)
/// where it fits once the parts of a higher `drop` are shortened or left out; where it
/// does not, the parts as by [`fit`] alone (nothing is given up for it).
pub fn fit_right(parts: Vec<Part>, right: Part, width: usize) -> Line<'static> {
    let room = width.saturating_sub(right.width() + 2);
    let mut kept = parts.clone();
    let mut left: usize = kept.iter().map(Part::width).sum();
    while left > room {
        match next_to_drop(&kept).filter(|i| kept[*i].drop > right.drop) {
            Some(i) => shorten(&mut kept, i),
            None => return fit(parts, width),
        }
        left = kept.iter().map(Part::width).sum();
    }
    let mut spans: Vec<Span<'static>> = kept.into_iter().flat_map(|p| p.spans).collect();
    spans.push(Span::raw(
        " ".repeat(width.saturating_sub(left + right.width())),
    ));
    spans.extend(right.spans);
    Line::from(spans)
}

/// The optional part to shorten or leave out next: the highest `drop`, the later among
/// equals.
fn next_to_drop(parts: &[Part]) -> Option<usize> {
    parts
        .iter()
        .enumerate()
        .filter(|(_, p)| p.drop > 0)
        .max_by_key(|(i, p)| (p.drop, *i))
        .map(|(i, _)| i)
}

/// Replaces part `i` by its short form, or leaves it out when it has none.
fn shorten(parts: &mut Vec<Part>, i: usize) {
    match parts[i].short.take() {
        Some((drop, spans)) => {
            parts[i].drop = drop;
            parts[i].spans = spans;
        }
        None => {
            parts.remove(i);
        }
    }
}

pub use crate::text::wrap::truncate;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(duration(-5), "0s");
        assert_eq!(duration(45), "45s");
        assert_eq!(duration(240), "4m");
        assert_eq!(duration(7500), "2h05m");
        assert_eq!(duration(3 * 86_400 + 4 * 3600), "3d04h");
    }

    #[test]
    fn coarse_durations_keep_one_unit() {
        assert_eq!(coarse_duration(-5), "0s");
        assert_eq!(coarse_duration(59), "59s");
        assert_eq!(coarse_duration(3599), "59m");
        assert_eq!(coarse_duration(7500), "2h");
        assert_eq!(coarse_duration(3 * 86_400 + 4 * 3600), "3d");
    }

    #[test]
    fn bars_fill_and_mark_the_warning() {
        let t = Theme::default();
        let text = |f| {
            fatigue_bar(f, 60, 80, 8, &t)
                .iter()
                .map(|s| s.content.to_string())
                .collect::<String>()
        };
        assert_eq!(text(0), "░░░░░░▏░");
        assert_eq!(text(40), "████░░▏░");
        assert_eq!(text(80), "████████");
        assert_eq!(text(200), "████████");
    }

    #[test]
    fn fit_leaves_out_the_most_optional_parts_first() {
        let text = |width| {
            let parts = vec![
                Part::keep(Span::raw("name")),
                Part::optional(1, Span::raw(" 1h ago")),
                Part::optional(2, Span::raw(" warn")),
                Part::keep(Span::raw(" 3/80")),
                Part {
                    drop: 3,
                    spans: vec![Span::raw(" (1 deep, next in 4)")],
                    short: Some((1, vec![Span::raw(" (1 deep)")])),
                },
            ];
            fit(parts, width).to_string()
        };
        assert_eq!(text(50), "name 1h ago warn 3/80 (1 deep, next in 4)");
        assert_eq!(text(35), "name 1h ago warn 3/80 (1 deep)");
        assert_eq!(text(25), "name 1h ago 3/80 (1 deep)");
        assert_eq!(text(20), "name 1h ago 3/80");
        assert_eq!(text(3), "name 3/80");
    }

    #[test]
    fn fit_right_keeps_the_right_part_at_the_edge_by_its_drop() {
        let text = |width, right: &'static str| {
            let parts = vec![
                Part::keep(Span::raw("name")),
                Part::optional(5, Span::raw(" warn")),
                Part::optional(1, Span::raw(" 1h ago")),
            ];
            fit_right(parts, Part::optional(3, Span::raw(right)), width).to_string()
        };
        assert_eq!(text(21, "▁▃█"), "name warn 1h ago  ▁▃█");
        assert_eq!(
            text(17, "▁▃█"),
            "name 1h ago   ▁▃█",
            "a higher drop goes first"
        );
        assert_eq!(
            text(16, "▁▃█▁▃█▁▃█▁"),
            "name warn 1h ago",
            "where it does not fit, nothing is given up for it"
        );
        assert_eq!(text(6, "▁▃█"), "name");
    }
}
