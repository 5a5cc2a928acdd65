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
use ratatui::backend::CrosstermBackend;

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
    terminal.clear()
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
