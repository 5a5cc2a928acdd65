//! The observatory without a terminal, on a [`TestBackend`]: screenshots, snapshot tests
//! and benchmarks drive it with keys and read the screen.

use std::collections::BTreeMap;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use crossterm::event::{KeyEvent, KeyEventKind, KeyEventState};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::draw::draw;
use super::input::keys::KeyChord;
use super::state::{App, Settings};
use super::update::Effect;
use crate::memory::cycle::Cycle;
use crate::memory::garden::Root;
use crate::search::spawn_search;
use crate::ui::input::keymap::Keymap;
use crate::ui::state::search;
use crate::ui::theme::Theme;
use crate::watch::{LiveGarden, WatchBatch, WatchOptions};

pub struct Headless {
    pub app: App,
    terminal: Terminal<TestBackend>,
}

impl Settings {
    /// Default keys and cycle constants with `theme`.
    pub fn with_theme(theme: Theme) -> Self {
        Self {
            keymap: Keymap::default(),
            theme,
            cycle: Cycle::default(),
        }
    }
}

impl Headless {
    /// Opens creatures or gardens at `paths` on a `width` x `height` screen, the clock
    /// stopped at `now`. Nothing is polled: [`Headless::refresh`] reads changes.
    pub fn open(
        paths: &[PathBuf],
        settings: Settings,
        now: DateTime<Utc>,
        width: u16,
        height: u16,
    ) -> Result<Self, String> {
        Self::open_hosting(paths, BTreeMap::new(), settings, now, width, height)
    }

    /// As [`Headless::open`], the creatures in `hosted` counting as hosted by this
    /// observatory with their runner's cycle constants (their control effects are
    /// returned by [`Headless::press`]).
    pub fn open_hosting(
        paths: &[PathBuf],
        hosted: BTreeMap<PathBuf, Cycle>,
        settings: Settings,
        now: DateTime<Utc>,
        width: u16,
        height: u16,
    ) -> Result<Self, String> {
        let roots = paths
            .iter()
            .map(|p| Root::classify(p))
            .collect::<Result<Vec<_>, _>>()?;
        let opts = WatchOptions {
            poll_interval: None,
            ..WatchOptions::default()
        };
        let (garden, _hints) = LiveGarden::open(roots, opts);
        let area = Rect::new(0, 0, width, height);
        let app = App::new(garden, settings, hosted, now, area);
        let terminal = Terminal::new(TestBackend::new(width, height)).map_err(|e| e.to_string())?;
        Ok(Self { app, terminal })
    }

    /// Presses a key by its config name (`j`, `ctrl-s`, `esc`). A search it starts runs
    /// to its end before this returns; other effects are returned, not performed.
    pub fn press(&mut self, name: &str) -> Result<Vec<Effect>, String> {
        let chord: KeyChord = name.parse()?;
        let effects = self.app.on_key(KeyEvent {
            code: chord.code,
            modifiers: chord.mods,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        });
        let mut rest = Vec::new();
        for effect in effects {
            match effect {
                Effect::Search { creature, query } => self.search(&creature, query),
                other => rest.push(other),
            }
        }
        Ok(rest)
    }

    fn search(&mut self, creature: &std::path::Path, query: String) {
        let Some(model) = self.app.garden.creature(creature) else {
            return;
        };
        let mut handle = spawn_search(search::request(model, query));
        let progress = handle.wait();
        let hits = handle.hits(0..progress.hits_stored);
        self.app
            .on_search_progress(hits, progress.hits_so_far, true, handle.errors());
    }

    /// Types text, one key per character.
    pub fn type_text(&mut self, text: &str) -> Vec<Effect> {
        let mut effects = Vec::new();
        for c in text.chars() {
            let chord = KeyChord::plain(c);
            effects.extend(self.app.on_key(KeyEvent::new(chord.code, chord.mods)));
        }
        effects
    }

    /// The terminal changes size.
    pub fn resize(&mut self, width: u16, height: u16) {
        self.terminal.backend_mut().resize(width, height);
        self.app.on_resize(width, height);
    }

    /// Re-reads every file, as a poll tick does.
    pub fn refresh(&mut self) {
        let changes = self.app.garden.apply(&WatchBatch {
            paths: Vec::new(),
            rescan: true,
        });
        self.app.on_changes(changes);
    }

    /// Draws a frame and returns the screen.
    pub fn render(&mut self) -> Result<&Buffer, String> {
        self.app.prepare();
        let app = &self.app;
        self.terminal
            .draw(|frame| draw(frame, app))
            .map_err(|e| e.to_string())?;
        self.app.dirty = false;
        Ok(self.terminal.backend().buffer())
    }

    /// The screen as text, one line per row.
    pub fn text(&mut self) -> Result<String, String> {
        let buf = self.render()?;
        let mut out = String::new();
        for y in 0..buf.area.height {
            let mut skip = 0;
            for x in 0..buf.area.width {
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                let symbol = buf[(x, y)].symbol();
                skip = unicode_width::UnicodeWidthStr::width(symbol).saturating_sub(1);
                out.push_str(symbol);
            }
            out.push('\n');
        }
        Ok(out)
    }
}
