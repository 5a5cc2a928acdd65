//! Word wrapping of styled text to a width in terminal columns.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Wraps styled spans into lines at most `width` columns wide (a width of 0 counts as 1).
///
/// Runs of whitespace collapse to one space and break only there; a word wider than a line
/// is split between characters. A `\n` in a span forces a line break. Adjacent pieces with
/// the same style share one span. Text with no words gives no lines.
pub fn wrap_spans(spans: &[Span<'_>], width: usize) -> Vec<Line<'static>> {
    let mut wrapper = Wrapper::new(width);
    for span in spans {
        for c in span.content.chars() {
            if c == '\n' {
                wrapper.end_word();
                wrapper.new_line();
            } else if c.is_whitespace() {
                wrapper.end_word();
                wrapper.space.get_or_insert(span.style);
            } else {
                wrapper.word.push((c, span.style));
                wrapper.word_width += c.width().unwrap_or(0);
            }
        }
    }
    wrapper.end_word();
    if wrapper.lines.iter().all(Vec::is_empty) && wrapper.lines.len() == 1 {
        return Vec::new();
    }
    wrapper.lines.into_iter().map(Line::from).collect()
}

/// Splits one line into pieces at most `width` columns wide (0 counts as 1), between
/// characters, keeping styles. An empty line stays one empty line.
pub fn hard_wrap(line: &Line<'_>, width: usize) -> Vec<Line<'static>> {
    let mut wrapper = Wrapper::new(width);
    for span in &line.spans {
        for c in span.content.chars() {
            let w = c.width().unwrap_or(0);
            if wrapper.line_width > 0 && wrapper.line_width + w > wrapper.width {
                wrapper.new_line();
            }
            wrapper.push(c, span.style);
        }
    }
    wrapper.lines.into_iter().map(Line::from).collect()
}

/// Splits one line into pieces at most `width` columns wide (0 counts as 1), keeping every
/// character and style: after the last space that fits, when the piece has one after some
/// text, else between characters. For text whose spacing matters (code, tool output).
pub fn wrap_keeping_spaces(line: &Line<'_>, width: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    let chars: Vec<(char, Style)> = line
        .spans
        .iter()
        .flat_map(|s| s.content.chars().map(move |c| (c, s.style)))
        .collect();
    let mut rows = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        let (mut end, mut used, mut text, mut space) = (start, 0, false, None);
        while let Some(&(c, _)) = chars.get(end) {
            let w = c.width().unwrap_or(0);
            if end > start && used + w > width {
                break;
            }
            used += w;
            if c != ' ' {
                text = true;
            } else if text {
                space = Some(end);
            }
            end += 1;
        }
        if let (Some(&(next, _)), Some(at)) = (chars.get(end), space)
            && next != ' '
        {
            end = at + 1;
        }
        rows.push(styled(&chars[start..end]));
        start = end;
    }
    if rows.is_empty() {
        rows.push(Line::default());
    }
    rows
}

/// Characters with their styles as a line, one span per run of a style.
fn styled(chars: &[(char, Style)]) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    for &(c, style) in chars {
        match spans.last_mut() {
            Some(last) if last.style == style => last.content.to_mut().push(c),
            _ => spans.push(Span::styled(c.to_string(), style)),
        }
    }
    Line::from(spans)
}

struct Wrapper {
    width: usize,
    lines: Vec<Vec<Span<'static>>>,
    line_width: usize,
    word: Vec<(char, Style)>,
    word_width: usize,
    /// The style of the whitespace seen since the last word, if any.
    space: Option<Style>,
}

impl Wrapper {
    fn new(width: usize) -> Self {
        Wrapper {
            width: width.max(1),
            lines: vec![Vec::new()],
            line_width: 0,
            word: Vec::new(),
            word_width: 0,
            space: None,
        }
    }

    fn new_line(&mut self) {
        self.lines.push(Vec::new());
        self.line_width = 0;
        self.space = None;
    }

    fn end_word(&mut self) {
        if self.word.is_empty() {
            return;
        }
        if self.line_width > 0 {
            if self.line_width + 1 + self.word_width > self.width {
                self.new_line();
            } else if let Some(style) = self.space {
                self.push(' ', style);
            }
        }
        self.space = None;
        for (c, style) in std::mem::take(&mut self.word) {
            let w = c.width().unwrap_or(0);
            if self.line_width > 0 && self.line_width + w > self.width {
                self.new_line();
            }
            self.push(c, style);
        }
        self.word_width = 0;
    }

    fn push(&mut self, c: char, style: Style) {
        self.line_width += c.width().unwrap_or(0);
        let Some(line) = self.lines.last_mut() else {
            return;
        };
        match line.last_mut() {
            Some(last) if last.style == style => last.content.to_mut().push(c),
            _ => line.push(Span::styled(c.to_string(), style)),
        }
    }
}

/// Cuts `s` to `width` columns, with `…` when cut.
pub fn truncate(s: &str, width: usize) -> String {
    if s.width() <= width {
        return s.to_string();
    }
    let mut out = String::new();
    let mut w = 0;
    for c in s.chars() {
        let cw = UnicodeWidthChar::width(c).unwrap_or(0);
        if w + cw + 1 > width {
            break;
        }
        out.push(c);
        w += cw;
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation() {
        assert_eq!(truncate("ember", 10), "ember");
        assert_eq!(truncate("a-very-long-name", 6), "a-ver…");
    }

    #[test]
    fn wrap_keeping_spaces_breaks_after_a_space_and_keeps_every_character() {
        let rows = |text: &str, width| -> Vec<String> {
            wrap_keeping_spaces(&Line::from(text.to_string()), width)
                .iter()
                .map(ToString::to_string)
                .collect()
        };
        assert_eq!(rows("the lazy dog", 6), ["the ", "lazy ", "dog"]);
        assert_eq!(rows("a  b   c", 4), ["a  b", "   c"]);
        assert_eq!(rows("ab cd", 4), ["ab ", "cd"]);
        // No space after text in the piece: split between characters.
        assert_eq!(rows("  abcdefgh", 6), ["  abcd", "efgh"]);
        assert_eq!(rows("x = [1, 2]", 80), ["x = [1, 2]"]);
        assert_eq!(rows("", 5), [""]);
    }
    use ratatui::style::{Modifier, Stylize};

    fn texts(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn wraps_at_word_boundaries() {
        let lines = wrap_spans(&[Span::raw("the quick brown fox jumps")], 10);
        assert_eq!(texts(&lines), ["the quick", "brown fox", "jumps"]);
    }

    #[test]
    fn collapses_whitespace_and_drops_leading_space() {
        let lines = wrap_spans(&[Span::raw("  a   b \t c  ")], 80);
        assert_eq!(texts(&lines), ["a b c"]);
    }

    #[test]
    fn splits_long_words() {
        let lines = wrap_spans(&[Span::raw("abcdefghij xy")], 4);
        assert_eq!(texts(&lines), ["abcd", "efgh", "ij", "xy"]);
    }

    #[test]
    fn wide_characters_count_two_columns() {
        let lines = wrap_spans(&[Span::raw("界界界")], 4);
        assert_eq!(texts(&lines), ["界界", "界"]);
    }

    #[test]
    fn styles_are_kept_and_merged() {
        let spans = [
            Span::raw("plain "),
            "bold".bold(),
            "er".bold(),
            Span::raw(" tail"),
        ];
        let lines = wrap_spans(&spans, 80);
        assert_eq!(lines.len(), 1);
        let spans = &lines[0].spans;
        assert_eq!(spans.len(), 3);
        assert_eq!(spans[1].content, "bolder");
        assert!(spans[1].style.add_modifier.contains(Modifier::BOLD));
        assert_eq!(spans[2].content, " tail");
    }

    #[test]
    fn newline_forces_a_break() {
        let lines = wrap_spans(&[Span::raw("a\nb\n\nc")], 80);
        assert_eq!(texts(&lines), ["a", "b", "", "c"]);
    }

    #[test]
    fn hard_wrap_splits_anywhere() {
        let line = Line::from(vec![Span::raw("abc"), "defg".bold()]);
        let lines = hard_wrap(&line, 3);
        assert_eq!(texts(&lines), ["abc", "def", "g"]);
        assert!(
            lines[2].spans[0]
                .style
                .add_modifier
                .contains(Modifier::BOLD)
        );
        assert_eq!(texts(&hard_wrap(&Line::default(), 3)), [""]);
        assert_eq!(texts(&hard_wrap(&Line::from("a  b"), 80)), ["a  b"]);
    }

    #[test]
    fn nothing_gives_no_lines() {
        assert!(wrap_spans(&[Span::raw("   ")], 10).is_empty());
        assert!(wrap_spans(&[], 10).is_empty());
    }

    #[test]
    fn no_line_is_wider_than_asked() {
        let text = "lorem ipsum dolor sit amet, consectetur adipiscing elit 界界 sed do";
        for width in 1..30 {
            for line in wrap_spans(&[Span::raw(text)], width) {
                assert!(line.width() <= width.max(2), "{width}: {line}");
            }
        }
    }
}
