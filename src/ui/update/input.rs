//! Terminal events to actions: keys through the keymap (per mode), the mouse by position.
//! In the message box and the search prompt, unbound keys edit the text.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind};

use super::Job;
use crate::ui::focus::{Mode, Pane};
use crate::ui::input::action::Action;
use crate::ui::input::hints::why_not;
use crate::ui::input::keymap::QUIT_ALWAYS;
use crate::ui::input::keys::KeyChord;
use crate::ui::state::App;

impl App {
    pub fn on_key(&mut self, key: KeyEvent) -> Vec<Job> {
        if key.kind == KeyEventKind::Release {
            return Vec::new();
        }
        self.read_shown_changes();
        let chord = KeyChord::from(key);
        if chord == KeyChord::ctrl(QUIT_ALWAYS) {
            // The way out that always works, at once.
            self.quit = true;
            return Vec::new();
        }
        let layers = (self.pane == Pane::Garden, self.in_past());
        if let Some(action) = self.keymap.lookup(self.mode, layers, chord, self.views()) {
            if self.mode == Mode::Normal
                && let Some(why) = why_not(action, &self.hint_context())
            {
                let hint = action.spec().hint;
                self.set_notice(format!("{chord} ({hint}) does nothing here: {why}"), false);
                return Vec::new();
            }
            return self.apply(action);
        }
        // A key that is no action (Esc where nothing is open) takes a question back too.
        if self.confirm.take().is_some() {
            self.set_notice("cancelled: nothing was done", false);
            return Vec::new();
        }
        match self.mode {
            Mode::Message => {
                if self.popups.message.key(key) {
                    self.dirty = true;
                }
            }
            Mode::Search => self.edit_search(key),
            Mode::Filter => self.edit_filter(key),
            Mode::Palette => {
                if self.popups.palette.key(key) {
                    self.dirty = true;
                }
            }
            Mode::OpenSeedForm => {
                if let Some(form) = self.popups.openseed_form.as_mut()
                    && form.key(key)
                {
                    self.dirty = true;
                }
            }
            Mode::Ranger => {
                self.popups.ranger.key(key);
                self.dirty = true;
            }
            Mode::Jump => self.edit_jump(key),
            Mode::Normal if says_something(key) => {
                let help = self.keymap.mention(Action::Help, ": {} lists the keys");
                self.set_notice(format!("{chord} is not a key here{help}"), false);
            }
            Mode::Normal
            | Mode::Garden
            | Mode::Help
            | Mode::Review
            | Mode::Hits
            | Mode::Log
            | Mode::Detail
            | Mode::Blame
            | Mode::ComparePick
            | Mode::Compare
            | Mode::OpenSeedMenu
            | Mode::Mail
            | Mode::Narration
            | Mode::GenomeFiles
            | Mode::Past => {}
        }
        Vec::new()
    }

    fn edit_search(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.search.input.push(c);
            }
            KeyCode::Backspace => {
                self.search.input.pop();
            }
            _ => return,
        }
        self.dirty = true;
    }

    fn edit_filter(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.garden_view.filter.push(c);
            }
            KeyCode::Backspace => {
                self.garden_view.filter.pop();
            }
            _ => return,
        }
        self.follow_filter();
        self.dirty = true;
    }

    /// The wheel scrolls the pane under it; a click focuses a pane, a tab or a creature.
    pub fn on_mouse(&mut self, mouse: MouseEvent) {
        if self.mode != Mode::Normal {
            return;
        }
        let (column, row) = (mouse.column, mouse.row);
        match mouse.kind {
            MouseEventKind::ScrollUp => self.wheel(column, row, false),
            MouseEventKind::ScrollDown => self.wheel(column, row, true),
            MouseEventKind::Down(_) => self.click(column, row),
            _ => return,
        }
        self.dirty = true;
    }

    /// Pasted text goes into the message box or the search prompt.
    pub fn on_paste(&mut self, text: &str) {
        match self.mode {
            Mode::Message => {
                self.popups.message.paste(text);
            }
            Mode::Search => self.search.input.push_str(&text.replace(['\n', '\r'], " ")),
            Mode::OpenSeedForm => {
                if let Some(form) = self.popups.openseed_form.as_mut() {
                    form.paste(text);
                }
            }
            Mode::Filter => {
                let text = text.replace(['\n', '\r'], " ");
                let text = text.chars().filter(|c| !c.is_control());
                self.garden_view.filter.extend(text);
                self.follow_filter();
            }
            Mode::Palette => self.popups.palette.paste(text),
            Mode::Ranger => self.popups.ranger.paste(text),
            Mode::Jump => self.time.jump.push_str(&text.replace(['\n', '\r'], " ")),
            Mode::Normal
            | Mode::Garden
            | Mode::Help
            | Mode::Review
            | Mode::Hits
            | Mode::Log
            | Mode::Detail
            | Mode::Blame
            | Mode::ComparePick
            | Mode::Compare
            | Mode::OpenSeedMenu
            | Mode::Mail
            | Mode::Narration
            | Mode::GenomeFiles
            | Mode::Past => {
                return;
            }
        }
        self.dirty = true;
    }

    pub fn on_resize(&mut self, width: u16, height: u16) {
        self.area.width = width;
        self.area.height = height;
        self.dirty = true;
    }
}

/// Whether an unbound key was pressed meaning something (a character or a function
/// key), so that saying it is not a key helps: not a lone modifier or a media key.
fn says_something(key: KeyEvent) -> bool {
    matches!(key.code, KeyCode::Char(_) | KeyCode::F(_))
}
