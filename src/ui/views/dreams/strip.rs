//! The dreams strip: the creature's life on one row, from real times. Sleeps end when
//! the creature woke, nothing is drawn after now, and a long silence that no sleep covers
//! (the creature was stopped) is a gap of a few cells, not days of "awake": each lived
//! stretch gets the room its own time needs.

use chrono::{DateTime, Duration, Utc};
use ratatui::text::{Line, Span};

use super::DreamsView;
use crate::ui::theme::Theme;

/// Silence longer than this, with no sleep over it, is a stop.
const STOP: Duration = Duration::minutes(30);
/// Cells a stop takes on the strip.
const STOP_CELLS: usize = 3;

/// A stretch of time the creature lived (awake or asleep), and its cells on the strip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stretch {
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    first: usize,
    cells: usize,
}

/// Where each moment of the creature's life goes on a strip of a given width.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Axis {
    stretches: Vec<Stretch>,
}

impl Axis {
    /// Lays out the lived `spans` (instants are spans of no length), clipped to `now`,
    /// on `width` cells. None when there is nothing to draw.
    pub fn new(
        spans: impl IntoIterator<Item = (DateTime<Utc>, DateTime<Utc>)>,
        now: DateTime<Utc>,
        width: usize,
    ) -> Option<Self> {
        let mut spans: Vec<_> = spans
            .into_iter()
            .map(|(a, b)| (a.min(now), b.min(now).max(a.min(now))))
            .collect();
        spans.sort();
        let mut lived: Vec<(DateTime<Utc>, DateTime<Utc>)> = Vec::new();
        for (a, b) in spans {
            match lived.last_mut() {
                Some(last) if a - last.1 <= STOP => last.1 = last.1.max(b),
                _ => lived.push((a, b)),
            }
        }
        if width == 0 || lived.is_empty() {
            return None;
        }
        // Too many stops for the width: the shortest become lived time.
        while lived.len() > 1 && lived.len() + (lived.len() - 1) * STOP_CELLS > width {
            let shortest = (1..lived.len())
                .min_by_key(|&i| lived[i].0 - lived[i - 1].1)
                .unwrap_or(1);
            lived[shortest - 1].1 = lived[shortest].1;
            lived.remove(shortest);
        }
        let room = width - (lived.len() - 1) * STOP_CELLS;
        let total: i64 = lived
            .iter()
            .map(|(a, b)| (*b - *a).num_milliseconds().max(1))
            .sum();
        // One cell each, the rest shared by length; what rounding leaves goes to the last.
        let spare = room - lived.len();
        let mut cells: Vec<usize> = lived
            .iter()
            .map(|(a, b)| {
                let ms = (*b - *a).num_milliseconds().max(1);
                1 + (spare as i64 * ms / total) as usize
            })
            .collect();
        let used: usize = cells.iter().sum();
        if let Some(last) = cells.last_mut() {
            *last += room - used;
        }
        let mut first = 0;
        let stretches = lived
            .iter()
            .zip(cells)
            .map(|(&(start, end), cells)| {
                let s = Stretch {
                    start,
                    end,
                    first,
                    cells,
                };
                first += cells + STOP_CELLS;
                s
            })
            .collect();
        Some(Self { stretches })
    }

    /// When the strip starts and ends.
    pub fn ends(&self) -> (DateTime<Utc>, DateTime<Utc>) {
        let first = self.stretches.first().map(|s| s.start);
        let last = self.stretches.last().map(|s| s.end);
        (first.unwrap_or_default(), last.unwrap_or_default())
    }

    /// The cell of `t`: within its stretch by time; a moment in a stop (or outside the
    /// strip) goes to the nearest lived cell.
    pub fn cell(&self, t: DateTime<Utc>) -> usize {
        let mut before = None;
        for s in &self.stretches {
            if t < s.start {
                return before.unwrap_or(s.first);
            }
            let last = s.first + s.cells - 1;
            if t <= s.end {
                let span = (s.end - s.start).num_milliseconds().max(1) as f64;
                let x = (t - s.start).num_milliseconds() as f64 / span * s.cells as f64;
                return (s.first + x as usize).min(last);
            }
            before = Some(last);
        }
        before.unwrap_or(0)
    }

    /// Whether `cell` belongs to a stop.
    pub fn is_stop(&self, cell: usize) -> bool {
        !self
            .stretches
            .iter()
            .any(|s| (s.first..s.first + s.cells).contains(&cell))
    }
}

/// What a cell shows, the strongest wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Mark {
    Awake,
    Asleep,
    Dreams { count: usize, deep: bool },
}

