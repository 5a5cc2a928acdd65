//! Opening a large garden's creatures on threads beside the loop: the first frame and
//! every frame after it are drawn while they are read, each creature taken in (on the
//! loop's thread) as soon as it is open. What the watcher says of a creature while it
//! is being opened is kept and given to it when it is taken in, so no change made
//! meanwhile is missed.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::mpsc;

use super::watcher::WatchBatch;
use crate::memory::creature::Creature;
use crate::memory::streams::CountGate;

/// What opening a creature needs beside its path.
#[derive(Clone)]
pub struct OpenWith {
    pub settle: Duration,
    pub gate: CountGate,
    /// The watcher's channel: a large log's background count says it is done there.
    pub hints: mpsc::UnboundedSender<WatchBatch>,
}

impl OpenWith {
    /// Reads the creature at `path` (its large logs' heads counted in the background).
    pub fn open(&self, path: &Path) -> Creature {
        let tx = self.hints.clone();
        let root = path.to_path_buf();
        Creature::open_gated(path, self.settle, self.gate.clone(), move |kind| {
            // The receiver may be gone when the garden closes: nothing to tell then.
            let _ = tx.send(WatchBatch {
                paths: vec![kind.resolve(&root)],
                ..WatchBatch::default()
            });
        })
    }
}

/// Creatures being opened, and those open and not yet taken in.
#[derive(Default)]
pub struct Opening {
    /// Paths not yet picked up by a thread, in natural order.
    queue: Arc<Mutex<VecDeque<PathBuf>>>,
    /// What each start's threads send (one receiver per start: a garden may find many
    /// creatures again while the last ones are still being opened).
    opened: Vec<mpsc::UnboundedReceiver<(PathBuf, Creature)>>,
    /// One creature received while waiting for the next ([`Opening::wait`]).
    ready: Option<(PathBuf, Creature)>,
    /// Every creature found and not taken in yet (queued, being opened, or opened).
    waiting: HashSet<PathBuf>,
    /// Hints the watcher gave for a creature while it was waiting, by creature.
    missed: HashMap<PathBuf, Vec<PathBuf>>,
    /// How to open one here when no thread does (none could start, or they ended).
    with: Option<OpenWith>,
}

impl Opening {
    /// Starts opening `paths` on as many threads as the machine has cores (at most 4).
    pub fn start(&mut self, paths: Vec<PathBuf>, with: OpenWith) {
        if paths.is_empty() {
            return;
        }
        self.waiting.extend(paths.iter().cloned());
        self.queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend(paths);
        let (tx, rx) = mpsc::unbounded_channel();
        self.with = Some(with.clone());
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
        let mut started = 0;
        for _ in 0..threads {
            let queue = Arc::clone(&self.queue);
            let tx = tx.clone();
            let with = with.clone();
            std::thread::Builder::new()
                .name("dreamwatch-open".into())
                .spawn(move || {
                    // The first frame's creatures are opened on the loop's thread: these
                    // wait for it, not to take its core.
                    crate::memory::background::wait();
                    loop {
                        let next = queue
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .pop_front();
                        let Some(path) = next else { break };
                        let creature = with.open(&path);
                        if tx.send((path, creature)).is_err() {
                            break;
                        }
                    }
                })
                .map(|_| started += 1)
                // No thread: the loop opens them itself ([`Opening::take`]).
                .unwrap_or_else(|e| tracing::warn!("no thread to open creatures: {e}"));
        }
        if started > 0 {
            self.opened.push(rx);
        }
    }

