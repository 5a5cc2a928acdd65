//! Claiming a creature directory for a runner: refusing what is not a creature, and the
//! lock that keeps a second runner out.

use std::fs::File;
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::memory::write::SeedPaths;

use super::config::RunnerConfigError;

/// Why a runner could not open its creature.
#[derive(Debug, Error)]
pub enum OpenError {
    #[error(transparent)]
    Config(#[from] RunnerConfigError),
    #[error("{} is not a directory", .0.display())]
    NotADirectory(PathBuf),
    #[error(
        "{} is not a creature (no .self/ or BIRTH.json) and is not empty; refusing to let a \
         creature run commands in it. Use a new directory.",
        .0.display()
    )]
    NotACreature(PathBuf),
    #[error("another dreamwatch runner is hosting {}", .0.display())]
    AlreadyHosted(PathBuf),
    #[error("cannot create the creature in {}: {source}", dir.display())]
    Birth {
        dir: PathBuf,
        #[source]
        source: io::Error,
    },
    /// `what` is the verb: `create`, `read`, `open`, `write`.
    #[error("cannot {what} {}: {source}", path.display())]
    Io {
        what: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// Whether `dir` is to be born (`true`) or resumed (`false`). A missing or empty directory,
/// or one holding only PURPOSE.md / MESSAGES.md prepared for the creature, is new; one with
/// `.self/` or `BIRTH.json` is a creature; anything else is refused.
pub fn prepare_dir(dir: &Path) -> Result<bool, OpenError> {
    if !dir.exists() {
        std::fs::create_dir_all(dir).map_err(|source| OpenError::Io {
            what: "create",
            path: dir.to_path_buf(),
            source,
        })?;
        return Ok(true);
    }
    check_dir(dir)
}

/// What [`prepare_dir`] would say of `dir`, creating nothing: `true` for a creature to be
/// born (a missing directory too), `false` for one to resume.
pub fn check_dir(dir: &Path) -> Result<bool, OpenError> {
    let io = |what| {
        move |source| OpenError::Io {
            what,
            path: dir.to_path_buf(),
            source,
        }
    };
    if !dir.exists() {
        return Ok(true);
    }
    if !dir.is_dir() {
        return Err(OpenError::NotADirectory(dir.to_path_buf()));
    }
    if dir.join(".self").is_dir() || dir.join("BIRTH.json").is_file() {
        return Ok(false);
    }
    for entry in std::fs::read_dir(dir).map_err(io("read"))? {
        let name = entry.map_err(io("read"))?.file_name();
        if !matches!(name.to_str(), Some("PURPOSE.md" | "MESSAGES.md" | ".sys")) {
            return Err(OpenError::NotACreature(dir.to_path_buf()));
        }
    }
    Ok(true)
}

/// Takes `.sys/runner.lock` (an advisory lock released when the process dies).
pub fn lock(paths: &SeedPaths) -> Result<File, OpenError> {
    let path = crate::memory::runner_lock::path(&paths.root);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        // A FIFO in its place opens at once (or fails), and is refused below.
        .custom_flags(libc::O_NONBLOCK)
        .open(&path)
        .map_err(|e| match e.raw_os_error() {
            // A FIFO without a reader.
            Some(libc::ENXIO) => io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a regular file (a FIFO): not used",
            ),
            _ => e,
        })
        .and_then(|f| {
            crate::tail::ensure_regular(&f)?;
            Ok(f)
        })
        .map_err(|source| OpenError::Io {
            what: "open",
            path: path.clone(),
            source,
        })?;
    // Held for the life of `file` (an exclusive `flock`, as `memory::runner_lock` reads it).
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(OpenError::AlreadyHosted(paths.root.clone())),
        Err(std::fs::TryLockError::Error(source)) => Err(OpenError::Io {
            what: "lock",
            path,
            source,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_new_what_is_a_creature_and_what_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let missing = tmp.path().join("new");
        assert!(prepare_dir(&missing).unwrap(), "created and new");
        std::fs::write(missing.join("PURPOSE.md"), "p").unwrap();
        assert!(
            prepare_dir(&missing).unwrap(),
            "a prepared purpose is still new"
        );
        std::fs::create_dir(missing.join(".self")).unwrap();
        assert!(!prepare_dir(&missing).unwrap(), "a creature resumes");
        let other = tmp.path().join("other");
        std::fs::create_dir(&other).unwrap();
        std::fs::write(other.join("notes.txt"), "x").unwrap();
        assert!(matches!(
            prepare_dir(&other),
            Err(OpenError::NotACreature(_))
        ));
        let file = tmp.path().join("file");
        std::fs::write(&file, "x").unwrap();
        let e = prepare_dir(&file).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{} is not a directory", file.display())
        );
    }

    #[test]
    fn one_lock_per_creature() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = SeedPaths::new(tmp.path());
        std::fs::create_dir_all(paths.sys_dir()).unwrap();
        let held = lock(&paths).unwrap();
        assert!(matches!(lock(&paths), Err(OpenError::AlreadyHosted(_))));
        drop(held);
        assert!(lock(&paths).is_ok());
    }

    #[test]
    fn a_fifo_as_the_lock_is_refused_not_waited_on() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = SeedPaths::new(tmp.path());
        std::fs::create_dir_all(paths.sys_dir()).unwrap();
        let lock_path = crate::memory::runner_lock::path(&paths.root);
        let made = std::process::Command::new("mkfifo")
            .arg(&lock_path)
            .status()
            .unwrap();
        assert!(made.success());
        let e = lock(&paths).unwrap_err();
        assert!(e.to_string().contains("FIFO"), "{e}");
        assert!(!crate::memory::runner_lock::is_held(&paths.root));
    }
}
