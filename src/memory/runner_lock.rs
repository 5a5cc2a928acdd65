//! `.sys/runner.lock`: held (an exclusive `flock`) by the runner hosting the creature for
//! as long as it lives; the kernel releases it when the process dies. Whether a runner is
//! alive is read from it, not from a process id that may have been reused.

use std::path::{Path, PathBuf};

use super::layout::SYS_DIR;

/// The lock file of the creature at `root`.
pub fn path(root: &Path) -> PathBuf {
    root.join(SYS_DIR).join("runner.lock")
}

/// Whether a runner holds the creature's lock: a non-blocking shared lock on a read-only
/// open fails, and is released at once when it succeeds. No lock file: no runner.
pub fn is_held(root: &Path) -> bool {
    // A FIFO or a device in its place is no lock, and is never waited on.
    let Ok(file) = crate::tail::open_regular(&path(root)) else {
        return false;
    };
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
