//! Logging: tracing to a file, never to the screen (the observatory owns the terminal,
//! headless runners print progress lines there).

use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// Sends log lines to `file` (`--log-file`) or `<state dir>/dreamwatch/dreamwatch.log`
/// (`DREAMWATCH_LOG` sets the filter, `info` by default). Without a writable file, nothing
/// is logged. The state directory is made mode 0700 and the log 0600 whatever the umask
/// (made so again if they were not); a `--log-file` is made 0600 when it is new, its
/// directory left as it is.
pub fn init(file: Option<&Path>) {
    let path = file.map(Path::to_path_buf).or_else(|| {
        directories::BaseDirs::new().map(|d| {
            d.state_dir()
                .unwrap_or_else(|| d.cache_dir())
                .join("dreamwatch/dreamwatch.log")
        })
    });
    let Some(path) = path else { return };
    let default = file.is_none();
    if let Some(dir) = path.parent() {
        let _ = private_dir(dir, default);
    }
    let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&path)
    else {
        return;
    };
    // The log is the operator's alone whatever the umask (and whoever made it before).
    if default
        && file
            .metadata()
            .is_ok_and(|m| m.permissions().mode() & 0o777 != 0o600)
    {
        let _ = file.set_permissions(std::fs::Permissions::from_mode(0o600));
    }
    let _ = tracing_subscriber::fmt()
        .with_writer(std::sync::Mutex::new(file))
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("DREAMWATCH_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .try_init();
}

/// Makes `dir` (mode 0700 for those it makes); when `own` (the state directory), makes it
/// 0700 again if it was not.
fn private_dir(dir: &Path, own: bool) -> std::io::Result<()> {
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    let meta = std::fs::symlink_metadata(dir)?;
    if own && meta.is_dir() && meta.permissions().mode() & 0o777 != 0o700 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}
