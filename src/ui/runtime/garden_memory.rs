//! The garden's sort and filter, kept between runs: one small file per garden under the
//! platform's state directory (`<state dir>/dreamwatch/gardens/`), named after the paths
//! watched, read at start and written when the observatory ends. Never in a creature's
//! directory.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::memory::garden::Root;
use crate::ui::state::garden::{GardenSort, GardenView};

/// What is kept of a garden's view.
#[derive(Debug, Default, Serialize, Deserialize, PartialEq)]
struct Kept {
    #[serde(default)]
    sort: String,
    #[serde(default)]
    filter: String,
}

/// `<state dir>/dreamwatch/gardens` (the data directory where the platform has no state
/// directory).
pub fn default_dir() -> Option<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "dreamwatch")?;
    let base = dirs.state_dir().unwrap_or_else(|| dirs.data_local_dir());
    Some(base.join("gardens"))
}

/// The file of the garden made of `roots` in `dir`: the same paths in any order are the
/// same garden.
pub fn file_of(dir: &Path, roots: &[Root]) -> PathBuf {
    let mut paths: Vec<&Path> = roots.iter().map(Root::path).collect();
    paths.sort();
    paths.dedup();
    let mut hash = Sha256::new();
    for p in paths {
        hash.update(p.as_os_str().as_encoded_bytes());
        hash.update([0]);
    }
    let name = crate::text::hex(&hash.finalize()[..8]);
    dir.join(format!("{name}.toml"))
}

/// The view kept in `file`; the default where there is none or it cannot be read (a
/// sort it does not know is the default sort).
pub fn load(file: &Path) -> GardenView {
    let kept: Kept = std::fs::read_to_string(file)
        .ok()
        .and_then(|text| toml::from_str(&text).ok())
        .unwrap_or_default();
    GardenView {
        sort: GardenSort::from_label(&kept.sort).unwrap_or_default(),
        filter: kept.filter.chars().filter(|c| !c.is_control()).collect(),
    }
}

/// Keeps `view` in `file` (its directory made as needed).
pub fn save(file: &Path, view: &GardenView) -> std::io::Result<()> {
    let kept = Kept {
        sort: view.sort.label().to_string(),
        // A row number typed is a jump, not a filter to keep.
        filter: if view.jump().is_some() {
            String::new()
        } else {
            view.filter.clone()
        },
    };
    let text = toml::to_string(&kept).map_err(std::io::Error::other)?;
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(file, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_garden_keeps_its_sort_and_filter() {
        let dir = tempfile::tempdir().unwrap();
        let a = Root::Garden(PathBuf::from("/g/one"));
        let b = Root::Creature(PathBuf::from("/c/two"));
        let file = file_of(dir.path(), &[a.clone(), b.clone()]);
        assert_eq!(file, file_of(dir.path(), &[b, a.clone()]), "any order");
        assert_ne!(file, file_of(dir.path(), &[a]), "another garden");
        assert_eq!(load(&file), GardenView::default(), "nothing kept yet");
        let view = GardenView {
            filter: "fern awake".into(),
            sort: GardenSort::Fatigue,
        };
        save(&file, &view).unwrap();
        assert_eq!(load(&file), view);
        let jump = GardenView {
            filter: "3".into(),
            sort: GardenSort::Cost,
        };
        save(&file, &jump).unwrap();
        assert_eq!(load(&file).filter, "", "a row number is not kept");
        std::fs::write(&file, "sort = \"no such\"\nfilter = 7\n").unwrap();
        assert_eq!(
            load(&file),
            GardenView::default(),
            "unreadable: the default"
        );
    }
}
