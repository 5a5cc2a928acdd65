//! `dreamwatch run GARDEN`: which creatures a garden run hosts.

use std::path::{Path, PathBuf};

use super::AppError;

/// The creature directories to host when `dir` is a garden: those already in it (a
/// directory with a `BIRTH.json`), and with `--creatures N` new ones (`c1`, `c2`, ...
/// names not taken) until there are N. `None` when `dir` is one creature (or a new one)
/// and no `--creatures` was given.
pub fn plan(dir: &Path, creatures: Option<u64>) -> Result<Option<Vec<PathBuf>>, AppError> {
    if dir.join("BIRTH.json").exists() {
        return match creatures {
            Some(_) => Err(AppError::Usage(format!(
                "{} is a creature, not a garden: leave out --creatures to host it",
                dir.display()
            ))),
            None => Ok(None),
        };
    }
    let mut found = existing(dir);
    let Some(n) = creatures else {
        return Ok((!found.is_empty()).then_some(found));
    };
    let mut i = 0;
    while (found.len() as u64) < n {
        i += 1;
        let new = dir.join(format!("c{i}"));
        if !new.exists() {
            found.push(new);
        }
    }
    Ok(Some(found))
}

/// The creatures in `dir`, in natural order of their names.
fn existing(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("BIRTH.json").is_file())
        .collect();
    alphanumeric_sort::sort_path_slice(&mut found);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dirs: &[PathBuf]) -> Vec<String> {
        dirs.iter()
            .map(|d| d.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn a_garden_is_its_creatures_and_new_ones_up_to_n() {
        let g = tempfile::tempdir().unwrap();
        assert_eq!(plan(g.path(), None).unwrap(), None, "empty: not a garden");
        let dirs = plan(g.path(), Some(3)).unwrap().unwrap();
        assert_eq!(names(&dirs), ["c1", "c2", "c3"]);
        for name in ["c10", "c2", "wren"] {
            std::fs::create_dir_all(g.path().join(name)).unwrap();
            std::fs::write(g.path().join(name).join("BIRTH.json"), "{}").unwrap();
        }
        let dirs = plan(g.path(), None).unwrap().unwrap();
        assert_eq!(names(&dirs), ["c2", "c10", "wren"], "natural order");
        let dirs = plan(g.path(), Some(5)).unwrap().unwrap();
        assert_eq!(names(&dirs), ["c2", "c10", "wren", "c1", "c3"]);
        assert!(plan(&g.path().join("wren"), Some(2)).is_err());
        assert_eq!(plan(&g.path().join("wren"), None).unwrap(), None);
    }
}
