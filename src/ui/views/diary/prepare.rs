//! The diary, prepared: markdown rendered to styled lines at the pane's width.

use crate::text::markdown::{MarkdownStyles, render};
use crate::ui::doc::DocLine;
use crate::ui::theme::Theme;

/// The markdown styles, from the theme's roles.
pub fn styles(theme: &Theme) -> MarkdownStyles {
    MarkdownStyles {
        heading: [theme.md_heading, theme.md_heading, theme.md_strong],
        emphasis: theme.md_emphasis,
        strong: theme.md_strong,
        code: theme.md_code,
        list_marker: theme.accent,
        quote: theme.md_quote,
        rule: theme.border,
        link: theme.md_link,
        link_url: theme.muted,
        text: theme.base,
        code_theme: theme.syntax(),
    }
}

/// The diary's lines at `width` (already fitted, so they never wrap again).
pub fn prepare(markdown: &str, theme: &Theme, width: u16) -> Vec<DocLine> {
    render(markdown, &styles(theme), width)
        .into_iter()
        .map(DocLine::hard)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_and_lists_render_and_escapes_are_inert() {
        let lines = prepare(
            "# Diary\n\n## 2026-11-22T17:35 - Deep Sleep\n\n- one\n- *two* \u{1b}[2J\n",
            &Theme::default(),
            40,
        );
        let text: Vec<String> = lines.iter().map(|l| l.line.to_string()).collect();
        assert!(text.iter().any(|l| l.contains("Deep Sleep")), "{text:?}");
        assert!(text.iter().any(|l| l.contains("one")));
        assert!(text.iter().all(|l| !l.contains('\u{1b}')));
        assert!(text.iter().any(|l| l.contains("^[")));
        assert!(lines.iter().all(|l| l.line.width() <= 40));
    }
}