/// The strip for `ui` at `width` columns: the labels row (start, legend, end), the cells,
/// and the cursor under the selected dream. `seen`: other times the creature was alive
/// (its last activity, its birth).
pub fn rows(
    ui: &DreamsView,
    seen: [Option<DateTime<Utc>>; 2],
    selected: Option<usize>,
    now: DateTime<Utc>,
    width: u16,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let width = usize::from(width);
    let sleeps = ui.sleeps.iter().map(|s| (s.start, s.end));
    let instants = ui
        .list
        .iter()
        .filter_map(|d| d.t)
        .chain(seen.into_iter().flatten())
        .map(|t| (t, t));
    let Some(axis) = Axis::new(sleeps.chain(instants), now, width) else {
        return Vec::new();
    };
    let mut marks: Vec<Option<Mark>> = (0..width)
        .map(|c| (!axis.is_stop(c)).then_some(Mark::Awake))
        .collect();
    for s in &ui.sleeps {
        if s.start > now {
            continue;
        }
        for m in marks[axis.cell(s.start)..=axis.cell(s.end.min(now))]
            .iter_mut()
            .flatten()
        {
            *m = (*m).max(Mark::Asleep);
        }
    }
    for d in &ui.list {
        let Some(m) = d.t.and_then(|t| marks[axis.cell(t)].as_mut()) else {
            continue;
        };
        *m = match *m {
            Mark::Dreams { count, deep } => Mark::Dreams {
                count: count + 1,
                deep: deep || d.deep,
            },
            _ => Mark::Dreams {
                count: 1,
                deep: d.deep,
            },
        };
    }
    let strip: Vec<Span> = marks
        .iter()
        .map(|m| match m {
            None => Span::styled("╌", theme.muted),
            Some(Mark::Awake) => Span::styled("─", theme.awake),
            Some(Mark::Asleep) => Span::styled("▒", theme.asleep),
            Some(Mark::Dreams { count: 1, deep }) => dream(*deep, theme),
            Some(Mark::Dreams { count, deep }) => {
                // Several dreams in one cell: how many, so that none is lost.
                let n = if *count > 9 {
                    "+".to_string()
                } else {
                    count.to_string()
                };
                Span::styled(n, dream(*deep, theme).style)
            }
        })
        .collect();
    let (start, end) = axis.ends();
    let from = start.format("%m-%d %H:%M").to_string();
    let to = end.format("%m-%d %H:%M").to_string();
    let stops = marks.iter().any(Option::is_none);
    let mut legend = if stops {
        "─ awake ▒ asleep ● dream ◆ deep ╌ stopped"
    } else {
        "─ awake  ▒ asleep  ● dream  ◆ deep sleep"
    };
    let ends = from.len() + to.len();
    if ends + legend.chars().count() + 2 > width {
        legend = "";
    }
    let room = width.saturating_sub(ends);
    let labels = Line::from(vec![
        Span::styled(from, theme.muted),
        Span::styled(format!("{legend:^room$}"), theme.muted),
        Span::styled(to, theme.muted),
    ]);
    let mut cursor = String::new();
    if let Some(t) = selected.and_then(|i| ui.list[i].t) {
        cursor = format!("{}▲", " ".repeat(axis.cell(t)));
    }
    vec![
        labels,
        Line::from(strip),
        Line::styled(cursor, theme.accent),
    ]
}

fn dream(deep: bool, theme: &Theme) -> Span<'static> {
    if deep {
        Span::styled("◆", theme.deep_sleep)
    } else {
        Span::styled("●", theme.dream)
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn at(h: u32, m: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, h, m, 0).unwrap()
    }

    #[test]
    fn one_stretch_spreads_over_the_width_and_stops_at_now() {
        let now = at(11, 0);
        let axis = Axis::new([(at(10, 0), at(10, 0)), (at(10, 20), at(12, 0))], now, 60).unwrap();
        assert_eq!(axis.ends(), (at(10, 0), now));
        assert_eq!(axis.cell(at(10, 0)), 0);
        assert_eq!(axis.cell(at(10, 30)), 30);
        assert_eq!(axis.cell(now), 59);
        assert!(!(0..60).any(|c| axis.is_stop(c)));
    }

    #[test]
    fn a_long_silence_is_a_stop_of_a_few_cells() {
        let now = at(23, 0);
        let axis = Axis::new([(at(1, 0), at(1, 10)), (at(20, 0), at(20, 20))], now, 33).unwrap();
        // 30 cells shared 10 : 20 minutes, then the stop's 3 cells between.
        assert_eq!(axis.cell(at(1, 0)), 0);
        assert_eq!(axis.cell(at(1, 10)), 9);
        assert!((10..13).all(|c| axis.is_stop(c)));
        assert_eq!(axis.cell(at(20, 0)), 13);
        assert_eq!(axis.cell(at(20, 20)), 32);
        // A moment inside the stop goes to a lived cell next to it.
        assert!(!axis.is_stop(axis.cell(at(10, 0))));
    }

    #[test]
    fn too_many_stops_for_the_width_become_lived_time() {
        let now = at(23, 0);
        let spans: Vec<_> = (0..10).map(|h| (at(h * 2, 0), at(h * 2, 1))).collect();
        let axis = Axis::new(spans, now, 12).unwrap();
        let stops = (0..12).filter(|&c| axis.is_stop(c)).count();
        assert!(stops <= 6, "{stops}");
        assert_eq!(axis.cell(at(18, 1)), 11);
    }
}
