//! The compare view's document at a width: the drift strip, then each memory file's
//! lines side by side (the lines only one has highlighted). Inert and styled once.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::CompareAsk;
use crate::recorder::compare::{CONTEXT, Comparison};
use crate::recorder::side::{self, Mark, Shown};
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;

const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

fn plain(text: String, style: Style) -> DocLine {
    DocLine::word(Line::styled(text, style), 2)
}

pub fn document(
    ask: &CompareAsk,
    answer: Option<&Result<Comparison, String>>,
    theme: &Theme,
    width: u16,
) -> Vec<DocLine> {
    let c = match answer {
        None => return vec![plain("comparing…".into(), theme.muted)],
        Some(Err(e)) => return vec![plain(inert(e), theme.error)],
        Some(Ok(c)) => c,
    };
    let width = usize::from(width);
    let column = width.saturating_sub(3) / 2;
    let mut out = vec![DocLine::hard(Line::from(vec![
        Span::styled(side::fit(&ask.a_name, column), theme.title),
        Span::styled("   ", theme.muted),
        Span::styled(ask.b_name.clone(), theme.title),
    ]))];
    drift(&mut out, c, theme);
    // The files that differ first.
    let mut files: Vec<_> = c.files.iter().collect();
    files.sort_by_key(|f| f.only_a.is_empty() && f.only_b.is_empty());
    for f in files {
        out.push(DocLine::hard(Line::default()));
        if f.only_a.is_empty() && f.only_b.is_empty() {
            out.push(plain(
                format!(
                    "{} · {} line{}, the same",
                    inert(&f.file),
                    f.same,
                    if f.same == 1 { "" } else { "s" }
                ),
                theme.muted,
            ));
            continue;
        }
        out.push(plain(
            format!(
                "{} · {} the same · {} only in {} · {} only in {}",
                inert(&f.file),
                f.same,
                f.only_a.len(),
                ask.a_name,
                f.only_b.len(),
                ask.b_name
            ),
            theme.header,
        ));
        let empty = (Vec::new(), Vec::new());
        let (la, lb) = c.lines.get(&f.file).unwrap_or(&empty);
        let clean = |l: &Vec<String>| l.iter().map(|s| inert(s)).collect::<Vec<_>>();
        for shown in side::around_changes(side::rows(&clean(la), &clean(lb)), CONTEXT) {
            out.push(match shown {
                Shown::Row(r) => row(&r, column, theme),
                Shown::Same(n) => plain(format!("  ⋯ {n} lines both have"), theme.muted),
            });
        }
    }
    if let Some(first) = c.unknown.first() {
        out.push(DocLine::hard(Line::default()));
        let more = match c.unknown.len() {
            1 => String::new(),
            n => format!(" (and {} more: `dreamwatch diff` lists them)", n - 1),
        };
        out.push(plain(
            format!("not known: {}{more}", inert(first)),
            theme.muted,
        ));
    }
    out
}

/// One row: the left line, the gutter, the right line; a side only one has is
/// highlighted.
fn row(r: &side::Row, column: usize, theme: &Theme) -> DocLine {
    let (left, right) = match r.mark {
        Mark::Same => (theme.muted, theme.muted),
        Mark::Changed => (theme.ylw, theme.ylw),
        Mark::OnlyA => (theme.red, theme.base),
        Mark::OnlyB => (theme.base, theme.grn),
    };
    DocLine::hard(Line::from(vec![
        Span::styled(side::fit(r.a.as_deref().unwrap_or(""), column), left),
        Span::styled(format!(" {} ", r.mark.gutter()), theme.muted),
        Span::styled(side::fit(r.b.as_deref().unwrap_or(""), column), right),
    ]))
}

/// The drift after each dream both dreamt: a strip, one cell per dream, and the figures.
fn drift(out: &mut Vec<DocLine>, c: &Comparison, theme: &Theme) {
    out.push(DocLine::hard(Line::default()));
    if c.drift.is_empty() {
        out.push(plain(
            "drift: no dream both have dreamt yet".into(),
            theme.muted,
        ));
        return;
    }
    let most = c.drift.iter().map(|d| d.total).max().unwrap_or(0).max(1);
    let strip: String = c
        .drift
        .iter()
        .map(|d| match d.total {
            _ if d.partial => '?',
            0 => '·',
            t => LEVELS[((t * 8).div_ceil(most)).clamp(1, 8) - 1],
        })
        .collect();
    out.push(DocLine::hard(Line::from(vec![
        Span::styled("drift  ", theme.muted),
        Span::styled(strip, theme.dream),
        Span::styled(
            match c.drift.iter().any(|d| d.partial) {
                true => "  lines only one has, after each dream both dreamt (?: not known then)",
                false => "  lines only one has, after each dream both dreamt",
            },
            theme.muted,
        ),
    ])));
    let figures = c
        .drift
        .iter()
        .map(|d| match d.partial {
            true => format!("dream {}: ?", d.dream),
            false => format!("dream {}: {}", d.dream, d.total),
        })
        .collect::<Vec<_>>()
        .join(" · ");
    out.push(plain(figures, theme.base));
}
