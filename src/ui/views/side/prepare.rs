//! The side panel, prepared: the creature's genome's part (its `GenomeViews::side`),
//! then what every creature has: its purpose and the problems found reading it. The
//! helpers here are what the genomes' parts are written with.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::memory::creature::Creature;
use crate::text::sanitize::sanitize;
use crate::ui::doc::DocLine;
use crate::ui::genome;
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;

/// Problems listed one by one; the rest are counted.
const PROBLEMS_SHOWN: usize = 20;

pub fn prepare(c: &Creature, theme: &Theme) -> Vec<DocLine> {
    let mut out = Vec::new();
    (genome::of(&c.genome()).side)(&mut out, c, theme);
    shared(&mut out, c, theme);
    out
}

/// A section title, a blank line before it when it is not the first.
pub fn title(out: &mut Vec<DocLine>, theme: &Theme, text: &str, extra: Option<String>) {
    if !out.is_empty() {
        out.push(DocLine::hard(Line::default()));
    }
    let mut spans = vec![Span::styled(text.to_string(), theme.title)];
    if let Some(extra) = extra {
        spans.push(Span::styled(format!(" · {extra}"), theme.muted));
    }
    out.push(DocLine::word(Line::from(spans), 2));
}

/// Free text from a creature, one document line per line.
pub fn plain(out: &mut Vec<DocLine>, text: &str, style: Style) {
    for l in sanitize(text.trim())
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        out.push(DocLine::word(Line::styled(l.to_string(), style), 0));
    }
}

/// A muted line saying there is nothing yet.
pub fn none(out: &mut Vec<DocLine>, theme: &Theme, text: &str) {
    out.push(DocLine::word(
        Line::styled(text.to_string(), theme.muted),
        0,
    ));
}

/// What every creature's panel ends with: its purpose and the problems found reading it.
fn shared(out: &mut Vec<DocLine>, c: &Creature, theme: &Theme) {
    if let Some(purpose) = c.purpose().filter(|p| !p.trim().is_empty()) {
        title(out, theme, "Purpose", None);
        let body: String = purpose
            .lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n");
        plain(out, &body, theme.muted);
    }

    let problems = c.problems();
    if !problems.is_empty() {
        let total = problems.len() as u64 + c.problems_dropped();
        title(out, theme, "Problems", Some(total.to_string()));
        for p in problems.iter().take(PROBLEMS_SHOWN) {
            let at = match p.line {
                Some(n) => format!("{}:{n}", p.file),
                None => p.file.clone(),
            };
            out.push(DocLine::word(
                Line::from(vec![
                    Span::styled(format!("{} ", inert(&at)), theme.error),
                    Span::styled(inert(&p.what), theme.muted),
                ]),
                2,
            ));
        }
        if total > PROBLEMS_SHOWN as u64 {
            out.push(DocLine::word(
                Line::styled(
                    format!("… and {} more", total - PROBLEMS_SHOWN as u64),
                    theme.muted,
                ),
                0,
            ));
        }
    }
}
