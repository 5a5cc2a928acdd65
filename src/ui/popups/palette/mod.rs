//! The `:` command palette: every action of the keymap by name (the built-in ones and
//! the config's commands), every view of the selected creature and every creature of the
//! garden, fuzzy matched as the operator types; Enter runs the one selected as if its key
//! were pressed. What it lists is gathered when it opens ([`crate::ui::update`]).

mod draw;
mod rank;

pub use draw::draw;

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::ui::focus::MainView;
use crate::ui::input::action::Action;

/// What an entry does when it is run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Action(Action),
    View(MainView),
    Creature(PathBuf),
}

/// One line of the palette.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub target: Target,
    /// What it is called (the action's hint, the view's title, the creature's name).
    pub name: String,
    /// What it does, in a few words (the help's line, "view", "creature").
    pub about: String,
    /// Its key, as the keymap shows it; empty for a creature or an unbound action.
    pub key: String,
    /// It does something now (else it is dimmed: running it says why not).
    pub enabled: bool,
}

impl Entry {
    /// The text the typed query is matched against.
    fn haystack(&self) -> String {
        format!("{} {}", self.name, self.about)
    }
}

/// The palette's state while it is open.
#[derive(Debug, Clone, Default)]
pub struct Palette {
    /// What was typed.
    pub input: String,
    entries: Vec<Entry>,
    /// The entries that match the input, best first (indexes into `entries`).
    shown: Vec<usize>,
    /// The selected row of `shown`.
    selected: usize,
}

impl Palette {
    /// Opens on `entries` with nothing typed.
    pub fn open(&mut self, entries: Vec<Entry>) {
        self.input.clear();
        self.entries = entries;
        self.rank();
    }

    /// The entries that match what was typed, best first.
    pub fn shown(&self) -> impl Iterator<Item = &Entry> {
        self.shown.iter().filter_map(|&i| self.entries.get(i))
    }

    pub fn selected_row(&self) -> usize {
        self.selected
    }

    /// The entry Enter runs.
    pub fn selected(&self) -> Option<&Entry> {
        self.entries.get(*self.shown.get(self.selected)?)
    }

    /// A key that is no action of the palette's: it edits the input or moves the
    /// selection. Returns whether anything changed.
    pub fn key(&mut self, key: KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Up => self.step(false),
            KeyCode::Char('p') if ctrl => self.step(false),
            KeyCode::Down => self.step(true),
            KeyCode::Char('n') if ctrl => self.step(true),
            KeyCode::Char('u') if ctrl => {
                self.input.clear();
                self.rank();
            }
            KeyCode::Char(c) if !ctrl => {
                self.input.push(c);
                self.rank();
            }
            KeyCode::Backspace => {
                self.input.pop();
                self.rank();
            }
            _ => return false,
        }
        true
    }

    /// Pasted text is typed (on one line).
    pub fn paste(&mut self, text: &str) {
        let text = text.replace(['\n', '\r'], " ");
        self.input.extend(text.chars().filter(|c| !c.is_control()));
        self.rank();
    }

    /// Moves the selection one row down (or up), wrapping.
    fn step(&mut self, down: bool) {
        let n = self.shown.len();
        if n == 0 {
            return;
        }
        self.selected = if down {
            (self.selected + 1) % n
        } else {
            (self.selected + n - 1) % n
        };
    }

    /// Matches the entries against the input again; the best is selected.
    fn rank(&mut self) {
        let haystacks: Vec<String> = self.entries.iter().map(Entry::haystack).collect();
        self.shown = rank::rank(&self.input, &haystacks);
        self.selected = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, about: &str, target: Target) -> Entry {
        Entry {
            target,
            name: name.into(),
            about: about.into(),
            key: String::new(),
            enabled: true,
        }
    }

    fn typed(p: &mut Palette, text: &str) {
        for c in text.chars() {
            p.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
    }

    fn names(p: &Palette) -> Vec<&str> {
        p.shown().map(|e| e.name.as_str()).collect()
    }

    #[test]
    fn typing_matches_fuzzily_best_first() {
        let mut p = Palette::default();
        p.open(vec![
            entry(
                "sleep",
                "force the creature to sleep now",
                Target::Action(Action::ForceSleep),
            ),
            entry(
                "wake",
                "wake the creature early",
                Target::Action(Action::Wake),
            ),
            entry("Dreams", "view", Target::View(MainView::Dreams)),
            entry("fern", "creature", Target::Creature("/g/fern".into())),
        ]);
        assert_eq!(p.shown().count(), 4, "nothing typed: everything, in order");
        typed(&mut p, "slp");
        assert_eq!(names(&p), ["sleep"]);
        p.key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        typed(&mut p, "frn");
        assert_eq!(
            p.selected().map(|e| &e.target),
            Some(&Target::Creature("/g/fern".into()))
        );
        for _ in 0..3 {
            p.key(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE));
        }
        typed(&mut p, "drea");
        assert_eq!(names(&p)[0], "Dreams");
        typed(&mut p, "zzz");
        assert!(p.selected().is_none());
    }

    #[test]
    fn the_selection_moves_and_wraps() {
        let mut p = Palette::default();
        p.open(vec![
            entry("a", "", Target::Action(Action::Help)),
            entry("b", "", Target::Action(Action::Quit)),
        ]);
        p.key(KeyEvent::new(KeyCode::Up, KeyModifiers::NONE));
        assert_eq!(p.selected().map(|e| e.name.as_str()), Some("b"));
        p.key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
        assert_eq!(p.selected_row(), 0);
        p.paste("b\r\n");
        assert_eq!(p.input, "b  ");
        assert_eq!(names(&p), ["b"]);
    }
}
