//! The palette's box: the typed query on its first row, the matching entries under it
//! (name, what it does, its key), the selected one marked.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use unicode_width::UnicodeWidthStr;

use super::Palette;
use crate::ui::draw::DrawContext;
use crate::ui::prepare::inert;

/// The widest and tallest the box gets.
const WIDTH: u16 = 90;
const HEIGHT: u16 = 20;

/// Where the box goes: centred across, a little below the top (as editors place theirs).
fn area(screen: Rect) -> Rect {
    let width = screen.width.saturating_sub(4).min(WIDTH);
    let height = screen.height.saturating_sub(2).min(HEIGHT);
    Rect {
        x: screen.x + (screen.width - width) / 2,
        y: screen.y + (screen.height - height).min(2),
        width,
        height,
    }
}

pub fn draw(frame: &mut Frame, palette: &Palette, cx: &DrawContext) {
    let theme = cx.theme;
    let area = area(frame.area());
    frame.render_widget(Clear, area);
    let count = palette.shown().count();
    let title = format!(" Run an action, show a view, select a creature: {count} ");
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border_focused)
        .style(theme.base)
        .title(Span::styled(title, theme.title));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = usize::from(inner.width);
    let mut rows = vec![Line::from(vec![
        Span::styled(": ", theme.title),
        Span::styled(format!("{}▏", inert(&palette.input)), theme.base),
    ])];
    let height = usize::from(inner.height).saturating_sub(1);
    let selected = palette.selected_row();
    let top = (selected + 1).saturating_sub(height);
    for (i, entry) in palette.shown().enumerate().skip(top).take(height) {
        let name_style = if entry.enabled {
            theme.title
        } else {
            theme.muted
        };
        let name = inert(&entry.name);
        let key = inert(&entry.key);
        let room = width.saturating_sub(name.width() + key.width() + 4);
        let about = crate::text::wrap::truncate(&inert(&entry.about), room);
        let pad = room.saturating_sub(about.width());
        let line = Line::from(vec![
            Span::styled(format!(" {name}  "), name_style),
            Span::styled(format!("{about}{}", " ".repeat(pad)), theme.muted),
            Span::styled(format!(" {key}"), theme.base),
        ]);
        rows.push(if i == selected {
            line.patch_style(theme.selection)
        } else {
            line
        });
    }
    if count == 0 {
        rows.push(Line::styled(" nothing matches", theme.muted));
    }
    frame.render_widget(Paragraph::new(rows), inner);
}
