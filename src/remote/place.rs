//! Where the copies of far gardens live: one directory per connection under the cache
//! directory's `dreamwatch/remote/` (readable by its owner alone), held by a lock inside it
//! while an observatory follows it. A far garden's copy has the same path at every run
//! (named after its host and a digest of its place) and is kept when the observatory ends:
//! the next run finds last run's files and writes only those that changed (a fleet's
//! copy is thousands of files, and making them all again is most of a restart's time on
//! some disks), and what is kept by path (the watched history) goes on. A second
//! observatory following the same garden at once gets a directory of its own, removed
//! when it ends, as are copies not followed for [`KEPT_FOR`]. A removal does not hold up
//! anything: the directory is renamed out of the way and removed by a process of its own
//! (a copy of a thousand creatures can take seconds to remove on a busy disk).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The lock a live observatory holds in each of its copies.
const LOCK: &str = ".dreamwatch-copy.lock";

/// In a copy kept from run to run: its mtime says when it was last followed.
const KEPT: &str = ".dreamwatch-copy.kept";

/// A kept copy not followed for this long is removed by the next observatory that starts.
pub const KEPT_FOR: std::time::Duration = std::time::Duration::from_secs(30 * 24 * 3600);

/// The directory copies are made in.
pub fn base() -> PathBuf {
    directories::BaseDirs::new()
        .map(|d| d.cache_dir().join("dreamwatch").join("remote"))
        .unwrap_or_else(|| std::env::temp_dir().join("dreamwatch-remote"))
}

/// One connection's copy: kept when dropped if it is the garden's own, removed if it was
/// this run's alone.
#[derive(Debug)]
pub struct CopyDir {
    path: PathBuf,
    _lock: File,
    kept: bool,
}

