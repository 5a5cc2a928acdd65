use std::collections::BTreeSet;
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc as std_mpsc;
use std::thread;
use std::time::{Duration, Instant};

#[cfg(not(target_os = "linux"))]
use notify::{RecommendedWatcher, RecursiveMode};
use tokio::sync::mpsc;

/// Paths that changed (hints: the model stats them), or a request to re-stat everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WatchBatch {
    pub paths: Vec<PathBuf>,
    /// Re-stat every tracked file: an event queue overflow (or a test's request).
    pub rescan: bool,
    /// A tick of the polling fallback: everything is re-stat'ed when polling is all there
    /// is. Beside filesystem events it ticks only while something is left to settle (see
    /// [`Watcher::tick_while`]), and then re-stats only that.
    pub poll_tick: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WatchOptions {
    /// How often everything is re-stat'ed where a filesystem sends no events, and how
    /// often the safety net ticks beside events while it is needed. `None` disables it.
    pub poll_interval: Option<Duration>,
    /// Do not use filesystem events at all.
    pub force_poll: bool,
    /// Events arriving within this window after the first are merged into one batch.
    pub batch_window: Duration,
    /// How long a file must be left alone before its unfinished last line is shown
    /// (shown at the first re-stat after that: a poll tick).
    pub settle: Duration,
}

