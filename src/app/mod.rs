//! The composition root: the command line ([`cli`]), the config file read once
//! ([`config`]), and the wiring of `run` and `demo` (`host`: the runner and the
//! observatory together), the observatory alone, `inspect` and `screenshot`.
//!
//! The only module that knows clap, and the only one that imports both the runner and the
//! observatory: each gets its own option types from here.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use clap::Parser;

use crate::memory::garden::{Root, RootError, default_garden};
use crate::remote::{Transport, is_ssh};
use crate::ui::ObservatoryOptions;

/// `eprintln!` for every line the command line prints on stderr: what it says may hold a
/// path or URL the user gave (`--config`, `--openseed`, a creature's directory) or a
/// creature's name, so it is made inert first (ESC as `^[`, C1 controls as `<U+009B>`;
/// newlines kept).
macro_rules! say {
    ($($arg:tt)*) => {
        eprintln!("{}", $crate::text::sanitize::sanitize(&format!($($arg)*)))
    };
}

pub mod cli;
pub mod config;
mod error;
mod export_otel;
mod garden;
pub mod genomes;
mod guardrails;
mod host;
mod openseed;
mod recorder;
pub mod secrets;
mod settings;

pub use error::AppError;

use cli::{Cli, Command};
use config::Watching;
use secrets::Secrets;

/// `dreamwatch` with the process's arguments.
pub fn main() -> ExitCode {
    // First, while the process has a single thread (see `Secrets::take_from_env`).
    let secrets = Secrets::take_from_env();
    genomes::install();
    let cli = Cli::parse();
    crate::logging::init(cli.ui.log_file.as_deref());
    let result = match &cli.command {
        Some(Command::Inspect(args)) => return inspect(&cli, args),
        Some(Command::Run(args)) => host::run(args, &cli, &secrets),
        Some(Command::Demo(args)) => host::demo(args, &cli, &secrets),
        Some(Command::Screenshot(args)) => screenshot(&cli, args),
        Some(Command::Blame(args)) => return recorder::blame(args),
        Some(Command::Export(args)) => return recorder::export(&cli, args),
        Some(Command::Diff(args)) => return recorder::diff(args),
        Some(Command::ExportOtel(args)) => export_otel::run(args, &cli),
        None => return observe(&cli, &secrets),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            say!("dreamwatch: {e:#}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// The observatory on the paths given, attached to an OpenSeed orchestrator when one is
/// asked for or runs here. Bad paths are a usage error (exit 2), before the terminal is
/// taken over; so is no path when there is no default garden, and a bad `--openseed` URL.
fn observe(cli: &Cli, secrets: &Secrets) -> ExitCode {
    let (remotes, paths) = match split_remote(&cli.paths) {
        Ok(split) => split,
        Err(e) => {
            say!("dreamwatch: {e}");
            return ExitCode::from(2);
        }
    };
    let bad: Vec<RootError> = paths
        .iter()
        .filter_map(|p| Root::classify(p).err())
        .collect();
    if !bad.is_empty() {
        bad.iter().for_each(|e| say!("dreamwatch: {e}"));
        return ExitCode::from(2);
    }
    let watching = Watching::load(cli.ui.config.as_deref(), None);
    warn(&watching.warnings);
    let openseed = match openseed::link(
        &cli.openseed,
        &watching.openseed,
        !cli.paths.is_empty(),
        secrets,
    ) {
        Ok(link) => link,
        Err(e) => {
            say!("dreamwatch: --openseed: {e}");
            return ExitCode::from(2);
        }
    };
    // No path and no garden here: an orchestrator given by its URL (an SSH tunnel to
    // another machine's) is enough, its creatures shown from its API.
    let by_url = openseed
        .as_ref()
        .is_some_and(|o| matches!(o.target, crate::openseed::Target::Url(_)));
    if cli.paths.is_empty() && !by_url {
        let looked = default_garden();
        if !looked.as_deref().is_some_and(Path::is_dir) {
            let place = looked.map_or_else(
                || "no home directory to look in".to_string(),
                |p| format!("no garden at {}", p.display()),
            );
            say!(
                "dreamwatch: no creatures to watch: no path given, and {place} (OpenSeed's \
                 default). Give creature directories or gardens, or try `dreamwatch demo`."
            );
            return ExitCode::from(2);
        }
    }
    if let Err(e) = needs_terminal() {
        say!("dreamwatch: {e}");
        return ExitCode::from(e.exit_code());
    }
    let options = ObservatoryOptions {
        demo_speed: None,
        paths,
        remotes,
        theme: cli.ui.theme.clone(),
        watch: cli.watch.options(watching.observatory.poll_ms),
        config: watching.observatory,
        cycle: watching.cycle,
        warnings: watching.warnings,
        openseed,
        read_only: cli.ui.read_only,
    };
    match crate::ui::run_observatory(options, Vec::new()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            say!("dreamwatch: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// The `ssh://HOST/PATH` arguments (far gardens, reached with `DREAMWATCH_SSH` or
/// `ssh`), and the local paths.
fn split_remote(
    args: &[std::path::PathBuf],
) -> Result<(Vec<Transport>, Vec<std::path::PathBuf>), crate::remote::target::TargetError> {
    let mut remotes = Vec::new();
    let mut paths = Vec::new();
    for arg in args {
        match arg.to_str().filter(|a| is_ssh(a)) {
            Some(url) => remotes.push(Transport::parse(url, Transport::ssh_from_env()?)?),
            None => paths.push(arg.clone()),
        }
    }
    Ok((remotes, paths))
}

/// `inspect`: the configured cycle constants and polling; a config problem is a warning.
fn inspect(cli: &Cli, args: &cli::InspectArgs) -> ExitCode {
    let watching = Watching::load(cli.ui.config.as_deref(), None);
    for w in &watching.warnings {
        say!("dreamwatch inspect: {w}");
    }
    crate::inspect::run(crate::inspect::InspectOptions {
        paths: args.paths.clone(),
        json: args.json,
        follow: args.follow,
        wire: args.wire,
        watch: cli.watch.options(watching.observatory.poll_ms),
        cycle: watching.cycle,
        at: args.at,
    })
}

/// Config problems on stderr, where they stay readable after the observatory's screen
/// is gone (the observatory shows them too).
fn warn(warnings: &[String]) {
    for w in warnings {
        say!("dreamwatch: {w}");
    }
}

/// The observatory draws on a terminal: say so before anything starts.
fn needs_terminal() -> Result<(), AppError> {
    if std::io::stdout().is_terminal() {
        return Ok(());
    }
    Err(AppError::NoTerminal)
}

fn screenshot(cli: &Cli, args: &cli::ScreenshotArgs) -> Result<(), AppError> {
    crate::ui::screenshot::run(&args.options(cli.ui.theme.clone())).map_err(AppError::Observatory)
}