impl CopyDir {
    /// The directory in `base` for the far garden at `place` on `host`, locked by this
    /// process: `HOST-DIGEST` (the same at every run, what last run left in it set aside
    /// for the far side to confirm: [`set_aside`]) unless a live observatory holds that
    /// one, then a new `HOST-XXXXXX` of this run's own.
    pub fn create(base: &Path, host: &str, place: &str) -> io::Result<Self> {
        make_private(base)?;
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
        let hex = crate::text::hex(&digest[..6]);
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

    /// The kept directory at `path`, made if missing, locked, its creatures set aside;
    /// `None` when a live observatory holds it.
    fn claim(path: &Path) -> io::Result<Option<Self>> {
        if File::open(path.join(LOCK)).is_ok_and(|f| !try_lock(&f)) {
            return Ok(None);
        }
        match std::fs::create_dir(path) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            done => done?,
        }
        let Some(mut copy) = Self::lock(path)? else {
            return Ok(None);
        };
        // Marked as kept, the mark's time refreshed, once it is this run's.
        File::create(path.join(KEPT))?.set_modified(std::time::SystemTime::now())?;
        copy.kept = true;
        set_aside(path)?;
        Ok(Some(copy))
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
            kept: false,
        }))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for CopyDir {
    fn drop(&mut self) {
        if self.kept {
            // Its lock is released as the file closes.
            return;
        }
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

/// Removes the copies in `base` that no live observatory holds, but for kept ones
/// followed within [`KEPT_FOR`].
pub fn sweep(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for dir in entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()) {
        let held = File::open(dir.join(LOCK)).is_ok_and(|f| !try_lock(&f));
        let named_gone = dir
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(".gone-"));
        let kept = !named_gone
            && std::fs::metadata(dir.join(KEPT))
                .and_then(|m| m.modified())
                .is_ok_and(|at| at.elapsed().is_ok_and(|age| age < KEPT_FOR));
        if !held && !kept {
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

/// Sets the creatures last run left in the copy at `root` aside, into its landing (see
/// [`crate::remote::mirror::LANDING`]): the garden does not show them until the far side
/// confirms them, and their files are there to be compared with what it sends. One of a
/// run that was killed while its first snapshot landed has both: the landing's is kept.
fn set_aside(root: &Path) -> io::Result<()> {
    let landing = root.join(crate::remote::mirror::LANDING);
    let mut made = false;
    for entry in std::fs::read_dir(root)?.flatten() {
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') || !entry.file_type()?.is_dir() {
            continue;
        }
        if !made {
            match std::fs::create_dir(&landing) {
                Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
                _ => made = true,
            }
        }
        let to = landing.join(&name);
        if to.exists() {
            std::fs::remove_dir_all(entry.path())?;
        } else {
            std::fs::rename(entry.path(), to)?;
        }
    }
    Ok(())
}

/// Makes `dir` (and its parents) readable by its owner alone: the copies hold far
/// creatures' files.
fn make_private(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    let mode = std::fs::metadata(dir)?.permissions().mode() & 0o777;
    if mode != 0o700 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
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
    fn copies_held_or_kept_stay_and_those_left_behind_go() {
        let base = tempfile::tempdir().unwrap();
        let live = CopyDir::create(base.path(), "user@box:22", "ssh://box/g").unwrap();
        let name = live.path().file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with("user_box_22-"), "{name}");
        let mode = std::fs::metadata(base.path()).unwrap().permissions();
        assert_eq!(
            std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
            0o700
        );
        // One of a run's own (another held the kept one), left by a run that was killed.
        let left = base.path().join("box-dead");
        std::fs::create_dir_all(left.join("sprout/.self")).unwrap();
        std::fs::write(left.join(LOCK), "").unwrap();
        // A kept one not followed for too long.
        let old = base.path().join("box-old");
        std::fs::create_dir_all(old.join("sprout/.self")).unwrap();
        let mark = File::create(old.join(KEPT)).unwrap();
        let long_ago = std::time::SystemTime::now() - KEPT_FOR - KEPT_FOR / 10;
        mark.set_modified(long_ago).unwrap();
        sweep(base.path());
        assert!(live.path().is_dir());
        assert!(!left.exists());
        assert!(!old.exists());
        let path = live.path().to_path_buf();
        drop(live);
        assert!(path.is_dir(), "kept for the next run");
        sweep(base.path());
        assert!(path.is_dir(), "kept, not a leftover");
    }

    #[test]
    fn a_far_gardens_copy_has_the_same_path_at_every_run_unless_another_holds_it() {
        let base = tempfile::tempdir().unwrap();
        let first = CopyDir::create(base.path(), "box", "ssh://box/g").unwrap();
        let path = first.path().to_path_buf();
        // Held: another observatory gets one of its own; another garden has its own.
        let second = CopyDir::create(base.path(), "box", "ssh://box/g").unwrap();
        assert_ne!(second.path(), path);
        let own = second.path().to_path_buf();
        let other_garden = CopyDir::create(base.path(), "box", "ssh://box/h").unwrap();
        assert_ne!(other_garden.path(), path);
        std::fs::create_dir_all(path.join("sprout/.self")).unwrap();
        std::fs::write(path.join("sprout/BIRTH.json"), "{}").unwrap();
        drop((first, second, other_garden));
        assert!(!own.exists(), "one of a run's own goes with it");
        // The next run: the same path, what was there set aside for the far side to
        // confirm (the garden does not see it in the copy).
        let again = CopyDir::create(base.path(), "box", "ssh://box/g").unwrap();
        assert_eq!(again.path(), path, "the same path");
        let landing = path.join(crate::remote::mirror::LANDING);
        assert!(!path.join("sprout").exists());
        assert_eq!(
            std::fs::read_to_string(landing.join("sprout/BIRTH.json")).unwrap(),
            "{}"
        );
        // Killed while landing: the landing's copy is the one kept.
        std::fs::create_dir_all(path.join("sprout")).unwrap();
        std::fs::create_dir_all(path.join("moss")).unwrap();
        drop(again);
        let third = CopyDir::create(base.path(), "box", "ssh://box/g").unwrap();
        assert!(!path.join("sprout").exists() && !path.join("moss").exists());
        assert!(landing.join("sprout/BIRTH.json").exists());
        assert!(landing.join("moss").is_dir());
        drop(third);
    }
}
