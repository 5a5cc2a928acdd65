//! The far side's follower: the creatures under some roots and, for each, every file the
//! memory model reads (each candidate path of each [`FileKind`]), turned into
//! [`Report`]s. It does no waiting: the caller says when to look (at start, on a
//! watcher's hint, on a poll tick).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::{Path, PathBuf};

use super::files::{Counting, Looked, Sent, look, look_conversation, window_of_conversation};
use super::head_cache::HeadCache;
use super::wire::{FileOp, Report};
use crate::memory::garden::{Garden, Root};
use crate::memory::layout::{FileKind, control_socket, watched_dirs};
use crate::memory::runner_lock;

/// Every path relative to a creature that is sent: each candidate of each kind.
pub fn sent_files() -> impl Iterator<Item = &'static str> {
    FileKind::ALL
        .into_iter()
        .flat_map(|k| k.candidates().iter().copied())
}

#[derive(Debug, Default)]
struct Followed {
    id: String,
    files: HashMap<&'static str, Sent>,
    /// Its conversations sent [`FileOp::Later`] whose windows are still to send.
    later: Vec<&'static str>,
    runner: (bool, bool),
}

/// The creatures followed and what was sent of each.
#[derive(Debug)]
pub struct Follower {
    garden: Garden,
    creatures: BTreeMap<PathBuf, Followed>,
    /// The next creature a safety-net look ([`Follower::look_slice`]) looks at.
    cursor: usize,
    /// The creatures whose conversations' windows are still to send, in turn...
    later: VecDeque<PathBuf>,
    /// ...and those of them the near side looks at, sent first.
    wanted: VecDeque<PathBuf>,
    /// Where conversations' counts are kept between runs.
    cache: Option<HeadCache>,
}

impl Follower {
    pub fn new(roots: Vec<Root>) -> Self {
        Self {
            garden: Garden::new(roots),
            creatures: BTreeMap::new(),
            cursor: 0,
            later: VecDeque::new(),
            wanted: VecDeque::new(),
            cache: None,
        }
    }

    /// Conversations' counts kept in `cache` between runs.
    pub fn with_cache(mut self, cache: Option<HeadCache>) -> Self {
        self.cache = cache;
        self
    }

