//! Logging: tracing to a file, never to the screen (the observatory owns the terminal,
//! headless runners print progress lines there).

use std::path::Path;

/// Sends log lines to `file` (`--log-file`) or `<state dir>/dreamwatch/dreamwatch.log`
/// (`DREAMWATCH_LOG` sets the filter, `info` by default). Without a writable file, nothing
/// is logged.
pub fn init(file: Option<&Path>) {
    let path = file.map(Path::to_path_buf).or_else(|| {
        directories::BaseDirs::new().map(|d| {
            d.state_dir()
                .unwrap_or_else(|| d.cache_dir())
                .join("dreamwatch/dreamwatch.log")
        })
    });
    let Some(path) = path else { return };
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
    else {
        return;
    };
    let _ = tracing_subscriber::fmt()
        .with_writer(std::sync::Mutex::new(file))
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("DREAMWATCH_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .try_init();
}
