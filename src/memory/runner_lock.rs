//! `.sys/runner.lock`: held (an exclusive `flock`) by the runner hosting the creature for
//! as long as it lives; the kernel releases it when the process dies. Whether a runner is
//! alive is read from it, not from a process id that may have been reused.

use std::fs::File;
use std::path::{Path, PathBuf};

use super::layout::SYS_DIR;

/// The lock file of the creature at `root`.
pub fn path(root: &Path) -> PathBuf {
    root.join(SYS_DIR).join("runner.lock")
}

/// Whether a runner holds the creature's lock: a non-blocking shared lock on a read-only
/// open fails, and is released at once when it succeeds. No lock file: no runner.
pub fn is_held(root: &Path) -> bool {
    let Ok(file) = File::open(path(root)) else {
        return false;
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return false;
    }
    match file.try_lock_shared() {
        Err(std::fs::TryLockError::WouldBlock) => true,
        Err(std::fs::TryLockError::Error(_)) => false,
        Ok(()) => {
            // Closing `file` would release it too.
            let _ = file.unlock();
            false
        }
    }
}
