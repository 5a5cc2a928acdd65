//! The selected creature's header: name, brain, status, the fatigue gauge, dream counts;
//! a genome's own figures instead where it has some.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::fmt::{self, Part, truncate};
use super::pane;
use crate::memory::identity::{BrainKind, REHEARSAL_MODEL};
use crate::memory::status::Status;
use crate::memory::summary::Summary;
use crate::ui::input::action::Action;
use crate::ui::state::App;
use crate::ui::state::creature::CreatureUi;
use crate::ui::state::failure::{Failure, in_words};
use crate::ui::state::health::Health;

/// Cells of the fatigue gauge.
const GAUGE: usize = 20;

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let mut block = pane::block(theme, false);
    if let Some((title, strip)) = past_titles(app, area.width) {
        block = block.title(title).title_bottom(strip);
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(ui) = app.selected_ui() else {
        frame.render_widget(
            Paragraph::new(Line::styled("No creature selected", theme.muted)),
            inner,
        );
        return;
    };
    let s = &ui.summary;
    let (glyph, style) = fmt::status_glyph(&s.status, theme);
    // Too narrow for everything: the model's name and the secondary counts go first, so
    // that the status, the time to wake, the fatigue and the last activity stay readable.
    let mut first = vec![
        // A name of any length leaves room for the status.
        Part::keep(Span::styled(
            truncate(&ui.name, usize::from(inner.width / 2).max(8)),
            theme.accent,
        )),
        Part::keep(Span::raw("  ")),
    ];
    match ui.brain() {
        Some((BrainKind::Rehearsal, brain)) => {
            first.push(Part::keep(Span::styled(" REHEARSAL ", theme.rehearsal)));
            if let Some(speed) = app.demo_speed {
                first.push(Part::keep(Span::styled(
                    format!(" demo {speed}x"),
                    theme.rehearsal,
                )));
            }
            let what = if brain == REHEARSAL_MODEL {
                "offline demo brain"
            } else {
                brain
            };
            first.push(Part::optional(
                1,
                Span::styled(format!(" {what}"), theme.muted),
            ));
        }
        Some((BrainKind::Model, brain)) => first.push(Part::optional(
            1,
            Span::styled(brain.to_string(), theme.base),
        )),
        None => first.push(Part::optional(
            1,
            Span::styled("model unknown", theme.muted),
        )),
    }
    first.push(Part::keep(Span::raw("  ")));
    // A genome may say where it is in its sleep, unless paused or stopped.
    let label = match (ui.own.as_ref().and_then(|own| own.mode()), s.status) {
        (Some(mode), Status::Awake | Status::Asleep { .. }) => mode.to_string(),
        _ => s.status.label().to_string(),
    };
    first.push(Part::keep(Span::styled(format!("{glyph} {label}"), style)));
    if let Some(t) = s.status.wakes_at() {
        let left = (t - app.shown_clock().at()).num_seconds();
        let when = if left > 0 {
            format!(" · wakes in {}", fmt::duration(left))
        } else {
            " · due to wake".to_string()
        };
        first.push(Part::keep(Span::styled(when, theme.muted)));
    }
    if let Some(review) = &ui.review {
        let left = review
            .left(app.clock().at())
            .map_or_else(|| "never".to_string(), fmt::duration);
        first.push(Part {
            drop: 2,
            spans: vec![Span::styled(
                format!(
                    "  ◷ dream awaiting review · {}",
                    crate::ui::popups::review::prepare::countdown(review, app.clock().at())
                ),
                theme.dream,
            )],
            short: Some((
                0,
                vec![Span::styled(format!("  ◷ review {left}"), theme.dream)],
            )),
        });
    }
    if let Some(held) = &ui.held {
        // The key that wakes it as bound (none named when unbound).
        let wake = app.keymap.mention(Action::Wake, " · {} wakes it");
        first.push(Part {
            drop: 2,
            spans: vec![Span::styled(format!("  ⊘ {held}{wake}"), theme.dream)],
            short: Some((0, vec![Span::styled("  ⊘ held", theme.dream)])),
        });
    }
    first.extend(super::openseed::header_parts(app));
    first.extend(far_part(app));
    first.extend(super::cost::header_part(app, ui));
    if let Some(said) = failing(ui, app) {
        // Too narrow for the whole error: a mark, never at the cost of the model's name.
        first.push(Part {
            drop: 3,
            spans: vec![Span::styled(format!("  ⚠ {said}"), theme.error)],
            short: Some((0, vec![Span::styled("  ⚠ failing", theme.error)])),
        });
    }

    let width = usize::from(inner.width);
    let second = match ui
        .own
        .as_ref()
        .map(|own| own.header(s, app.shown_clock(), theme))
    {
        _ if ui.without_files => api_only_line(s, app),
        Some(parts) if !parts.is_empty() => parts,
        _ => cycle_line(ui, app),
    };
    let (first, second) = match sparklines(ui, app, width) {
        Some((activity, fatigue)) => {
            let second = match fatigue {
                Some(fatigue) => fmt::fit_right(second, fatigue, width),
                None => fmt::fit(second, width),
            };
            (fmt::fit_right(first, activity, width), second)
        }
        None => (fmt::fit(first, width), fmt::fit(second, width)),
    };
    frame.render_widget(Paragraph::new(vec![first, second]), inner);
}

