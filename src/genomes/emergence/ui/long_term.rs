//! The emergence memory view's document: the neural links, the long-term memories held
//! now (newest first, a copied one with where it came from), the summaries self-care wrote
//! with what each covers, folds and is folded into, and the archive.

use ratatui::text::{Line, Span};

use super::figures::{stamp, text_under};
use crate::genomes::emergence::memory::EmergenceMemory;
use crate::genomes::emergence::memory::longterm::LongTermMemory;
use crate::genomes::emergence::memory::summaries::Summary;
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::prepare::items::ItemDoc;
use crate::ui::theme::Theme;

/// Items shown per section, the newest (search finds the older ones' lines).
pub const SHOWN: usize = 1_000;
/// Ids of a summary's `covers` listed one by one; past this, the first and the last.
const COVERS_LISTED: usize = 6;
/// Columns before an item's text (`m12    11-24 18:00  `).
const TEXT_COLUMN: u16 = 20;

pub fn prepare(m: &EmergenceMemory, theme: &Theme) -> ItemDoc {
    let mut doc = ItemDoc::default();
    let l = &m.longterm;
    if !l.links().is_empty() {
        title(
            &mut doc,
            "Neural links",
            format!(" · {}", l.neural_links),
            theme,
        );
        for link in l.links().iter().rev() {
            let counts = match (link.memories, link.summaries) {
                (None, None) => String::new(),
                (m, s) => format!(
                    " ({} memories, {} summaries)",
                    m.unwrap_or(0),
                    s.unwrap_or(0)
                ),
            };
            doc.lines.push(DocLine::word(
                Line::from(vec![
                    Span::styled(format!("  {:<12}", stamp(link.t)), theme.muted),
                    Span::styled(format!("{} ", link.role.as_str()), theme.dream),
                    Span::styled(inert(&link.agent), theme.accent),
                    Span::styled(counts, theme.muted),
                ]),
                4,
            ));
        }
    }
    let current: Vec<&LongTermMemory> = l.current().rev().collect();
    title(
        &mut doc,
        "Long-term memories",
        format!(
            " · {} held · {} copied by neural link",
            l.current_count(),
            l.copied
        ),
        theme,
    );
    memories(&mut doc, &current, theme);

    let s = &m.summaries;
    let watermark = s
        .watermark
        .as_deref()
        .map(|w| format!(" · conversations summarised up to {}", inert(w)))
        .unwrap_or_default();
    title(
        &mut doc,
        "Summaries",
        format!(
            " · {} of memories · {} of conversations{watermark}",
            s.memories, s.conversations
        ),
        theme,
    );
    for summary in s.all().rev().take(SHOWN) {
        doc.lines.push(DocLine::hard(Line::default()));
        self::summary(&mut doc, summary, theme);
    }

    let archived: Vec<&LongTermMemory> = l.all().rev().filter(|m| m.archived.is_some()).collect();
    title(
        &mut doc,
        "Archive",
        format!(" · {} memories archived by self-care", l.archived),
        theme,
    );
    memories(&mut doc, &archived, theme);
    doc
}

fn title(doc: &mut ItemDoc, text: &str, extra: String, theme: &Theme) {
    if !doc.lines.is_empty() {
        doc.lines.push(DocLine::hard(Line::default()));
    }
    doc.lines.push(DocLine::word(
        Line::from(vec![
            Span::styled(text.to_string(), theme.title),
            Span::styled(extra, theme.muted),
        ]),
        2,
    ));
}

