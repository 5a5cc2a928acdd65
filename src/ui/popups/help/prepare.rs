//! The help overlay's document: every action in help order, grouped, from the same list
//! as the hint bar; of the views, those the selected creature offers (its genome's).

use ratatui::text::{Line, Span};

use crate::memory::status::Status;
use crate::ui::doc::DocLine;
use crate::ui::draw::fmt::status_glyph;
use crate::ui::focus::Mode;
use crate::ui::genome::installed;
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
    legend(&mut out, theme);
    out
}

/// What the garden list's marks mean: the statuses, the marks beside a name, and each
/// installed genome's column of figures.
fn legend(out: &mut Vec<DocLine>, theme: &Theme) {
    let row = |out: &mut Vec<DocLine>, spans: Vec<Span<'static>>| {
        let mut line = vec![Span::raw("  ")];
        line.extend(spans);
        out.push(DocLine::word(Line::from(line), 4));
    };
    out.push(DocLine::hard(Line::default()));
    out.push(DocLine::hard(Line::styled("The garden list", theme.title)));
    let statuses = [
        Status::Awake,
        Status::Napping { until: None },
        Status::Asleep { until: None },
        Status::Dreaming,
        Status::DeepSleep { until: None },
        Status::Paused,
        Status::Stopped,
        Status::Unknown,
    ];
    let mut spans = Vec::new();
    for status in &statuses {
        let (glyph, style) = status_glyph(status, theme);
        spans.push(Span::styled(glyph, style));
        spans.push(Span::styled(format!(" {}  ", status.label()), theme.base));
    }
    row(out, spans);
    for (mark, style, meaning) in [
        (
            "⚠",
            theme.error,
            "failing, stalled or its runner gone (said in place of the status)",
        ),
        ("⚡", theme.error, "a far creature whose connection is down"),
        (
            "◷",
            theme.dream,
            "a dream held for review, and the time before it applies itself",
        ),
        (
            "✱",
            theme.dream,
            "news while it was not selected (red: a RED observation or an error)",
        ),
        (
            "→",
            theme.accent,
            "it just wrote to another creature of the garden",
        ),
    ] {
        row(
            out,
            vec![
                Span::styled(format!("{mark} "), style),
                Span::styled(meaning, theme.base),
            ],
        );
    }
    // The cycle's column, then each genome's own (a creature of any other genome shows
    // the cycle's).
    let columns = std::iter::once(("fatigue", &crate::ui::genome::FATIGUE)).chain(
        installed()
            .iter()
            .filter_map(|g| g.garden.as_ref().map(|c| (g.genome, c))),
    );
    for (name, column) in columns {
        row(
            out,
            vec![
                Span::styled(format!("{name}: "), theme.key),
                Span::styled(column.legend, theme.base),
            ],
        );
    }
    row(
        out,
        vec![Span::styled(
            "load: the column's header where creatures of several genomes share the list",
            theme.muted,
        )],
    );
}
