//! The side panel, prepared: priorities, rules, briefing, purpose and problems; for an
//! evennia creature its sleeps (transitions, a deferred wake), compactions and working
//! memory instead of priorities, rules and briefing.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::inert;
use crate::memory::creature::Creature;
use crate::memory::documents::RuleKind;
use crate::memory::evennia::EvenniaMemory;
use crate::memory::evennia::mode::Mode;
use crate::memory::genome::Genome;
use crate::text::sanitize::sanitize;
use crate::ui::doc::DocLine;
use crate::ui::theme::Theme;

/// Problems listed one by one; the rest are counted.
const PROBLEMS_SHOWN: usize = 20;
/// Transitions and compactions listed, the newest.
const SLEEPS_SHOWN: usize = 6;

/// The side panel's title for a creature of `genome`.
pub fn pane_title(genome: &Genome) -> &'static str {
    match genome {
        Genome::Evennia => " Sleep & working memory ",
        _ => " Priorities & rules ",
    }
}

pub fn prepare(c: &Creature, theme: &Theme) -> Vec<DocLine> {
    let mut out = Vec::new();
    if c.genome() == Genome::Evennia {
        evennia(&mut out, c.evennia(), theme);
    } else {
        dreamer(&mut out, c, theme);
    }
    shared(&mut out, c, theme);
    out
}

/// A section title, a blank line before it when it is not the first.
fn title(out: &mut Vec<DocLine>, theme: &Theme, text: &str, extra: Option<String>) {
    if !out.is_empty() {
        out.push(DocLine::hard(Line::default()));
    }
    let mut spans = vec![Span::styled(text.to_string(), theme.title)];
    if let Some(extra) = extra {
        spans.push(Span::styled(format!(" · {extra}"), theme.muted));
    }
    out.push(DocLine::word(Line::from(spans), 2));
}

/// Free text from a creature, one document line per line.
fn plain(out: &mut Vec<DocLine>, text: &str, style: Style) {
    for l in sanitize(text.trim())
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        out.push(DocLine::word(Line::styled(l.to_string(), style), 0));
    }
}

/// A muted line saying there is nothing yet.
fn none(out: &mut Vec<DocLine>, theme: &Theme, text: &str) {
    out.push(DocLine::word(
        Line::styled(text.to_string(), theme.muted),
        0,
    ));
}

/// An evennia creature's sleeps, compactions and working memory.
fn evennia(out: &mut Vec<DocLine>, m: &EvenniaMemory, theme: &Theme) {
    let mode = &m.mode;
    // Completed sleeps (their work ended), then the latest transitions.
    title(out, theme, "Sleeps", Some(mode.rests.to_string()));
    if let Some(reason) = mode.wake_deferred() {
        out.push(DocLine::word(
            Line::from(vec![
                Span::styled("wake deferred ", theme.ylw),
                Span::styled(inert(reason), theme.base),
            ]),
            2,
        ));
    }
    for tr in mode.transitions().iter().rev().take(SLEEPS_SHOWN) {
        let to = match &tr.to {
            Mode::Awake => "awake".to_string(),
            Mode::Sleep => "sleep".to_string(),
            Mode::Other(s) => inert(s),
        };
        out.push(DocLine::hanging(
            Line::from(vec![
                Span::styled(format!("{} ", super::evennia::clock(tr.t)), theme.muted),
                Span::styled(format!("→ {to}"), theme.accent),
                Span::styled(
                    tr.reason
                        .as_deref()
                        .map_or(String::new(), |r| format!(" · {}", inert(r))),
                    theme.base,
                ),
            ]),
            1,
        ));
    }
    if mode.transitions().is_empty() {
        none(out, theme, "none yet");
    }

    title(
        out,
        theme,
        "Compactions",
        Some(format!(
            "{} sleep, {} emergency",
            mode.compactions_sleep, mode.compactions_emergency
        )),
    );
    for c in mode.compactions().iter().rev().take(SLEEPS_SHOWN) {
        let c2 = &c.compaction;
        let ratio = c2
            .ratio
            .map_or(String::new(), |r| format!(" at {:.0}%", r * 100.0));
        let counts = match (c2.summarized, c2.preserved) {
            (Some(s), Some(p)) => format!(": {s} summarized, {p} kept"),
            _ => String::new(),
        };
        let entry = c2
            .journal_id
            .as_deref()
            .map_or(String::new(), |j| format!(" → {}", inert(j)));
        out.push(DocLine::hanging(
            Line::from(vec![
                Span::styled(format!("{} ", super::evennia::clock(c.t)), theme.muted),
                Span::styled(
                    format!(
                        "{}{ratio}{counts}{entry}",
                        inert(c2.trigger.as_deref().unwrap_or("?"))
                    ),
                    theme.base,
                ),
            ]),
            1,
        ));
    }
    if mode.compactions().is_empty() {
        none(out, theme, "none yet");
    }

    title(out, theme, "Working memory", None);
    let conversations = m.working.as_ref().map_or(&[][..], |w| &w.conversations[..]);
    if conversations.is_empty() {
        none(out, theme, "no conversation under way");
    }
    for c in conversations {
        out.push(DocLine::word(
            Line::from(vec![
                Span::styled(inert(&c.entity_id), theme.accent),
                Span::styled(
                    c.topic
                        .as_deref()
                        .map_or(String::new(), |t| format!(" · {}", inert(t))),
                    theme.base,
                ),
            ]),
            2,
        ));
        for action in &c.pending_actions {
            out.push(super::evennia::pending(action, 2, theme));
        }
    }
}

/// A dreamer's priorities, rules and briefing.
fn dreamer(out: &mut Vec<DocLine>, c: &Creature, theme: &Theme) {
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

/// What every creature's panel ends with: its purpose and the problems found reading it.
fn shared(out: &mut Vec<DocLine>, c: &Creature, theme: &Theme) {
    if let Some(purpose) = c.purpose().filter(|p| !p.trim().is_empty()) {
        title(out, theme, "Purpose", None);
        let body: String = purpose
            .lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n");
        plain(out, &body, theme.muted);
    }

    let problems = c.problems();
    if !problems.is_empty() {
        let total = problems.len() as u64 + c.problems_dropped();
        title(out, theme, "Problems", Some(total.to_string()));
        for p in problems.iter().take(PROBLEMS_SHOWN) {
            let at = match p.line {
                Some(n) => format!("{}:{n}", p.file),
                None => p.file.clone(),
            };
            out.push(DocLine::word(
                Line::from(vec![
                    Span::styled(format!("{} ", inert(&at)), theme.error),
                    Span::styled(inert(&p.what), theme.muted),
                ]),
                2,
            ));
        }
        if total > PROBLEMS_SHOWN as u64 {
            out.push(DocLine::word(
                Line::styled(
                    format!("… and {} more", total - PROBLEMS_SHOWN as u64),
                    theme.muted,
                ),
                0,
            ));
        }
    }
}
