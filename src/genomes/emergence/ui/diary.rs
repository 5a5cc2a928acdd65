//! The emergence diary view's document: one entry per date, newest first, with the mood
//! and where the creature was (a date written again shows its last entry, and says so).

use ratatui::text::{Line, Span};

use super::figures::text_under;
use crate::genomes::emergence::memory::EmergenceMemory;
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::prepare::items::ItemDoc;
use crate::ui::theme::Theme;

/// Dates shown, the latest (search finds the older ones' lines).
pub const SHOWN_DATES: usize = 1_000;
/// Columns before an entry's text.
const TEXT_COLUMN: u16 = 4;

pub fn prepare(m: &EmergenceMemory, theme: &Theme) -> ItemDoc {
    let mut doc = ItemDoc::default();
    for day in m.diary.days().rev().take(SHOWN_DATES) {
        if !doc.lines.is_empty() {
            doc.lines.push(DocLine::hard(Line::default()));
        }
        doc.item(crate::genomes::emergence::memory::DIARY_LOG, &[day.line]);
        // The date is kept in its columns; what follows wraps beside it.
        let mut head = vec![
            Span::styled(day.date.format("%Y-%m-%d ").to_string(), theme.header),
            Span::styled(day.date.format("%a  ").to_string(), theme.muted),
        ];
        if let Some(mood) = &day.mood {
            head.push(Span::styled("mood ", theme.muted));
            head.push(Span::styled(format!("{}  ", inert(mood)), theme.dream));
        }
        if let Some(place) = &day.location {
            head.push(Span::styled("at ", theme.muted));
            head.push(Span::styled(format!("{}  ", inert(place)), theme.accent));
        }
        if day.rewrites > 0 {
            head.push(Span::styled(
                format!("(written {} times, the last shown)", day.rewrites + 1),
                theme.muted,
            ));
        }
        doc.lines.push(DocLine::hanging(Line::from(head), 2));
        let indent = vec![Span::raw(" ".repeat(usize::from(TEXT_COLUMN)))];
        doc.lines.extend(text_under(indent, &day.text, theme.base));
    }
    let older = m.diary.len().saturating_sub(SHOWN_DATES);
    if older > 0 {
        doc.lines.push(DocLine::hard(Line::default()));
        doc.lines.push(DocLine::word(
            Line::styled(
                format!("… and {older} older dates, not shown (search finds their lines)"),
                theme.muted,
            ),
            0,
        ));
    }
    doc
}
