//! The observatory: a terminal UI over the memory model.
//!
//! - [`focus`]: the focused pane, the main view shown, the mode.
//! - [`input`]: keys become [`input::action::Action`]s (each declared once, in one table)
//!   through the keymap; hints and help come from the same action list.
//! - [`views`], [`popups`]: components, one folder each: a view of the main pane or a
//!   popup with its state, its text [`prepare`]d once when it arrives, the actions it
//!   understands and its drawing.
//! - [`state`]: the app: every creature's components, selection, focus, mode, search.
//! - [`update`]: actions (routed to the component that understands them) and the mouse
//!   change the state and ask for jobs (IO).
//! - [`draw`]: a pure function of the state, laid out by [`layout`]: the frame, and the
//!   components drawn in it with a [`draw::DrawContext`].
//! - [`runtime`]: the terminal, the event loop (one handler, draw only when dirty), jobs;
//!   [`headless`] drives the same handler on a test backend.
//! - [`theme`], [`config`]: built-in themes and the user's config file.

use std::path::PathBuf;

use anyhow::Context as _;

use crate::control::HostedCreature;
use crate::memory::cycle::Cycle;
use crate::openseed::{Target, Tokens};
use crate::remote::Transport;
use crate::watch::WatchOptions;

pub mod config;
pub mod doc;
pub mod draw;
pub mod focus;
pub mod genome;
pub mod headless;
pub mod input;
pub mod layout;
pub mod notify;
pub mod popups;
pub mod prepare;
pub mod runtime;
pub mod screenshot;
pub mod state;
pub mod theme;
pub mod time;
pub mod update;
pub mod views;

/// What the observatory opens with, from the command line and the config file.
#[derive(Debug, Clone, Default)]
pub struct ObservatoryOptions {
    /// Creatures or gardens to watch; none means OpenSeed's garden.
    pub paths: Vec<PathBuf>,
    /// A theme asked for on the command line: it wins over the config file's.
    pub theme: Option<String>,
    /// The observatory's part of the config file.
    pub config: config::Config,
    /// The cycle constants of watched creatures (hosted ones bring their runner's).
    pub cycle: Cycle,
    pub watch: WatchOptions,
    /// Problems found in the config file, shown in the status line.
    pub warnings: Vec<String>,
    /// `--read-only` was given (the config file's `read_only` counts too).
    pub read_only: bool,
    /// An OpenSeed orchestrator to attach to.
    pub openseed: Option<OpenSeedLink>,
    /// Gardens on other machines (`ssh://HOST/PATH`).
    pub remotes: Vec<Transport>,
    /// The demo's speed, when the observatory shows `dreamwatch demo` (its speed keys
    /// work then).
    pub demo_speed: Option<u32>,
}

/// Where an OpenSeed orchestrator is, and the tokens its control routes may ask for.
#[derive(Debug, Clone)]
pub struct OpenSeedLink {
    pub target: Target,
    pub tokens: Tokens,
}

/// Opens the observatory on creatures and gardens plus creatures hosted in-process.
pub fn run_observatory(
    options: ObservatoryOptions,
    hosted: Vec<HostedCreature>,
) -> anyhow::Result<()> {
    let by_url = options
        .openseed
        .as_ref()
        .is_some_and(|o| matches!(o.target, Target::Url(_)));
    let mut roots =
        runtime::startup::roots(&options.paths, &hosted, !options.remotes.is_empty(), by_url)?;
    // Each far garden's copy: a directory held by this process, kept for the next run.
    let mirrors = runtime::startup::mirrors(&options.remotes)?;
    roots.extend(
        mirrors
            .iter()
            .map(|(_, dir)| crate::memory::garden::Root::Garden(dir.path().to_path_buf())),
    );
    let remotes: Vec<(Transport, std::path::PathBuf)> = mirrors
        .iter()
        .map(|(t, dir)| (t.clone(), dir.path().to_path_buf()))
        .collect();
    let (mut settings, mut warnings) =
        runtime::startup::settings(options.theme.as_deref(), &options.config, options.cycle);
    settings.read_only |= options.read_only;
    settings.demo_speed = options.demo_speed;
    warnings.splice(0..0, options.warnings);
    let watch = options.watch;
    let openseed = options.openseed;
    let run = move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("starting the observatory's runtime")?;
        rt.block_on(runtime::startup::observe(
            roots, watch, settings, warnings, hosted, openseed, remotes,
        ))
    };
    // On this thread (a thread started is time before the first frame), but for a caller
    // inside a tokio runtime: a thread of its own.
    if tokio::runtime::Handle::try_current().is_err() {
        return run();
    }
    std::thread::scope(|scope| {
        scope
            .spawn(run)
            .join()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("the observatory panicked")))
    })
}
