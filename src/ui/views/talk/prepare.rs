//! The Talk view's document: the garden's messages newest first, one row each
//! (`11-25 12:03:07  sprout → fern  text`: the date too, a garden talks across days), the
//! selected creature's marked and its name bright, a message that reached no creature
//! said so.

use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

use crate::memory::talk::Said;
use crate::text::wrap::truncate;
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;

/// Names wider than this are cut in the sender and recipient columns.
const NAME_MAX: usize = 16;

pub fn document(said: &[Said], selected: &str, theme: &Theme) -> Vec<DocLine> {
    let cut = |s: &str| truncate(&inert(s), NAME_MAX);
    let rows: Vec<(String, String)> = said.iter().map(|s| (cut(&s.from), cut(&s.to))).collect();
    let from_w = rows.iter().map(|(f, _)| f.width()).max().unwrap_or(0);
    let to_w = rows.iter().map(|(_, t)| t.width()).max().unwrap_or(0);
    let name_style = |name: &str| {
        if name == selected {
            theme.accent
        } else {
            theme.title
        }
    };
    said.iter()
        .zip(rows)
        .map(|(s, (from, to))| {
            let mine = s.from == selected || s.to == selected;
            let time = s.t.map_or_else(
                || "--:-- --:--:--".to_string(),
                |t| t.format("%m-%d %H:%M:%S").to_string(),
            );
            let mut spans = vec![
                Span::styled(if mine { "▌" } else { " " }, theme.accent),
                Span::styled(format!("{time}  "), theme.muted),
                Span::styled(format!("{from:>from_w$}"), name_style(&s.from)),
                Span::styled(" → ", theme.muted),
                Span::styled(format!("{to:<to_w$}  "), name_style(&s.to)),
            ];
            if s.undelivered() {
                let why = s.delivery.as_deref().map(inert).unwrap_or_default();
                spans.push(Span::styled(format!("({why}) "), theme.error));
            }
            let text_style = if mine { theme.base } else { theme.muted };
            spans.push(Span::styled(inert(&s.text), text_style));
            DocLine::hanging(Line::from(spans), 5)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(from: &str, to: &str, text: &str, delivery: Option<&str>) -> Said {
        Said {
            t: "2026-11-25T12:03:07Z".parse().ok(),
            from: from.into(),
            to: to.into(),
            text: text.into(),
            delivery: delivery.map(Into::into),
        }
    }

    fn text(line: &DocLine) -> String {
        line.line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn rows_align_mark_the_selected_and_make_text_inert() {
        let theme = Theme::built_in("dark").unwrap();
        let doc = document(
            &[
                said("sprout", "fern", "hi\u{1b}[31m there", Some("delivered")),
                said("moss", "ghost", "boo", Some("unknown recipient")),
            ],
            "fern",
            &theme,
        );
        assert_eq!(doc.len(), 2);
        let first = text(&doc[0]);
        assert!(
            first.starts_with("▌11-25 12:03:07  sprout → fern   hi"),
            "{first}"
        );
        assert!(!first.contains('\u{1b}'), "{first:?}");
        assert_eq!(
            text(&doc[1]),
            " 11-25 12:03:07    moss → ghost  (unknown recipient) boo"
        );
        assert_eq!(doc[0].line.spans[4].style, theme.accent, "fern is selected");
        assert_eq!(doc[0].line.spans[2].style, theme.title);
        assert_ne!(theme.accent, theme.title);
    }
}
