//! The loop: wait for anything (a key, a file change, a runner's status, an outcome, a
//! report of the OpenSeed orchestrator, the clock, a signal), then drain everything else
//! that is ready, then draw once, and only if something changed. No fixed frame rate: an
//! idle screen is not redrawn.
//!
//! [`handle`] is what each wake does to the state; the headless screen drives the same
//! function, so what tests see is what the terminal gets.

use std::path::PathBuf;

use chrono::Utc;
use crossterm::event::{Event, EventStream, KeyEventKind};
use crossterm::terminal::{BeginSynchronizedUpdate, EndSynchronizedUpdate};
use std::task::Poll;

use futures_util::{FutureExt, StreamExt};
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::mpsc;

use super::handover::{hand_over, suspend};
use super::jobs::{Jobs, Outcome};
use super::review_edit::{self, DreamEdit};
use super::terminal::Term;
use super::ticks::next_tick;
use crate::control::HostStatus;
use crate::openseed::Update;
use crate::ui::draw::draw;
use crate::ui::state::App;
use crate::ui::update::{Foreground, Job};
use crate::watch::WatchBatch;

/// Everything that can wake the loop.
pub struct Sources {
    pub watch: mpsc::UnboundedReceiver<WatchBatch>,
    pub hosts: mpsc::UnboundedReceiver<(PathBuf, HostStatus)>,
    /// What became of commands sent in the background (control sockets).
    pub outcomes: mpsc::UnboundedReceiver<Outcome>,
    /// What the attached OpenSeed orchestrator reports, when one is attached.
    pub openseed: Option<mpsc::UnboundedReceiver<Update>>,
    /// What the connections to gardens on other machines report (by mirror root).
    pub remotes: mpsc::UnboundedReceiver<(PathBuf, crate::remote::Update)>,
}

