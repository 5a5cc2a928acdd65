use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::sync::mpsc;

use super::opening::{OpenWith, Opening};
use super::watcher::{WatchBatch, WatchMode, WatchOptions, Watcher};
use crate::memory::creature::{Change, Creature};
use crate::memory::creature_map::{CreatureMap, sort_naturally};
use crate::memory::garden::{Garden, Root};
use crate::memory::layout::watched_dirs;
use crate::memory::streams::CountGate;

/// What a batch of hints changed in the garden.
#[derive(Debug, Clone, PartialEq)]
pub enum LiveChange {
    Added(PathBuf),
    Removed(PathBuf),
    Changed(PathBuf, Vec<Change>),
}

/// Every creature under some roots, each with its live model, and the one watcher.
pub struct LiveGarden {
    garden: Garden,
    creatures: CreatureMap<Creature>,
    watcher: Watcher,
    settle: Duration,
    /// Where the creatures' background counts wait while a test holds them back.
    count_gate: CountGate,
    /// The next creature a safety-net poll tick re-stats (beside filesystem events).
    poll_cursor: usize,
    /// Creatures found but not opened yet: a large garden's are opened on threads
    /// beside the loop, so no frame waits for them.
    opening: Opening,
    /// At each listing, how many new creatures are opened at once; the rest are opened
    /// beside the loop (a large garden at the start, a far garden's copy when it lands).
    open_first: Option<usize>,
    /// The creatures that held an unfinished line back when last read: noted at each
    /// read, so that no batch goes through every creature to ask.
    holding: BTreeSet<PathBuf>,
}

/// Creatures a safety-net poll tick re-stats beside filesystem events that cannot be
/// trusted (see [`Watcher::needs_safety_net`]): a garden of 200 is gone through in 13
/// ticks (26 s at the default 2 s) at the cost of 16 creatures per tick, whatever its size.
pub const POLL_SLICE: usize = 16;

impl LiveGarden {
    /// Opens every creature under `roots` and starts watching.
    pub fn open(
        roots: Vec<Root>,
        opts: WatchOptions,
    ) -> (Self, mpsc::UnboundedReceiver<WatchBatch>) {
        Self::open_gated(roots, opts, CountGate::default())
    }

    /// Like [`LiveGarden::open`], but only the first `first` creatures are opened now:
    /// the others are found and opened on threads, taken in by [`LiveGarden::take_opened`].
    pub fn open_progressive(
        roots: Vec<Root>,
        opts: WatchOptions,
        first: usize,
    ) -> (Self, mpsc::UnboundedReceiver<WatchBatch>) {
        Self::start(roots, opts, CountGate::default(), Some(first))
    }

    /// Like [`LiveGarden::open`], large logs' background counts waiting at `gate`.
    pub fn open_gated(
        roots: Vec<Root>,
        opts: WatchOptions,
        gate: CountGate,
    ) -> (Self, mpsc::UnboundedReceiver<WatchBatch>) {
        Self::start(roots, opts, gate, None)
    }

    fn start(
        roots: Vec<Root>,
        opts: WatchOptions,
        gate: CountGate,
        open_first: Option<usize>,
    ) -> (Self, mpsc::UnboundedReceiver<WatchBatch>) {
        let (watcher, rx) = Watcher::start(opts);
        let mut live = Self {
            garden: Garden::new(roots),
            creatures: CreatureMap::new(),
            watcher,
            settle: opts.settle,
            count_gate: gate,
            poll_cursor: 0,
            opening: Opening::default(),
            open_first,
            holding: BTreeSet::new(),
        };
        live.rescan_garden();
        live.tick_while_unsettled();
        (live, rx)
    }

    /// Waits until a creature opened beside the loop can be taken in; never returns
    /// while none is being opened.
    pub async fn opened(&mut self) {
        if self.opening.is_empty() {
            std::future::pending::<()>().await;
        }
        self.opening.wait().await;
    }

