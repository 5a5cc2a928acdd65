//! The help overlay's document: every action in help order, grouped, from the same list
//! as the hint bar; of the views, those the selected creature offers (its genome's).

use ratatui::text::{Line, Span};

use crate::ui::doc::DocLine;
use crate::ui::focus::Mode;
use crate::ui::input::action::{Action, Group};
use crate::ui::input::hints::{HintContext, actions};
use crate::ui::input::keymap::Keymap;
use crate::ui::theme::Theme;

/// The overlay's lines; actions that do nothing in `ctx` are dimmed.
pub fn document(keymap: &Keymap, ctx: &HintContext, theme: &Theme) -> Vec<DocLine> {
    let all = actions(keymap, ctx);
    let width = all
        .iter()
        .map(|c| c.keys.chars().count())
        .max()
        .unwrap_or(0)
        + 2;
    let mut out = Vec::new();
    if ctx.read_only {
        out.push(DocLine::hard(Line::styled(
            "Read-only: what writes or acts is refused (dimmed below)",
            theme.error,
        )));
        out.push(DocLine::hard(Line::default()));
    }
    let mut group = None;
    // Views another genome offers are not this creature's keys.
    let offered = |a: Action| !ctx.creature || !a.shows_a_view() || a.view_in(ctx.views).is_some();
    // The help's own keys are in its hint bar (and `q` is said with quit).
    let own_key = |a: Action| a.modes() == [Mode::Help];
    for c in all
        .into_iter()
        .filter(|c| offered(c.action) && !own_key(c.action))
    {
        if group != Some(c.group) {
            if group.is_some() {
                out.push(DocLine::hard(Line::default()));
            }
            out.push(DocLine::hard(Line::styled(c.group.title(), theme.title)));
            group = Some(c.group);
        }
        let keys = if c.keys.is_empty() {
            "(unbound)".to_string()
        } else {
            c.keys
        };
        let style = if c.enabled || c.group == Group::Prompt {
            theme.base
        } else {
            theme.muted
        };
        out.push(DocLine::word(
            Line::from(vec![
                Span::styled(format!("  {keys:<width$}"), theme.key),
                Span::styled(c.description, style),
            ]),
            (width + 2) as u16,
        ));
    }
    out
}