    /// How many creatures wait to be taken in.
    pub fn len(&self) -> usize {
        self.waiting.len()
    }

    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }

    /// The creatures waiting (watched before they are read).
    pub fn waiting(&self) -> impl Iterator<Item = &PathBuf> {
        self.waiting.iter()
    }

    /// Whether `dir` is a creature waiting to be taken in.
    pub fn is_waiting(&self, dir: &Path) -> bool {
        self.waiting.contains(dir)
    }

    /// The watcher said `path` changed in the waiting creature `dir`.
    pub fn missed(&mut self, dir: &Path, path: PathBuf) {
        self.missed.entry(dir.to_path_buf()).or_default().push(path);
    }

    /// The creature at `path` is gone before it was taken in.
    pub fn forget(&mut self, path: &Path) {
        self.waiting.remove(path);
        self.missed.remove(path);
        self.queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|p| p != path);
    }

    /// Waits until a creature is open (at once when one is, or when no thread opens
    /// them: [`Opening::take`] then does).
    pub async fn wait(&mut self) {
        if self.ready.is_some() || self.opened.is_empty() {
            return;
        }
        let opened = &mut self.opened;
        self.ready = std::future::poll_fn(|cx| {
            let mut i = 0;
            while i < opened.len() {
                match opened[i].poll_recv(cx) {
                    std::task::Poll::Ready(Some(open)) => {
                        return std::task::Poll::Ready(Some(open));
                    }
                    // Every thread of that start ended.
                    std::task::Poll::Ready(None) => {
                        opened.remove(i);
                    }
                    std::task::Poll::Pending => i += 1,
                }
            }
            if opened.is_empty() {
                std::task::Poll::Ready(None)
            } else {
                std::task::Poll::Pending
            }
        })
        .await;
    }

    /// Up to `count` creatures open now, each with the hints it missed while it was
    /// opened; never waits.
    pub fn take(&mut self, count: usize) -> Vec<(PathBuf, Creature, Vec<PathBuf>)> {
        let mut out = Vec::new();
        while out.len() < count {
            let next = self
                .ready
                .take()
                .or_else(|| self.opened.iter_mut().find_map(|rx| rx.try_recv().ok()));
            let Some((path, creature)) = next else { break };
            // Gone meanwhile: dropped without a word, as a creature never opened.
            if self.waiting.remove(&path) {
                let missed = self.missed.remove(&path).unwrap_or_default();
                out.push((path, creature, missed));
            }
        }
        if self.opened.is_empty() {
            self.take_here(count.saturating_sub(out.len()), &mut out);
        }
        if self.waiting.is_empty() {
            self.opened.clear();
        }
        out
    }

    /// Opens up to `count` waiting creatures on this thread, when no thread does: those
    /// queued, then any a thread took and never sent (it ended while reading them).
    fn take_here(&mut self, count: usize, out: &mut Vec<(PathBuf, Creature, Vec<PathBuf>)>) {
        let Some(with) = self.with.clone() else {
            return;
        };
        let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        if queue.is_empty() {
            let mut lost: Vec<PathBuf> = self.waiting.iter().cloned().collect();
            crate::memory::creature_map::sort_naturally(&mut lost);
            queue.extend(lost);
        }
        let picked: Vec<PathBuf> = (0..count).map_while(|_| queue.pop_front()).collect();
        drop(queue);
        for path in picked {
            if self.waiting.remove(&path) {
                let creature = with.open(&path);
                out.push((path.clone(), creature, Vec::new()));
                self.missed.remove(&path);
            }
        }
    }
}

impl Drop for Opening {
    /// The threads stop after the creature each is reading.
    fn drop(&mut self) {
        self.queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }
}

impl std::fmt::Debug for Opening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Opening")
            .field("waiting", &self.waiting.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Creatures `c{i}` in `dir`, one for each `i` of `range`.
    fn creatures(dir: &Path, range: std::ops::Range<usize>) -> Vec<PathBuf> {
        range
            .map(|i| {
                let c = dir.join(format!("c{i}"));
                std::fs::create_dir_all(c.join(".self")).unwrap();
                c
            })
            .collect()
    }

    /// How the tests open creatures, and the channel their hints go to.
    fn open_with() -> (OpenWith, mpsc::UnboundedReceiver<WatchBatch>) {
        let (hints, rx) = mpsc::unbounded_channel();
        let with = OpenWith {
            settle: Duration::ZERO,
            gate: CountGate::default(),
            hints,
        };
        (with, rx)
    }

    /// With no thread to open them (none could start, or every one ended), the loop's
    /// own takes open the creatures, those a thread took and never sent included.
    #[test]
    fn creatures_are_opened_here_when_no_thread_opens_them() {
        let tmp = tempfile::tempdir().unwrap();
        let mut paths = creatures(tmp.path(), 1..7);
        let (with, _hints) = open_with();
        let mut opening = Opening::default();
        opening.start(paths.clone(), with);
        // As if every thread had ended: what they send is dropped.
        opening.opened.clear();
        let mut taken = Vec::new();
        for _ in 0..10 {
            taken.extend(opening.take(2).into_iter().map(|(path, _, _)| path));
            if opening.is_empty() {
                break;
            }
        }
        assert!(opening.is_empty());
        taken.sort();
        paths.sort();
        assert_eq!(taken, paths);
    }

    /// Creatures found again while the last ones are still being opened (a far garden's
    /// copy landing beside another's): every one of both is taken in.
    #[tokio::test]
    async fn a_second_start_while_the_first_is_opening_loses_none() {
        let tmp = tempfile::tempdir().unwrap();
        let (with, _hints) = open_with();
        let mut opening = Opening::default();
        let (first, second) = (creatures(tmp.path(), 0..40), creatures(tmp.path(), 40..80));
        opening.start(first.clone(), with.clone());
        let mut taken = Vec::new();
        opening.wait().await;
        taken.extend(opening.take(3).into_iter().map(|(path, _, _)| path));
        opening.start(second.clone(), with);
        while !opening.is_empty() {
            tokio::time::timeout(Duration::from_secs(30), opening.wait())
                .await
                .expect("opened in time");
            taken.extend(opening.take(8).into_iter().map(|(path, _, _)| path));
        }
        let mut all = [first, second].concat();
        all.sort();
        taken.sort();
        assert_eq!(taken, all);
    }
}
