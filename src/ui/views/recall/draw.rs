//! Drawing the Recall view: the conversation log around the reader's position, search
//! matches marked; and what its title says.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{Follow, RecallView};
use crate::ui::draw::DrawContext;
use crate::ui::input::action::Action;
use crate::ui::layout::viewport;

impl RecallView {
    /// Draws the rows around the reader's position, `query`'s matches marked (a search's
    /// words, where it found some).
    pub fn draw(&self, frame: &mut Frame, area: Rect, query: Option<&str>, cx: &DrawContext) {
        let theme = cx.theme;
        if self.total == 0 {
            frame.render_widget(
                Paragraph::new(Line::styled("No conversation yet.", theme.muted)),
                area,
            );
            return;
        }
        let rows: Vec<Line> = self
            .window(viewport(area))
            .into_iter()
            .map(|(line, row)| {
                let style = if Some(line) == self.mark {
                    theme.search_current
                } else {
                    theme.search_hit
                };
                match query {
                    Some(q) => mark_matches(row, q, style),
                    None => row,
                }
            })
            .collect();
        frame.render_widget(Paragraph::new(rows), area);
    }

    /// The title's right-hand part: following, or where the reader is (`counting`: the
    /// log's lines are still being counted).
    pub fn status(&self, counting: bool, cx: &DrawContext) -> Vec<Span<'static>> {
        let theme = cx.theme;
        if counting {
            return vec![Span::styled(
                " counting the log's lines… (numbers from its tail) ",
                theme.muted,
            )];
        }
        match self.follow {
            Follow::On => vec![Span::styled(" following ", theme.accent)],
            Follow::At(_) => vec![
                Span::styled(
                    format!(" line {}/{} · ", self.top.0 + 1, self.total),
                    theme.muted,
                ),
                Span::styled(
                    cx.keymap
                        .first(Action::Bottom)
                        .map(|k| k.to_string())
                        .unwrap_or_default(),
                    theme.key,
                ),
                Span::styled(" follow ", theme.muted),
            ],
        }
    }
}

/// Restyles every occurrence of `query` in `line`: as the search matches, ASCII letters
/// folded unless the query has a capital (folding ASCII only keeps byte offsets equal).
pub fn mark_matches(line: Line<'static>, query: &str, style: Style) -> Line<'static> {
    let fold = !query.chars().any(char::is_uppercase);
    let needle = if fold {
        query.to_ascii_lowercase()
    } else {
        query.to_string()
    };
    if needle.is_empty() {
        return line;
    }
    let mut out = Vec::with_capacity(line.spans.len());
    for span in line.spans {
        let text = span.content.to_string();
        let lower = if fold {
            text.to_ascii_lowercase()
        } else {
            text.clone()
        };
        if !lower.contains(&needle) {
            out.push(span);
            continue;
        }
        let mut at = 0;
        for (start, _) in lower.match_indices(&needle) {
            if start > at {
                out.push(Span::styled(text[at..start].to_string(), span.style));
            }
            let end = start + needle.len();
            out.push(Span::styled(
                text[start..end].to_string(),
                span.style.patch(style),
            ));
            at = end;
        }
        if at < text.len() {
            out.push(Span::styled(text[at..].to_string(), span.style));
        }
    }
    Line::from(out).style(line.style)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Modifier;

    #[test]
    fn matches_are_marked_case_insensitively() {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let line = mark_matches(Line::from("Weekly mean, weekly, ẞİ weekly"), "weekly", bold);
        let marked: Vec<&str> = line
            .spans
            .iter()
            .filter(|s| s.style == bold)
            .map(|s| s.content.as_ref())
            .collect();
        assert_eq!(marked, ["Weekly", "weekly", "weekly"]);
        assert_eq!(line.to_string(), "Weekly mean, weekly, ẞİ weekly");
        let exact = mark_matches(Line::from("Weekly weekly"), "Weekly", bold);
        assert_eq!(exact.spans.iter().filter(|s| s.style == bold).count(), 1);
    }
}
