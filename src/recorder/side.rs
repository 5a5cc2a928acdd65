//! Two versions of a file side by side, as `diff -y` shows them: the lines both have in
//! one row, a line one rewrote beside what the other has there, a line only one has
//! alone on its side. The compare view and `dreamwatch diff` lay out these rows.

use similar::{Algorithm, DiffOp, capture_diff_slices};
use unicode_width::UnicodeWidthChar;

/// How a row's two sides differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// Both have this line.
    Same,
    /// Each has a line of its own here.
    Changed,
    /// Only the left (`a`) has it.
    OnlyA,
    /// Only the right (`b`) has it.
    OnlyB,
}

impl Mark {
    /// The gutter `diff -y` prints between the columns.
    pub fn gutter(self) -> char {
        match self {
            Mark::Same => ' ',
            Mark::Changed => '|',
            Mark::OnlyA => '<',
            Mark::OnlyB => '>',
        }
    }
}

/// One row: the left line, the right line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub a: Option<String>,
    pub b: Option<String>,
    pub mark: Mark,
}

/// The rows of `a` beside `b`, in order.
pub fn rows(a: &[String], b: &[String]) -> Vec<Row> {
    let mut out = Vec::new();
    let row = |a: Option<&String>, b: Option<&String>, mark| Row {
        a: a.cloned(),
        b: b.cloned(),
        mark,
    };
    for op in capture_diff_slices(Algorithm::Myers, a, b) {
        match op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => {
                for i in 0..len {
                    out.push(row(a.get(old_index + i), b.get(new_index + i), Mark::Same));
                }
            }
            DiffOp::Delete {
                old_index, old_len, ..
            } => {
                for i in old_index..old_index + old_len {
                    out.push(row(a.get(i), None, Mark::OnlyA));
                }
            }
            DiffOp::Insert {
                new_index, new_len, ..
            } => {
                for i in new_index..new_index + new_len {
                    out.push(row(None, b.get(i), Mark::OnlyB));
                }
            }
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                for i in 0..old_len.max(new_len) {
                    let (l, r) = (
                        (i < old_len).then(|| a.get(old_index + i)).flatten(),
                        (i < new_len).then(|| b.get(new_index + i)).flatten(),
                    );
                    let mark = match (l, r) {
                        (Some(_), Some(_)) => Mark::Changed,
                        (Some(_), None) => Mark::OnlyA,
                        _ => Mark::OnlyB,
                    };
                    out.push(row(l, r, mark));
                }
            }
        }
    }
    out
}

/// What is shown of the rows: a row, or how many rows both have were left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    Row(Row),
    Same(usize),
}

/// The rows with runs of lines both have cut to `context` rows either side of a
/// difference (a run shorter than what it would leave out stays).
pub fn around_changes(rows: Vec<Row>, context: usize) -> Vec<Shown> {
    let near: Vec<bool> = (0..rows.len())
        .map(|i| {
            let from = i.saturating_sub(context);
            let to = (i + context + 1).min(rows.len());
            rows[from..to].iter().any(|r| r.mark != Mark::Same)
        })
        .collect();
    let mut out = Vec::new();
    let mut skipped: Vec<Row> = Vec::new();
    let flush = |out: &mut Vec<Shown>, skipped: &mut Vec<Row>| {
        if skipped.len() > 1 {
            out.push(Shown::Same(skipped.len()));
            skipped.clear();
        } else {
            out.extend(skipped.drain(..).map(Shown::Row));
        }
    };
    for (r, near) in rows.into_iter().zip(near) {
        if near {
            flush(&mut out, &mut skipped);
            out.push(Shown::Row(r));
        } else {
            skipped.push(r);
        }
    }
    flush(&mut out, &mut skipped);
    out
}

/// `text` cut or padded to `width` columns (a cut line ends in `…`).
pub fn fit(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    let total: usize = text.chars().map(|c| c.width().unwrap_or(0)).sum();
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if total > width && used + w + 1 > width {
            out.push('…');
            used += 1;
            break;
        }
        if used + w > width {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push_str(&" ".repeat(width.saturating_sub(used)));
    out
}

/// A row as `diff -y` prints it in `width` columns: the left line, the gutter, the right.
pub fn format_row(r: &Row, width: usize) -> String {
    let column = width.saturating_sub(3) / 2;
    let left = fit(r.a.as_deref().unwrap_or(""), column);
    let right = fit(r.b.as_deref().unwrap_or(""), column);
    format!("{left} {} {right}", r.mark.gutter())
        .trim_end()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn rows_pair_rewrites_and_keep_one_sided_lines_alone() {
        let r = rows(&lines("a b c d"), &lines("a x c d e"));
        let marks: Vec<Mark> = r.iter().map(|r| r.mark).collect();
        assert_eq!(
            marks,
            [
                Mark::Same,
                Mark::Changed,
                Mark::Same,
                Mark::Same,
                Mark::OnlyB
            ]
        );
        assert_eq!(r[1].a.as_deref(), Some("b"));
        assert_eq!(r[1].b.as_deref(), Some("x"));
        let r = rows(&lines("a b"), &lines("a"));
        assert_eq!(r[1].mark, Mark::OnlyA);
    }

    #[test]
    fn long_runs_both_have_are_left_out_around_changes() {
        let a = lines("1 2 3 4 5 6 7 8 9");
        let mut b = a.clone();
        b[4] = "x".into();
        let shown = around_changes(rows(&a, &b), 1);
        assert_eq!(shown[0], Shown::Same(3));
        assert!(matches!(&shown[2], Shown::Row(r) if r.mark == Mark::Changed));
        assert_eq!(shown.last(), Some(&Shown::Same(3)));
        assert_eq!(shown.len(), 5);
    }

    #[test]
    fn a_row_is_fitted_to_the_width() {
        let r = Row {
            a: Some("abcdefghij".into()),
            b: Some("xy".into()),
            mark: Mark::Changed,
        };
        assert_eq!(format_row(&r, 17), "abcdef… | xy");
        assert_eq!(fit("ab", 4), "ab  ");
    }
}