/// The next report of the attached orchestrator; never, when none is attached.
async fn next_report(rx: &mut Option<mpsc::UnboundedReceiver<Update>>) -> Option<Update> {
    match rx {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// How often a running search is polled for new hits.
const SEARCH_POLL: std::time::Duration = std::time::Duration::from_millis(30);

/// The most wakes drained after the first before the screen is drawn again (and the
/// quit flag looked at): a flood of reports cannot keep the loop from the keys.
const DRAIN_MAX: usize = 256;
/// Nor keep it draining for longer than this.
const DRAIN_BUDGET: std::time::Duration = std::time::Duration::from_millis(50);

pub enum Wake {
    Terminal(Option<std::io::Result<Event>>),
    Watch(WatchBatch),
    Host(PathBuf, HostStatus),
    Outcome(Outcome),
    OpenSeed(Update),
    Remote(PathBuf, crate::remote::Update),
    Tick,
    Signal,
    /// Creatures of a large garden opened beside the loop: taken in.
    Load,
    /// The garden is in: the watched history's first looks left while it loaded.
    Looks,
}

/// Creatures of a large garden taken in per wake at most while it loads (a frame in
/// between): they are opened on other threads, taking one in builds its views.
const LOAD_BATCH: usize = 32;

/// First looks of the watched history taken per wake once the garden is in (a frame in
/// between: on a first run each writes the store's files of a creature).
const LOOK_BATCH: usize = 16;

pub async fn run(
    app: &mut App,
    terminal: &mut Term,
    mut sources: Sources,
    mut jobs: Jobs,
) -> anyhow::Result<()> {
    let mut events = EventStream::new();
    let mut hangup = super::hangup::watch();
    let mut sigterm = signal(SignalKind::terminate())?;
    let mut sighup = signal(SignalKind::hangup())?;
    let mut sigint = signal(SignalKind::interrupt())?;
    // When the clock next changes the screen: kept across wakes, so that a creature
    // writing more often than once a second cannot keep pushing the tick away.
    let mut deadline = tokio::time::Instant::now() + next_tick(app, Utc::now());
    // The creature selected at the first frame (a large garden loads after it).
    let opened_on = app.selected.clone();
    loop {
        if app.quit {
            // What was shown changing is recorded before the end.
            app.take_looks_at_changes();
            return Ok(());
        }
        let now = tokio::time::Instant::now();
        if now >= deadline {
            // Due while something else woke the loop.
            if !jobs.searching() {
                app.tick(Utc::now());
                // A play's move asks for its past.
                for job in app.take_time_jobs() {
                    jobs.perform(app, job);
                }
            }
            deadline = now + next_tick(app, Utc::now());
        } else {
            // A creature may have just fallen asleep: its countdown may be due sooner.
            deadline = deadline.min(now + next_tick(app, Utc::now()));
        }
        // What needs a person, found before the frame (its status-log lines in it).
        app.scan_needs();
        if app.dirty {
            app.prepare();
            crossterm::execute!(terminal.backend_mut(), BeginSynchronizedUpdate)?;
            terminal.draw(|frame| draw(frame, app))?;
            crossterm::execute!(terminal.backend_mut(), EndSynchronizedUpdate)?;
            app.drawn();
            // Its texts made of the clock may change sooner than the last frame's.
            deadline = deadline.min(tokio::time::Instant::now() + next_tick(app, Utc::now()));
            // The first frame is out: what it did not need may be read now.
            crate::memory::background::release();
            // Far conversations' windows asked for (the shown one's first).
            for job in app.take_remote_jobs() {
                jobs.perform(app, job);
            }
        }
        if app.take_bell() {
            // BEL: the terminal rings or flashes, as it is set up to.
            std::io::Write::write_all(terminal.backend_mut(), b"\x07")?;
            std::io::Write::flush(terminal.backend_mut())?;
        }
        // Notifications: between frames, never inside one.
        let runs = super::notify::tell(app, terminal.backend_mut())?;
        jobs.notify(runs);
        let until = if jobs.searching() {
            now + SEARCH_POLL
        } else {
            deadline
        };
        let tick = tokio::time::sleep_until(until);
        let loading = app.garden.loading().is_some();
        let looks = app.looks_due();
        let first = tokio::select! {
            () = app.garden.opened(), if loading => Wake::Load,
            () = std::future::ready(()), if looks => Wake::Looks,
            ev = events.next() => Wake::Terminal(ev),
            // The terminal went away: as the end of its stream.
            Some(()) = hangup.recv() => Wake::Terminal(None),
            Some(batch) = sources.watch.recv() => Wake::Watch(batch),
            Some((path, status)) = sources.hosts.recv() => Wake::Host(path, status),
            Some(outcome) = sources.outcomes.recv() => Wake::Outcome(outcome),
            Some(update) = next_report(&mut sources.openseed) => Wake::OpenSeed(update),
            Some((root, update)) = sources.remotes.recv() => Wake::Remote(root, update),
            () = tick => Wake::Tick,
            _ = sigterm.recv() => Wake::Signal,
            _ = sighup.recv() => Wake::Signal,
            _ = sigint.recv() => Wake::Signal,
        };
        // What the wake changes, and the frame after it, are of their time.
        app.set_now(Utc::now());
        // The watcher's batches are merged and applied once a wake (a flood of them costs
        // one look at the garden, not one each).
        let mut watched: Option<WatchBatch> = None;
        let mut foreground = match first {
            Wake::Watch(batch) if !batch.poll_tick => {
                watched = Some(batch);
                Vec::new()
            }
            first => perform(app, &mut jobs, first)?,
        };
        if loading && app.garden.loading().is_none() && app.selected == opened_on {
            // Loaded: the top of the list as it is shown, unless a creature was chosen.
            app.selected = app.garden_order().first().cloned().or(app.selected.take());
        }
        // Drain whatever else is ready, so that a burst costs one frame; keys and signals
        // first, and never for long: a quit is answered at once.
        let started = std::time::Instant::now();
        for _ in 0..DRAIN_MAX {
            if app.quit || started.elapsed() >= DRAIN_BUDGET {
                break;
            }
            let next = if let Poll::Ready(ev) = ready_now(&mut events).await {
                Wake::Terminal(ev)
            } else if signalled_now(&mut [&mut sigterm, &mut sighup, &mut sigint]).await {
                Wake::Signal
            } else if let Ok(batch) = sources.watch.try_recv() {
                if !batch.poll_tick {
                    merge(&mut watched, batch);
                    continue;
                }
                Wake::Watch(batch)
            } else if let Ok((path, status)) = sources.hosts.try_recv() {
                Wake::Host(path, status)
            } else if let Ok(outcome) = sources.outcomes.try_recv() {
                Wake::Outcome(outcome)
            } else if let Some(Ok(update)) = sources.openseed.as_mut().map(|rx| rx.try_recv()) {
                Wake::OpenSeed(update)
            } else if let Ok((root, update)) = sources.remotes.try_recv() {
                Wake::Remote(root, update)
            } else {
                break;
            };
            foreground.extend(perform(app, &mut jobs, next)?);
        }
        if let Some(batch) = watched.take()
            && !app.quit
        {
            foreground.extend(perform(app, &mut jobs, Wake::Watch(batch))?);
        }
        for handover in foreground {
            let (fg, edit) = match handover {
                Handover::Program(fg, edit) => (fg, edit),
                Handover::Suspend => {
                    events = suspend(terminal, events)?;
                    app.dirty = true;
                    continue;
                }
            };
            let (stream, ended) = hand_over(terminal, events, &fg).await?;
            events = stream;
            // Ctrl-C typed for the program reached this process too (one process
            // group): it was not meant to quit the observatory.
            while let Some(Some(())) = sigint.recv().now_or_never() {}
            match edit {
                Some(edit) => {
                    for job in review_edit::finish(app, &fg, &edit, ended) {
                        jobs.perform(app, job);
                    }
                }
                None => app.on_handed_back(&fg, ended),
            }
        }
        // Polled after every wake, so that a busy garden cannot starve it.
        if jobs.searching() {
            jobs.poll_search(app);
        }
    }
}

/// Polls the terminal stream once with this task's own waker (a throwaway waker, as
/// `now_or_never` gives, would be the one crossterm wakes later, and keys would be lost).
async fn ready_now(events: &mut EventStream) -> Poll<Option<std::io::Result<Event>>> {
    std::future::poll_fn(|cx| Poll::Ready(events.poll_next_unpin(cx))).await
}

/// Adds the hints of `batch` to those of `into`.
fn merge(into: &mut Option<WatchBatch>, batch: WatchBatch) {
    match into {
        Some(held) => {
            held.rescan |= batch.rescan;
            held.paths.extend(batch.paths);
            if held.paths.len() > 4096 {
                held.paths.sort();
                held.paths.dedup();
                if held.paths.len() > 4096 {
                    // So many hints: everything is re-stat'ed instead, once.
                    held.paths.clear();
                    held.rescan = true;
                }
            }
        }
        None => *into = Some(batch),
    }
}

/// Whether one of the signals has come, polled once with this task's own waker.
async fn signalled_now(signals: &mut [&mut tokio::signal::unix::Signal]) -> bool {
    std::future::poll_fn(|cx| {
        Poll::Ready(
            signals
                .iter_mut()
                .any(|s| matches!(s.poll_recv(cx), Poll::Ready(Some(())))),
        )
    })
    .await
}

/// What the terminal is handed over for: a program (and the dream it edits, if it
/// does), or the shell while the observatory is suspended.
enum Handover {
    Program(Foreground, Option<DreamEdit>),
    Suspend,
}

/// Applies a wake to the state, then performs the jobs it asks for, but for the
/// programs to hand the terminal to, which it returns (the loop runs them).
fn perform(app: &mut App, jobs: &mut Jobs, wake: Wake) -> anyhow::Result<Vec<Handover>> {
    let mut foreground = Vec::new();
    for job in handle(app, wake)? {
        match job {
            Job::Foreground(fg) => foreground.push(Handover::Program(fg, None)),
            Job::Suspend => foreground.push(Handover::Suspend),
            Job::EditDream {
                creature,
                name,
                text,
            } => match review_edit::start(&creature, &name, &text) {
                Ok((fg, edit)) => foreground.push(Handover::Program(fg, Some(edit))),
                Err(e) => app.set_notice(
                    format!("cannot edit {name}'s dream: a file for it: {e}"),
                    true,
                ),
            },
            job => jobs.perform(app, job),
        }
    }
    Ok(foreground)
}

/// What one wake does to the state; returns the jobs (IO) it asks for, not performed.
pub fn handle(app: &mut App, wake: Wake) -> std::io::Result<Vec<Job>> {
    // Changes of files are looked at creature by creature, and a tick looks at the
    // creatures the clock may change (`App::tick`); the watched history's looks change
    // nothing a creature needs; anything else may change what any creature needs.
    if !matches!(wake, Wake::Watch(_) | Wake::Tick | Wake::Looks) {
        app.look_at_all();
    }
    let mut jobs = match wake {
        Wake::Terminal(None) => {
            app.quit = true;
            Vec::new()
        }
        Wake::Terminal(Some(Err(e))) => return Err(e),
        Wake::Terminal(Some(Ok(event))) => match event {
            Event::Key(key) => {
                if key.kind != KeyEventKind::Release {
                    app.dismiss_notice();
                }
                app.on_key(key)
            }
            Event::Mouse(mouse) => {
                app.on_mouse(mouse);
                Vec::new()
            }
            Event::Resize(w, h) => {
                app.on_resize(w, h);
                Vec::new()
            }
            Event::Paste(text) => {
                app.on_paste(&text);
                Vec::new()
            }
            Event::FocusGained | Event::FocusLost => Vec::new(),
        },
        Wake::Watch(batch) => {
            let changes = app.garden.apply(&batch);
            app.on_changes(changes);
            Vec::new()
        }
        Wake::Host(path, status) => {
            app.on_host_status(&path, status);
            Vec::new()
        }
        Wake::Outcome(outcome) => {
            app.on_outcome(outcome);
            Vec::new()
        }
        Wake::OpenSeed(update) => {
            app.on_openseed(update);
            Vec::new()
        }
        Wake::Remote(root, update) => {
            app.on_remote(&root, update);
            Vec::new()
        }
        // The clock itself is read at the top of the loop, against the deadline.
        Wake::Tick => Vec::new(),
        Wake::Load => {
            let changes = app.garden.take_opened(LOAD_BATCH);
            app.on_changes(changes);
            app.set_loading(app.garden.loading());
            Vec::new()
        }
        Wake::Looks => {
            app.take_looks(LOOK_BATCH);
            Vec::new()
        }
        Wake::Signal => {
            app.quit = true;
            Vec::new()
        }
    };
    // The time cursor's builds asked for where no job could be returned.
    jobs.extend(app.take_time_jobs());
    Ok(jobs)
}
