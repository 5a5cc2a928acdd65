//! Where the copies of far gardens live: one directory per connection under the cache
//! directory's `dreamwatch/remote/`, this process's own (held by a lock inside it) and
//! removed when it ends. One left by an observatory that was killed (its lock free) is
//! removed by the next that starts. A far garden's copy has the same path at every run
//! (named after its host and a digest of its place), so what is kept by path (the
//! watched history) is kept across runs; a second observatory following the same garden
//! at once gets a directory of its own. The removal does not hold up the observatory's end:
//! the copy is renamed out of the way and removed by a process of its own (a copy of a
//! thousand creatures can take seconds to remove on a busy disk).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The lock a live observatory holds in each of its copies.
const LOCK: &str = ".dreamwatch-copy.lock";

/// The directory copies are made in.
pub fn base() -> PathBuf {
    directories::BaseDirs::new()
        .map(|d| d.cache_dir().join("dreamwatch").join("remote"))
        .unwrap_or_else(|| std::env::temp_dir().join("dreamwatch-remote"))
}

/// One connection's copy: removed when dropped.
#[derive(Debug)]
pub struct CopyDir {
    path: PathBuf,
    _lock: File,
}

impl CopyDir {
    /// A new directory in `base` for the far garden at `place` on `host`, locked by this
    /// process: `HOST-DIGEST` (the same at every run) unless a live observatory holds
    /// that one, then `HOST-XXXXXX`.
    pub fn create(base: &Path, host: &str, place: &str) -> io::Result<Self> {
        std::fs::create_dir_all(base)?;
        let slug: String = host
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let digest = Sha256::digest(place.as_bytes());
        let hex: String = digest[..6].iter().map(|b| format!("{b:02x}")).collect();
        let stable = base.join(format!("{slug}-{hex}"));
        if let Some(copy) = Self::claim(&stable)? {
            return Ok(copy);
        }
        // Held by another observatory: one of this run's own.
        let path = tempfile::Builder::new()
            .prefix(&format!("{slug}-"))
            .tempdir_in(base)?
            .keep();
        Self::lock(&path)?.ok_or_else(|| io::Error::other("a new copy directory was taken"))
    }

    /// The directory at `path`, made and locked; `None` when a live observatory holds
    /// it. One left behind is renamed out of the way first (its removal not waited for).
    fn claim(path: &Path) -> io::Result<Option<Self>> {
        if File::open(path.join(LOCK)).is_ok_and(|f| !try_lock(&f)) {
            return Ok(None);
        }
        match std::fs::create_dir(path) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                if let (Some(base), Some(name)) = (path.parent(), path.file_name())
                    && !remove_aside(base, name, path)
                {
                    std::fs::remove_dir_all(path)?;
                }
                std::fs::create_dir(path)?;
            }
            done => done?,
        }
        Self::lock(path)
    }

    /// Locks the directory at `path` for this process (`None` when another holds it).
    fn lock(path: &Path) -> io::Result<Option<Self>> {
        let lock = File::create(path.join(LOCK))?;
        if !try_lock(&lock) {
            return Ok(None);
        }
        Ok(Some(Self {
            path: path.to_path_buf(),
            _lock: lock,
        }))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for CopyDir {
    fn drop(&mut self) {
        let path = &self.path;
        let removed = match (path.parent(), path.file_name()) {
            (Some(base), Some(name)) => remove_aside(base, name, path),
            _ => false,
        };
        if !removed {
            let _ = std::fs::remove_dir_all(path);
        }
    }
}

/// Renames `path` (named `name` in `base`) out of the way and has a process of its own
/// remove it; `false` when it could not be renamed (nothing was done).
fn remove_aside(base: &Path, name: &std::ffi::OsStr, path: &Path) -> bool {
    let mut gone = std::ffi::OsString::from(".gone-");
    if !name.to_string_lossy().starts_with(".gone-") {
        gone.push(name);
    } else {
        gone = name.to_owned();
    }
    let trash = base.join(gone);
    if trash != path && std::fs::rename(path, &trash).is_err() {
        return false;
    }
    let removing = std::process::Command::new("rm")
        .arg("-rf")
        .arg("--")
        .arg(&trash)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if removing.is_err() {
        let _ = std::fs::remove_dir_all(&trash);
    }
    true
}

/// Removes the copies in `base` that no live observatory holds.
pub fn sweep(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for dir in entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()) {
        let held = File::open(dir.join(LOCK)).is_ok_and(|f| !try_lock(&f));
        if !held {
            // Gone already, or not ours to remove: left as it is.
            let removed = dir
                .file_name()
                .is_some_and(|name| remove_aside(base, name, &dir));
            if !removed {
                let _ = std::fs::remove_dir_all(&dir);
            }
        }
    }
}

/// Takes the lock without waiting; `false` when another holds it.
fn try_lock(file: &File) -> bool {
    // Released when `file` is closed.
    file.try_lock().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_held_stay_and_those_left_behind_go() {
        let base = tempfile::tempdir().unwrap();
        let live = CopyDir::create(base.path(), "user@box:22", "ssh://box/g").unwrap();
        assert!(
            live.path()
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("user_box_22-")
        );
        let left = base.path().join("box-dead");
        std::fs::create_dir_all(left.join("sprout/.self")).unwrap();
        std::fs::write(left.join(LOCK), "").unwrap();
        sweep(base.path());
        assert!(live.path().is_dir());
        assert!(!left.exists());
        let path = live.path().to_path_buf();
        drop(live);
        assert!(!path.exists());
    }

    #[test]
    fn a_far_gardens_copy_has_the_same_path_at_every_run_unless_another_holds_it() {
        let base = tempfile::tempdir().unwrap();
        let first = CopyDir::create(base.path(), "box", "ssh://box/g").unwrap();
        let path = first.path().to_path_buf();
        // Held: another observatory gets one of its own; another garden has its own.
        let second = CopyDir::create(base.path(), "box", "ssh://box/g").unwrap();
        assert_ne!(second.path(), path);
        let other_garden = CopyDir::create(base.path(), "box", "ssh://box/h").unwrap();
        assert_ne!(other_garden.path(), path);
        drop((first, second, other_garden));
        // One killed: its directory left behind, its lock free.
        std::fs::create_dir_all(path.join("sprout/.self")).unwrap();
        std::fs::write(path.join(LOCK), "").unwrap();
        let again = CopyDir::create(base.path(), "box", "ssh://box/g").unwrap();
        assert_eq!(again.path(), path, "the same path");
        assert!(
            !path.join("sprout").exists(),
            "what was left behind is gone"
        );
    }
}
