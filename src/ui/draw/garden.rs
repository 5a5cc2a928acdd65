//! The garden list: every creature, its status, fatigue, dreams and last activity.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use unicode_width::UnicodeWidthStr;

use super::fmt::{self, Part};
use crate::ui::input::hints::Pane;
use crate::ui::state::App;
use crate::ui::state::creature::CreatureUi;

/// Screen rows per creature in the list.
pub const ROWS_PER_CREATURE: u16 = 2;

/// The first creature shown so that the selected one is visible.
pub fn first_shown(selected: Option<usize>, count: usize, height: u16) -> usize {
    let fits = usize::from((height / ROWS_PER_CREATURE).max(1));
    let sel = selected.unwrap_or(0);
    if count <= fits {
        0
    } else {
        (sel + 1).saturating_sub(fits).min(count - fits)
    }
}

pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let focused = app.pane == Pane::Garden;
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(if focused {
            theme.border_focused
        } else {
            theme.border
        })
        .title(Span::styled(
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
    let width = usize::from(width);
    let room = width.saturating_sub(status.width() + 3);
    let name = match dir {
        Some(dir) if dir != ui.name => truncate(&format!("{} ({dir})", ui.name), room),
        _ => truncate(&ui.name, room),
    };
    let pad = width.saturating_sub(2 + name.width() + status.width());
    let first = Line::from(vec![
        Span::styled(glyph, style),
        Span::raw(" "),
        Span::styled(name, theme.title),
        Span::raw(" ".repeat(pad)),
        Span::styled(status, style),
    ]);
    let (warning, limit) = (ui.cycle.fatigue_warning, ui.cycle.fatigue_limit);
    let mut second = vec![Part::keep(Span::raw("  "))];
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

/// Cuts `s` to `width` columns, with `…` when cut.
pub fn truncate(s: &str, width: usize) -> String {
    if s.width() <= width {
        return s.to_string();
    }
    let mut out = String::new();
    let mut w = 0;
    for c in s.chars() {
        let cw = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if w + cw + 1 > width {
            break;
        }
        out.push(c);
        w += cw;
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_selection_stays_in_view() {
        assert_eq!(first_shown(Some(0), 20, 10), 0);
        assert_eq!(first_shown(Some(4), 20, 10), 0);
        assert_eq!(first_shown(Some(5), 20, 10), 1);
        assert_eq!(first_shown(Some(19), 20, 10), 15);
        assert_eq!(first_shown(Some(3), 3, 10), 0);
        assert_eq!(first_shown(None, 3, 0), 0);
    }

    #[test]
    fn truncation() {
        assert_eq!(truncate("ember", 10), "ember");
        assert_eq!(truncate("a-very-long-name", 6), "a-ver…");
    }
}