    /// Takes in up to `count` of the creatures opened beside the loop (without waiting);
    /// returns them as added.
    pub fn take_opened(&mut self, count: usize) -> Vec<LiveChange> {
        let mut out = Vec::new();
        for (path, mut creature, missed) in self.opening.take(count) {
            // What changed while it was being read.
            if !missed.is_empty() {
                creature.refresh_paths(&missed);
            }
            note_holding(&mut self.holding, &path, &creature);
            self.creatures.insert(path.clone(), creature);
            out.push(LiveChange::Added(path));
        }
        if !out.is_empty() {
            self.tick_while_unsettled();
        }
        out
    }

    /// While creatures wait to be opened: how many are open, of how many found.
    pub fn loading(&self) -> Option<(usize, usize)> {
        (!self.opening.is_empty()).then(|| {
            let open = self.creatures.len();
            (open, open + self.opening.len())
        })
    }

    /// Every creature, in natural order of their paths.
    pub fn creatures(&self) -> &CreatureMap<Creature> {
        &self.creatures
    }

    pub fn creature(&self, path: &Path) -> Option<&Creature> {
        self.creatures.get(path)
    }

    pub fn watch_mode(&self) -> WatchMode {
        self.watcher.mode()
    }

    /// Applies one batch of hints; returns what changed.
    pub fn apply(&mut self, batch: &WatchBatch) -> Vec<LiveChange> {
        let out = self.apply_batch(batch);
        self.tick_while_unsettled();
        out
    }

    /// The safety net ticks only while something is left to settle; at rest the
    /// watcher's events are all that wakes the garden.
    fn tick_while_unsettled(&mut self) {
        self.watcher.tick_while(!self.holding.is_empty());
    }

    fn apply_batch(&mut self, batch: &WatchBatch) -> Vec<LiveChange> {
        if batch.poll_tick && self.watcher.mode() == WatchMode::Events {
            return self.settle_tick();
        }
        let everything = batch.rescan || batch.poll_tick;
        let structural = everything || batch.paths.iter().any(|p| self.is_structural(p));
        let mut out = if structural {
            self.rescan_garden()
        } else {
            Vec::new()
        };
        // Each hint goes to the creatures it is inside: found by its ancestors, not by
        // trying every creature (a batch of a far garden's snapshot holds thousands).
        let mut hinted: HashMap<&Path, Vec<PathBuf>> = HashMap::new();
        if !everything {
            for path in &batch.paths {
                for dir in path.ancestors() {
                    if self.creatures.contains_key(dir) {
                        hinted.entry(dir).or_default().push(path.clone());
                    } else if self.opening.is_waiting(dir) {
                        self.opening.missed(dir, path.clone());
                    }
                }
            }
        }
        if everything {
            for (root, creature) in &mut self.creatures {
                let changes = creature.refresh();
                after_read(&mut self.holding, &mut out, root, creature, changes);
            }
        } else {
            // The hinted creatures alone, in the garden's order.
            let mut roots: Vec<PathBuf> = hinted.keys().map(|r| r.to_path_buf()).collect();
            sort_naturally(&mut roots);
            for root in roots {
                let (Some(mine), Some(creature)) =
                    (hinted.remove(root.as_path()), self.creatures.get_mut(&root))
                else {
                    continue;
                };
                let changes = creature.refresh_paths(&mine);
                after_read(&mut self.holding, &mut out, &root, creature, changes);
            }
        }
        if structural {
            // A wanted directory that did not exist may have appeared: its creation is a
            // hint in its parent, which makes the batch structural.
            self.watcher
                .retry((!everything).then_some(batch.paths.as_slice()));
        }
        out
    }

