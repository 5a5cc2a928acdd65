//! The observatory: a terminal UI over the memory model.
//!
//! - [`input`]: keys and the mouse become [`input::action::Action`]s through the keymap;
//!   hints and help come from the same command list.
//! - [`state`]: everything shown, including text [`prepare`]d once when it arrives.
//! - [`update`]: actions change the state and ask for effects.
//! - [`draw`]: a pure function of the state, laid out by [`layout`].
//! - [`runtime`]: the terminal, the event loop (draw only when dirty), effects.
//! - [`theme`], [`config`]: built-in themes and the user's config file.

use std::path::PathBuf;

use anyhow::Context as _;

use crate::cli::{UiArgs, WatchArgs};
use crate::runner::control::HostedCreature;

pub mod config;
pub mod doc;
pub mod draw;
pub mod focus;
pub mod headless;
pub mod input;
pub mod layout;
pub mod prepare;
pub mod runtime;
pub mod screenshot;
pub mod state;
pub mod theme;
pub mod update;

/// Opens the observatory on `paths` (creatures or gardens) plus creatures hosted in-process.
pub fn run_observatory(
    paths: &[PathBuf],
    ui: &UiArgs,
    watch: &WatchArgs,
    hosted: Vec<HostedCreature>,
) -> anyhow::Result<()> {
    let roots = runtime::startup::roots(paths, &hosted)?;
    let (settings, config, warnings) = runtime::startup::settings(ui);
    // The command line wins over the config file; 0 turns the polling fallback off.
    let opts = crate::inspect::watch_options(&WatchArgs {
        poll_ms: watch.poll_ms.or(config.poll_ms),
        ..watch.clone()
    });
    // A thread of its own, so that a caller inside a tokio runtime can call this too.
    std::thread::scope(|scope| {
        scope
            .spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .context("starting the observatory's runtime")?;
                rt.block_on(runtime::startup::observe(
                    roots, opts, settings, warnings, hosted,
                ))
            })
            .join()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("the observatory panicked")))
    })
}
