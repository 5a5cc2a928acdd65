//! The memory view's document: the semantic facts, newest first, each with its trust,
//! importance, source and links (a link to a memory that is gone marked as such).

use ratatui::text::{Line, Span};

use super::figures::{importance_style, method};
use crate::genomes::evennia::memory::EvenniaMemory;
use crate::genomes::evennia::memory::semantic::SemanticMemory;
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::prepare::items::{ItemDoc, clock, text_lines};
use crate::ui::theme::Theme;

/// Memories shown, the newest (the document is prepared again at each change, so it
/// stays small); search finds the older ones' lines.
pub const SHOWN_MEMORIES: usize = 1_000;

/// Columns before a fact's text (`m12   16:45 `): its rows start here.
const TEXT_COLUMN: u16 = 12;

pub fn prepare(m: &EvenniaMemory, theme: &Theme) -> ItemDoc {
    let mut doc = ItemDoc::default();
    for fact in m.semantic.memories().rev().take(SHOWN_MEMORIES) {
        if !doc.lines.is_empty() {
            doc.lines.push(DocLine::hard(Line::default()));
        }
        memory(&mut doc, fact, m, theme);
    }
    let older = (m.semantic.memories().len() + m.semantic.not_kept() as usize)
        .saturating_sub(SHOWN_MEMORIES);
    if older > 0 {
        doc.lines.push(DocLine::hard(Line::default()));
        doc.lines.push(DocLine::word(
            Line::styled(
                format!("… and {older} older memories, not shown (search finds their lines)"),
                theme.muted,
            ),
            0,
        ));
    }
    doc
}

fn memory(doc: &mut ItemDoc, fact: &SemanticMemory, m: &EvenniaMemory, theme: &Theme) {
    doc.item(crate::genomes::evennia::memory::SEMANTIC, &fact.lines);
    let meta = &fact.meta;
    let mut head = vec![
        Span::styled(format!("{:<5} ", inert(&fact.id)), theme.accent),
        Span::styled(format!("{} ", clock(fact.t)), theme.muted),
    ];
    if let Some(trust) = meta.source_trust {
        let style = if trust >= 0.5 { theme.base } else { theme.ylw };
        head.push(Span::styled(format!("trust {trust:.2}  "), style));
    }
    if let Some(i) = meta.importance {
        head.push(Span::styled(
            format!("importance {i} "),
            importance_style(Some(i), theme),
        ));
        head.push(method(meta.importance_method.as_ref(), theme));
        head.push(Span::raw(" "));
    }
    let mut source = Vec::new();
    if let Some(s) = &meta.source {
        source.push(match &meta.entry_id {
            Some(entry) => format!("{} {}", inert(s), inert(entry)),
            None => inert(s),
        });
    }
    if let Some(t) = &meta.source_type {
        source.push(inert(t));
    }
    if let Some(e) = &meta.source_entity {
        source.push(format!("from {}", inert(e)));
    }
    if !meta.tags.as_ref().is_none_or(Vec::is_empty) {
        let tags: Vec<String> = meta
            .tags
            .iter()
            .flatten()
            .map(|t| format!("#{}", inert(t)))
            .collect();
        source.push(tags.join(" "));
    }
    head.push(Span::styled(source.join(" · "), theme.muted));
    doc.lines.push(DocLine::hanging(Line::from(head), 2));
    for text in text_lines(&fact.text) {
        doc.lines.push(DocLine::word(
            Line::from(vec![
                Span::raw(" ".repeat(usize::from(TEXT_COLUMN))),
                Span::styled(text, theme.base),
            ]),
            TEXT_COLUMN,
        ));
    }
    if !fact.links.is_empty() {
        let mut spans = vec![
            Span::raw(" ".repeat(usize::from(TEXT_COLUMN))),
            Span::styled("↔ ", theme.dream),
        ];
        for (i, link) in fact.links.iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled(" · ", theme.muted));
            }
            let score = link.score.map_or(String::new(), |s| format!(" {s:.2}"));
            if m.semantic.contains(&link.id) {
                spans.push(Span::styled(inert(&link.id), theme.dream));
                spans.push(Span::styled(score, theme.muted));
            } else {
                spans.push(Span::styled(
                    format!("{}{score} (gone)", inert(&link.id)),
                    theme.muted,
                ));
            }
        }
        doc.lines
            .push(DocLine::word(Line::from(spans), TEXT_COLUMN + 2));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_newest_first_with_their_links() {
        let mut m = EvenniaMemory::default();
        for (i, l) in [
            r#"{"op":"add","id":"m1","text":"old fact","metadata":{"source":"journal","entry_id":"j2","source_trust":0.9,"importance":5,"importance_method":"llm","tags":["well"]}}"#,
            r#"{"op":"add","id":"m2","text":"new fact","metadata":{"source":"tool","source_trust":0.3}}"#,
            r#"{"op":"link","id":"m2","linked_to":[{"id":"m1","score":0.83},{"id":"m0","score":0.7}]}"#,
        ]
        .iter()
        .enumerate()
        {
            m.fold(crate::genomes::evennia::memory::SEMANTIC, i as u64, l.as_bytes()).unwrap();
        }
        let doc = prepare(&m, &Theme::default());
        let text: Vec<String> = doc.lines.iter().map(|l| l.line.to_string()).collect();
        assert!(text[0].starts_with("m2"));
        assert!(text[0].contains("trust 0.30"));
        assert_eq!(text[2].trim(), "↔ m1 0.83 · m0 0.70 (gone)");
        assert!(
            text[4].contains("importance 5 llm  journal j2 · #well"),
            "{text:?}"
        );
        assert_eq!(
            doc.find(crate::genomes::evennia::memory::SEMANTIC, 2),
            Some(0)
        );
    }

    #[test]
    fn only_the_newest_are_shown() {
        let mut m = EvenniaMemory::default();
        for i in 0..(SHOWN_MEMORIES + 3) {
            let line = format!(r#"{{"op":"add","id":"m{i}","text":"fact"}}"#);
            m.fold(
                crate::genomes::evennia::memory::SEMANTIC,
                i as u64,
                line.as_bytes(),
            )
            .unwrap();
        }
        let doc = prepare(&m, &Theme::default());
        assert_eq!(doc.items.len(), SHOWN_MEMORIES);
        let last = doc.lines.last().unwrap().line.to_string();
        assert_eq!(
            last,
            "… and 3 older memories, not shown (search finds their lines)"
        );
    }
}
