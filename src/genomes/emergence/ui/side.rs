//! The side panel of an emergence creature: its soul entries and its open to-dos (the
//! Soul and Plans views show them in full).

use ratatui::text::{Line, Span};

use crate::genomes::emergence::memory;
use crate::memory::creature::Creature;
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;
use crate::ui::views::side::prepare::{none, title};

/// Soul entries and to-dos listed; the rest are counted.
const SHOWN: usize = 8;

pub(super) fn side(out: &mut Vec<DocLine>, c: &Creature, theme: &Theme) {
    let m = memory::of(c);
    title(out, theme, "Soul", Some(m.soul.len().to_string()));
    if m.soul.is_empty() {
        none(out, theme, "none yet (only the creature adds them)");
    }
    for entry in m.soul.entries().take(SHOWN) {
        out.push(DocLine::word(
            Line::from(vec![
                Span::styled("• ", theme.accent),
                Span::styled(inert(&entry.text), theme.base),
            ]),
            2,
        ));
    }
    more(out, theme, m.soul.len());

    let open: Vec<_> = m.todos.all().filter(|t| !t.is_done()).collect();
    title(out, theme, "To-dos", Some(format!("{} open", open.len())));
    if open.is_empty() {
        none(out, theme, "nothing open");
    }
    for todo in open.iter().take(SHOWN) {
        out.push(DocLine::word(
            Line::from(vec![
                Span::styled("□ ", theme.accent),
                Span::styled(inert(&todo.title), theme.base),
            ]),
            2,
        ));
    }
    more(out, theme, open.len());
}

/// `… and N more` past the first [`SHOWN`] of `total`.
fn more(out: &mut Vec<DocLine>, theme: &Theme, total: usize) {
    if total > SHOWN {
        out.push(DocLine::word(
            Line::styled(format!("… and {} more", total - SHOWN), theme.muted),
            0,
        ));
    }
}
