//! The status line's log: everything the status line said this session, newest first,
//! whole (the status line cuts a long notice to its row), in an overlay of its own.

use std::collections::VecDeque;

use chrono::{DateTime, Local, Utc};
use ratatui::Frame;
use ratatui::text::{Line, Span};

use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::draw::DrawContext;
use crate::ui::theme::Theme;

/// Notices kept; the oldest go first.
const KEPT: usize = 500;

/// One thing the status line said.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Said {
    t: DateTime<Utc>,
    text: String,
    error: bool,
    /// Said again right after: `×n`.
    times: u32,
}

#[derive(Debug, Default)]
pub struct StatusLog {
    said: VecDeque<Said>,
    /// Where the overlay is scrolled to.
    anchor: Anchor,
}

impl StatusLog {
    /// Keeps a notice; the same words said again in a row are counted, not repeated.
    pub fn push(&mut self, t: DateTime<Utc>, text: &str, error: bool) {
        if let Some(last) = self.said.back_mut()
            && last.text == text
            && last.error == error
        {
            last.times += 1;
            last.t = t;
            return;
        }
        if self.said.len() == KEPT {
            self.said.pop_front();
        }
        self.said.push_back(Said {
            t,
            text: text.to_string(),
            error,
            times: 1,
        });
    }

    pub fn is_empty(&self) -> bool {
        self.said.is_empty()
    }

    /// The overlay's lines, newest first: the local time, then the words (wrapped under
    /// themselves; already inert, as every notice is made).
    pub fn document(&self, theme: &Theme) -> Vec<DocLine> {
        if self.said.is_empty() {
            return vec![DocLine::hard(Line::styled(
                "Nothing said yet: what the status line says is kept here.",
                theme.muted,
            ))];
        }
        self.said
            .iter()
            .rev()
            .map(|s| {
                let time = s.t.with_timezone(&Local).format("%H:%M:%S ").to_string();
                let style = if s.error { theme.error } else { theme.base };
                let mut spans = vec![
                    Span::styled(time, theme.muted),
                    Span::styled(crate::ui::prepare::inert(&s.text), style),
                ];
                if s.times > 1 {
                    spans.push(Span::styled(format!("  ×{}", s.times), theme.muted));
                }
                DocLine::hanging(Line::from(spans), 1)
            })
            .collect()
    }

    /// The popup opened again: at its top (the newest).
    pub fn open(&mut self) {
        self.anchor = Anchor::Line(0);
    }

    pub fn scroll(&mut self, theme: &Theme, vp: Viewport, step: Step) {
        self.anchor = scroll::scroll(&self.document(theme), self.anchor, vp, step);
    }

    pub fn draw(&self, frame: &mut Frame, cx: &DrawContext) {
        let lines = self.document(cx.theme);
        super::frame::document(frame, " Status log: newest first ", &lines, self.anchor, cx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(log: &StatusLog) -> Vec<String> {
        log.document(&Theme::default())
            .iter()
            .map(|l| l.line.to_string()[9..].to_string())
            .collect()
    }

    #[test]
    fn newest_first_repeats_counted_and_bounded() {
        let t = DateTime::UNIX_EPOCH;
        let mut log = StatusLog::default();
        assert!(log.is_empty());
        log.push(t, "message sent", false);
        log.push(t, "runner gone", true);
        log.push(t, "runner gone", true);
        assert_eq!(texts(&log), ["runner gone  ×2", "message sent"]);
        for i in 0..KEPT + 10 {
            log.push(t, &format!("n{i}"), false);
        }
        assert_eq!(log.said.len(), KEPT);
        assert_eq!(texts(&log)[0], format!("n{}", KEPT + 9));
    }

    #[test]
    fn escapes_are_shown_inert() {
        let mut log = StatusLog::default();
        log.push(DateTime::UNIX_EPOCH, "bad \u{1b}[2J name", true);
        assert_eq!(texts(&log), ["bad ^[[2J name"]);
    }
}
