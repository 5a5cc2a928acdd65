//! The Events view's rows on screen: each event wrapped to the pane's width under its
//! summary's start (its time and kind stay in their columns), as many as fit.

use ratatui::text::Line;

use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::Viewport;

/// The screen rows of one event's row: all spans but the last (time, kind) are the prefix.
pub fn wrapped(row: &Line<'static>, width: u16) -> Vec<Line<'static>> {
    let prefix = u16::try_from(row.spans.len().saturating_sub(1)).unwrap_or(0);
    DocLine::hanging(row.clone(), prefix).rows(width)
}

/// How many of `rows`, from the first, show whole in `vp` (at least one, if any).
pub fn whole(rows: &[(u64, Line<'static>)], vp: Viewport) -> usize {
    let mut used = 0;
    for (i, (_, row)) in rows.iter().enumerate() {
        used += wrapped(row, vp.width).len();
        if used > usize::from(vp.height) {
            return i.max(1);
        }
    }
    rows.len()
}

/// Keeps the rows on screen: from the first while the screen has room (the last may be
/// cut), or, following the end, the last ones that show whole. Returns the screen's lines.
pub fn fit(rows: &mut Vec<(u64, Line<'static>)>, vp: Viewport, end: bool) -> Vec<Line<'static>> {
    let height = usize::from(vp.height);
    if end {
        rows.reverse();
        let keep = whole(rows, vp);
        rows.truncate(keep);
        rows.reverse();
    }
    let mut lines = Vec::new();
    let mut kept = 0;
    for (_, row) in rows.iter() {
        if lines.len() >= height {
            break;
        }
        lines.extend(wrapped(row, vp.width));
        kept += 1;
    }
    rows.truncate(kept);
    lines.truncate(height);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::text::Span;

    fn row(n: u64, text: &str) -> (u64, Line<'static>) {
        let line = Line::from(vec![
            Span::raw("10:00"),
            Span::raw(" "),
            Span::raw("error"),
            Span::raw(" "),
            Span::raw(text.to_string()),
        ]);
        (n, line)
    }

    fn text(lines: &[Line<'static>]) -> Vec<String> {
        lines.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_long_row_wraps_under_its_text_and_fewer_rows_fit() {
        let vp = Viewport {
            width: 24,
            height: 4,
        };
        let mut rows = vec![
            row(3, "connection refused at http://x/v1"),
            row(2, "short"),
            row(1, "also short"),
            row(0, "never shown"),
        ];
        let lines = fit(&mut rows, vp, false);
        assert_eq!(
            text(&lines),
            [
                "10:00 error connection",
                "            refused at",
                "            http://x/v1",
                "10:00 error short",
            ]
        );
        assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), [3, 2]);
    }

    #[test]
    fn following_the_end_keeps_the_last_rows_whole() {
        let vp = Viewport {
            width: 24,
            height: 3,
        };
        let mut rows = vec![
            row(0, "old"),
            row(1, "short"),
            row(2, "connection refused at http://x/v1"),
        ];
        let lines = fit(&mut rows, vp, true);
        assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), [2]);
        assert_eq!(lines.len(), 3);
        assert_eq!(whole(&rows, vp), 1);
    }
}
