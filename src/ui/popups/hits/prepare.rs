//! A search hit as a row of the hits list: the creature (a garden search), where the
//! hit is (its view and line), and the line's preview with the match marked. The preview
//! is creature text: each part is made inert here.

use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

use crate::search::{Hit, SearchSource};
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;

/// Columns of the "where" column (`long-term:1234`, padded).
const WHERE_WIDTH: usize = 16;

/// Where a source's hits are shown, as the list names it.
fn place(source: SearchSource) -> &'static str {
    match source {
        SearchSource::Conversation => "recall",
        SearchSource::Observations => "observations",
        SearchSource::Dreams => "dreams",
        SearchSource::Diary | SearchSource::DiaryLog => "diary",
        SearchSource::Journal => "journal",
        SearchSource::Semantic => "memory",
        SearchSource::Entities => "entities",
        SearchSource::Reflections => "reflections",
        SearchSource::Soul => "soul",
        SearchSource::LongTerm => "long-term",
        SearchSource::Summaries => "summaries",
        SearchSource::Dialogues => "dialogues",
    }
}

/// The row of `hit`; `creature` (its inert name, padded to `name_width` columns) leads
/// the row of a garden search, its first span.
pub fn row(hit: &Hit, creature: Option<&str>, name_width: usize, theme: &Theme) -> Line<'static> {
    let mut spans = Vec::with_capacity(5);
    if let Some(name) = creature {
        spans.push(Span::styled(name_cell(name, name_width), theme.accent));
    }
    let at = format!("{}:{}", place(hit.source), hit.line + 1);
    spans.push(Span::styled(format!("{at:<WHERE_WIDTH$} "), theme.muted));
    let text = &hit.preview;
    let range = &hit.preview_match;
    match (
        text.get(..range.start),
        text.get(range.clone()),
        text.get(range.end..),
    ) {
        (Some(before), Some(matched), Some(after)) if !matched.is_empty() => {
            spans.push(Span::styled(inert(before), theme.base));
            spans.push(Span::styled(inert(matched), theme.search_hit));
            spans.push(Span::styled(inert(after), theme.base));
        }
        _ => spans.push(Span::styled(inert(text), theme.base)),
    }
    Line::from(spans)
}

/// The creature column's cell of a row: `name` padded to `name_width` columns, and the gap.
pub fn name_cell(name: &str, name_width: usize) -> String {
    let pad = name_width.saturating_sub(name.width());
    format!("{name}{}  ", " ".repeat(pad))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(preview: &str, preview_match: std::ops::Range<usize>) -> Hit {
        Hit {
            source: SearchSource::LongTerm,
            file: 0,
            line: 41,
            byte_offset: 0,
            preview: preview.into(),
            preview_match,
        }
    }

    fn text(line: &Line) -> Vec<String> {
        line.spans.iter().map(|s| s.content.to_string()).collect()
    }

    #[test]
    fn the_match_is_its_own_span_and_control_characters_are_inert() {
        let theme = Theme::default();
        let row = row(&hit("a \x1b[2Jquokka here", 6..12), Some("pip"), 5, &theme);
        let parts = text(&row);
        assert_eq!(parts[0], "pip    ");
        assert_eq!(parts[1], format!("{:<16} ", "long-term:42"));
        assert!(!parts[2].contains('\x1b'), "{parts:?}");
        assert_eq!(parts[3], "quokka");
        assert_eq!(row.spans[3].style, theme.search_hit);
        assert_eq!(parts[4], " here");
    }

    #[test]
    fn a_range_off_the_preview_marks_nothing() {
        let theme = Theme::default();
        let row = row(&hit("é", 1..2), None, 0, &theme);
        assert_eq!(text(&row)[1], "é");
        assert_eq!(row.spans.len(), 2);
    }
}
