//! What the memory-model tests share: appending to a file as another process would, and a
//! creature directory in a temporary garden.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Appends `text` to `path` (created with its directory when missing).
pub fn append(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).unwrap();
    }
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

/// A creature directory `name` with an empty `.self/`, in a temporary garden.
pub fn creature(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join(name);
    fs::create_dir_all(root.join(".self")).unwrap();
    (dir, root)
}
