//! What the header says in the past: above, that it is the past ("as of dream 12 ·
//! 11-22 17:05 · Esc: now") and what cannot be known then; below, the life's strip (as
//! the Dreams view's, from the time index) with the cursor on it.

use chrono::{DateTime, Utc};
use ratatui::text::{Line, Span};

use super::cursor::Position;
use super::{Cursor, Indexed};
use crate::recorder::At;
use crate::recorder::index::TimeIndex;
use crate::ui::input::action::Action;
use crate::ui::input::keymap::Keymap;
use crate::ui::theme::Theme;
use crate::ui::views::dreams::strip::Axis;

/// The header's title in the past.
pub fn title(
    cursor: &Cursor,
    index: Option<&Indexed>,
    keymap: &Keymap,
    theme: &Theme,
) -> Line<'static> {
    let now = keymap.mention(Action::TimeNow, " · {}: now");
    let Some(pos) = cursor.pos else {
        let what = match index {
            Some(Indexed::Failed(e)) => format!(" cannot index the life: {e}"),
            _ => " indexing…".to_string(),
        };
        return Line::from(vec![
            Span::styled(what, theme.accent),
            Span::styled(format!("{now} "), theme.muted),
        ]);
    };
    let mut spans = vec![Span::styled(format!(" {}", as_of(&pos)), theme.accent)];
    if let Some(t) = pos.t {
        let format = match pos.at {
            At::Time(_) => "%m-%d %H:%M:%S",
            At::Dream(_) | At::Wake(_) => "%m-%d %H:%M",
        };
        spans.push(Span::styled(
            format!(" · {}", t.format(format)),
            theme.accent,
        ));
    }
    if cursor.building.is_some() {
        // The past drawn is the last one built; this one is still being built.
        spans.push(Span::styled(" …", theme.muted));
    }
    if let Some((_, _)) = cursor.play {
        spans.push(Span::styled(
            format!(" · ▶ {}x", cursor.speed),
            theme.notice,
        ));
    }
    spans.push(Span::styled(now, theme.muted));
    let unknown = cursor
        .past
        .as_ref()
        .map(|p| unknown_names(&p.past.unknown))
        .unwrap_or_default();
    let what = match unknown.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        [first, rest @ ..] => Some(format!("{first} and {} more", rest.len())),
    };
    if let Some(what) = what {
        spans.push(Span::styled(
            format!(" · {what} not known then"),
            theme.error,
        ));
    }
    spans.push(Span::raw(" "));
    Line::from(spans)
}

/// "as of dream 12", "as of wake 3", or, between them, the dreams by then.
fn as_of(pos: &Position) -> String {
    match pos.at {
        At::Dream(n) => format!("as of dream {n}"),
        At::Wake(n) => format!("as of wake {n}"),
        At::Time(_) if pos.dreams == 0 => "before the first dream".to_string(),
        At::Time(_) => format!("as of dream {} and after", pos.dreams),
    }
}

/// The files of the past's unknown lines (`.self/rules.md: ...` reads `rules.md`).
fn unknown_names(unknown: &[String]) -> Vec<String> {
    let mut names: Vec<String> = unknown
        .iter()
        .filter_map(|u| u.split(':').next())
        .map(|n| n.trim_start_matches(".self/").to_string())
        .collect();
    names.dedup();
    names
}

/// The life on one row of `width` cells (awake, asleep, dreams, RED observations), the
/// cursor's cell marked. `now`: where the strip ends at the latest.
pub fn line(
    index: &TimeIndex,
    cursor: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
    width: usize,
    theme: &Theme,
) -> Line<'static> {
    let mut marks: Vec<(DateTime<Utc>, Kind)> = Vec::new();
    marks.extend(index.wakes.iter().filter_map(|m| Some((m.t?, Kind::Wake))));
    marks.extend(
        index
            .sleeps
            .iter()
            .filter_map(|m| Some((m.t?, Kind::Sleep))),
    );
    marks.sort();
    let end = marks
        .iter()
        .map(|m| m.0)
        .chain(index.dreams.iter().filter_map(|d| d.t))
        .max()
        .unwrap_or(now)
        .min(now);
    // Awake from a wake, asleep from a sleep, each until the next mark.
    let spans: Vec<(DateTime<Utc>, DateTime<Utc>, Kind)> = marks
        .iter()
        .enumerate()
        .map(|(i, (t, kind))| (*t, marks.get(i + 1).map_or(end, |n| n.0), *kind))
        .collect();
    let instants = index.dreams.iter().filter_map(|d| d.t).map(|t| (t, t));
    let all = spans.iter().map(|(a, b, _)| (*a, *b)).chain(instants);
    let Some(axis) = Axis::new(all, end, width) else {
        return Line::default();
    };
    let mut cells: Vec<Span<'static>> = (0..width)
        .map(|c| {
            if axis.is_stop(c) {
                Span::styled("╌", theme.muted)
            } else {
                Span::styled("─", theme.awake)
            }
        })
        .collect();
    for (a, b, kind) in &spans {
        if *kind == Kind::Sleep {
            let (from, to) = (axis.cell(*a), axis.cell(*b));
            for (c, cell) in cells.iter_mut().enumerate().take(to + 1).skip(from) {
                if !axis.is_stop(c) {
                    *cell = Span::styled("▒", theme.asleep);
                }
            }
        }
    }
    for t in index.dreams.iter().filter_map(|d| d.t) {
        cells[axis.cell(t)] = Span::styled("●", theme.dream);
    }
    for t in index.red.iter().filter_map(|r| r.t) {
        cells[axis.cell(t)] = Span::styled("!", theme.error);
    }
    if let Some(t) = cursor {
        cells[axis.cell(t)] = Span::styled("┃", theme.accent);
    }
    Line::from(cells)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Wake,
    Sleep,
}