    /// A poll tick beside filesystem events: the creatures holding an unfinished line are
    /// read again, and the safety net goes on when the events cannot be trusted.
    fn settle_tick(&mut self) -> Vec<LiveChange> {
        let mut out = if self.watcher.needs_safety_net() {
            self.poll_slice()
        } else {
            Vec::new()
        };
        let mut held: Vec<PathBuf> = self.holding.iter().cloned().collect();
        sort_naturally(&mut held);
        for root in held {
            let Some(creature) = self.creatures.get_mut(&root) else {
                self.holding.remove(&root);
                continue;
            };
            let changes = creature.refresh();
            after_read(&mut self.holding, &mut out, &root, creature, changes);
        }
        out
    }

    /// A safety-net poll tick: re-stats the next [`POLL_SLICE`] creatures in turn, and
    /// lists the garden again when the turn comes round.
    fn poll_slice(&mut self) -> Vec<LiveChange> {
        let mut out = Vec::new();
        if self.poll_cursor >= self.creatures.len() {
            self.poll_cursor = 0;
            out = self.rescan_garden();
            self.watcher.retry(None);
        }
        let start = self.poll_cursor;
        for (root, creature) in (&mut self.creatures)
            .into_iter()
            .skip(start)
            .take(POLL_SLICE)
        {
            let changes = creature.refresh();
            after_read(&mut self.holding, &mut out, root, creature, changes);
        }
        self.poll_cursor = start + POLL_SLICE;
        out
    }

    /// A path whose change may add or remove a creature (or a directory to watch).
    fn is_structural(&self, path: &Path) -> bool {
        let parent = path.parent();
        let grandparent = parent.and_then(Path::parent);
        self.garden.roots().iter().any(|r| match r {
            Root::Garden(g) => {
                parent == Some(g.as_path()) || grandparent == Some(g.as_path()) || path == g
            }
            Root::Creature(c) => path == c || parent == Some(c.as_path()),
        })
    }

    fn rescan_garden(&mut self) -> Vec<LiveChange> {
        let diff = self.garden.scan();
        let mut out = Vec::new();
        for path in diff.removed {
            self.holding.remove(&path);
            if self.creatures.remove(&path).is_some() {
                out.push(LiveChange::Removed(path));
            } else {
                // Never opened: it goes without a word.
                self.opening.forget(&path);
            }
        }
        let mut added = diff.added;
        let mut later = Vec::new();
        if let Some(first) = self.open_first
            && added.len() > first
        {
            sort_naturally(&mut added);
            later = added.split_off(first);
        }
        // Watched before they are read (those waiting too): a change meanwhile comes as
        // an event, where no tick would find it.
        self.update_watches(&[&added[..], &later[..]].concat());
        self.opening.start(later, self.open_with());
        for path in added {
            self.open_creature(&path);
            out.push(LiveChange::Added(path));
        }
        out
    }

    fn open_creature(&mut self, path: &Path) {
        let creature = self.open_with().open(path);
        note_holding(&mut self.holding, path, &creature);
        self.creatures.insert(path.to_path_buf(), creature);
    }

    fn open_with(&self) -> OpenWith {
        OpenWith {
            settle: self.settle,
            gate: self.count_gate.clone(),
            hints: self.watcher.sender(),
        }
    }

    /// Sets the directories to watch: the roots, every garden's subdirectories and every
    /// creature's own (open, waiting, or about to be `opening`). Called only when the
    /// garden may have changed (a structural hint or a rescan): a line appended to a
    /// creature's file does not list the garden again.
    fn update_watches(&mut self, opening: &[PathBuf]) {
        let mut dirs: BTreeSet<PathBuf> = BTreeSet::new();
        for root in self.garden.roots() {
            dirs.insert(root.path().to_path_buf());
            // Subdirectories that are not creatures yet: their `.self/` may appear later
            // (not a hidden one: a far copy's landing snapshot is read when it lands).
            if let Root::Garden(garden) = root
                && let Ok(entries) = std::fs::read_dir(garden)
            {
                dirs.extend(
                    entries
                        .filter_map(Result::ok)
                        .filter(|e| !e.file_name().as_encoded_bytes().starts_with(b"."))
                        .map(|e| e.path())
                        .filter(|p| p.is_dir()),
                );
            }
        }
        for path in self
            .creatures
            .keys()
            .chain(self.opening.waiting())
            .chain(opening)
        {
            dirs.extend(watched_dirs(path));
        }
        self.watcher.set_dirs(dirs);
    }
}

