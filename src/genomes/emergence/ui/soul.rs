//! The soul view's document: the entries the creature holds now, in the order it added
//! them (they are never summarised or archived).

use ratatui::text::{Line, Span};

use super::figures::{stamp, text_under};
use crate::genomes::emergence::memory::EmergenceMemory;
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::prepare::items::ItemDoc;
use crate::ui::theme::Theme;

pub fn prepare(m: &EmergenceMemory, theme: &Theme) -> ItemDoc {
    let mut doc = ItemDoc::default();
    let soul = &m.soul;
    doc.lines.push(DocLine::word(
        Line::styled(
            format!(
                "{} held · {} added · {} removed by the creature · never summarised or archived",
                soul.len(),
                soul.added,
                soul.removed
            ),
            theme.muted,
        ),
        0,
    ));
    for entry in soul.entries() {
        doc.lines.push(DocLine::hard(Line::default()));
        doc.item(crate::genomes::emergence::memory::SOUL, &[entry.line]);
        let lead = vec![
            Span::styled(format!("{:<6}", inert(&entry.id)), theme.accent),
            Span::styled(format!("{:<14}", stamp(entry.t)), theme.muted),
        ];
        doc.lines.extend(text_under(lead, &entry.text, theme.title));
    }
    doc
}
