//! The side panel of a dreamer: its priorities, rules and briefing.

use ratatui::text::{Line, Span};

use crate::memory::creature::Creature;
use crate::memory::documents::RuleKind;
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;
use crate::ui::views::side::prepare::{plain, title};

/// A dreamer's priorities, rules and briefing.
pub(super) fn side(out: &mut Vec<DocLine>, c: &Creature, theme: &Theme) {
    let priorities = c.priorities();
    title(
        out,
        theme,
        "Priorities",
        priorities.updated.as_deref().map(inert),
    );
    if priorities.items.is_empty() {
        out.push(DocLine::word(
            Line::styled("none yet (set at deep sleep)", theme.muted),
            0,
        ));
    }
    for (i, item) in priorities.items.iter().enumerate() {
        out.push(DocLine::word(
            Line::from(vec![
                Span::styled(format!("{}. ", i + 1), theme.accent),
                Span::styled(inert(item), theme.base),
            ]),
            3,
        ));
    }

    title(out, theme, "Rules", None);
    if c.rules().is_empty() {
        out.push(DocLine::word(Line::styled("none yet", theme.muted), 0));
    }
    for rule in c.rules() {
        let (tag, style) = match rule.kind {
            RuleKind::Always => ("ALWAYS ", theme.grn),
            RuleKind::Never => ("NEVER ", theme.red),
            RuleKind::Other => ("", theme.muted),
        };
        out.push(DocLine::word(
            Line::from(vec![
                Span::styled(tag, style),
                Span::styled(inert(&rule.text), theme.base),
            ]),
            2,
        ));
    }

    if let Some(briefing) = c.briefing().filter(|b| !b.trim().is_empty()) {
        title(out, theme, "Briefing", None);
        // Its own `# Briefing` title says what the panel's heading already does.
        let body: String = briefing
            .lines()
            .filter(|l| !l.trim().eq_ignore_ascii_case("# briefing"))
            .collect::<Vec<_>>()
            .join("\n");
        plain(out, &body, theme.base);
    }
}
