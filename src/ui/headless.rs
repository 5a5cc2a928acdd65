//! The observatory without a terminal, on a [`TestBackend`]: screenshots, snapshot tests
//! and benchmarks drive it with keys and read the screen. Every event goes through the
//! event loop's own [`handle`]; only the clock (stopped) and the jobs (searches run to
//! their end, blames and comparisons made in place, the rest returned) are the
//! harness's.

use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use crossterm::event::{Event, KeyEvent, KeyEventKind, KeyEventState, MouseEvent};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use tokio::sync::mpsc;

use super::draw::draw;
use super::input::keys::KeyChord;
use super::runtime::event_loop::{Wake, handle};
use super::runtime::jobs::{Jobs, recorder};
use super::state::{App, Settings};
use super::update::{Job, Outcome, Recorded};
use crate::control::HostStatus;
use crate::memory::cycle::Cycle;
use crate::memory::garden::Root;
use crate::memory::streams::CountGate;
use crate::openseed::Update;
use crate::ui::input::keymap::Keymap;
use crate::ui::state::openseed::OpenSeedUi;
use crate::ui::state::remote::RemoteUi;
use crate::ui::theme::Theme;
use crate::watch::{LiveGarden, WatchBatch, WatchOptions};

pub struct Headless {
    pub app: App,
    terminal: Terminal<TestBackend>,
    /// Performs searches (no runner is reached from here).
    jobs: Jobs,
    /// The time cursor's builds held back ([`Headless::hold_builds`]), in order.
    held: Option<Vec<crate::ui::time::build::PastAsk>>,
}

