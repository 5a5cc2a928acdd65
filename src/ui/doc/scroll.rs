//! Scrolling a document: the top line shown, or "the end" (follow the live end).

use ratatui::text::Line;

use super::DocLine;

/// Where a scrolled document is anchored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Anchor {
    /// This line (index into the document) is the top row.
    Line(usize),
    /// The last line is on the bottom row; lines appended later stay in view.
    #[default]
    End,
}

/// The size of the text area a document is shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Viewport {
    pub width: u16,
    pub height: u16,
}

/// One scrolling step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Up(usize),
    Down(usize),
    PageUp,
    PageDown,
    Top,
    Bottom,
}

/// Where a list's selection at `at` of `n` rows moves by `step` (the top row first; a
/// page is the viewport's height less one).
pub fn list_step(at: usize, n: usize, vp: Viewport, step: Step) -> usize {
    let page = usize::from(vp.height.max(2) - 1);
    let last = n.saturating_sub(1);
    match step {
        Step::Up(k) => at.saturating_sub(k),
        Step::Down(k) => (at + k).min(last),
        Step::PageUp => at.saturating_sub(page),
        Step::PageDown => (at + page).min(last),
        Step::Top => 0,
        Step::Bottom => last,
    }
}

/// The top line that shows the end of `lines` on the last row.
pub fn end_top(lines: &[DocLine], vp: Viewport) -> usize {
    let mut rows = 0;
    for (i, line) in lines.iter().enumerate().rev() {
        rows += line.height(vp.width);
        if rows > usize::from(vp.height) {
            return (i + 1).min(lines.len().saturating_sub(1));
        }
    }
    0
}

/// The top line for `anchor`, never past the point where the end is on the last row.
pub fn top(lines: &[DocLine], anchor: Anchor, vp: Viewport) -> usize {
    let end = end_top(lines, vp);
    match anchor {
        Anchor::Line(t) => t.min(end),
        Anchor::End => end,
    }
}

/// The rows on screen.
pub fn window(lines: &[DocLine], anchor: Anchor, vp: Viewport) -> Vec<Line<'static>> {
    let height = usize::from(vp.height);
    let mut rows = Vec::with_capacity(height);
    for line in &lines[top(lines, anchor, vp).min(lines.len())..] {
        if rows.len() >= height {
            break;
        }
        rows.extend(line.rows(vp.width).into_iter().take(height - rows.len()));
    }
    rows
}

/// The anchor after `step`. Only [`Step::Bottom`] anchors at the end (follows).
pub fn scroll(lines: &[DocLine], anchor: Anchor, vp: Viewport, step: Step) -> Anchor {
    let end = end_top(lines, vp);
    let at = top(lines, anchor, vp);
    let page = usize::from(vp.height).saturating_sub(1).max(1);
    match step {
        Step::Up(n) => Anchor::Line(at.saturating_sub(n)),
        Step::Down(n) => Anchor::Line((at + n).min(end)),
        Step::Top => Anchor::Line(0),
        Step::Bottom => Anchor::End,
        Step::PageDown => {
            let mut rows = 0;
            let mut i = at;
            while i < end && rows < page {
                rows += lines[i].height(vp.width);
                i += 1;
            }
            Anchor::Line(i.min(end))
        }
        Step::PageUp => {
            let mut rows = 0;
            let mut i = at;
            while i > 0 && rows < page {
                i -= 1;
                rows += lines[i].height(vp.width);
            }
            Anchor::Line(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(n: usize) -> Vec<DocLine> {
        (0..n)
            .map(|i| DocLine::hard(Line::from(format!("line {i}"))))
            .collect()
    }

    const VP: Viewport = Viewport {
        width: 20,
        height: 4,
    };

    fn shown(lines: &[DocLine], anchor: Anchor) -> Vec<String> {
        window(lines, anchor, VP)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn end_shows_the_last_lines_and_follows_appends() {
        let mut lines = doc(10);
        assert_eq!(
            shown(&lines, Anchor::End),
            ["line 6", "line 7", "line 8", "line 9"]
        );
        lines.push(DocLine::hard(Line::from("line 10")));
        assert_eq!(shown(&lines, Anchor::End)[3], "line 10");
        assert_eq!(shown(&doc(2), Anchor::End), ["line 0", "line 1"]);
    }

    #[test]
    fn steps_clamp_and_only_bottom_follows() {
        let lines = doc(10);
        let up = scroll(&lines, Anchor::End, VP, Step::Up(1));
        assert_eq!(up, Anchor::Line(5));
        assert_eq!(scroll(&lines, up, VP, Step::Down(9)), Anchor::Line(6));
        assert_eq!(
            scroll(&lines, Anchor::Line(0), VP, Step::PageDown),
            Anchor::Line(3)
        );
        assert_eq!(
            scroll(&lines, Anchor::Line(5), VP, Step::PageUp),
            Anchor::Line(2)
        );
        assert_eq!(
            scroll(&lines, Anchor::Line(5), VP, Step::Top),
            Anchor::Line(0)
        );
        assert_eq!(
            scroll(&lines, Anchor::Line(5), VP, Step::Bottom),
            Anchor::End
        );
        assert_eq!(top(&lines, Anchor::Line(99), VP), 6);
    }

    #[test]
    fn wrapped_lines_count_their_rows() {
        let mut lines = doc(3);
        lines.push(DocLine::hard(Line::from("x".repeat(50))));
        // The long line takes three rows: with one more line it fills the view.
        assert_eq!(end_top(&lines, VP), 2);
        assert_eq!(window(&lines, Anchor::End, VP).len(), 4);
        assert!(window(&[], Anchor::End, VP).is_empty());
    }
}
