//! Gardens: directories whose subdirectories are creatures.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::creature_map::{NaturalPath, sort_naturally};
use super::layout::is_creature;

/// What a path given on the command line is.
/// Why a path given to watch is neither a creature nor a garden (a message for the user).
#[derive(Debug, thiserror::Error)]
pub enum RootError {
    #[error("{}: {source}", .path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: not a directory", .0.display())]
    NotADirectory(PathBuf),
    #[error(
        "{}: neither a creature (no .self/ or BIRTH.json) nor a garden of creatures{}",
        .path.display(),
        .deeper.as_deref().map(|hint| format!("; {hint}")).unwrap_or_default()
    )]
    Neither {
        path: PathBuf,
        /// Where creatures were found one level deeper, as a command to watch them.
        deeper: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Root {
    Creature(PathBuf),
    Garden(PathBuf),
}

impl Root {
    /// Classifies a path: a creature, or a garden (a directory whose subdirectories
    /// are, or will be, creatures: an empty directory is a garden waiting for its first).
    /// When creatures sit one level deeper (`DIR/*/creature`, as in OpenSeed's fixture
    /// layouts) the error says how to watch them.
    pub fn classify(path: &Path) -> Result<Root, RootError> {
        let meta = std::fs::metadata(path).map_err(|source| RootError::Unreadable {
            path: path.to_path_buf(),
            source,
        })?;
        if !meta.is_dir() {
            return Err(RootError::NotADirectory(path.to_path_buf()));
        }
        if is_creature(path) {
            return Ok(Root::Creature(path.to_path_buf()));
        }
        if !creatures_in(path).is_empty() || is_empty_dir(path) {
            return Ok(Root::Garden(path.to_path_buf()));
        }
        Err(RootError::Neither {
            path: path.to_path_buf(),
            deeper: deeper_hint(path),
        })
    }

    pub fn path(&self) -> &Path {
        match self {
            Root::Creature(p) | Root::Garden(p) => p,
        }
    }
}

/// OpenSeed's home: `$OPENSEED_HOME` when set (OpenSeed honours it too), else
/// `~/.openseed`; `None` when there is neither.
pub fn openseed_home() -> Option<PathBuf> {
    std::env::var_os("OPENSEED_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| directories::BaseDirs::new().map(|d| d.home_dir().join(".openseed")))
}

/// OpenSeed's garden, where the observatory looks when given no path
/// (`creatures` in [`openseed_home`]); `None` when there is no home directory.
pub fn default_garden() -> Option<PathBuf> {
    openseed_home().map(|home| home.join("creatures"))
}

fn is_empty_dir(path: &Path) -> bool {
    std::fs::read_dir(path).is_ok_and(|mut entries| entries.next().is_none())
}

/// "creatures found one level deeper: dreamwatch DIR/*/NAME" when the subdirectories of
/// `dir` hold creatures (listed one by one when they are not all called the same).
fn deeper_hint(dir: &Path) -> Option<String> {
    let deeper: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .flat_map(|p| creatures_in(&p))
        .collect();
    let first = deeper.first()?.file_name()?;
    let command = if deeper.iter().all(|p| p.file_name() == Some(first)) {
        format!("{}/*/{}", dir.display(), Path::new(first).display())
    } else {
        deeper
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    Some(format!(
        "creatures found one level deeper: dreamwatch {command}"
    ))
}

/// The creatures directly under `garden`, in natural order (`c2` before `c10`).
pub fn creatures_in(garden: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(garden) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir() && is_creature(p))
        .collect();
    sort_naturally(&mut found);
    found
}

/// The set of creatures under some roots, recomputed on demand; the difference between
/// two scans is what appeared and what disappeared.
#[derive(Debug, Clone, Default)]
pub struct Garden {
    roots: Vec<Root>,
    known: BTreeSet<NaturalPath>,
}

/// Creatures that appeared and disappeared since the last scan.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GardenDiff {
    pub added: Vec<PathBuf>,
    pub removed: Vec<PathBuf>,
}

impl Garden {
    pub fn new(roots: Vec<Root>) -> Self {
        Self {
            roots,
            known: BTreeSet::new(),
        }
    }

    pub fn roots(&self) -> &[Root] {
        &self.roots
    }

    /// The creatures found by the last scan, in natural order.
    pub fn creatures(&self) -> impl Iterator<Item = &PathBuf> {
        self.known.iter().map(|p| &p.0)
    }

    /// Scans the roots again.
    pub fn scan(&mut self) -> GardenDiff {
        let mut now = BTreeSet::new();
        for root in &self.roots {
            match root {
                Root::Creature(p) => {
                    if p.is_dir() {
                        now.insert(NaturalPath(p.clone()));
                    }
                }
                Root::Garden(p) => now.extend(creatures_in(p).into_iter().map(NaturalPath)),
            }
        }
        let added = now.difference(&self.known).map(|p| p.0.clone()).collect();
        let removed = self.known.difference(&now).map(|p| p.0.clone()).collect();
        self.known = now;
        GardenDiff { added, removed }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_and_scan() {
        let dir = tempfile::tempdir().unwrap();
        let garden = dir.path();
        std::fs::create_dir_all(garden.join("a/.self")).unwrap();
        assert_eq!(
            Root::classify(garden).ok(),
            Some(Root::Garden(garden.to_path_buf()))
        );
        assert!(matches!(
            Root::classify(&garden.join("a")).ok(),
            Some(Root::Creature(_))
        ));
        assert!(Root::classify(&garden.join("missing")).is_err());
        let empty = tempfile::tempdir().unwrap();
        assert_eq!(
            Root::classify(empty.path()).ok(),
            Some(Root::Garden(empty.path().to_path_buf())),
            "an empty directory is a garden waiting for creatures"
        );
        std::fs::write(empty.path().join("notes.txt"), "x").unwrap();
        assert!(Root::classify(empty.path()).is_err());

        let mut g = Garden::new(vec![Root::Garden(garden.to_path_buf())]);
        assert_eq!(g.scan().added, vec![garden.join("a")]);
        std::fs::create_dir_all(garden.join("b")).unwrap();
        std::fs::write(garden.join("b/BIRTH.json"), "{}").unwrap();
        std::fs::remove_dir_all(garden.join("a")).unwrap();
        let diff = g.scan();
        assert_eq!(diff.added, vec![garden.join("b")]);
        assert_eq!(diff.removed, vec![garden.join("a")]);
    }

    #[test]
    fn creatures_one_level_deeper_are_pointed_at() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a", "b"] {
            std::fs::create_dir_all(dir.path().join(name).join("creature/.self")).unwrap();
        }
        let e = Root::classify(dir.path()).unwrap_err().to_string();
        let hint = format!("dreamwatch {}/*/creature", dir.path().display());
        assert!(e.contains(&hint), "{e}");
        std::fs::create_dir_all(dir.path().join("c/other/.self")).unwrap();
        let e = Root::classify(dir.path()).unwrap_err().to_string();
        assert!(
            e.contains(&dir.path().join("c/other").display().to_string()),
            "{e}"
        );
    }

    #[test]
    fn creatures_come_in_natural_order() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["c10", "c2", "c1"] {
            std::fs::create_dir_all(dir.path().join(name).join(".self")).unwrap();
        }
        let expected: Vec<PathBuf> = ["c1", "c2", "c10"]
            .iter()
            .map(|n| dir.path().join(n))
            .collect();
        assert_eq!(creatures_in(dir.path()), expected);
        let mut g = Garden::new(vec![Root::Garden(dir.path().to_path_buf())]);
        assert_eq!(g.scan().added, expected);
        assert_eq!(g.creatures().cloned().collect::<Vec<_>>(), expected);
    }
}