impl Settings {
    /// Default keys and cycle constants with `theme`.
    pub fn with_theme(theme: Theme) -> Self {
        Self {
            keymap: Keymap::default(),
            theme,
            cycle: Cycle::default(),
            read_only: false,
            bell: false,
            history: None,
            prices: crate::llm::prices::Prices::builtin(),
            ascii: false,
            demo_speed: None,
            notify: Default::default(),
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
    /// observatory with their runner's cycle constants (their control jobs are
    /// returned by [`Headless::press`]).
    pub fn open_hosting(
        paths: &[PathBuf],
        hosted: BTreeMap<PathBuf, Cycle>,
        settings: Settings,
        now: DateTime<Utc>,
        width: u16,
        height: u16,
    ) -> Result<Self, String> {
        let area = Rect::new(0, 0, width, height);
        Self::open_gated(paths, hosted, settings, now, area, CountGate::default())
    }

    /// As [`Headless::open`], the background counts of large logs waiting at `gate`: a
    /// test holds it to see a log while it is still being counted.
    pub fn open_counting(
        paths: &[PathBuf],
        settings: Settings,
        now: DateTime<Utc>,
        area: Rect,
        gate: CountGate,
    ) -> Result<Self, String> {
        Self::open_gated(paths, BTreeMap::new(), settings, now, area, gate)
    }

    fn open_gated(
        paths: &[PathBuf],
        hosted: BTreeMap<PathBuf, Cycle>,
        settings: Settings,
        now: DateTime<Utc>,
        area: Rect,
        gate: CountGate,
    ) -> Result<Self, String> {
        let roots = paths
            .iter()
            .map(|p| Root::classify(p).map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()?;
        let opts = WatchOptions {
            poll_interval: None,
            ..WatchOptions::default()
        };
        let (garden, _hints) = LiveGarden::open_gated(roots, opts, gate);
        let app = App::new(garden, settings, hosted, now, area);
        let backend = TestBackend::new(area.width, area.height);
        let terminal = Terminal::new(backend).map_err(|e| e.to_string())?;
        // Nobody reads the outcomes: only searches are performed here, and they have none.
        let (outcomes, _) = mpsc::unbounded_channel();
        let jobs = Jobs::new(HashMap::new(), outcomes);
        Ok(Self {
            app,
            terminal,
            jobs,
            held: None,
        })
    }

    /// Presses a key by its config name (`j`, `ctrl-s`, `esc`). A search it starts runs
    /// to its end before this returns; other jobs are returned, not performed.
    pub fn press(&mut self, name: &str) -> Result<Vec<Job>, String> {
        let chord: KeyChord = name.parse()?;
        Ok(self.event(Event::Key(KeyEvent {
            code: chord.code,
            modifiers: chord.mods,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        })))
    }

    /// Types text, one key per character.
    pub fn type_text(&mut self, text: &str) -> Vec<Job> {
        let mut jobs = Vec::new();
        for c in text.chars() {
            let chord = KeyChord::plain(c);
            jobs.extend(self.event(Event::Key(KeyEvent::new(chord.code, chord.mods))));
        }
        jobs
    }

    /// A mouse event.
    pub fn mouse(&mut self, mouse: MouseEvent) -> Vec<Job> {
        self.event(Event::Mouse(mouse))
    }

    /// The terminal changes size.
    pub fn resize(&mut self, width: u16, height: u16) {
        self.terminal.backend_mut().resize(width, height);
        self.event(Event::Resize(width, height));
    }

    /// The runner hosting `creature` reports its status.
    pub fn host_status(&mut self, creature: &Path, status: HostStatus) {
        self.wake(Wake::Host(creature.to_path_buf(), status));
    }

    /// Attaches the screen to an OpenSeed orchestrator (described as `target`) whose
    /// reports come through [`Headless::openseed`].
    pub fn attach_openseed(&mut self, target: &str) {
        self.app.openseed = Some(OpenSeedUi::new(target.to_owned()));
    }

    /// Follows the far garden whose copies sit in `root` (a garden opened here), on
    /// `host`; its connection's reports come through [`Headless::remote`].
    pub fn add_remote(&mut self, root: &Path, host: &str) {
        let place = format!("ssh://{host}/garden");
        self.app
            .add_remote(root.to_path_buf(), RemoteUi::new(host, &place));
    }

    /// The connection of the far garden at `root` reports `update`.
    pub fn remote(&mut self, root: &Path, update: crate::remote::Update) {
        self.wake(Wake::Remote(root.to_path_buf(), update));
    }

    /// The attached orchestrator reports `update`.
    pub fn openseed(&mut self, update: Update) {
        self.wake(Wake::OpenSeed(update));
    }

    /// What became of a job performed in the background arrives.
    pub fn outcome(&mut self, outcome: Outcome) {
        self.wake(Wake::Outcome(outcome));
    }

    /// The clock moves on to `now`, as the loop's tick does.
    pub fn tick(&mut self, now: DateTime<Utc>) {
        self.app.tick(now);
        // A play's move: its past built at once here.
        let jobs = self.app.take_time_jobs();
        self.run_in_place(jobs);
    }

    /// Re-reads every file, as a poll tick does.
    pub fn refresh(&mut self) {
        self.wake(Wake::Watch(WatchBatch {
            paths: Vec::new(),
            rescan: true,
            poll_tick: false,
        }));
    }

    /// The watcher reports changes to `paths`, as it does for a write there.
    pub fn changed(&mut self, paths: Vec<PathBuf>) {
        self.wake(Wake::Watch(WatchBatch {
            paths,
            rescan: false,
            poll_tick: false,
        }));
    }

    fn event(&mut self, event: Event) -> Vec<Job> {
        self.wake(Wake::Terminal(Some(Ok(event))))
    }

    /// Handles a wake as the event loop does; performs the searches it asks for, to their
    /// end, and returns the other jobs.
    fn wake(&mut self, wake: Wake) -> Vec<Job> {
        // Only a terminal's read error fails, and there is no terminal here.
        let jobs = handle(&mut self.app, wake).unwrap_or_default();
        self.run_in_place(jobs)
    }

    /// The watched history's first looks left for after the first frame, taken as the
    /// loop takes them once it is out (the first frame is drawn without them).
    fn take_due_looks(&mut self) {
        while self.app.looks_due() {
            self.app.take_looks(usize::MAX);
        }
    }

    /// Performs the jobs done in place here (searches, the flight recorder's work) and
    /// returns the others.
    fn run_in_place(&mut self, jobs: Vec<Job>) -> Vec<Job> {
        let mut rest = Vec::new();
        for job in jobs {
            match job {
                search @ Job::Search { .. } => {
                    self.jobs.perform(&mut self.app, search);
                    self.jobs.finish_search(&mut self.app);
                }
                // The flight recorder's work, done in place (the clock is the harness's).
                Job::Blame { ask, history } => {
                    let answer = recorder::blame(&ask, history, self.app.now());
                    let recorded = Recorded::Blame(ask, answer);
                    self.wake(Wake::Outcome(recorder::outcome(recorded)));
                }
                Job::Compare { ask, history } => {
                    let answer = recorder::compare(&ask, history, Utc::now());
                    let recorded = Recorded::Compare(ask, answer);
                    self.wake(Wake::Outcome(recorder::outcome(recorded)));
                }
                // A life is indexed at once here.
                Job::IndexLife { creature } => {
                    self.app
                        .on_time_index(crate::ui::time::IndexDone::build(creature));
                    let asked = self.app.take_time_jobs();
                    rest.extend(self.run_in_place(asked));
                }
                // A cursor's move is built at once here: the past is drawn as it moves.
                Job::BuildPast(ask) if self.held.is_some() => {
                    self.held.get_or_insert_default().push(*ask);
                }
                Job::BuildPast(ask) => {
                    let done = Recorded::Past((*ask).build());
                    rest.extend(self.wake(Wake::Outcome(recorder::outcome(done))));
                }
                other => rest.push(other),
            }
        }
        rest
    }

    /// Holds the time cursor's builds back (as if each took long) until
    /// [`Headless::finish_builds`]: the screen can be seen while one is under way.
    pub fn hold_builds(&mut self) {
        self.held = Some(Vec::new());
    }

    /// Performs the builds held back, and those their answers ask for, until none is
    /// asked; gives how many were performed. Builds are held no longer.
    pub fn finish_builds(&mut self) -> usize {
        let mut done = 0;
        while let Some(ask) = self
            .held
            .as_mut()
            .and_then(|h| (!h.is_empty()).then(|| h.remove(0)))
        {
            done += 1;
            let built = Recorded::Past(ask.build());
            self.wake(Wake::Outcome(recorder::outcome(built)));
        }
        self.held = None;
        done
    }

    /// Draws a frame and returns the screen.
    pub fn render(&mut self) -> Result<&Buffer, Infallible> {
        self.app.prepare();
        let app = &self.app;
        self.terminal.draw(|frame| draw(frame, app))?;
        self.app.drawn();
        // Taken at once, as the loop takes them: for the next frame.
        self.take_due_looks();
        Ok(self.terminal.backend().buffer())
    }

    /// The screen as text, one line per row.
    pub fn text(&mut self) -> Result<String, Infallible> {
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
