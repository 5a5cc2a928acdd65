//! The far side's follower: the creatures under some roots and, for each, every file the
//! memory model reads (each candidate path of each [`FileKind`]), turned into
//! [`Report`]s. It does no waiting: the caller says when to look (at start, on a
//! watcher's hint, on a poll tick).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use super::files::{Sent, look, look_conversation};
use super::wire::Report;
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
    runner: (bool, bool),
}

/// The creatures followed and what was sent of each.
#[derive(Debug)]
pub struct Follower {
    garden: Garden,
    creatures: BTreeMap<PathBuf, Followed>,
    /// The next creature a safety-net look ([`Follower::look_slice`]) looks at.
    cursor: usize,
}

impl Follower {
    pub fn new(roots: Vec<Root>) -> Self {
        Self {
            garden: Garden::new(roots),
            creatures: BTreeMap::new(),
            cursor: 0,
        }
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
        self.look_found_with(each)
    }

    /// Every creature found so far looked at, its reports handed to `each` a creature at
    /// a time; stops at `each`'s first error.
    pub fn look_found_with<E>(
        &mut self,
        mut each: impl FnMut(Vec<Report>) -> Result<(), E>,
    ) -> Result<(), E> {
        let paths: Vec<PathBuf> = self.creatures.keys().cloned().collect();
        for path in paths {
            let mut out = Vec::new();
            self.look_creature(&path, &mut out);
            if !out.is_empty() {
                each(out)?;
            }
        }
        Ok(())
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
            self.look_creature(&path, &mut out);
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
            self.look_creature(&path, &mut out);
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

    fn look_creature(&mut self, path: &Path, out: &mut Vec<Report>) {
        let Some(c) = self.creatures.get_mut(path) else {
            return;
        };
        let conversations = FileKind::Conversation.candidates();
        for file in sent_files() {
            let before = c.files.get(file);
            let looked = if conversations.contains(&file) {
                let dreams = FileKind::Dreams.resolve(path);
                look_conversation(&path.join(file), before, &dreams)
            } else {
                look(&path.join(file), before).map(|(op, now)| (op, now, None))
            };
            let (op, now, head) = match looked {
                Ok(found) => found,
                Err(e) => {
                    // Unreadable now (a FIFO, a permission): left as it was, said once.
                    tracing::debug!("{}: {e}", path.join(file).display());
                    continue;
                }
            };
            match now {
                Some(sent) => c.files.insert(file, sent),
                None => c.files.remove(file),
            };
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
}
