//! The message box: a multi-line editor over the screen, to the creature selected when
//! it opened, or to every creature the garden list shows. What it holds when closed
//! without sending stays with its creature as a draft. How a message goes is
//! [`send`]'s.

mod send;

use std::path::{Path, PathBuf};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Frame;
use ratatui::style::Style;
use ratatui::widgets::{Block, Borders, Clear};
use ratatui_textarea::{CursorMove, TextArea};

use crate::ui::draw::DrawContext;
use crate::ui::layout;
use crate::ui::theme::Theme;

#[derive(Debug, Default)]
pub struct MessageBox {
    /// The text being written, while the box is open.
    text: Option<TextArea<'static>>,
    /// The creature the open box writes to: the one selected when it opened.
    to: Option<PathBuf>,
    /// The open box goes to these creatures instead (the garden list when it was asked
    /// for).
    all: Option<Vec<PathBuf>>,
}

impl MessageBox {
    /// Opens the box to `to`, holding its `draft`.
    pub fn open(&mut self, to: Option<PathBuf>, draft: Vec<String>, theme: &Theme) {
        let mut area = if draft.is_empty() {
            TextArea::default()
        } else {
            TextArea::new(draft)
        };
        area.move_cursor(CursorMove::Bottom);
        area.move_cursor(CursorMove::End);
        area.set_style(theme.base);
        area.set_cursor_line_style(Style::default());
        area.set_placeholder_text("Write to the creature. Several lines are fine.");
        area.set_placeholder_style(theme.muted);
        self.text = Some(area);
        self.to = to;
        self.all = None;
    }

    /// Closes the box: its lines, and the creature it was to.
    pub fn close(&mut self) -> (Vec<String>, Option<PathBuf>) {
        let lines = self
            .text
            .take()
            .map(TextArea::into_lines)
            .unwrap_or_default();
        self.all = None;
        (lines, self.to.take())
    }

    /// The text being written, while the box is open.
    pub fn text(&self) -> Option<&TextArea<'static>> {
        self.text.as_ref()
    }

    /// The creature the box writes to.
    pub fn to(&self) -> Option<&Path> {
        self.to.as_deref()
    }

    /// The creatures it goes to instead, when it goes to all the list shows.
    pub fn all(&self) -> Option<&[PathBuf]> {
        self.all.as_deref()
    }

    /// To every creature of `order` (the garden list), or back to the one it was opened
    /// for.
    pub fn toggle_all(&mut self, order: impl FnOnce() -> Vec<PathBuf>) {
        self.all = match self.all {
            Some(_) => None,
            None => Some(order()),
        };
    }

    /// The creature it writes to became another (`heir`: the same creature's other row).
    pub fn retarget(&mut self, from: &Path, heir: Option<&PathBuf>) {
        if self.to.as_deref() == Some(from) {
            self.to = heir.cloned();
        }
    }

    /// Titles the box: where what is written goes.
    pub fn set_title(&mut self, title: String, border: Style) {
        if let Some(area) = self.text.as_mut() {
            area.set_block(
                Block::default()
                    .borders(Borders::ALL)
                    .border_style(border)
                    .title(title),
            );
        }
    }

    /// A key typed into the box; returns whether the box is open to take it.
    pub fn key(&mut self, key: KeyEvent) -> bool {
        let Some(area) = self.text.as_mut() else {
            return false;
        };
        edit(area, key);
        true
    }

    /// Pasted text, its line ends kept.
    pub fn paste(&mut self, text: &str) {
        if let Some(area) = self.text.as_mut() {
            area.insert_str(pasted_lines(text));
        }
    }

    pub fn draw(&self, frame: &mut Frame, _cx: &DrawContext) {
        let Some(text) = self.text.as_ref() else {
            return;
        };
        let area = layout::message_box(frame.area());
        frame.render_widget(Clear, area);
        frame.render_widget(text, area);
    }
}

/// A key in the message box: the text area's own keys, with readline's Ctrl-U (delete to
/// the start of the line) where the text area would undo.
fn edit(area: &mut TextArea<'static>, key: KeyEvent) {
    if key.code == KeyCode::Char('u') && key.modifiers == KeyModifiers::CONTROL {
        area.delete_line_by_head();
    } else {
        area.input(key);
    }
}

/// Pasted text with its line ends as the text area keeps them: terminals paste lines
/// ending in CR (tmux, xterm, VTE) or CR LF, which would otherwise run together.
fn pasted_lines(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pasted_lines_keep_their_ends() {
        for pasted in [
            "line one\rline two\rline three",
            "line one\r\nline two\r\nline three",
            "line one\nline two\nline three",
        ] {
            let mut area = TextArea::default();
            area.insert_str(pasted_lines(pasted));
            assert_eq!(
                area.lines(),
                ["line one", "line two", "line three"],
                "{pasted:?}"
            );
        }
    }

    #[test]
    fn ctrl_u_deletes_to_the_start_of_the_line() {
        let mut area = TextArea::new(vec!["first".into(), "hello world".into()]);
        area.move_cursor(CursorMove::Bottom);
        area.move_cursor(CursorMove::End);
        for _ in 0..2 {
            edit(&mut area, KeyEvent::new(KeyCode::Left, KeyModifiers::NONE));
        }
        edit(
            &mut area,
            KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL),
        );
        assert_eq!(area.lines(), ["first", "ld"]);
    }
}
