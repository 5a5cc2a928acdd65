//! The journal view's document, newest first: each entry with its importance bar and
//! method, tags, source and trust, where it went at consolidation; each reflection where it
//! happened, with its questions and its insights; a date line where the day changes. Over
//! it, the gauge of importance toward the next reflection.

use chrono::{DateTime, NaiveDate, Utc};
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::JOURNAL;
use super::figures::{
    EvenniaSummary, importance_bar, importance_style, method, reflection_bar, reflection_style,
};
use super::state::EvenniaUi;
use crate::genomes::evennia::memory::EvenniaMemory;
use crate::genomes::evennia::memory::journal::{Consolidation, JournalEntry};
use crate::genomes::evennia::memory::reflections::Reflection;
use crate::ui::doc::DocLine;
use crate::ui::draw::doc;
use crate::ui::draw::fmt::{self, Part};
use crate::ui::layout::Areas;
use crate::ui::prepare::inert;
use crate::ui::prepare::items::{ItemDoc, clock, text_lines};
use crate::ui::theme::Theme;

/// Entries shown, the newest (the document is prepared again at each change, so it stays
/// small); the counts above it cover them all, and search finds the older ones' lines.
pub const SHOWN_ENTRIES: usize = 1_000;

/// Columns before an entry's text (`17:35 j33   █████░░░░░  5 heur  `): its
/// continuation rows start here.
const TEXT_COLUMN: u16 = 32;

enum Item<'a> {
    Entry(&'a JournalEntry),
    Reflection(&'a Reflection),
}

impl Item<'_> {
    fn t(&self) -> Option<DateTime<Utc>> {
        match self {
            Item::Entry(e) => e.t,
            Item::Reflection(r) => r.t,
        }
    }
}

pub fn prepare(m: &EvenniaMemory, theme: &Theme) -> ItemDoc {
    // Newest first: entries in file order reversed, each reflection above what came
    // before it.
    let mut items: Vec<Item> = m
        .journal
        .entries()
        .rev()
        .take(SHOWN_ENTRIES)
        .map(Item::Entry)
        .collect();
    let older = m.journal.current().saturating_sub(items.len() as u64);
    let oldest = match items.last() {
        Some(last) if older > 0 => last.t(),
        _ => None,
    };
    // Reflections among the entries shown (all of them when every entry is).
    let shown = m
        .reflections
        .recent()
        .iter()
        .rev()
        .filter(|r| older == 0 || matches!((r.t, oldest), (Some(rt), Some(o)) if rt >= o));
    for r in shown {
        let at = items
            .iter()
            .position(|i| matches!((i.t(), r.t), (Some(t), Some(rt)) if t <= rt))
            .unwrap_or(items.len());
        items.insert(at, Item::Reflection(r));
    }
    let mut doc = ItemDoc::default();
    let mut day: Option<NaiveDate> = None;
    for item in &items {
        let date = item.t().map(|t| t.date_naive());
        if date.is_some() && date != day {
            if !doc.lines.is_empty() {
                doc.lines.push(DocLine::hard(Line::default()));
            }
            if let Some(d) = date {
                doc.lines.push(DocLine::hard(Line::styled(
                    d.format("%Y-%m-%d").to_string(),
                    theme.header,
                )));
            }
            day = date;
        }
        match item {
            Item::Entry(e) => entry(&mut doc, e, theme),
            Item::Reflection(r) => reflection(&mut doc, r, m, theme),
        }
    }
    if older > 0 {
        doc.lines.push(DocLine::hard(Line::default()));
        doc.lines.push(DocLine::word(
            Line::styled(
                format!("… and {older} older entries, not shown (search finds their lines)"),
                theme.muted,
            ),
            0,
        ));
    }
    doc
}

fn entry(doc: &mut ItemDoc, e: &JournalEntry, theme: &Theme) {
    doc.item(crate::genomes::evennia::memory::JOURNAL, &e.lines);
    let texts = text_lines(&e.text);
    let text_style = if e.synthesis { theme.prose } else { theme.base };
    let mut head = vec![
        Span::styled(format!("{} ", clock(e.t)), theme.muted),
        Span::styled(format!("{:<5} ", inert(&e.id)), theme.accent),
    ];
    head.extend(importance_bar(e.importance, theme));
    head.push(Span::styled(
        format!(
            " {:>2} ",
            e.importance.map_or("-".into(), |i| i.to_string())
        ),
        importance_style(e.importance, theme),
    ));
    head.push(method(e.method.as_ref(), theme));
    head.push(Span::raw("  "));
    let prefix = head.len() as u16;
    if e.synthesis {
        head.push(Span::styled("summary ", theme.dreaming));
    } else if !e.counts_toward_reflection() {
        head.push(Span::styled("◆ insight ", theme.deep_sleep));
    }
    head.push(Span::styled(
        texts.first().cloned().unwrap_or_default(),
        text_style,
    ));
    doc.lines.push(DocLine::hanging(Line::from(head), prefix));
    for more in texts.iter().skip(1) {
        doc.lines.push(DocLine::hanging(
            Line::from(vec![
                Span::raw(" ".repeat(usize::from(TEXT_COLUMN))),
                Span::styled(more.clone(), text_style),
            ]),
            1,
        ));
    }
    doc.lines
        .push(DocLine::hanging(Line::from(details(e, theme)), 1));
}