/// After the creature at `root` was read again: what it changed said in `out`, whether
/// it holds an unfinished line back noted.
fn after_read(
    holding: &mut BTreeSet<PathBuf>,
    out: &mut Vec<LiveChange>,
    root: &Path,
    creature: &Creature,
    changes: Vec<Change>,
) {
    note_holding(holding, root, creature);
    if !changes.is_empty() {
        out.push(LiveChange::Changed(root.to_path_buf(), changes));
    }
}

/// Notes whether the creature at `root`, just read, holds an unfinished line back.
fn note_holding(holding: &mut BTreeSet<PathBuf>, root: &Path, creature: &Creature) {
    if creature.holds_unfinished_line() {
        if !holding.contains(root) {
            holding.insert(root.to_path_buf());
        }
    } else {
        holding.remove(root);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The watch set is recomputed on structural hints only: a line appended to a
    /// creature's file does not list the garden again (a directory that appeared in the
    /// garden meanwhile is picked up when its own hint comes).
    #[test]
    fn an_appended_line_does_not_list_the_garden_again() {
        let tmp = tempfile::tempdir().unwrap();
        let garden = tmp.path().to_path_buf();
        std::fs::create_dir_all(garden.join("a/.self")).unwrap();
        let opts = WatchOptions {
            poll_interval: None,
            ..WatchOptions::default()
        };
        let (mut live, _rx) = LiveGarden::open(vec![Root::Garden(garden.clone())], opts);
        assert_eq!(live.watch_mode(), WatchMode::Events);
        assert!(live.watcher.watched().contains(&garden.join("a/.self")));
        std::fs::create_dir(garden.join("b")).unwrap();
        let obs = garden.join("a/.self/observations.md");
        std::fs::write(&obs, "## 2026-03-01\nRED 10:00 hello\n").unwrap();
        let changes = live.apply(&WatchBatch {
            paths: vec![obs],
            ..WatchBatch::default()
        });
        assert!(!changes.is_empty());
        assert!(!live.watcher.watched().contains(&garden.join("b")));
        live.apply(&WatchBatch {
            paths: vec![garden.join("b")],
            ..WatchBatch::default()
        });
        assert!(live.watcher.watched().contains(&garden.join("b")));
    }

    /// The creatures holding an unfinished line back are noted as each is read (no batch
    /// asks every creature), and forgotten once the line ends or the creature goes.
    #[test]
    fn the_creatures_holding_an_unfinished_line_are_noted_as_they_are_read() {
        let (tmp, paths) = garden_of(3);
        let opts = WatchOptions {
            poll_interval: None,
            ..WatchOptions::default()
        };
        let (mut live, _rx) = LiveGarden::open(vec![Root::Garden(tmp.path().to_path_buf())], opts);
        assert!(live.holding.is_empty());
        let obs = paths[1].join(".self/observations.md");
        let hint = |path: &Path| WatchBatch {
            paths: vec![path.to_path_buf()],
            ..WatchBatch::default()
        };
        std::fs::write(&obs, "RED 10:00 half a li").unwrap();
        live.apply(&hint(&obs));
        assert_eq!(live.holding.iter().collect::<Vec<_>>(), [&paths[1]]);
        std::fs::write(&obs, "RED 10:00 half a line\n").unwrap();
        live.apply(&hint(&obs));
        assert!(live.holding.is_empty());
        std::fs::write(&obs, "RED 10:00 half a line\nYLW 10:01 and ano").unwrap();
        live.apply(&hint(&obs));
        assert_eq!(live.holding.len(), 1);
        std::fs::remove_dir_all(&paths[1]).unwrap();
        live.apply(&hint(&paths[1]));
        assert!(live.creature(&paths[1]).is_none());
        assert!(live.holding.is_empty());
    }

    fn garden_of(n: usize) -> (tempfile::TempDir, Vec<PathBuf>) {
        let tmp = tempfile::tempdir().unwrap();
        let paths = (1..=n)
            .map(|i| {
                let c = tmp.path().join(format!("c{i}"));
                std::fs::create_dir_all(c.join(".self")).unwrap();
                c
            })
            .collect();
        (tmp, paths)
    }

    /// Every creature opened beside the loop, taken in as it comes.
    fn take_all(live: &mut LiveGarden) -> Vec<LiveChange> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let mut added = Vec::new();
        while live.loading().is_some() {
            rt.block_on(live.opened());
            added.extend(live.take_opened(100));
        }
        added
    }

    /// While the first frame is drawn (background reading held back), the creatures past
    /// its own wait to be opened: they take no core from it.
    #[test]
    fn the_creatures_past_the_first_frame_wait_for_it() {
        let (tmp, _paths) = garden_of(40);
        let root = vec![Root::Garden(tmp.path().to_path_buf())];
        let held = crate::memory::background::hold();
        let (mut live, _rx) = LiveGarden::open_progressive(root, WatchOptions::default(), 16);
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(live.take_opened(100), []);
        assert_eq!(live.loading(), Some((16, 40)));
        drop(held);
        assert_eq!(take_all(&mut live).len(), 24);
    }

    /// A large garden is found at once and its first creatures opened: the first frame
    /// is drawn with them, the others are read on threads beside the loop.
    #[test]
    fn a_large_garden_opens_its_first_creatures_and_the_rest_after() {
        let (tmp, paths) = garden_of(40);
        let root = vec![Root::Garden(tmp.path().to_path_buf())];
        let (mut live, _rx) = LiveGarden::open_progressive(root, WatchOptions::default(), 16);
        assert_eq!(live.creatures().len(), 16);
        assert_eq!(live.loading(), Some((16, 40)));
        assert!(live.creature(&paths[15]).is_some());
        // One waiting goes before it was taken in: it is never said added nor removed.
        std::fs::remove_dir_all(&paths[39]).unwrap();
        let gone = live.apply(&WatchBatch {
            paths: vec![paths[39].clone()],
            ..WatchBatch::default()
        });
        assert!(gone.is_empty(), "{gone:?}");
        assert_eq!(live.loading().map(|(_, found)| found), Some(39));
        let mut added = take_all(&mut live);
        added.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
        let mut want: Vec<LiveChange> = (16..39)
            .map(|i| LiveChange::Added(paths[i].clone()))
            .collect();
        want.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
        assert_eq!(added, want);
        assert_eq!(live.loading(), None);
        assert!(live.take_opened(8).is_empty());
    }

    /// A line written while a creature was being opened, after it was read, reaches it
    /// when it is taken in: the watcher's word for it was kept.
    #[test]
    fn a_change_while_a_creature_is_opened_is_not_missed() {
        let (tmp, paths) = garden_of(2);
        let obs = paths[1].join(".self/observations.md");
        std::fs::write(&obs, "RED 10:00 first\n").unwrap();
        let root = vec![Root::Garden(tmp.path().to_path_buf())];
        let (mut live, _rx) = LiveGarden::open_progressive(root, WatchOptions::default(), 1);
        // The second creature has been read by now.
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(live.opened());
        let mut f = std::fs::OpenOptions::new().append(true).open(&obs).unwrap();
        std::io::Write::write_all(&mut f, b"RED 10:01 meanwhile\n").unwrap();
        live.apply(&WatchBatch {
            paths: vec![obs.clone()],
            ..WatchBatch::default()
        });
        assert_eq!(take_all(&mut live), [LiveChange::Added(paths[1].clone())]);
        let seen = live.creature(&paths[1]).unwrap().observations().items.len();
        assert_eq!(seen, 2, "the line written meanwhile is there");
    }

    fn changed(changes: &[LiveChange]) -> usize {
        changes
            .iter()
            .filter(|c| matches!(c, LiveChange::Changed(..)))
            .count()
    }

    const TICK: WatchBatch = WatchBatch {
        paths: Vec::new(),
        rescan: false,
        poll_tick: true,
    };

    /// Beside filesystem events that cannot be trusted (the watcher reported an error or
    /// an overflow) a poll tick is a safety net whose cost does not grow with the garden:
    /// a bounded slice of creatures in turn, every one within a round.
    #[test]
    fn a_safety_net_poll_tick_restats_a_bounded_slice_in_turn() {
        let (tmp, creatures) = garden_of(40);
        let opts = WatchOptions {
            poll_interval: None,
            ..WatchOptions::default()
        };
        let (mut live, _rx) = LiveGarden::open(vec![Root::Garden(tmp.path().into())], opts);
        assert_eq!(live.watch_mode(), WatchMode::Events);
        live.watcher.mark_troubled();
        for c in &creatures {
            std::fs::write(
                c.join(".self/observations.md"),
                "## 2026-03-01\nRED 10:00 hi\n",
            )
            .unwrap();
        }
        let per_tick: Vec<usize> = (0..3).map(|_| changed(&live.apply(&TICK))).collect();
        assert_eq!(per_tick, [POLL_SLICE, POLL_SLICE, 40 - 2 * POLL_SLICE]);
        assert_eq!(
            changed(&live.apply(&TICK)),
            0,
            "a new round finds nothing new"
        );
    }

    /// At rest, beside working filesystem events, nothing ticks and a tick re-stats
    /// nothing; an unfinished last line makes it tick until the line is shown.
    #[test]
    fn at_rest_only_an_unfinished_line_makes_the_poller_tick() {
        let (tmp, creatures) = garden_of(3);
        let opts = WatchOptions {
            settle: Duration::from_millis(400),
            ..WatchOptions::default()
        };
        let (mut live, _rx) = LiveGarden::open(vec![Root::Garden(tmp.path().into())], opts);
        assert_eq!(live.watch_mode(), WatchMode::Events);
        assert!(!live.watcher.ticks(), "nothing to settle: no tick");
        // A change no event told of (the receiver is not read here) is not looked for.
        let obs = creatures[0].join(".self/observations.md");
        std::fs::write(&obs, "## 2026-03-01\nRED 10:00 hi\n").unwrap();
        assert_eq!(changed(&live.apply(&TICK)), 0);
        // Its hint comes with an unfinished line: held back, and the poller ticks.
        std::fs::write(&obs, "## 2026-03-01\nRED 10:00 hi\nRED 10:01 half").unwrap();
        let hint = WatchBatch {
            paths: vec![obs.clone()],
            ..WatchBatch::default()
        };
        assert_eq!(changed(&live.apply(&hint)), 1);
        assert!(live.watcher.ticks());
        std::thread::sleep(Duration::from_millis(600));
        assert_eq!(changed(&live.apply(&TICK)), 1, "the settled line is shown");
        assert!(!live.watcher.ticks());
    }

    /// When polling is all there is, every tick re-stats everything.
    #[test]
    fn a_poll_tick_without_events_restats_the_whole_garden() {
        let (tmp, creatures) = garden_of(40);
        let opts = WatchOptions {
            poll_interval: None,
            force_poll: true,
            ..WatchOptions::default()
        };
        let (mut live, _rx) = LiveGarden::open(vec![Root::Garden(tmp.path().into())], opts);
        assert_eq!(live.watch_mode(), WatchMode::Polling);
        for c in &creatures {
            std::fs::write(
                c.join(".self/observations.md"),
                "## 2026-03-01\nRED 10:00 hi\n",
            )
            .unwrap();
        }
        assert_eq!(changed(&live.apply(&TICK)), 40);
    }
}