/// Memories newest first (at most [`SHOWN`]).
fn memories(doc: &mut ItemDoc, list: &[&LongTermMemory], theme: &Theme) {
    if list.is_empty() {
        doc.lines
            .push(DocLine::word(Line::styled("  none", theme.muted), 2));
    }
    for memory in list.iter().take(SHOWN) {
        doc.item(crate::genomes::emergence::memory::LONG_TERM, &[memory.line]);
        let lead = vec![
            Span::styled(format!("  {:<4} ", inert(&memory.id)), theme.accent),
            Span::styled(format!("{:<13}", stamp(memory.t)), theme.muted),
        ];
        let mut lines = text_under(lead, &memory.text, theme.base);
        let mut notes = Vec::new();
        if let Some(from) = &memory.from {
            let origin = memory
                .origin
                .as_deref()
                .map(|o| format!(" ({})", inert(o)))
                .unwrap_or_default();
            notes.push(Span::styled(
                format!("← {}{origin}", inert(from)),
                theme.dream,
            ));
        }
        if let Some(summary) = &memory.archived {
            notes.push(Span::styled(format!("→ {}", inert(summary)), theme.muted));
        }
        if !notes.is_empty() {
            let mut spans = vec![Span::raw(" ".repeat(usize::from(TEXT_COLUMN)))];
            for (i, note) in notes.into_iter().enumerate() {
                if i > 0 {
                    spans.push(Span::styled(" · ", theme.muted));
                }
                spans.push(note);
            }
            lines.push(DocLine::hanging(Line::from(spans), 1));
        }
        doc.lines.extend(lines);
    }
    let more = list.len().saturating_sub(SHOWN);
    if more > 0 {
        doc.lines.push(DocLine::word(
            Line::styled(
                format!("  … and {more} older, not shown (search finds their lines)"),
                theme.muted,
            ),
            2,
        ));
    }
}

fn summary(doc: &mut ItemDoc, s: &Summary, theme: &Theme) {
    doc.item(crate::genomes::emergence::memory::SUMMARIES, &[s.line]);
    let mut head = vec![
        Span::styled(format!("  {:<4} ", inert(&s.id)), theme.accent),
        Span::styled(format!("{:<13}", stamp(s.t)), theme.muted),
        Span::styled(inert(s.kind.as_str()), theme.dream),
    ];
    if let Some(focus) = &s.focus {
        head.push(Span::styled(" · focus ", theme.muted));
        head.push(Span::styled(inert(focus), theme.title));
    }
    if let Some(from) = &s.from {
        head.push(Span::styled(format!(" · ← {}", inert(from)), theme.dream));
    }
    doc.lines.push(DocLine::hanging(Line::from(head), 2));
    let indent = " ".repeat(usize::from(TEXT_COLUMN));
    doc.lines.extend(text_under(
        vec![Span::raw(indent.clone())],
        &s.text,
        theme.base,
    ));
    let mut facts = Vec::new();
    if !s.covers.is_empty() {
        facts.push(format!("covers {}", covers(&s.covers)));
    }
    if !s.folded.is_empty() {
        let folded: Vec<String> = s.folded.iter().map(|f| inert(f)).collect();
        facts.push(format!("folds in {}", folded.join(", ")));
    }
    if let Some(w) = &s.watermark {
        facts.push(format!("watermark {}", inert(w)));
    }
    if let Some(into) = &s.folded_into {
        facts.push(format!("folded into {}", inert(into)));
    }
    if !facts.is_empty() {
        doc.lines.push(DocLine::hanging(
            Line::from(vec![
                Span::raw(indent),
                Span::styled(facts.join(" · "), theme.muted),
            ]),
            1,
        ));
    }
}

/// `m1, m2, m3`, or `m1 … m34 (34)` for a long list.
fn covers(ids: &[String]) -> String {
    match ids {
        [first, .., last] if ids.len() > COVERS_LISTED => {
            format!("{} … {} ({})", inert(first), inert(last), ids.len())
        }
        _ => ids.iter().map(|i| inert(i)).collect::<Vec<_>>().join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_cover_lists_are_cut_to_their_ends() {
        let ids: Vec<String> = (1..=34).map(|i| format!("m{i}")).collect();
        assert_eq!(covers(&ids), "m1 … m34 (34)");
        assert_eq!(covers(&ids[..3]), "m1, m2, m3");
    }

    #[test]
    fn a_long_id_never_runs_into_its_date() {
        let memory = |id: &str| LongTermMemory {
            id: id.into(),
            t: chrono::DateTime::from_timestamp(1_764_000_000, 0),
            text: "the river".into(),
            from: None,
            origin: None,
            archived: None,
            archived_at: None,
            line: 0,
        };
        let (short, long) = (memory("m7"), memory("m12345"));
        let mut doc = ItemDoc::default();
        memories(&mut doc, &[&short, &long], &Theme::default());
        let rows: Vec<String> = doc.lines.iter().map(|l| l.line.to_string()).collect();
        assert!(rows[0].starts_with("  m7   11-"), "{rows:?}");
        assert!(rows[1].starts_with("  m12345 11-"), "{rows:?}");
    }
}
