//! What the attached OpenSeed orchestrator adds to the screen: a creature's status and
//! budget in its header, the link and the day's total cost in the status bar.

use ratatui::style::Style;
use ratatui::text::Span;

use super::fmt::{self, Part};
use crate::openseed::{ApiStatus, BudgetLevel};
use crate::ui::state::App;
use crate::ui::state::openseed::Link;
use crate::ui::theme::Theme;

fn status_style(status: &ApiStatus, theme: &Theme) -> Style {
    match status {
        ApiStatus::Running => theme.awake,
        ApiStatus::Sleeping => theme.asleep,
        ApiStatus::Error => theme.error,
        ApiStatus::Stopped => theme.stopped,
        ApiStatus::Starting | ApiStatus::Spawning | ApiStatus::Other(_) => theme.notice,
    }
}

fn budget_style(level: BudgetLevel, theme: &Theme) -> Style {
    match level {
        BudgetLevel::Fine => theme.muted,
        BudgetLevel::Near => theme.fatigue_warn,
        BudgetLevel::Past => theme.fatigue_limit,
    }
}

/// The header's word from the orchestrator on the selected creature: its status (and
/// why it sleeps), and what it spent today against its cap.
pub fn header_parts(app: &App) -> Vec<Part> {
    let theme = &app.theme;
    let Some(path) = app.selected.as_deref() else {
        return Vec::new();
    };
    let Some(o) = app
        .orchestrator_of(path)
        .filter(|_| app.openseed_route(path))
    else {
        return Vec::new();
    };
    let Some(c) = o.creature(path) else {
        return Vec::new();
    };
    let mut parts = Vec::new();
    if let Link::Down { .. } = o.link {
        parts.push(Part::keep(Span::styled(
            "  OpenSeed unreachable",
            theme.error,
        )));
        return parts;
    }
    let reason = c
        .sleep_reason
        .as_ref()
        .map(|r| format!(" ({})", r.label()))
        .unwrap_or_default();
    parts.push(Part {
        drop: 2,
        spans: vec![
            Span::styled("  OpenSeed ", theme.muted),
            Span::styled(
                format!("{}{reason}", c.status.label()),
                status_style(&c.status, theme),
            ),
        ],
        short: Some((
            0,
            vec![Span::styled(
                format!("  {}", c.status.label()),
                status_style(&c.status, theme),
            )],
        )),
    });
    if let Some(b) = o.budget(path) {
        let level = b.level();
        let mark = match level {
            BudgetLevel::Fine => "",
            BudgetLevel::Near => " ⚠ near cap",
            BudgetLevel::Past => " ⚠ past cap",
        };
        let cap = match b.action.as_str() {
            "off" => " today (no cap)".to_string(),
            // The orchestrator only warns at it: nothing is paused.
            "warn" => format!(" of ${:.2} today, warns{mark}", b.daily_cap_usd),
            _ => format!(" of ${:.2} today{mark}", b.daily_cap_usd),
        };
        parts.push(Part {
            drop: 3,
            spans: vec![Span::styled(
                format!("  ${:.2}{cap}", b.daily_spent_usd),
                budget_style(level, theme),
            )],
            short: Some((
                1,
                vec![Span::styled(
                    format!(
                        "  ${:.2}/${:.0}{}",
                        b.daily_spent_usd,
                        b.daily_cap_usd,
                        if level == BudgetLevel::Fine {
                            ""
                        } else {
                            " ⚠"
                        }
                    ),
                    budget_style(level, theme),
                )],
            )),
        });
    }
    parts
}

/// What an OpenSeed creature spent today, for its garden row: kept when near or past its
/// cap, else the first thing a narrow list drops.
pub fn garden_cost(app: &App, path: &std::path::Path) -> Option<Part> {
    let o = app.orchestrator_of(path)?;
    if !o.up() || !app.openseed_route(path) {
        return None;
    }
    let b = o.budget(path)?;
    let level = b.level();
    let span = Span::styled(
        format!(" ${:.2}", b.daily_spent_usd),
        budget_style(level, &app.theme),
    );
    Some(match level {
        BudgetLevel::Fine => Part::optional(3, span),
        BudgetLevel::Near | BudgetLevel::Past => Part::keep(span),
    })
}

/// The status bar's word on the orchestrator: reachable (with what all its creatures
/// spent today, in the colour of the worst budget, and its narrator apart), or not.
pub fn bar(app: &App) -> Option<(String, Style)> {
    let o = app.openseed.as_ref()?;
    let theme = &app.theme;
    Some(match &o.link {
        Link::Connecting => (format!("OpenSeed: connecting to {}", o.target), theme.muted),
        Link::Down {
            since, retry_in, ..
        } => (
            format!(
                "OpenSeed unreachable since {} (retry in {})",
                since.format("%H:%M"),
                fmt::duration(i64::try_from(retry_in.as_secs()).unwrap_or(i64::MAX).max(1))
            ),
            theme.error,
        ),
        Link::Up { .. } if !o.degraded.is_empty() => (
            format!("OpenSeed degraded ({} down)", o.degraded.join(", ")),
            theme.error,
        ),
        Link::Up { .. } => {
            let worst = o
                .costs
                .budgets
                .values()
                .map(|b| b.level())
                .max_by_key(|l| match l {
                    BudgetLevel::Fine => 0,
                    BudgetLevel::Near => 1,
                    BudgetLevel::Past => 2,
                })
                .unwrap_or(BudgetLevel::Fine);
            let (creatures, narrator) = o.spent_today(app.clock().at_day());
            let narrator = if narrator > 0.0 {
                format!(", narrator ${narrator:.2}")
            } else {
                String::new()
            };
            (
                format!("OpenSeed ${creatures:.2} today{narrator}"),
                budget_style(worst, theme),
            )
        }
    })
}