impl Default for WatchOptions {
    fn default() -> Self {
        Self {
            poll_interval: Some(Duration::from_secs(2)),
            force_poll: false,
            batch_window: Duration::from_millis(3),
            settle: crate::memory::whole_files::DEFAULT_SETTLE,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchMode {
    Events,
    Polling,
}

/// What watches one directory (non-recursively): inotify asked for changes only on
/// Linux, notify's watcher elsewhere, or a fake in tests.
pub(super) trait DirWatch: Send {
    fn watch(&mut self, dir: &Path) -> notify::Result<()>;
    fn unwatch(&mut self, dir: &Path) -> notify::Result<()>;
}

/// Starts the directory watch whose events go to `tx`.
#[cfg(target_os = "linux")]
fn dir_watch(
    tx: std_mpsc::Sender<notify::Result<notify::Event>>,
) -> notify::Result<Box<dyn DirWatch>> {
    let events = super::dir_events::DirEvents::start(tx).map_err(notify::Error::io)?;
    Ok(Box::new(events))
}

#[cfg(not(target_os = "linux"))]
fn dir_watch(
    tx: std_mpsc::Sender<notify::Result<notify::Event>>,
) -> notify::Result<Box<dyn DirWatch>> {
    Ok(Box::new(notify::recommended_watcher(tx)?))
}

#[cfg(not(target_os = "linux"))]
impl DirWatch for RecommendedWatcher {
    fn watch(&mut self, dir: &Path) -> notify::Result<()> {
        notify::Watcher::watch(self, dir, RecursiveMode::NonRecursive)
    }

    fn unwatch(&mut self, dir: &Path) -> notify::Result<()> {
        notify::Watcher::unwatch(self, dir)
    }
}

/// One watcher for every directory of every creature.
pub struct Watcher {
    inner: Option<Box<dyn DirWatch>>,
    /// The directories asked for by the last [`Watcher::set_dirs`].
    wanted: BTreeSet<PathBuf>,
    /// Those actually watched (the others did not exist yet).
    watched: BTreeSet<PathBuf>,
    mode: WatchMode,
    tx: mpsc::UnboundedSender<WatchBatch>,
    /// Tells the poller whether to tick (`None`: no poller).
    ticking: Option<std_mpsc::Sender<bool>>,
    /// What the poller was told last (it starts ticking).
    ticks: bool,
    /// Set once the events could not be trusted: a watch error, an overflowed queue, a
    /// directory that could not be watched. The safety net ticks from then on.
    troubled: Arc<AtomicBool>,
    /// A wanted directory is missing where no event would say it appeared (its parent
    /// is not watched either).
    orphans: bool,
}

impl Watcher {
    /// Starts watching nothing yet; batches arrive on the returned channel.
    pub fn start(opts: WatchOptions) -> (Self, mpsc::UnboundedReceiver<WatchBatch>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let troubled = Arc::new(AtomicBool::new(false));
        let inner = if opts.force_poll {
            None
        } else {
            let (raw_tx, raw_rx) = std_mpsc::channel::<notify::Result<notify::Event>>();
            match dir_watch(raw_tx) {
                Ok(w) => {
                    let batch_tx = tx.clone();
                    let window = opts.batch_window;
                    let trouble = troubled.clone();
                    thread::Builder::new()
                        .name("dreamwatch-watch".into())
                        .spawn(move || batch_events(raw_rx, batch_tx, window, &trouble))
                        .ok()
                        .map(|_| w)
                }
                Err(e) => {
                    tracing::warn!("filesystem events unavailable ({e}); polling instead");
                    None
                }
            }
        };
        let mode = if inner.is_some() {
            WatchMode::Events
        } else {
            WatchMode::Polling
        };
        let interval = match (mode, opts.poll_interval) {
            (_, Some(i)) => Some(i),
            (WatchMode::Polling, None) => Some(Duration::from_secs(1)),
            (WatchMode::Events, None) => None,
        };
        let sender = tx.clone();
        let ticking = interval.and_then(|interval| {
            let (ticking, told) = std_mpsc::channel();
            let spawned = thread::Builder::new()
                .name("dreamwatch-poll".into())
                .spawn(move || poll(interval, &told, &tx));
            match spawned {
                Ok(_) => Some(ticking),
                Err(e) => {
                    tracing::warn!("cannot start the poller: {e}");
                    None
                }
            }
        });
        (
            Self {
                inner,
                wanted: BTreeSet::new(),
                watched: BTreeSet::new(),
                mode,
                tx: sender,
                ticking,
                ticks: true,
                troubled,
                orphans: false,
            },
            rx,
        )
    }

    /// A sender into the batch channel, for hints from elsewhere (background work done).
    pub fn sender(&self) -> mpsc::UnboundedSender<WatchBatch> {
        self.tx.clone()
    }

    pub fn mode(&self) -> WatchMode {
        self.mode
    }

    /// Whether events alone cannot be trusted to tell every change: polling is all there
    /// is, the watcher reported an error or an overflow, or a wanted directory is missing
    /// where no event would say it appeared. The safety net then goes round everything.
    pub fn needs_safety_net(&self) -> bool {
        self.mode == WatchMode::Polling || self.orphans || self.troubled.load(Ordering::Relaxed)
    }

    /// Lets the poller tick only while it is needed: the safety net, or `unsettled` (the
    /// owner has something a later look must settle, such as an unfinished last line).
    /// Otherwise the watcher's events are all that wakes anyone.
    pub fn tick_while(&mut self, unsettled: bool) {
        let on = unsettled || self.needs_safety_net();
        if on == self.ticks {
            return;
        }
        self.ticks = on;
        if let Some(ticking) = &self.ticking {
            // The poller ends only with this sender.
            let _ = ticking.send(on);
        }
    }

    /// Watches exactly `dirs` (non-recursively): adds what is new, removes what is gone.
    /// The same set as last time costs nothing. Directories that do not exist yet are
    /// skipped until [`Watcher::retry`] says they may.
    pub fn set_dirs(&mut self, dirs: BTreeSet<PathBuf>) {
        if dirs == self.wanted {
            return;
        }
        // Only the directories wanted anew are tried: one wanted before and missing
        // still is tried when a hint says it appeared ([`Watcher::retry`]).
        let new: Vec<PathBuf> = dirs.difference(&self.wanted).cloned().collect();
        self.wanted = dirs;
        let Some(inner) = self.inner.as_mut() else {
            return;
        };
        let stale: Vec<PathBuf> = self.watched.difference(&self.wanted).cloned().collect();
        for dir in stale {
            // The directory may be gone already, which also ends its watch.
            let _ = inner.unwatch(&dir);
            self.watched.remove(&dir);
        }
        self.watch_missing(Some(&new));
    }

    /// Tries again to watch the wanted directories that did not exist: those among
    /// `paths` (a hint that they appeared), or all of them when `paths` is `None`. A
    /// watched directory that a hint names may have been removed, or removed and made
    /// again (its watch went with the old one): it is watched again, or forgotten.
    pub fn retry(&mut self, paths: Option<&[PathBuf]>) {
        if let Some(paths) = paths {
            self.rewatch(paths);
        }
        self.watch_missing(paths);
    }

    /// Watches again the watched directories among `paths` (the same directory still
    /// watched costs nothing), or forgets those now gone.
    fn rewatch(&mut self, paths: &[PathBuf]) {
        let Some(inner) = self.inner.as_mut() else {
            return;
        };
        let named: Vec<&PathBuf> = paths.iter().filter(|p| self.watched.contains(*p)).collect();
        for path in named {
            if !path.is_dir() || inner.watch(path).is_err() {
                self.watched.remove(path);
            }
        }
    }

    /// Watches the wanted, unwatched directories among `candidates` (all of them when
    /// `None`) that exist, and then those inside a directory just watched (made before
    /// its watch began). A hint's candidates are looked up, not the wanted set walked:
    /// a batch costs what it names, not the garden's size.
    fn watch_missing(&mut self, candidates: Option<&[PathBuf]>) {
        let Some(inner) = self.inner.as_mut() else {
            return;
        };
        let unwatched = |dir: &Path| !self.watched.contains(dir) && dir.is_dir();
        let mut missing: Vec<PathBuf> = match candidates {
            None => self
                .wanted
                .difference(&self.watched)
                .filter(|dir| dir.is_dir())
                .cloned()
                .collect(),
            Some(paths) => paths
                .iter()
                .filter(|p| self.wanted.contains(*p) && unwatched(p))
                .cloned()
                .collect(),
        };
        while !missing.is_empty() {
            let mut now = Vec::new();
            for dir in missing {
                match inner.watch(&dir) {
                    Ok(()) => {
                        self.watched.insert(dir.clone());
                        now.push(dir);
                    }
                    Err(e) => {
                        tracing::warn!("cannot watch {}: {e}", dir.display());
                        self.troubled.store(true, Ordering::Relaxed);
                    }
                }
            }
            // A directory's descendants follow it in the set's order (paths compare by
            // their components).
            missing = now
                .iter()
                .flat_map(|parent| {
                    self.wanted
                        .range::<Path, _>((Bound::Excluded(parent.as_path()), Bound::Unbounded))
                        .take_while(move |d| d.starts_with(parent))
                        .filter(move |d| d.parent() == Some(parent.as_path()))
                })
                .filter(|d| !self.watched.contains(*d) && d.is_dir())
                .cloned()
                .collect();
        }
        self.orphans = self
            .wanted
            .difference(&self.watched)
            .any(|dir| dir.parent().is_none_or(|p| !self.watched.contains(p)));
    }

    /// As a watch error would: the events are not trusted from now on.
    #[cfg(test)]
    pub(super) fn mark_troubled(&self) {
        self.troubled.store(true, Ordering::Relaxed);
    }

    /// Whether the poller was last told to tick.
    #[cfg(test)]
    pub(super) fn ticks(&self) -> bool {
        self.ticks
    }

    /// Directories watched now.
    pub fn watched(&self) -> &BTreeSet<PathBuf> {
        &self.watched
    }
}

/// Merges raw notify events into deduplicated batches: the first event opens a window,
/// everything arriving within it joins the batch.
fn batch_events(
    raw: std_mpsc::Receiver<notify::Result<notify::Event>>,
    tx: mpsc::UnboundedSender<WatchBatch>,
    window: Duration,
    troubled: &AtomicBool,
) {
    while let Ok(first) = raw.recv() {
        let mut paths = BTreeSet::new();
        let mut rescan = false;
        let mut take = |event: notify::Result<notify::Event>| match event {
            // A file closed after writing is a hint: a runner's lock released as it dies
            // says nothing else. Other accesses (our own reads among them) are not.
            Ok(e) if e.kind.is_access() && !closed_after_writing(&e.kind) => {}
            Ok(e) => {
                rescan |= e.need_rescan();
                paths.extend(e.paths);
            }
            Err(e) => {
                tracing::warn!("watch error: {e}");
                rescan = true;
            }
        };
        take(first);
        let deadline = Instant::now() + window;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match raw.recv_timeout(left) {
                Ok(e) => take(e),
                Err(_) => break,
            }
        }
        if rescan {
            troubled.store(true, Ordering::Relaxed);
        }
        if paths.is_empty() && !rescan {
            continue;
        }
        let batch = WatchBatch {
            paths: paths.into_iter().collect(),
            rescan,
            poll_tick: false,
        };
        if tx.send(batch).is_err() {
            break;
        }
    }
}

fn closed_after_writing(kind: &notify::EventKind) -> bool {
    use notify::event::{AccessKind, AccessMode, EventKind};
    matches!(
        kind,
        EventKind::Access(AccessKind::Close(AccessMode::Write))
    )
}

/// The safety net's ticks, every `interval` while told to tick (as it starts), none
/// while told not to; it ends when the watcher or the batches' receiver goes.
fn poll(
    interval: Duration,
    told: &std_mpsc::Receiver<bool>,
    tx: &mpsc::UnboundedSender<WatchBatch>,
) {
    let mut on = true;
    loop {
        let heard = if on {
            told.recv_timeout(interval)
        } else {
            told.recv()
                .map_err(|_| std_mpsc::RecvTimeoutError::Disconnected)
        };
        match heard {
            Ok(now) => on = now,
            Err(std_mpsc::RecvTimeoutError::Disconnected) => return,
            Err(std_mpsc::RecvTimeoutError::Timeout) => {
                let tick = WatchBatch {
                    paths: Vec::new(),
                    rescan: false,
                    poll_tick: true,
                };
                if tx.send(tick).is_err() {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    /// Records every watch and unwatch, by directory name.
    #[derive(Clone, Default)]
    struct Calls(Arc<Mutex<Vec<String>>>);

    impl Calls {
        fn push(&self, what: &str, dir: &Path) {
            let name = dir.file_name().unwrap_or_default().to_string_lossy();
            self.0.lock().unwrap().push(format!("{what} {name}"));
        }

        fn take(&self) -> Vec<String> {
            std::mem::take(&mut *self.0.lock().unwrap())
        }
    }

    impl DirWatch for Calls {
        fn watch(&mut self, dir: &Path) -> notify::Result<()> {
            self.push("watch", dir);
            Ok(())
        }

        fn unwatch(&mut self, dir: &Path) -> notify::Result<()> {
            self.push("unwatch", dir);
            Ok(())
        }
    }

    fn watcher(calls: &Calls) -> Watcher {
        let (tx, _) = mpsc::unbounded_channel();
        Watcher {
            inner: Some(Box::new(calls.clone())),
            wanted: BTreeSet::new(),
            watched: BTreeSet::new(),
            mode: WatchMode::Events,
            tx,
            ticking: None,
            ticks: true,
            troubled: Arc::default(),
            orphans: false,
        }
    }

    #[test]
    fn watches_change_only_when_the_wanted_set_does() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = |name: &str| tmp.path().join(name);
        for name in ["a", "b"] {
            std::fs::create_dir(dir(name)).unwrap();
        }
        let calls = Calls::default();
        let mut w = watcher(&calls);
        let wanted = BTreeSet::from([dir("a"), dir("b"), dir("c")]);
        w.set_dirs(wanted.clone());
        assert_eq!(calls.take(), ["watch a", "watch b"]);
        // The same set again: nothing is watched, unwatched, or even stat'ed.
        std::fs::create_dir(dir("c")).unwrap();
        w.set_dirs(wanted.clone());
        assert_eq!(calls.take(), Vec::<String>::new());
        // A missing directory is watched once a hint names it (or on a rescan).
        w.retry(Some(&[dir("a").join("file")]));
        assert_eq!(calls.take(), Vec::<String>::new());
        w.retry(Some(&[dir("c")]));
        assert_eq!(calls.take(), ["watch c"]);
        w.retry(None);
        assert_eq!(calls.take(), Vec::<String>::new());
        w.set_dirs(BTreeSet::from([dir("a")]));
        assert_eq!(calls.take(), ["unwatch b", "unwatch c"]);
        assert_eq!(w.watched(), &BTreeSet::from([dir("a")]));
    }
}