    /// The directories a watcher should watch: the roots and every creature's.
    pub fn dirs(&self) -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> = self
            .garden
            .roots()
            .iter()
            .map(|r| r.path().to_path_buf())
            .collect();
        dirs.extend(self.creatures.keys().flat_map(|p| watched_dirs(p)));
        dirs
    }

    /// Looks at everything: creatures that came and went, and every file.
    pub fn look_all(&mut self) -> Vec<Report> {
        let mut out = Vec::new();
        let _ = self.look_all_with(|reports| {
            out.extend(reports);
            Ok::<(), ()>(())
        });
        out
    }

    /// [`Follower::look_all`], its reports handed to `each` a creature at a time (a
    /// garden's snapshot is never all in memory at once); stops at `each`'s first error.
    pub fn look_all_with<E>(
        &mut self,
        mut each: impl FnMut(Vec<Report>) -> Result<(), E>,
    ) -> Result<(), E> {
        each(self.rescan())?;
        self.look_found(false, each)
    }

    /// The first snapshot: every creature found so far looked at, its reports handed to
    /// `each` a creature at a time (stops at `each`'s first error). A conversation that
    /// would go as its last lines goes as their count alone ([`FileOp::Later`]): its
    /// window is sent after, by [`Follower::next_window`].
    pub fn look_first_with<E>(
        &mut self,
        each: impl FnMut(Vec<Report>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.look_found(true, each)
    }

    fn look_found<E>(
        &mut self,
        later: bool,
        mut each: impl FnMut(Vec<Report>) -> Result<(), E>,
    ) -> Result<(), E> {
        let paths: Vec<PathBuf> = self.creatures.keys().cloned().collect();
        for path in paths {
            let mut out = Vec::new();
            self.look_creature(&path, later, &mut out);
            if !out.is_empty() {
                each(out)?;
            }
        }
        Ok(())
    }

    /// The windows of the next creature whose conversations were sent [`FileOp::Later`]:
    /// one the near side wants, else with `all` the next in turn (`None` when none is
    /// left to send).
    pub fn next_window(&mut self, all: bool) -> Option<Vec<Report>> {
        loop {
            let path = match self.wanted.pop_front() {
                Some(path) => path,
                None if all => self.later.pop_front()?,
                None => return None,
            };
            let Some(c) = self.creatures.get_mut(&path) else {
                continue;
            };
            let dreams = FileKind::Dreams.resolve(&path);
            let how = Counting {
                dreams: &dreams,
                later: false,
                cache: self.cache.as_ref(),
            };
            let mut out = Vec::new();
            for file in std::mem::take(&mut c.later) {
                let looked = window_of_conversation(&path.join(file), c.files.get(file), how);
                take_look(c, file, &path, looked, &mut out);
            }
            if !out.is_empty() {
                return Some(out);
            }
        }
    }

    /// Whether counts made wait to be kept between runs.
    pub fn has_counts_to_keep(&self) -> bool {
        self.cache.as_ref().is_some_and(HeadCache::has_pending)
    }

    /// Keeps some of the counts made (a few files' writes).
    pub fn keep_counts(&self) {
        if let Some(cache) = &self.cache {
            cache.keep_some(32);
        }
    }

    /// Whether a window is to send: one wanted, or with `all` any.
    pub fn has_windows(&self, all: bool) -> bool {
        !self.wanted.is_empty() || (all && !self.later.is_empty())
    }

    /// The creature `id`'s windows are sent before the others' (it is looked at on the
    /// near side), even before the others' are asked for.
    pub fn want(&mut self, id: &str) {
        if let Some(at) = self
            .later
            .iter()
            .position(|p| self.creatures.get(p).is_some_and(|c| c.id == id))
            && let Some(path) = self.later.remove(at)
        {
            self.wanted.push_back(path);
        }
    }

    /// A safety-net look beside filesystem events: the next `count` creatures in turn,
    /// and the garden listed again when the turn comes round, so its cost does not grow
    /// with the garden.
    pub fn look_slice(&mut self, count: usize) -> Vec<Report> {
        let mut out = Vec::new();
        if self.cursor >= self.creatures.len() {
            self.cursor = 0;
            out = self.rescan();
        }
        let paths: Vec<PathBuf> = self
            .creatures
            .keys()
            .skip(self.cursor)
            .take(count)
            .cloned()
            .collect();
        self.cursor += count;
        for path in paths {
            self.look_creature(&path, false, &mut out);
        }
        out
    }

    /// Looks at what the hinted paths touch: a creature's files when a path is inside
    /// it, the creatures when a path is a root or directly in one.
    pub fn look_paths(&mut self, hints: &[PathBuf]) -> Vec<Report> {
        let mut out = Vec::new();
        let roots: Vec<PathBuf> = self
            .garden
            .roots()
            .iter()
            .map(|r| r.path().to_path_buf())
            .collect();
        if hints
            .iter()
            .any(|h| roots.iter().any(|r| h == r || h.parent() == Some(r)))
        {
            out.extend(self.rescan());
        }
        let touched: Vec<PathBuf> = self
            .creatures
            .keys()
            .filter(|c| hints.iter().any(|h| h.starts_with(c)))
            .cloned()
            .collect();
        for path in touched {
            self.look_creature(&path, false, &mut out);
        }
        out
    }

    /// The creature's id (`None` for one not followed).
    pub fn id_of(&self, path: &Path) -> Option<&str> {
        self.creatures.get(path).map(|c| c.id.as_str())
    }

    /// The directory of the creature with `id`.
    pub fn path_of(&self, id: &str) -> Option<&Path> {
        self.creatures
            .iter()
            .find(|(_, c)| c.id == id)
            .map(|(p, _)| p.as_path())
    }

    /// Lists the garden again: the creatures that came and went.
    pub fn rescan(&mut self) -> Vec<Report> {
        let diff = self.garden.scan();
        let mut out = Vec::new();
        for path in diff.removed {
            if let Some(c) = self.creatures.remove(&path) {
                out.push(Report::Gone { id: c.id });
            }
        }
        for path in diff.added {
            let id = self.fresh_id(&path);
            out.push(Report::Creature {
                id: id.clone(),
                path: path.display().to_string(),
            });
            self.creatures.insert(
                path,
                Followed {
                    id,
                    ..Followed::default()
                },
            );
        }
        out
    }

    /// The directory's name, with a number after it when another creature has it.
    fn fresh_id(&self, path: &Path) -> String {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| !n.is_empty() && !n.starts_with('.'))
            .unwrap_or_else(|| "creature".into());
        let taken = |id: &str| self.creatures.values().any(|c| c.id == id);
        let mut id = name.clone();
        let mut n = 2;
        while taken(&id) {
            id = format!("{name}-{n}");
            n += 1;
        }
        id
    }

    fn look_creature(&mut self, path: &Path, later: bool, out: &mut Vec<Report>) {
        let Some(c) = self.creatures.get_mut(path) else {
            return;
        };
        let conversations = FileKind::Conversation.candidates();
        let waited = !c.later.is_empty();
        for file in sent_files() {
            let before = c.files.get(file);
            let looked = if conversations.contains(&file) {
                let dreams = FileKind::Dreams.resolve(path);
                let how = Counting {
                    dreams: &dreams,
                    later,
                    cache: self.cache.as_ref(),
                };
                look_conversation(&path.join(file), before, how)
            } else {
                look(&path.join(file), before).map(|(op, now)| (op, now, None))
            };
            take_look(c, file, path, looked, out);
        }
        if !waited && !c.later.is_empty() {
            self.later.push_back(path.to_path_buf());
        }
        let alive = runner_lock::is_held(path);
        let runner = (alive, alive && control_socket(path).exists());
        if runner != c.runner {
            c.runner = runner;
            out.push(Report::Runner {
                id: c.id.clone(),
                alive: runner.0,
                listening: runner.1,
            });
        }
    }
}

