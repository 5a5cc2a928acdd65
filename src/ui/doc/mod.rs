//! Documents: prepared lines (sanitised and styled once), wrapped to the pane's width
//! only for the rows on screen, and scrolled by [`scroll::Anchor`].

pub mod scroll;

use ratatui::text::{Line, Span};

use crate::text::wrap::{wrap_keeping_spaces, wrap_spans};

/// How a line continues when it is wider than the pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrap {
    /// At word boundaries; continuation rows start `indent` columns in.
    Word { indent: u16 },
    /// Anywhere, keeping every space (code, tool output).
    Hard,
    /// The first `spans` spans are a prefix kept as is (columns: times, ids, bars); the
    /// rest is word-wrapped beside it, its continuation rows under its start.
    Hanging { spans: u16 },
}

/// One prepared line of a document.
#[derive(Debug, Clone, PartialEq)]
pub struct DocLine {
    pub line: Line<'static>,
    pub wrap: Wrap,
}

impl DocLine {
    pub fn word(line: Line<'static>, indent: u16) -> Self {
        Self {
            line,
            wrap: Wrap::Word { indent },
        }
    }

    pub fn hard(line: Line<'static>) -> Self {
        Self {
            line,
            wrap: Wrap::Hard,
        }
    }

    /// A line whose first `spans` spans are a prefix kept in its columns.
    pub fn hanging(line: Line<'static>, spans: u16) -> Self {
        Self {
            line,
            wrap: Wrap::Hanging { spans },
        }
    }

    /// The screen rows of this line at `width` columns (at least one).
    pub fn rows(&self, width: u16) -> Vec<Line<'static>> {
        let width = usize::from(width.max(1));
        if self.line.width() <= width {
            return vec![self.line.clone()];
        }
        let rows = match self.wrap {
            Wrap::Hard => hard_rows(&self.line, width),
            Wrap::Word { indent } => word_rows(&self.line, width, usize::from(indent)),
            Wrap::Hanging { spans } => hanging_rows(&self.line, width, usize::from(spans)),
        };
        if rows.is_empty() {
            vec![Line::default()]
        } else {
            rows
        }
    }

    /// How many rows [`DocLine::rows`] gives, without keeping them.
    pub fn height(&self, width: u16) -> usize {
        if self.line.width() <= usize::from(width.max(1)) {
            1
        } else {
            self.rows(width).len()
        }
    }
}

/// Splits `line` keeping every space, between words where it can; continuation rows keep
/// its leading spaces.
fn hard_rows(line: &Line<'static>, width: usize) -> Vec<Line<'static>> {
    let (lead, spans) = strip_lead(line);
    let lead = lead.min(width / 2);
    let rest = Line::from(spans);
    wrap_keeping_spaces(&rest, width - lead)
        .into_iter()
        .map(|row| pad(lead, row, line.style))
        .collect()
}

/// The leading spaces of a line (in columns) and its spans without them.
fn strip_lead(line: &Line<'static>) -> (usize, Vec<Span<'static>>) {
    let mut spans = line.spans.clone();
    let mut lead = 0;
    while let Some(first) = spans.first_mut() {
        let trimmed = first.content.trim_start_matches(' ');
        lead += first.content.len() - trimmed.len();
        if trimmed.is_empty() {
            spans.remove(0);
        } else {
            first.content = trimmed.to_string().into();
            break;
        }
    }
    (lead, spans)
}

fn pad(n: usize, mut row: Line<'static>, style: ratatui::style::Style) -> Line<'static> {
    if n > 0 {
        row.spans.insert(0, Span::raw(" ".repeat(n)));
    }
    row.style(style)
}

/// Word-wraps what follows the first `prefix` spans of `line` beside them; a pane too
/// narrow for the prefix and some text wraps the whole line by words.
fn hanging_rows(line: &Line<'static>, width: usize, prefix: usize) -> Vec<Line<'static>> {
    let split = prefix.min(line.spans.len());
    let (head, body) = line.spans.split_at(split);
    let head_width: usize = head.iter().map(Span::width).sum();
    if head_width + 8 > width {
        return word_rows(line, width, 0);
    }
    wrap_spans(body, width - head_width)
        .into_iter()
        .enumerate()
        .map(|(i, mut row)| {
            if i == 0 {
                row.spans.splice(0..0, head.iter().cloned());
                row.style(line.style)
            } else {
                pad(head_width, row, line.style)
            }
        })
        .collect()
}

/// Word-wraps `line`: its leading spaces start every row, continuation rows start at
/// least `indent` columns in.
fn word_rows(line: &Line<'static>, width: usize, indent: usize) -> Vec<Line<'static>> {
    let (lead, spans) = strip_lead(line);
    let lead = lead.min(width / 2);
    let cont = indent.max(lead).min(width / 2);
    let mut rows = wrap_spans(&spans, width - lead).into_iter();
    let first = rows.next();
    // The rest is wrapped again, narrower, to make room for the indent.
    let mut rest: Vec<Span<'static>> = Vec::new();
    for row in rows {
        if !rest.is_empty() {
            rest.push(Span::raw(" "));
        }
        rest.extend(row.spans);
    }
    first
        .into_iter()
        .map(|row| pad(lead, row, line.style))
        .chain(
            wrap_spans(&rest, width - cont)
                .into_iter()
                .map(|row| pad(cont, row, line.style)),
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_wrap_indents_continuations() {
        let line = DocLine::word(Line::from("RED 10:00 alpha beta gamma delta"), 10);
        let rows: Vec<String> = line.rows(20).iter().map(ToString::to_string).collect();
        assert_eq!(
            rows,
            ["RED 10:00 alpha beta", "          gamma", "          delta"]
        );
        assert_eq!(line.height(20), 3);
        assert_eq!(line.height(80), 1);
    }

    #[test]
    fn leading_spaces_start_every_row() {
        let line = DocLine::word(
            Line::from(vec![Span::raw("  "), Span::raw("alpha beta gamma delta")]),
            2,
        );
        let rows: Vec<String> = line.rows(12).iter().map(ToString::to_string).collect();
        assert_eq!(rows, ["  alpha beta", "  gamma", "  delta"]);
    }

    #[test]
    fn a_hanging_prefix_keeps_its_columns() {
        let line = DocLine::hanging(
            Line::from(vec![
                Span::raw("17:35 j3   "),
                Span::raw("██  "),
                Span::raw("alpha beta gamma"),
            ]),
            2,
        );
        let rows: Vec<String> = line.rows(26).iter().map(ToString::to_string).collect();
        assert_eq!(rows, ["17:35 j3   ██  alpha beta", "               gamma"]);
        // Too narrow for the prefix: words, as any line.
        assert_eq!(line.rows(12)[0].to_string(), "17:35 j3 ██");
    }

    #[test]
    fn hard_wrap_keeps_spaces() {
        let line = DocLine::hard(Line::from("    indented code"));
        let rows: Vec<String> = line.rows(8).iter().map(ToString::to_string).collect();
        assert_eq!(rows, ["    inde", "    nted", "     cod", "    e"]);
        assert_eq!(DocLine::hard(Line::default()).rows(5).len(), 1);
    }
}
