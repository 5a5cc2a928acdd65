//! The garden list: every creature, its status, fatigue, dreams and last activity (an
//! evennia creature: its importance toward the next reflection and its reflections).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

use super::fmt::{self, Part, truncate};
use super::pane;
use crate::ui::focus::Pane;
use crate::ui::layout::first_shown;
use crate::ui::state::App;
use crate::ui::state::creature::CreatureUi;

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let block = pane::block(theme, app.pane == Pane::Garden).title(Span::styled(
        format!(" Garden · {} ", app.creatures.len()),
        theme.title,
    ));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if app.creatures.is_empty() {
        frame.render_widget(
            Paragraph::new(vec![
                Line::styled("No creatures yet.", theme.muted),
                Line::styled("They appear here as soon", theme.muted),
                Line::styled("as their directory does.", theme.muted),
            ]),
            inner,
        );
        return;
    }
    // Names that more than one creature carries (BIRTH.json names need not be unique):
    // those rows add their directory's name.
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for ui in app.creatures.values() {
        *seen.entry(ui.name.as_str()).or_default() += 1;
    }
    let selected = app.selected_index();
    let first = first_shown(selected, app.creatures.len(), inner.height);
    let mut lines = Vec::new();
    for (i, (path, ui)) in app.creatures.iter().enumerate().skip(first) {
        if lines.len() + 2 > usize::from(inner.height) {
            break;
        }
        let dir = (seen.get(ui.name.as_str()) > Some(&1))
            .then(|| path.file_name())
            .flatten()
            .map(|d| crate::ui::prepare::inert(&d.to_string_lossy()));
        let [a, b] = rows(ui, dir.as_deref(), app, inner.width);
        let style = if Some(i) == selected {
            theme.selection
        } else {
            ratatui::style::Style::default()
        };
        lines.push(a.patch_style(style));
        lines.push(b.patch_style(style));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The two rows of one creature; `dir` names its directory where its name is not unique.
fn rows(ui: &CreatureUi, dir: Option<&str>, app: &App, width: u16) -> [Line<'static>; 2] {
    let theme = &app.theme;
    let s = &ui.summary;
    let (glyph, style) = fmt::status_glyph(&s.status, theme);
    let status = fmt::status_text(&s.status, app.now);
    // A hosted creature whose last model call or write failed is marked in its row.
    let mark = if ui.host.as_ref().is_some_and(|h| h.last_error.is_some()) {
        "⚠ "
    } else {
        ""
    };
    let width = usize::from(width);
    let room = width.saturating_sub(mark.width() + status.width() + 3);
    let name = match dir {
        Some(dir) if dir != ui.name => truncate(&format!("{} ({dir})", ui.name), room),
        _ => truncate(&ui.name, room),
    };
    let pad = width.saturating_sub(2 + name.width() + mark.width() + status.width());
    let first = Line::from(vec![
        Span::styled(glyph, style),
        Span::raw(" "),
        Span::styled(name, theme.title),
        Span::raw(" ".repeat(pad)),
        Span::styled(mark, theme.error),
        Span::styled(status, style),
    ]);
    let mut second = vec![Part::keep(Span::raw("  "))];
    match &ui.evennia {
        Some(e) => {
            let e = &e.summary;
            second.push(Part {
                drop: 0,
                spans: fmt::reflection_bar(e, 6, theme),
                short: None,
            });
            second.push(Part::keep(Span::styled(
                format!(" {:>2}", e.cumulative),
                fmt::reflection_style(e, theme),
            )));
            second.push(Part::keep(Span::styled(
                format!("  ◆{}", e.reflections),
                theme.deep_sleep,
            )));
        }
        None => {
            let (warning, limit) = (ui.cycle.fatigue_warning, ui.cycle.fatigue_limit);
            second.push(Part {
                drop: 0,
                spans: fmt::fatigue_bar(s.fatigue, warning, limit, 6, theme),
                short: None,
            });
            second.push(Part::keep(Span::styled(
                format!(" {:>2}", s.fatigue),
                fmt::fatigue_style(s.fatigue, warning, limit, theme),
            )));
            second.push(Part::keep(Span::styled(
                format!("  ☾{}", s.dreams),
                theme.dream,
            )));
        }
    }
    // A narrow list keeps the time and loses the words: `1h26m`, `now`.
    let short = match s.last_activity.map(|t| (app.now - t).num_seconds()) {
        None => "-".to_string(),
        Some(secs) if secs < 60 => "now".to_string(),
        Some(secs) => fmt::duration(secs),
    };
    second.push(Part {
        drop: 1,
        spans: vec![Span::styled(
            format!("  {}", fmt::ago(s.last_activity, app.now)),
            theme.muted,
        )],
        short: Some((2, vec![Span::styled(format!(" {short}"), theme.muted)])),
    });
    let second = fmt::fit(second, width);
    [first, second]
}