/// Takes in what a look at the creature `c`'s `file` found: what is sent of it, and the
/// reports to send. A file sent [`FileOp::Later`] waits for its window; one put or
/// deleted meanwhile no longer does.
fn take_look(
    c: &mut Followed,
    file: &'static str,
    path: &Path,
    looked: std::io::Result<Looked>,
    out: &mut Vec<Report>,
) {
    let (op, now, head) = match looked {
        Ok(found) => found,
        Err(e) => {
            // Unreadable now (a FIFO, a permission): left as it was, said once.
            tracing::debug!("{}: {e}", path.join(file).display());
            return;
        }
    };
    match now {
        Some(sent) => c.files.insert(file, sent),
        None => c.files.remove(file),
    };
    match &op {
        Some(FileOp::Later { .. }) if !c.later.contains(&file) => c.later.push(file),
        Some(FileOp::Put { .. } | FileOp::Delete) => c.later.retain(|f| *f != file),
        _ => {}
    }
    if let Some(head) = head {
        out.push(Report::Head {
            id: c.id.clone(),
            file: file.to_string(),
            head,
        });
    }
    if let Some(op) = op {
        out.push(Report::File {
            id: c.id.clone(),
            file: file.to_string(),
            op,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::remote::wire::FileOp;

    #[test]
    fn creatures_and_their_files_are_reported_then_only_what_changes() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        std::fs::create_dir_all(a.join(".self")).unwrap();
        std::fs::write(a.join("BIRTH.json"), "{\"name\":\"a\"}").unwrap();
        let mut f = Follower::new(vec![Root::Garden(dir.path().to_path_buf())]);
        let first = f.look_all();
        assert!(matches!(&first[0], Report::Creature { id, .. } if id == "a"));
        assert!(first.iter().any(|r| matches!(r, Report::File { file, op: FileOp::Put { .. }, .. } if file == "BIRTH.json")));
        assert!(f.look_all().is_empty());
        std::fs::write(a.join(".self/observations.md"), "RED 10:00 x\n").unwrap();
        let next = f.look_paths(&[a.join(".self")]);
        assert_eq!(next.len(), 1, "{next:?}");
        std::fs::remove_dir_all(&a).unwrap();
        assert_eq!(
            f.look_paths(std::slice::from_ref(&a)),
            vec![Report::Gone { id: "a".into() }]
        );
    }

    #[test]
    fn a_safety_net_look_goes_through_the_garden_a_slice_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..40 {
            let c = dir.path().join(format!("c{i:02}"));
            std::fs::create_dir_all(c.join(".self")).unwrap();
            std::fs::write(c.join("BIRTH.json"), "{}").unwrap();
        }
        let mut f = Follower::new(vec![Root::Garden(dir.path().to_path_buf())]);
        f.look_all();
        // Changed with no hint: only the look whose slice holds it sees it.
        std::fs::write(
            dir.path().join("c20/.self/observations.md"),
            "RED 10:00 x\n",
        )
        .unwrap();
        assert!(f.look_slice(16).is_empty(), "c00..c15 only");
        let second = f.look_slice(16);
        assert!(
            matches!(&second[..], [Report::File { id, .. }] if id == "c20"),
            "{second:?}"
        );
        assert!(f.look_slice(16).is_empty());
        // The turn comes round: the garden is listed again.
        std::fs::create_dir_all(dir.path().join("c99/.self")).unwrap();
        std::fs::write(dir.path().join("c99/BIRTH.json"), "{}").unwrap();
        assert!(matches!(&f.look_slice(16)[0], Report::Creature { id, .. } if id == "c99"));
    }

    #[test]
    fn a_first_snapshot_leaves_large_conversations_for_later_wanted_ones_first() {
        let dir = tempfile::tempdir().unwrap();
        let line = |i: usize| {
            format!(
                "{{\"t\":\"2026-03-01T00:00:00Z\",\"role\":\"user\",\"content\":\"{i} {}\"}}\n",
                "x".repeat(500)
            )
        };
        let text: String = (0..200).map(line).collect();
        for name in ["a", "b", "c"] {
            let c = dir.path().join(name);
            std::fs::create_dir_all(c.join(".self")).unwrap();
            std::fs::write(c.join(".self/conversation.jsonl"), &text).unwrap();
        }
        let mut f = Follower::new(vec![Root::Garden(dir.path().to_path_buf())]);
        f.rescan();
        let mut first = Vec::new();
        f.look_first_with(|r| {
            first.extend(r);
            Ok::<(), ()>(())
        })
        .unwrap();
        let later = |r: &Report| {
            matches!(
                r,
                Report::File {
                    op: FileOp::Later { .. },
                    ..
                }
            )
        };
        assert_eq!(first.iter().filter(|r| later(r)).count(), 3, "{first:?}");
        assert!(!f.has_windows(false) && f.next_window(false).is_none());
        // Rewritten meanwhile: sent at once, no longer waited for.
        std::fs::write(dir.path().join("c/.self/conversation.jsonl"), line(1)).unwrap();
        assert_eq!(f.look_paths(&[dir.path().join("c/.self")]).len(), 1);
        f.want("b");
        let ids = |reports: Vec<Report>| -> Vec<(String, bool)> {
            reports
                .into_iter()
                .map(|r| match r {
                    Report::Head { id, .. } => (id, true),
                    Report::File {
                        id,
                        op: FileOp::Put { .. },
                        ..
                    } => (id, false),
                    other => panic!("{other:?}"),
                })
                .collect()
        };
        let b = f.next_window(false).unwrap();
        assert_eq!(ids(b), vec![("b".into(), true), ("b".into(), false)]);
        assert!(
            f.next_window(false).is_none(),
            "the others wait to be asked"
        );
        let a = f.next_window(true).unwrap();
        assert_eq!(ids(a), vec![("a".into(), true), ("a".into(), false)]);
        assert!(f.next_window(true).is_none() && !f.has_windows(true));
    }
}
