//! The two bottom rows: the status line (notices, the search prompt, hit counts) and the
//! key hints, generated from the keymap for the focused view and mode.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

use super::fmt::truncate;
use crate::ui::focus::Mode;
use crate::ui::input::action::Action;
use crate::ui::input::hints::{ActionInfo, actions};
use crate::ui::state::App;
use crate::ui::state::creature::RunnerLink;
use crate::watch::WatchMode;

pub fn render_status(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let mut left = Vec::new();
    if app.mode == Mode::Search {
        let scope = if app.search.garden {
            "whole garden"
        } else {
            "this creature"
        };
        left.push(Span::styled("/", theme.key));
        left.push(Span::styled(app.search.input.clone(), theme.base));
        left.push(Span::styled("█", theme.accent));
        let kind = if app.search.regex { "regex" } else { "literal" };
        left.push(Span::styled(format!("  ({scope} · {kind})"), theme.muted));
    } else if app.mode == Mode::Filter {
        left.push(Span::styled("filter garden: ", theme.key));
        left.push(Span::styled(app.garden_view.filter.clone(), theme.base));
        left.push(Span::styled("█", theme.accent));
        left.push(Span::styled(
            "  (name or status; a number jumps to that row)",
            theme.muted,
        ));
    } else if app.mode == Mode::Jump {
        left.push(Span::styled("jump to: ", theme.key));
        left.push(Span::styled(app.time.jump.clone(), theme.base));
        left.push(Span::styled("█", theme.accent));
        left.push(Span::styled(
            "  (a dream's number, dream:N, wake:N or a time)",
            theme.muted,
        ));
    } else if let Some(notice) = &app.notice {
        let style = if notice.error {
            theme.error
        } else {
            theme.notice
        };
        left.push(Span::styled(notice.text.clone(), style));
    } else if let Some(label) = app.search.label(app.selected_ui().map(|u| u.name.as_str())) {
        left.push(Span::styled(label, theme.notice));
    }
    let watching = match app.garden.watch_mode() {
        WatchMode::Events => "watching",
        WatchMode::Polling => "polling",
    };
    let count = app.creatures.len();
    let hosted = app
        .creatures
        .values()
        .filter(|u| u.link == RunnerLink::Hosted)
        .count();
    // What this observatory does with them: hosts them, watches their files, or both.
    let doing = match (hosted, app.garden.watch_mode()) {
        (0, _) => watching.to_string(),
        (h, WatchMode::Events) if h == count => "hosting".to_string(),
        (h, _) => format!("hosting {h} · {watching}"),
    };
    let read_only = if app.read_only { "read-only · " } else { "" };
    let creatures = crate::text::count(count as u64, "creature", "creatures");
    // Far conversations counted, their last lines on their way.
    let coming: usize = app.remotes.values().map(|r| r.windows_left).sum();
    let coming = match coming {
        0 => String::new(),
        n => format!(
            "{} · ",
            crate::text::count(n as u64, "log arriving", "logs arriving")
        ),
    };
    let right = format!("{read_only}{coming}{creatures} · {doing} ");
    // The orchestrator's word, when one is attached, before the count.
    let openseed = super::openseed::bar(app).map(|(text, style)| (format!("{text} · "), style));
    let openseed_width = openseed.as_ref().map_or(0, |(t, _)| t.width());
    let width = usize::from(area.width);
    let used: usize = left.iter().map(|s| s.content.width()).sum();
    if used + openseed_width + right.width() <= width {
        left.push(Span::raw(
            " ".repeat(width - used - openseed_width - right.width()),
        ));
        if let Some((text, style)) = openseed {
            left.push(Span::styled(text, style));
        }
        left.push(Span::styled(right, theme.muted));
    } else if used + right.width() <= width {
        left.push(Span::raw(" ".repeat(width - used - right.width())));
        left.push(Span::styled(right, theme.muted));
    } else if used > width
        && !matches!(app.mode, Mode::Search | Mode::Filter | Mode::Jump)
        && let Some(last) = left.last_mut()
    {
        // A notice longer than the row: the creature count makes room, the cut shows, and
        // the key of the status log (where it is whole) is named.
        let whole = app.keymap.mention(Action::StatusLog, " ({}: whole)");
        let keep = width.saturating_sub(used - last.content.width());
        let cut = truncate(&last.content, keep.saturating_sub(whole.width()));
        last.content = format!("{cut}{whole}").into();
    }
    frame.render_widget(Paragraph::new(Line::from(left)), area);
}

pub fn render_hints(frame: &mut Frame, area: Rect, app: &App) {
    frame.render_widget(Paragraph::new(hints_line(app, area.width)), area);
}

/// `key hint` pairs for what works now, in the keymap's order; when they do not all fit,
/// the most useful are kept (by each action's rank in its declaration): help and quit, then acting on the creature (on a hosted
/// creature, `s`/`p`/`w` and `m` are what the demo is for), search, focus, views, toggles.
pub fn hints_line(app: &App, width: u16) -> Line<'static> {
    let theme = &app.theme;
    let shown: Vec<_> = actions(&app.keymap, &app.hint_context())
        .into_iter()
        .filter(|c| c.in_bar)
        .collect();
    let cost = |c: &ActionInfo| c.key.width() + 1 + c.hint.width() + 2;
    let mut by_use: Vec<usize> = (0..shown.len()).collect();
    by_use.sort_by_key(|&i| (shown[i].action.spec().bar.rank(), i));
    let mut keep = vec![false; shown.len()];
    let mut used = 0;
    for i in by_use {
        let w = cost(&shown[i]);
        if used + w > usize::from(width) {
            break;
        }
        used += w;
        keep[i] = true;
    }
    let mut spans = Vec::new();
    for (c, _) in shown.into_iter().zip(keep).filter(|(_, k)| *k) {
        spans.push(Span::styled(c.key, theme.key));
        spans.push(Span::styled(format!(" {}  ", c.hint), theme.muted));
    }
    Line::from(spans)
}
