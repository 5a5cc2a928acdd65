//! What the emergence views share, prepared: the figures of the header and the garden
//! list, times as the views write them, and the colour of a trust level.

use chrono::{DateTime, Utc};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::genomes::emergence::memory::EmergenceMemory;
use crate::memory::summary::Summary;
use crate::ui::doc::DocLine;
use crate::ui::draw::fmt::{self, Part};
use crate::ui::genome::GardenCx;
use crate::ui::prepare::inert;
use crate::ui::prepare::items::text_lines;
use crate::ui::state::{FrameClock, Steps};
use crate::ui::theme::Theme;

/// A text from the creature after a lead (an id and a time, or an indent): the lead kept
/// in its columns, the text wrapped beside it, its further lines under its start.
pub fn text_under(lead: Vec<Span<'static>>, text: &str, style: Style) -> Vec<DocLine> {
    let column = Line::from(lead.clone()).width();
    let mut texts = text_lines(text);
    if texts.is_empty() {
        texts.push(String::new());
    }
    let mut lead = Some(lead);
    texts
        .into_iter()
        .map(|text| {
            let mut spans = lead
                .take()
                .unwrap_or_else(|| vec![Span::raw(" ".repeat(column))]);
            let prefix = spans.len() as u16;
            spans.push(Span::styled(text, style));
            DocLine::hanging(Line::from(spans), prefix)
        })
        .collect()
}

/// `11-24 18:00`, or `--` without a time.
pub fn stamp(t: Option<DateTime<Utc>>) -> String {
    t.map_or_else(|| "--".into(), |t| t.format("%m-%d %H:%M").to_string())
}

/// A trust level's colour: high green, middling the dream colour, low yellow, none red.
pub fn trust_style(trust: Option<f64>, theme: &Theme) -> Style {
    match trust {
        None => theme.muted,
        Some(t) if t >= 0.75 => theme.grn,
        Some(t) if t >= 0.5 => theme.dream,
        Some(t) if t >= 0.25 => theme.ylw,
        Some(_) => theme.red,
    }
}

/// A trust level as a bar of `cells` cells (clamped to 0..=1).
pub fn trust_bar(trust: Option<f64>, cells: usize) -> String {
    let filled = trust.map_or(0, |t| (t.clamp(0.0, 1.0) * cells as f64).round() as usize);
    format!(
        "{}{}",
        "█".repeat(filled),
        "░".repeat(cells - filled.min(cells))
    )
}

/// The figures the header and the garden list show for an emergence creature.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EmergenceSummary {
    pub soul: u64,
    pub memories: u64,
    pub archived: u64,
    pub summaries: u64,
    pub diary: u64,
    pub open: u64,
    pub overdue: u64,
    /// `11-24 18:00 meet Ivy at the well`, inert.
    pub next_event: Option<String>,
    pub relations: u64,
    pub unsummarised: u64,
    /// When self-care last wrote a summary.
    pub last_self_care: Option<DateTime<Utc>>,
}

impl EmergenceSummary {
    pub fn of(m: &EmergenceMemory, now: DateTime<Utc>) -> Self {
        Self {
            soul: m.soul.len() as u64,
            memories: m.longterm.current_count(),
            archived: m.longterm.archived,
            summaries: m.summaries.memories + m.summaries.conversations,
            diary: m.diary.len() as u64,
            open: m.todos.open(),
            overdue: m.todos.overdue(now),
            next_event: m
                .calendar
                .next_after(now)
                .found
                .map(|o| format!("{} {}", stamp(Some(o.at)), inert(&o.event.description))),
            relations: m.relations.len() as u64 + m.relations.not_kept,
            unsummarised: m.unsummarised_dialogues(),
            last_self_care: m.summaries.counts.last_t,
        }
    }
}

/// The header's second line: the soul, memories, plans (overdue to-dos, the next event) and relations.
pub fn header(e: &EmergenceSummary, s: &Summary, now: FrameClock, theme: &Theme) -> Vec<Part> {
    let overdue = if e.overdue > 0 {
        Part::keep(Span::styled(format!(" ({} overdue)", e.overdue), theme.red))
    } else {
        Part::keep(Span::raw(""))
    };
    vec![
        Part::keep(Span::styled("soul ", theme.muted)),
        Part::keep(Span::styled(e.soul.to_string(), theme.title)),
        Part::keep(Span::styled("  memories ", theme.muted)),
        Part::keep(Span::styled(e.memories.to_string(), theme.base)),
        Part::optional(
            4,
            Span::styled(format!(" ({} archived)", e.archived), theme.muted),
        ),
        Part::keep(Span::styled("  to-dos ", theme.muted)),
        Part::keep(Span::styled(e.open.to_string(), theme.base)),
        overdue,
        Part::optional(
            3,
            Span::styled(
                e.next_event
                    .as_deref()
                    .map_or(String::new(), |n| format!("  next {n}")),
                theme.dream,
            ),
        ),
        Part::optional(
            4,
            Span::styled(format!("  relations {}", e.relations), theme.muted),
        ),
        Part::keep(Span::styled(
            format!("  active {}", now.ago(s.last_activity)),
            theme.muted,
        )),
    ]
}

/// The garden list's figures: its soul entries, the memories it holds (self-care
/// summarises them), and when self-care last ran: it has no fatigue and does not dream.
pub fn garden(e: &EmergenceSummary, cx: &GardenCx) -> Vec<Part> {
    let theme = cx.theme;
    // Under the activity column's header: one unit, as wide as the counts.
    let steps = if cx.spark.is_some() {
        Steps::Coarse
    } else {
        Steps::Duration
    };
    let since = e.last_self_care.map(|t| cx.now.secs_since(t, steps));
    let care = match (since, cx.spark) {
        (None, Some(_)) => "  ↻-  ".to_string(),
        (None, None) => "  ↻-".to_string(),
        (Some(secs), Some(_)) => format!("  ↻{:<3}", fmt::coarse_duration(secs)),
        (Some(secs), None) => format!("  ↻{}", fmt::duration(secs)),
    };
    vec![
        Part::keep(Span::styled(format!("✦{:<5}", e.soul), theme.accent)),
        Part::keep(Span::styled(format!("{:>3}", e.memories), theme.title)),
        Part::keep(Span::styled(care, theme.dream)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trust_bars_clamp() {
        assert_eq!(trust_bar(Some(0.5), 10), "█████░░░░░");
        assert_eq!(trust_bar(Some(7.0), 4), "████");
        assert_eq!(trust_bar(Some(-1.0), 4), "░░░░");
        assert_eq!(trust_bar(None, 3), "░░░");
    }
}
