//! The blame popup's document, prepared when the answer comes (or Enter switches between
//! the line and the whole file): inert and styled once.

use chrono::{DateTime, Local, Utc};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::{BlameAsk, Blamed, FileBlame};
use crate::recorder::blame::{Blame, Change};
use crate::recorder::entries::{Entry, LogBlame};
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;

/// Rows before the first line of the whole file's blame.
const HEAD: usize = 2;

/// The document for `ask` and its answer (`None`: still blaming).
pub fn document(
    ask: &BlameAsk,
    answer: Option<&Result<Blamed, String>>,
    whole: bool,
    theme: &Theme,
) -> Vec<DocLine> {
    let mut out = Vec::new();
    match answer {
        None => out.push(plain("blaming…", theme.muted)),
        Some(Err(e)) => out.push(plain(&inert(e), theme.error)),
        Some(Ok(b)) if whole => whole_file(&mut out, b, theme),
        Some(Ok(b)) => one_line(&mut out, ask, b, theme),
    }
    out
}

/// Where line `n` of the file is in the whole file's document.
pub fn line_at(lines: &[DocLine], n: Option<usize>) -> usize {
    n.map_or(0, |n| (HEAD + n).saturating_sub(1).min(lines.len()))
}

fn plain(text: &str, style: Style) -> DocLine {
    DocLine::word(Line::styled(text.to_string(), style), 2)
}

/// `label  value`, the label in its column.
fn field(label: &str, value: String, theme: &Theme) -> DocLine {
    DocLine::hanging(
        Line::from(vec![
            Span::styled(format!("{label:<10}"), theme.muted),
            Span::styled(value, theme.base),
        ]),
        1,
    )
}

fn when(t: Option<DateTime<Utc>>) -> String {
    t.map(|t| t.with_timezone(&Local).format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_default()
}

/// Who and when, in words.
fn change(c: &Change) -> String {
    let who = inert(&c.author.describe());
    match c.t {
        Some(_) => format!("{who} · {}", when(c.t)),
        None => who,
    }
}

fn one_line(out: &mut Vec<DocLine>, ask: &BlameAsk, b: &Blamed, theme: &Theme) {
    let found = b.line.and_then(|n| match &b.blame {
        FileBlame::Doc(d) => d.lines.get(n - 1).map(|l| Found::Doc(d, l)),
        FileBlame::Log(l) => l.entries.iter().find(|e| e.n == n).map(Found::Log),
    });
    let Some(found) = found else {
        let what = ask
            .text
            .as_deref()
            .map(|t| format!("\"{}\"", inert(t)))
            .unwrap_or_else(|| "the selected line".into());
        out.push(plain(
            &format!(
                "{what} is not a line of {} as of then (a wrapped or rendered line?): Enter shows the whole file's blame",
                inert(&b.file)
            ),
            theme.muted,
        ));
        return;
    };
    match found {
        Found::Doc(d, l) => {
            out.push(plain(&inert(&l.text), theme.accent));
            out.push(DocLine::hard(Line::default()));
            out.push(field("written", change(&l.written), theme));
            if !l.replaced.is_empty() {
                out.push(field("replaced", inert(&l.replaced.join(" / ")), theme));
            }
            for m in &l.moved {
                out.push(field("moved", change(m), theme));
            }
            if let Some(now) = &b.now {
                out.push(field("later", later(&l.text, now), theme));
            }
            out.push(DocLine::hard(Line::default()));
            out.push(plain(&since(d), theme.muted));
        }
        Found::Log(e) => {
            out.push(plain(&entry_text(e), theme.accent));
            out.push(DocLine::hard(Line::default()));
            out.push(field("written", change(&e.written), theme));
            for l in &e.later {
                let op = inert(l.op.as_deref().unwrap_or("-"));
                out.push(field(
                    "then",
                    format!("line {}: {op}, {}", l.n, change(&l.change)),
                    theme,
                ));
            }
            if e.later.is_empty() && e.id.is_some() {
                out.push(field("then", "no later line about it".into(), theme));
            }
        }
    }
}

enum Found<'a> {
    Doc(&'a Blame, &'a crate::recorder::blame::Line),
    Log(&'a Entry),
}

/// What became of a line of the past in the file's blame now.
fn later(text: &str, now: &Blame) -> String {
    let key = text.trim();
    if let Some(l) = now.lines.iter().find(|l| l.text.trim() == key) {
        return match l.moved.last() {
            Some(m) => format!("still there (line {}), moved by {}", l.n, change(m)),
            None => format!("still there (line {})", l.n),
        };
    }
    if let Some(l) = now
        .lines
        .iter()
        .find(|l| l.replaced.iter().any(|r| r.trim() == key))
    {
        return format!(
            "rewritten by {} into: {}",
            change(&l.written),
            inert(&l.text)
        );
    }
    match now.gone.iter().rev().find(|g| g.text.trim() == key) {
        Some(g) => format!("pruned by {}", change(&g.removed)),
        None => "not in the file now".into(),
    }
}

fn since(d: &Blame) -> String {
    match d.since {
        Some(t) => format!(
            "recorded since {}: who wrote what was there then cannot be known",
            when(Some(t))
        ),
        None => "no record of this file's history: who wrote it cannot be known".into(),
    }
}

fn entry_text(e: &Entry) -> String {
    let parts = [e.op.as_deref(), e.id.as_deref(), Some(e.text.as_str())];
    inert(
        &parts
            .into_iter()
            .flatten()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" · "),
    )
}

/// Who wrote each line, as `git blame` prints it: the selected line marked.
fn whole_file(out: &mut Vec<DocLine>, b: &Blamed, theme: &Theme) {
    let row = |who: String, n: usize, text: String| {
        let selected = b.line == Some(n);
        let style = if selected {
            theme.selection
        } else {
            theme.base
        };
        DocLine::hanging(
            Line::from(vec![
                Span::styled(format!("{who:<26} "), theme.muted),
                Span::styled(format!("{n:>4}) "), theme.muted),
                Span::styled(text, style),
            ]),
            2,
        )
    };
    match &b.blame {
        FileBlame::Doc(d) => {
            out.push(plain(&since(d), theme.muted));
            out.push(DocLine::hard(Line::default()));
            for l in &d.lines {
                let moved = if l.moved.is_empty() { "" } else { " ~" };
                let who = format!("{}{moved}", clip(&inert(&l.written.author.describe()), 24));
                out.push(row(who, l.n, inert(&l.text)));
            }
            if !d.gone.is_empty() {
                out.push(DocLine::hard(Line::default()));
                out.push(plain("gone:", theme.title));
                for g in &d.gone {
                    out.push(field(
                        "",
                        format!(
                            "{}  (written: {}, removed: {})",
                            inert(&g.text),
                            change(&g.written),
                            change(&g.removed)
                        ),
                        theme,
                    ));
                }
            }
        }
        FileBlame::Log(l) => log_rows(out, l, theme, row),
    }
}

fn log_rows(
    out: &mut Vec<DocLine>,
    l: &LogBlame,
    theme: &Theme,
    row: impl Fn(String, usize, String) -> DocLine,
) {
    out.push(plain(
        "each entry on the stretch of life it was written in",
        theme.muted,
    ));
    out.push(DocLine::hard(Line::default()));
    for e in &l.entries {
        out.push(row(
            clip(&inert(&e.written.author.describe()), 26),
            e.n,
            entry_text(e),
        ));
    }
}

fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}