/// The muted line under an entry: tags, source, trust, who said it, rescoring,
/// consolidation.
fn details(e: &JournalEntry, theme: &Theme) -> Vec<Span<'static>> {
    let mut parts: Vec<String> = Vec::new();
    if !e.tags.is_empty() {
        let tags: Vec<String> = e.tags.iter().map(|t| format!("#{}", inert(t))).collect();
        parts.push(tags.join(" "));
    }
    if let Some(source) = &e.source_type {
        parts.push(inert(source));
    }
    if let Some(trust) = e.source_trust {
        parts.push(format!("trust {trust:.2}"));
    }
    if let Some(entity) = &e.source_entity {
        parts.push(format!("from {}", inert(entity)));
    }
    if let Some(was) = e.added_importance {
        parts.push(format!("was {was}"));
    }
    let mut spans = vec![
        Span::raw(" ".repeat(usize::from(TEXT_COLUMN))),
        Span::styled(parts.join(" · "), theme.muted),
    ];
    let consolidation = match &e.consolidated {
        Some(Consolidation::Into(m)) => Span::styled(format!("→ {}", inert(m)), theme.dream),
        Some(Consolidation::Nothing) => Span::styled("→ nothing to keep", theme.muted),
        None if e.synthesis => Span::raw(""),
        None => Span::styled("pending", theme.muted),
    };
    if !consolidation.content.is_empty() {
        if !parts.is_empty() {
            spans.push(Span::styled(" · ", theme.muted));
        }
        spans.push(consolidation);
    }
    spans
}

fn reflection(doc: &mut ItemDoc, r: &Reflection, m: &EvenniaMemory, theme: &Theme) {
    doc.item(crate::genomes::evennia::memory::REFLECTIONS, &[r.line]);
    let mut head = vec![
        Span::styled(format!("{} ", clock(r.t)), theme.muted),
        Span::styled(format!("{:<5} ", inert(&r.id)), theme.deep_sleep),
        Span::styled("◆ reflection", theme.deep_sleep),
    ];
    if let Some(c) = r.cumulative_importance {
        let threshold = r.threshold.map_or(String::new(), |t| format!("/{t}"));
        head.push(Span::styled(
            format!(" · cumulative importance {c}{threshold}"),
            theme.muted,
        ));
    }
    doc.lines.push(DocLine::hanging(Line::from(head), 2));
    for q in &r.questions {
        doc.lines.push(DocLine::word(
            Line::from(vec![
                Span::raw("            "),
                Span::styled("? ", theme.accent),
                Span::styled(inert(q), theme.base),
            ]),
            14,
        ));
    }
    for id in &r.insights {
        let text = m.journal.entries().find(|e| e.id == *id).map_or_else(
            || "(no longer in the journal)".to_string(),
            |e| text_lines(&e.text).join(" "),
        );
        doc.lines.push(DocLine::word(
            Line::from(vec![
                Span::raw("            "),
                Span::styled(format!("→ {} ", inert(id)), theme.deep_sleep),
                Span::styled(text, theme.base),
            ]),
            14,
        ));
    }
}

/// Cells of the gauge at most.
const GAUGE_CELLS: usize = 40;

/// The gauge over the journal, then the journal.
pub fn draw(frame: &mut Frame, areas: &Areas, e: &EvenniaUi, theme: &Theme) {
    if let Some(area) = areas.gauge {
        let width = usize::from(area.width);
        let rule = Line::styled("─".repeat(width), theme.border);
        frame.render_widget(
            Paragraph::new(vec![
                gauge(&e.summary, width, theme),
                counts(&e.summary, width, theme),
                rule,
            ]),
            area,
        );
    }
    doc::render(
        frame,
        areas.main_view,
        &e.journal.lines,
        e.journal_anchor,
        JOURNAL.empty,
        theme,
    );
}

/// `importance ██████░░░░ 49/150 toward the next reflection`: full (and red) when a
/// reflection is due.
fn gauge(s: &EvenniaSummary, width: usize, theme: &Theme) -> Line<'static> {
    let label = "importance ";
    let figures = format!(" {}/{}", s.cumulative, s.threshold);
    let tail = " toward the next reflection";
    let cells = width
        .saturating_sub(label.len() + figures.len() + tail.len())
        .min(GAUGE_CELLS);
    let due = s.cumulative >= s.threshold.max(1);
    let mut spans = vec![Span::styled(label, theme.muted)];
    spans.extend(reflection_bar(s, cells, theme));
    spans.push(Span::styled(figures, reflection_style(s, theme)));
    spans.push(Span::styled(
        if due { " reflection due" } else { tail },
        theme.muted,
    ));
    Line::from(spans)
}

