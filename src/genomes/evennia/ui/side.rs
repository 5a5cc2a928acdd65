//! The side panel of an evennia creature: its sleeps (transitions, a deferred wake),
//! compactions and working memory.

use ratatui::text::{Line, Span};

use super::figures::pending;
use crate::genomes::evennia::memory::{self, mode::Mode};
use crate::memory::creature::Creature;
use crate::ui::doc::DocLine;
use crate::ui::prepare::inert;
use crate::ui::prepare::items::clock;
use crate::ui::theme::Theme;
use crate::ui::views::side::prepare::{none, title};

/// Transitions and compactions listed, the newest.
const SLEEPS_SHOWN: usize = 6;

/// An evennia creature's sleeps, compactions and working memory.
pub(super) fn side(out: &mut Vec<DocLine>, c: &Creature, theme: &Theme) {
    let m = memory::of(c);
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
                Span::styled(format!("{} ", clock(tr.t)), theme.muted),
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
                Span::styled(format!("{} ", clock(c.t)), theme.muted),
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
            out.push(pending(action, 2, theme));
        }
    }
}
