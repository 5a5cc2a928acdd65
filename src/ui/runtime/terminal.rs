//! The terminal: raw mode, alternate screen and mouse on entry, colours mapped to its
//! depth; always restored, on return, on panic (a hook) and on signals (the event loop
//! ends, the guard drops).

use std::io::{self, Stdout, Write};
use std::sync::Once;

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::{Backend, CrosstermBackend};

use super::color_depth::{ColorDepth, DepthBackend};

pub type Term = Terminal<DepthBackend<CrosstermBackend<Stdout>>>;

/// Restores the terminal when dropped.
pub struct Guard {
    pub terminal: Term,
}

impl Guard {
    /// Takes over the terminal. Fails (leaving it as it was) when stdout is no terminal.
    pub fn enter() -> io::Result<Self> {
        install_panic_hook();
        take_over()?;
        let stdout = io::stdout();
        let backend = DepthBackend::new(CrosstermBackend::new(stdout), ColorDepth::detect());
        match Terminal::new(backend) {
            Ok(terminal) => Ok(Self { terminal }),
            Err(e) => {
                restore();
                Err(e)
            }
        }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Raw mode, the alternate screen, mouse capture, bracketed paste, no cursor. On failure
/// the terminal is put back as it was.
fn take_over() -> io::Result<()> {
    enable_raw_mode()?;
    if let Err(e) = execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste,
        cursor::Hide
    ) {
        restore();
        return Err(e);
    }
    Ok(())
}

/// Takes the terminal back after another program had it ([`restore`] gave it away), and
/// forgets what was on screen, so that the next frame is drawn whole.
pub fn resume(terminal: &mut Term) -> io::Result<()> {
    take_over()?;
    forget_screen(terminal)
}

/// Clears the screen and forgets what was drawn on it. Not `Terminal::clear`: that asks
/// the terminal where its cursor is (an answer read from stdin, which a slow or busy
/// terminal gives too late, and then the observatory ended); a full-screen viewport's
/// resize clears the same without asking anything.
fn forget_screen<B: Backend>(terminal: &mut Terminal<B>) -> Result<(), B::Error> {
    let area = terminal.size()?;
    terminal.resize(area.into())
}

/// Puts the terminal back: mouse off, main screen, cursor shown, cooked mode. Best effort:
/// each step is tried whatever the others did.
pub fn restore() {
    let mut stdout = io::stdout();
    let _ = execute!(stdout, DisableBracketedPaste);
    let _ = execute!(stdout, DisableMouseCapture);
    let _ = execute!(stdout, LeaveAlternateScreen);
    let _ = execute!(stdout, cursor::Show);
    let _ = disable_raw_mode();
    let _ = stdout.flush();
}

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

#[cfg(test)]
mod tests {
    use ratatui::backend::{ClearType, TestBackend, WindowSize};
    use ratatui::buffer::Cell;
    use ratatui::layout::{Position, Size};
    use ratatui::widgets::Paragraph;

    use super::*;

    /// A terminal that never answers where its cursor is, as a busy one over SSH may not
    /// in time; everything else is [`TestBackend`]'s.
    struct NoCursorAnswer(TestBackend);

    fn ok<T>(result: Result<T, std::convert::Infallible>) -> io::Result<T> {
        Ok(result.unwrap_or_else(|never| match never {}))
    }

    fn unanswered() -> io::Error {
        io::Error::other("the cursor position could not be read")
    }

    impl Backend for NoCursorAnswer {
        type Error = io::Error;
        fn draw<'a, I: Iterator<Item = (u16, u16, &'a Cell)>>(&mut self, c: I) -> io::Result<()> {
            ok(self.0.draw(c))
        }
        fn hide_cursor(&mut self) -> io::Result<()> {
            ok(self.0.hide_cursor())
        }
        fn show_cursor(&mut self) -> io::Result<()> {
            ok(self.0.show_cursor())
        }
        fn get_cursor_position(&mut self) -> io::Result<Position> {
            Err(unanswered())
        }
        fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
            ok(self.0.set_cursor_position(position))
        }
        fn clear(&mut self) -> io::Result<()> {
            ok(self.0.clear())
        }
        fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
            ok(self.0.clear_region(clear_type))
        }
        fn size(&self) -> io::Result<Size> {
            ok(self.0.size())
        }
        fn window_size(&mut self) -> io::Result<WindowSize> {
            ok(self.0.window_size())
        }
        fn flush(&mut self) -> io::Result<()> {
            ok(Backend::flush(&mut self.0))
        }
    }

    /// Taking the terminal back never waits on an answer from it, and the next frame is
    /// drawn whole over the cleared screen.
    #[test]
    fn the_screen_is_forgotten_without_asking_the_terminal_anything() {
        let mut terminal = Terminal::new(NoCursorAnswer(TestBackend::new(5, 1))).unwrap();
        let draw = |terminal: &mut Terminal<NoCursorAnswer>| {
            terminal
                .draw(|f| f.render_widget(Paragraph::new("dream"), f.area()))
                .map(|_| ())
        };
        draw(&mut terminal).unwrap();
        assert!(terminal.clear().is_err(), "the peer asks, and fails");
        forget_screen(&mut terminal).unwrap();
        terminal.backend().0.assert_buffer_lines(["     "]);
        draw(&mut terminal).unwrap();
        terminal.backend().0.assert_buffer_lines(["dream"]);
    }
}
