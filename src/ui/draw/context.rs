//! What a component draws with besides its own state: the theme, the clock, the keymap
//! (for key names in titles) and where everything is on screen.

use crate::ui::input::keymap::Keymap;
use crate::ui::layout::Areas;
use crate::ui::state::{App, FrameClock};
use crate::ui::theme::Theme;

/// Shared by every view and popup's `draw`; made once per frame from the app.
pub struct DrawContext<'a> {
    pub theme: &'a Theme,
    pub now: FrameClock<'a>,
    pub keymap: &'a Keymap,
    pub areas: &'a Areas,
}

impl App {
    /// The context the components draw with, in `areas`.
    pub fn draw_context<'a>(&'a self, areas: &'a Areas) -> DrawContext<'a> {
        DrawContext {
            theme: &self.theme,
            now: self.shown_clock(),
            keymap: &self.keymap,
            areas,
        }
    }
}