/// What the header says of a failing creature: its hosting runner's last error (or its
/// latest event's) in words, and when it tries again.
fn failing(ui: &CreatureUi, app: &App) -> Option<String> {
    let events = ui.failure.as_ref().filter(|_| ui.health == Health::Failing);
    let Some(err) = ui.host.as_ref().and_then(|h| h.last_error.as_deref()) else {
        return events.map(|f| f.said(app.clock().at()));
    };
    let words = in_words(err);
    // The retry is the latest event's when that event is this error.
    let retry_at = events.filter(|f| f.words == words).and_then(|f| f.retry_at);
    Some(Failure { words, retry_at }.said(app.clock().at()))
}

/// Intervals the header's sparklines show: more where the header is wide.
fn spark_cells(width: usize) -> usize {
    if width >= 130 { 24 } else { 12 }
}

/// The sparklines at the header's right edge, one above the other over the same
/// intervals: the tool calls of each (coloured by the fatigue at its end where the
/// creature tires), and a dreamer's fatigue; the first to go where the lines are full.
fn sparklines(ui: &CreatureUi, app: &App, width: usize) -> Option<(Part, Option<Part>)> {
    if ui.without_files {
        return None;
    }
    let theme = &app.theme;
    let cells = spark_cells(width);
    // Only a creature counted by the cycle's fatigue gets its fatigue sparkline.
    let tires = ui.own.is_none();
    let labelled = |label: &'static str, spans: Vec<Span<'static>>| {
        let mut all = vec![Span::styled(label, theme.muted)];
        all.extend(spans);
        all
    };
    let activity = Part {
        drop: 6,
        spans: labelled("activity ", super::spark::activity(ui, cells, tires, theme)),
        short: None,
    };
    // Shown where the warning's figure is all it takes (it reads on the gauge's tick).
    let fatigue = tires.then(|| Part {
        drop: 4,
        spans: labelled("fatigue  ", super::spark::fatigue(ui, cells, theme)),
        short: None,
    });
    Some((activity, fatigue))
}

/// A far creature whose connection is not up: since when, and when it is tried again
/// (what it says may be stale).
fn far_part(app: &App) -> Option<Part> {
    use crate::ui::state::remote::RemoteLink;
    let remote = app.selected.as_deref().and_then(|p| app.remote_of(p))?;
    let host = &remote.host;
    let text = match &remote.link {
        RemoteLink::Up => return None,
        RemoteLink::Connecting => format!("  ⚡ connecting to {host}"),
        RemoteLink::Down {
            since, retry_in, ..
        } => format!(
            "  ⚡ disconnected since {}, retry in {}s",
            since.format("%H:%M"),
            retry_in.as_secs()
        ),
        RemoteLink::Refused { .. } => format!("  ⚡ {host}: not followed"),
    };
    Some(Part {
        drop: 2,
        spans: vec![Span::styled(text, app.theme.error)],
        short: Some((0, vec![Span::styled("  ⚡", app.theme.error)])),
    })
}

/// A creature whose files are not here: that, and its last event.
fn api_only_line(s: &Summary, app: &App) -> Vec<Part> {
    let theme = &app.theme;
    vec![
        Part::keep(Span::styled(
            "its files are not on this machine: what its orchestrator says",
            theme.muted,
        )),
        Part::keep(Span::styled(
            format!("  active {}", app.shown_clock().ago(s.last_activity)),
            theme.muted,
        )),
    ]
}

/// The fatigue gauge, the dreams and the deep-sleep cadence.
fn cycle_line(ui: &CreatureUi, app: &App) -> Vec<Part> {
    let theme = &app.theme;
    let s = &ui.summary;
    let (warning, limit) = (ui.cycle.fatigue_warning, ui.cycle.fatigue_limit);
    let level = fmt::fatigue_style(s.fatigue, warning, limit, theme);
    let mut second = vec![Part::optional(2, Span::styled("fatigue ", theme.muted))];
    second.push(Part {
        drop: 1,
        spans: fmt::fatigue_bar(s.fatigue, warning, limit, GAUGE, theme),
        short: None,
    });
    second.push(Part::keep(Span::styled(
        format!(" {}/{limit}", s.fatigue),
        level,
    )));
    second.push(Part::optional(
        5,
        Span::styled(format!(" warn {warning}"), theme.muted),
    ));
    second.push(Part::keep(Span::styled("  dreams ", theme.muted)));
    second.push(Part::keep(Span::styled(s.dreams.to_string(), theme.dream)));
    let deep = Span::styled(format!(" ({} deep", s.deep_sleeps), theme.deep_sleep);
    second.push(Part {
        drop: 4,
        spans: vec![
            deep.clone(),
            Span::styled(
                format!(", next in {} of {})", s.dreams_until_deep, s.deep_every),
                theme.muted,
            ),
        ],
        short: Some((3, vec![deep, Span::styled(")", theme.muted)])),
    });
    second.push(Part::keep(Span::styled(
        format!("  active {}", app.shown_clock().ago(s.last_activity)),
        theme.muted,
    )));
    second
}

/// In the past: the title that says so, and the life's strip with the cursor on it.
fn past_titles(app: &App, width: u16) -> Option<(Line<'static>, Line<'static>)> {
    use crate::ui::time::{Indexed, strip};
    let cursor = app.time.cursor_of(app.selected.as_deref())?;
    let index = app.time.index(&cursor.creature);
    let title = strip::title(cursor, index, &app.keymap, &app.theme);
    let line = match index {
        Some(Indexed::Ready(index)) => strip::line(
            index,
            cursor.pos.and_then(|p| p.t),
            app.clock().at(),
            usize::from(width.saturating_sub(2)),
            &app.theme,
        ),
        _ => Line::default(),
    };
    Some((title, line))
}
