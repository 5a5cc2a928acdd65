//! The narrator's story of the garden, as an OpenSeed orchestrator tells it: its last
//! entries read once (`/api/narration`), the ones streamed since (`narrator.entry`)
//! arriving on top, newest first; its settings above them.

use std::collections::VecDeque;

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::openseed::{EventKind, LiveEvent, NarrationEntry, NarratorConfig};
use crate::text::sanitize::sanitize;
use crate::ui::doc::scroll::Step;
use crate::ui::draw::DrawContext;
use crate::ui::layout;
use crate::ui::prepare::inert;

/// One entry, its text inert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Told {
    pub t: String,
    pub text: String,
    pub mentioned: Vec<String>,
}

/// What the orchestrator said of its narrator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NarrationFetched {
    /// Oldest first, as the route answers.
    pub entries: Vec<NarrationEntry>,
    pub config: Option<NarratorConfig>,
}

#[derive(Debug, Default)]
pub struct NarrationPopup {
    /// Read from the route, oldest first.
    read: Vec<Told>,
    pub config: Option<NarratorConfig>,
    /// Rows scrolled past.
    top: usize,
    pub loading: bool,
}

impl NarrationPopup {
    pub fn open(&mut self) {
        self.loading = true;
        self.top = 0;
    }

    pub fn on_fetched(&mut self, fetched: NarrationFetched) {
        self.loading = false;
        self.read = fetched
            .entries
            .into_iter()
            .map(|e| Told {
                t: inert(&e.t),
                text: sanitize(&e.text),
                mentioned: e.creatures_mentioned.iter().map(|n| inert(n)).collect(),
            })
            .collect();
        if fetched.config.is_some() {
            self.config = fetched.config;
        }
    }

    /// Every entry, newest first: those streamed (`live`, the narrator's events, already
    /// inert) that the route's answer does not hold, then the route's.
    pub fn entries(&self, live: Option<&VecDeque<LiveEvent>>) -> Vec<Told> {
        let mut all: Vec<Told> = self.read.iter().rev().cloned().collect();
        // A streamed entry was made inert on one line: its `^J`s are its line breaks.
        let streamed = live.into_iter().flatten().filter_map(|e| match &e.kind {
            EventKind::Narration { text } => Some(Told {
                t: e.t.map(stamp).unwrap_or_default(),
                text: text.replace("^J", "\n"),
                mentioned: Vec::new(),
            }),
            _ => None,
        });
        for told in streamed {
            // The narrator streams an entry with the time it keeps it under.
            if !self.read.iter().any(|r| same_time(&r.t, &told.t)) {
                let at = all.iter().position(|a| a.t < told.t).unwrap_or(all.len());
                all.insert(at, told);
            }
        }
        all
    }

    pub fn scroll(&mut self, step: Step, page: usize) {
        self.top = match step {
            Step::Up(n) => self.top.saturating_sub(n),
            Step::Down(n) => self.top + n,
            Step::PageUp => self.top.saturating_sub(page),
            Step::PageDown => self.top + page,
            Step::Top => 0,
            Step::Bottom => usize::MAX / 2,
        };
    }

    pub fn draw(&self, frame: &mut Frame, live: Option<&VecDeque<LiveEvent>>, cx: &DrawContext) {
        let theme = cx.theme;
        let area = layout::compare(frame.area());
        frame.render_widget(Clear, area);
        let mut lines: Vec<Line> = vec![match &self.config {
            Some(c) => Line::from(vec![
                Span::styled("narrator: ", theme.muted),
                Span::styled(
                    if c.enabled { "on" } else { "off" },
                    if c.enabled {
                        theme.awake
                    } else {
                        theme.stopped
                    },
                ),
                Span::styled(
                    format!(" · {} · every {} min", inert(&c.model), c.interval_minutes),
                    theme.muted,
                ),
            ]),
            None => Line::styled("narrator: its settings not read", theme.muted),
        }];
        lines.push(Line::default());
        let entries = self.entries(live);
        if entries.is_empty() {
            lines.push(Line::styled(
                if self.loading {
                    "asking the orchestrator…"
                } else {
                    "the narrator has told nothing yet (it tells every few minutes, or skips when nothing happened)"
                },
                theme.muted,
            ));
        }
        for told in entries {
            let mut head = vec![Span::styled(told.t.clone(), theme.header)];
            if !told.mentioned.is_empty() {
                head.push(Span::styled(
                    format!("  {}", told.mentioned.join(", ")),
                    theme.accent,
                ));
            }
            lines.push(Line::from(head));
            lines.extend(
                told.text
                    .lines()
                    .map(|l| Line::styled(l.to_owned(), theme.prose)),
            );
            lines.push(Line::default());
        }
        let last = lines
            .len()
            .saturating_sub(usize::from(area.height.saturating_sub(2)));
        let top = u16::try_from(self.top.min(last)).unwrap_or(u16::MAX);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border_focused)
            .style(theme.base)
            .title(Span::styled(
                " OpenSeed: the narrator's story ",
                theme.title,
            ));
        frame.render_widget(
            Paragraph::new(lines)
                .block(block)
                .wrap(Wrap { trim: false })
                .scroll((top, 0)),
            area,
        );
    }
}

/// Whether two of the orchestrator's times are one.
fn same_time(a: &str, b: &str) -> bool {
    match (
        DateTime::parse_from_rfc3339(a),
        DateTime::parse_from_rfc3339(b),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// A time as the orchestrator writes it.
fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streamed_entries_come_first_once() {
        let mut popup = NarrationPopup::default();
        popup.on_fetched(NarrationFetched {
            entries: vec![NarrationEntry {
                t: "2026-03-09T10:00:01.000Z".into(),
                text: "**finch** \x1b[2Jopened a PR".into(),
                creatures_mentioned: vec!["finch".into()],
            }],
            config: None,
        });
        let t = |s| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
        let live: VecDeque<LiveEvent> = [
            LiveEvent {
                creature: "_narrator".into(),
                t: Some(t("2026-03-09T10:00:02Z")),
                kind: EventKind::Narration {
                    text: "**wren** slept^Jand woke".into(),
                },
            },
            LiveEvent {
                creature: "_narrator".into(),
                t: Some(t("2026-03-09T10:00:01Z")),
                kind: EventKind::Narration {
                    text: "**finch** opened a PR".into(),
                },
            },
        ]
        .into();
        let all = popup.entries(Some(&live));
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].text, "**wren** slept\nand woke");
        assert!(!all[1].text.contains('\x1b'));
    }
}
