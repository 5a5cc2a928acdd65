//! Where the copies of far gardens live: one directory per connection under the cache
//! directory's `dreamwatch/remote/`, this process's own (held by a lock inside it) and
//! removed when it ends. One left by an observatory that was killed (its lock free) is
//! removed by the next that starts. The removal does not hold up the observatory's end:
//! the copy is renamed out of the way and removed by a process of its own (a copy of a
//! thousand creatures can take seconds to remove on a busy disk).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

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
    dir: tempfile::TempDir,
    _lock: File,
}

impl CopyDir {
    /// A new directory in `base` named after `host`, locked by this process.
    pub fn create(base: &Path, host: &str) -> io::Result<Self> {
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
        let dir = tempfile::Builder::new()
            .prefix(&format!("{slug}-"))
            .tempdir_in(base)?;
        let lock = File::create(dir.path().join(LOCK))?;
        if !try_lock(&lock) {
            return Err(io::Error::last_os_error());
        }
        Ok(Self { dir, _lock: lock })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for CopyDir {
    fn drop(&mut self) {
        let path = self.dir.path();
        let (Some(base), Some(name)) = (path.parent(), path.file_name()) else {
            return;
        };
        // Else removed where it is, by the TempDir.
        remove_aside(base, name, path);
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
        let live = CopyDir::create(base.path(), "user@box:22").unwrap();
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
}
