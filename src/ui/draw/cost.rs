//! What a creature's model calls cost, in its header, its garden row and the garden's
//! title: tokens and dollars from its runner's usage record, priced with the app's table.
//! A cost made from estimated tokens is marked `~`; one with a model the table does not
//! price is `?`, and the header names the model.

use std::path::Path;

use ratatui::text::Span;

use super::fmt::Part;
use crate::llm::prices::Cost;
use crate::ui::state::App;
use crate::ui::state::creature::CreatureUi;

/// `$0.00`, `<$0.01`, `$12.34`, `$1.2k`.
pub fn money(usd: f64) -> String {
    match usd {
        u if u <= 0.0 => "$0.00".into(),
        u if u < 0.01 => "<$0.01".into(),
        u if u < 1000.0 => format!("${u:.2}"),
        u => format!("${:.1}k", u / 1000.0),
    }
}

/// The dollars of `cost`: `~` before those made from estimated tokens, `?` while a model
/// has no price (`$1.20+?` when others have one).
pub fn cost_text(cost: &Cost) -> String {
    let tilde = if cost.usd_estimated { "~" } else { "" };
    match (cost.unpriced.is_empty(), cost.usd > 0.0) {
        (true, _) => format!("{tilde}{}", money(cost.usd)),
        (false, true) => format!("{tilde}{}+?", money(cost.usd)),
        (false, false) => "?".into(),
    }
}

/// `950`, `12.3k`, `4.5M`, `1.2G`.
pub fn tokens(n: u64) -> String {
    let n = n as f64;
    match n {
        n if n < 1e3 => format!("{n}"),
        n if n < 1e6 => format!("{:.1}k", n / 1e3),
        n if n < 1e9 => format!("{:.1}M", n / 1e6),
        n => format!("{:.1}G", n / 1e9),
    }
}

/// The header's word on the selected creature's usage: tokens and cost in total and
/// today; a narrow header keeps the total cost.
pub fn header_part(app: &App, ui: &CreatureUi) -> Option<Part> {
    let spend = app.spend(ui)?;
    let theme = &app.theme;
    let (total, today) = (&spend.total, &spend.today);
    let tilde = if total.estimated { "~" } else { "" };
    let mut spans = vec![
        Span::styled("  tokens ", theme.muted),
        Span::styled(format!("{tilde}{}", tokens(total.tokens)), theme.base),
    ];
    let short = if spend.rehearsal {
        spans.push(Span::styled(
            " (estimated) · rehearsal, no cost",
            theme.muted,
        ));
        format!("  {tilde}{} tok", tokens(total.tokens))
    } else {
        spans.push(Span::styled(" · ", theme.muted));
        spans.push(Span::styled(cost_text(total), theme.accent));
        spans.push(Span::styled(
            format!(
                " (today {}{} · {})",
                if today.estimated { "~" } else { "" },
                tokens(today.tokens),
                cost_text(today)
            ),
            theme.muted,
        ));
        if let Some(model) = total.unpriced.first() {
            spans.push(Span::styled(
                format!(" · no price for {model}"),
                theme.notice,
            ));
        }
        format!("  {}", cost_text(total))
    };
    Some(Part {
        drop: 4,
        spans,
        short: Some((2, vec![Span::styled(short, theme.muted)])),
    })
}

/// What the creature cost today, for its garden row (after the orchestrator's word on an
/// OpenSeed creature, which says it): the first thing a narrow list drops.
pub fn garden_part(app: &App, path: &Path, ui: &CreatureUi) -> Option<Part> {
    if app
        .openseed
        .as_ref()
        .is_some_and(|o| o.budget(path).is_some())
    {
        return None;
    }
    let spend = app.spend(ui)?;
    Some(Part::optional(
        3,
        Span::styled(format!(" {}", cost_text(&spend.today)), app.theme.muted),
    ))
}

/// ` · $1.20 today` for the garden's title, when a creature has a cost.
pub fn garden_title(app: &App) -> Option<String> {
    let cost = app.garden_cost_today()?;
    Some(format!(" · {} today", cost_text(&cost)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollars_and_tokens_read_short() {
        assert_eq!(money(0.0), "$0.00");
        assert_eq!(money(0.004), "<$0.01");
        assert_eq!(money(12.345), "$12.35");
        assert_eq!(money(1234.0), "$1.2k");
        assert_eq!(tokens(950), "950");
        assert_eq!(tokens(12_345), "12.3k");
        assert_eq!(tokens(4_500_000), "4.5M");
        let cost = |usd, estimated, unpriced: &[&str]| Cost {
            usd,
            tokens: 10,
            unpriced: unpriced.iter().map(|m| m.to_string()).collect(),
            estimated,
            usd_estimated: estimated,
        };
        assert_eq!(cost_text(&cost(1.2, false, &[])), "$1.20");
        assert_eq!(cost_text(&cost(1.2, true, &[])), "~$1.20");
        assert_eq!(cost_text(&cost(0.0, false, &[])), "$0.00");
        assert_eq!(cost_text(&cost(0.0, false, &["a/b"])), "?");
        assert_eq!(cost_text(&cost(1.2, false, &["a/b"])), "$1.20+?");
    }
}
