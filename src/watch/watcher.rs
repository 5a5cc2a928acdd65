use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc as std_mpsc;
use std::thread;
use std::time::{Duration, Instant};

use notify::{RecommendedWatcher, RecursiveMode};
use tokio::sync::mpsc;

/// Paths that changed (hints: the model stats them), or a request to re-stat everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WatchBatch {
    pub paths: Vec<PathBuf>,
    /// Re-stat every tracked file: an event queue overflow (or a test's request).
    pub rescan: bool,
    /// A tick of the polling fallback: everything is re-stat'ed when polling is all there
    /// is; beside filesystem events it is a safety net that re-stats a bounded slice of the
    /// garden in turn (see `LiveGarden::apply`), so its cost does not grow with the garden.
    pub poll_tick: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WatchOptions {
    /// How often everything is re-stat'ed, events or not (the fallback where a
    /// filesystem sends no events). `None` disables it.
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

/// What watches one directory (non-recursively): notify's watcher, or a fake in tests.
trait DirWatch: Send {
    fn watch(&mut self, dir: &Path) -> notify::Result<()>;
    fn unwatch(&mut self, dir: &Path) -> notify::Result<()>;
}

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
}

impl Watcher {
    /// Starts watching nothing yet; batches arrive on the returned channel.
    pub fn start(opts: WatchOptions) -> (Self, mpsc::UnboundedReceiver<WatchBatch>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let inner = if opts.force_poll {
            None
        } else {
            let (raw_tx, raw_rx) = std_mpsc::channel::<notify::Result<notify::Event>>();
            match notify::recommended_watcher(raw_tx) {
                Ok(w) => {
                    let batch_tx = tx.clone();
                    let window = opts.batch_window;
                    thread::Builder::new()
                        .name("dreamwatch-watch".into())
                        .spawn(move || batch_events(raw_rx, batch_tx, window))
                        .ok()
                        .map(|_| Box::new(w) as Box<dyn DirWatch>)
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
        if let Some(interval) = interval {
            let poll_tx = tx;
            let spawned = thread::Builder::new()
                .name("dreamwatch-poll".into())
                .spawn(move || {
                    loop {
                        thread::sleep(interval);
                        if poll_tx
                            .send(WatchBatch {
                                paths: Vec::new(),
                                rescan: false,
                                poll_tick: true,
                            })
                            .is_err()
                        {
                            break;
                        }
                    }
                });
            if let Err(e) = spawned {
                tracing::warn!("cannot start the poller: {e}");
            }
        }
        (
            Self {
                inner,
                wanted: BTreeSet::new(),
                watched: BTreeSet::new(),
                mode,
                tx: sender,
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

    /// Watches exactly `dirs` (non-recursively): adds what is new, removes what is gone.
    /// The same set as last time costs nothing. Directories that do not exist yet are
    /// skipped until [`Watcher::retry`] says they may.
    pub fn set_dirs(&mut self, dirs: BTreeSet<PathBuf>) {
        if dirs == self.wanted {
            return;
        }
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
        self.watch_missing(|_| true);
    }

    /// Tries again to watch the wanted directories that did not exist: those among
    /// `paths` (a hint that they appeared), or all of them when `paths` is `None`.
    pub fn retry(&mut self, paths: Option<&[PathBuf]>) {
        match paths {
            None => self.watch_missing(|_| true),
            Some(paths) => self.watch_missing(|dir| paths.iter().any(|p| p == dir)),
        }
    }

    /// Watches the wanted, unwatched directories that `pick` selects and that exist.
    fn watch_missing(&mut self, pick: impl Fn(&Path) -> bool) {
        let Some(inner) = self.inner.as_mut() else {
            return;
        };
        let missing: Vec<PathBuf> = self
            .wanted
            .difference(&self.watched)
            .filter(|dir| pick(dir) && dir.is_dir())
            .cloned()
            .collect();
        for dir in missing {
            match inner.watch(&dir) {
                Ok(()) => {
                    self.watched.insert(dir);
                }
                Err(e) => tracing::warn!("cannot watch {}: {e}", dir.display()),
            }
        }
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
) {
    while let Ok(first) = raw.recv() {
        let mut paths = BTreeSet::new();
        let mut rescan = false;
        let mut take = |event: notify::Result<notify::Event>| match event {
            Ok(e) if e.kind.is_access() => {}
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