/// `34 entries · 2 pruned · 26 scored by the model, 8 heuristic · 1 reflection, last r1
/// 16:48`, the least useful parts left out first when narrow.
fn counts(s: &EvenniaSummary, width: usize, theme: &Theme) -> Line<'static> {
    let part = |drop, text: String| Part::optional(drop, Span::styled(text, theme.muted));
    let reflections = if s.reflections == 1 {
        "reflection"
    } else {
        "reflections"
    };
    let last = s
        .last_reflection
        .as_deref()
        .map_or(String::new(), |r| format!(", last {r}"));
    fmt::fit(
        vec![
            Part::keep(Span::styled(format!("{} entries", s.entries), theme.muted)),
            part(2, format!(" · {} pruned", s.pruned)),
            part(
                3,
                format!(
                    " · {} scored by the model, {} heuristic",
                    s.llm, s.heuristic
                ),
            ),
            Part {
                drop: 1,
                spans: vec![Span::styled(
                    format!(" · {} {reflections}{last}", s.reflections),
                    theme.muted,
                )],
                short: Some((
                    1,
                    vec![Span::styled(
                        format!(" · ◆{}", s.reflections),
                        theme.deep_sleep,
                    )],
                )),
            },
        ],
        width,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newest_first_with_reflections_where_they_happened() {
        let mut m = EvenniaMemory::default();
        let lines = [
            r#"{"t":"2026-11-22T10:00:00Z","op":"add","id":"j1","text":"old \u001b[31m","importance":3,"importance_method":"heuristic","tags":["a"]}"#,
            r#"{"t":"2026-11-22T10:10:00Z","op":"add","id":"j2","text":"insight","importance":9,"source_type":"reflection"}"#,
            r#"{"t":"2026-11-22T11:00:00Z","op":"add","id":"j3","text":"new","importance":7,"importance_method":"llm"}"#,
        ];
        for (i, l) in lines.iter().enumerate() {
            m.fold(
                crate::genomes::evennia::memory::JOURNAL,
                i as u64,
                l.as_bytes(),
            )
            .unwrap();
        }
        m.fold(
            crate::genomes::evennia::memory::REFLECTIONS,
            0,
            br#"{"t":"2026-11-22T10:10:00Z","op":"reflect","id":"r1","questions":["Why?"],"insights":["j2","j9"],"cumulative_importance":151,"threshold":150}"#,
        )
        .unwrap();
        let doc = prepare(&m, &Theme::default());
        let text: Vec<String> = doc.lines.iter().map(|l| l.line.to_string()).collect();
        let at = |needle: &str| text.iter().position(|l| l.contains(needle)).unwrap();
        assert_eq!(text[0], "2026-11-22");
        assert!(at("j3") < at("r1") && at("r1") < at("j2") && at("j2") < at("j1"));
        assert!(
            text[at("j1")].contains("10:00 j1    ███░░░░░░░  3 heur  old ^[[31m"),
            "{text:?}"
        );
        let rows: Vec<String> = doc.lines[at("j1")]
            .rows(40)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            rows,
            [
                "10:00 j1    ███░░░░░░░  3 heur  old",
                "                                ^[[31m"
            ]
        );
        assert!(text[at("j1") + 1].contains("#a · pending"));
        assert!(text[at("? Why?")].contains("? Why?"));
        assert!(
            text.iter()
                .any(|l| l.contains("→ j9 (no longer in the journal)"))
        );
        assert_eq!(
            doc.find(crate::genomes::evennia::memory::REFLECTIONS, 0),
            Some(at("r1"))
        );
        assert_eq!(
            doc.find(crate::genomes::evennia::memory::JOURNAL, 2),
            Some(at("j3"))
        );
    }

    #[test]
    fn only_the_newest_entries_are_shown_with_their_reflections() {
        let mut m = EvenniaMemory::default();
        let n = SHOWN_ENTRIES + 2;
        for i in 0..n {
            let line =
                format!(r#"{{"t":"2026-11-22T10:00:00Z","op":"add","id":"j{i}","importance":1}}"#);
            m.fold(
                crate::genomes::evennia::memory::JOURNAL,
                i as u64,
                line.as_bytes(),
            )
            .unwrap();
        }
        m.fold(
            crate::genomes::evennia::memory::REFLECTIONS,
            0,
            br#"{"t":"2026-11-22T09:00:00Z","op":"reflect","id":"old"}"#,
        )
        .unwrap();
        let doc = prepare(&m, &Theme::default());
        assert_eq!(doc.items.len(), SHOWN_ENTRIES);
        let text: Vec<String> = doc.lines.iter().map(|l| l.line.to_string()).collect();
        assert!(!text.iter().any(|l| l.contains("◆ reflection")));
        assert_eq!(
            text.last().map(String::as_str),
            Some("… and 2 older entries, not shown (search finds their lines)")
        );
    }
}
