//! The Ranger: a conversation with OpenSeed's diagnostic agent about a creature. The
//! conversation over an input box (a text area, as the message box); Enter asks, the
//! answer comes whole once the Ranger is done. Closed, it keeps the conversation and
//! what is typed; the orchestrator keeps one conversation for everyone
//! ([`crate::openseed::ranger`]).

pub mod prepare;

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Clear};
use ratatui_textarea::TextArea;

use crate::openseed::RangerAnswer;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::draw::{DrawContext, doc};
use crate::ui::layout;
use crate::ui::prepare::inert;
use crate::ui::theme::Theme;
use prepare::Turn;

/// Rows of the input box, its border included.
const INPUT_ROWS: u16 = 5;

#[derive(Debug, Default)]
pub struct RangerPopup {
    input: TextArea<'static>,
    turns: Vec<Turn>,
    /// An answer is awaited.
    waiting: bool,
    /// The creature the questions are about (its name), if one was selected.
    about: Option<String>,
    lines: Vec<DocLine>,
    anchor: Anchor,
}

impl RangerPopup {
    /// Opens it about the creature `about` (none: the garden).
    pub fn open(&mut self, about: Option<String>, theme: &Theme, area: Rect) {
        self.about = about;
        self.input.set_style(theme.base);
        self.input.set_cursor_line_style(Style::default());
        self.input
            .set_placeholder_text("Ask the Ranger… (Enter asks, Alt-Enter: a new line)");
        self.input.set_placeholder_style(theme.muted);
        self.prepare(theme, area);
    }

    pub fn about(&self) -> Option<&str> {
        self.about.as_deref()
    }

    pub fn waiting(&self) -> bool {
        self.waiting
    }

    /// A key typed into the input box.
    pub fn key(&mut self, key: KeyEvent) {
        self.input.input(key);
    }

    pub fn paste(&mut self, text: &str) {
        self.input
            .insert_str(text.replace("\r\n", "\n").replace('\r', "\n"));
    }

    /// What is typed, taken out of the box as a question (none when there is nothing).
    pub fn take_question(&mut self, theme: &Theme, area: Rect) -> Option<String> {
        let text = self.input.lines().join("\n").trim().to_owned();
        if text.is_empty() {
            return None;
        }
        self.input = TextArea::default();
        self.open(self.about.clone(), theme, area);
        self.turns.push(Turn::Asked {
            about: self.about.clone(),
            text: text.clone(),
        });
        self.waiting = true;
        self.prepare(theme, area);
        Some(text)
    }

    /// The question could not be asked: it goes back into the box.
    pub fn give_back(&mut self, theme: &Theme, area: Rect) {
        if let Some(Turn::Asked { text, .. }) = self.turns.pop() {
            self.input = TextArea::new(text.lines().map(str::to_owned).collect());
            self.open(self.about.clone(), theme, area);
        }
        self.waiting = false;
        self.prepare(theme, area);
    }

    /// The Ranger's answer, or why there is none.
    pub fn answered(&mut self, answer: Result<RangerAnswer, String>, theme: &Theme, area: Rect) {
        self.turns.push(match answer {
            Ok(answer) => Turn::Answer(answer),
            Err(why) => Turn::Failed(why),
        });
        self.waiting = false;
        self.anchor = Anchor::End;
        self.prepare(theme, area);
    }

    /// The Ranger forgot the conversation.
    pub fn forgotten(&mut self, theme: &Theme, area: Rect) {
        self.turns.clear();
        self.anchor = Anchor::End;
        self.prepare(theme, area);
    }

    pub fn scroll(&mut self, area: Rect, step: Step) {
        self.anchor = scroll::scroll(&self.lines, self.anchor, viewport(area), step);
    }

    fn prepare(&mut self, theme: &Theme, area: Rect) {
        self.lines = prepare::lines(&self.turns, self.waiting, theme, viewport(area).width);
    }

    pub fn draw(&self, frame: &mut Frame, cx: &DrawContext) {
        let theme = cx.theme;
        let (talk, input) = split(layout::help(frame.area()));
        frame.render_widget(Clear, talk);
        frame.render_widget(Clear, input);
        let about = self
            .about
            .as_deref()
            .map_or_else(|| "the garden".to_owned(), inert);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border)
            .style(theme.base)
            .title(Span::styled(
                format!(" Ranger: OpenSeed's diagnostic agent, about {about} "),
                theme.title,
            ));
        let inner = block.inner(talk);
        frame.render_widget(
            doc::more_marks(block, inner, &self.lines, self.anchor, theme),
            talk,
        );
        doc::render(
            frame,
            inner,
            &self.lines,
            self.anchor,
            "Ask about any creature: the Ranger reads its files and logs, and can change its .self/ files and PURPOSE.md, edit its code, restart, wake and message it. Each question costs the orchestrator model calls.",
            theme,
        );
        let mut text = self.input.clone();
        text.set_block(
            Block::default()
                .borders(Borders::ALL)
                .border_style(theme.border_focused)
                .title(Span::styled(
                    if self.waiting {
                        " waiting for the Ranger… "
                    } else {
                        " ask "
                    },
                    theme.title,
                )),
        );
        frame.render_widget(&text, input);
    }
}

/// The conversation's box and the input box, in the popup's area.
fn split(area: Rect) -> (Rect, Rect) {
    let rows = INPUT_ROWS.min(area.height / 2);
    let talk = Rect {
        height: area.height - rows,
        ..area
    };
    let input = Rect {
        y: area.y + talk.height,
        height: rows,
        ..area
    };
    (talk, input)
}

/// The conversation's viewport on a screen of `area`.
fn viewport(area: Rect) -> Viewport {
    let (talk, _) = split(layout::help(area));
    Viewport {
        width: talk.width.saturating_sub(2),
        height: talk.height.saturating_sub(2),
    }
}
