//! The flight recorder's commands: `blame`, `export`, `diff` (and `run --fork`, in
//! `host`).

use std::io::Write;
use std::process::ExitCode;

use chrono::Utc;

use super::cli::{BlameArgs, DiffArgs, ExportArgs, ExportFormat};
use super::config::Watching;
use crate::inspect::export::Format;
use crate::recorder::{Sources, blame as blaming, compare};
use crate::text::sanitize::{inert_json, sanitize_line};

/// A creature directory given on the command line, or a usage error (exit 2).
fn creature_dir(path: &std::path::Path, command: &str) -> Result<(), ExitCode> {
    if path.join(".self").is_dir() || path.join("BIRTH.json").is_file() {
        return Ok(());
    }
    say!(
        "dreamwatch {command}: {}: not a creature directory",
        path.display()
    );
    Err(ExitCode::from(2))
}

/// Prints `value` as one inert JSON line, or `text`; a closed pipe is no failure.
fn print(
    json: Option<serde_json::Value>,
    text: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> ExitCode {
    let mut out = std::io::stdout().lock();
    let written = match json {
        Some(v) => writeln!(out, "{}", inert_json(&v.to_string())),
        None => text(&mut out),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            say!("dreamwatch: {e}");
            ExitCode::from(1)
        }
    }
}

pub fn blame(args: &BlameArgs) -> ExitCode {
    if let Err(code) = creature_dir(&args.path, "blame") {
        return code;
    }
    let file = blaming::resolve_file(&args.path, &args.file);
    if !crate::memory::moments::is_document(file.rsplit('/').next().unwrap_or_default()) {
        say!(
            "dreamwatch blame: {file}: a log is written line by line, each with its time: read it whole; blame is for the memory files rewritten"
        );
        return ExitCode::from(2);
    }
    match blaming::blame(&args.path, &file, &Sources::default_places()) {
        Ok(b) => print(
            args.json
                .then(|| serde_json::to_value(&b).unwrap_or_default()),
            |out| blaming::write_text(out, &b),
        ),
        Err(e) => {
            say!("dreamwatch blame: {}: {e}", sanitize_line(&file));
            ExitCode::from(1)
        }
    }
}

pub fn export(cli: &super::cli::Cli, args: &ExportArgs) -> ExitCode {
    if let Err(code) = creature_dir(&args.path, "export") {
        return code;
    }
    let watching = Watching::load(cli.ui.config.as_deref(), None);
    let format = match args.format {
        ExportFormat::Md => Format::Markdown,
        ExportFormat::Json => Format::Json,
    };
    crate::inspect::export::run(&args.path, args.at, format, &watching.cycle)
}

pub fn diff(args: &DiffArgs) -> ExitCode {
    for p in [&args.a, &args.b] {
        if let Err(code) = creature_dir(p, "diff") {
            return code;
        }
    }
    match compare::compare(&args.a, &args.b, &Sources::default_places(), Utc::now()) {
        Ok(c) => print(
            args.json
                .then(|| serde_json::to_value(&c).unwrap_or_default()),
            |out| compare::write_text(out, &c, columns()),
        ),
        Err(e) => {
            say!("dreamwatch diff: {e}");
            ExitCode::from(1)
        }
    }
}

/// The terminal's width when the output is one, else 160 (as a pipe or file reads it).
fn columns() -> usize {
    use std::io::IsTerminal;
    std::io::stdout()
        .is_terminal()
        .then(crossterm::terminal::size)
        .and_then(Result::ok)
        .map_or(160, |(w, _)| usize::from(w).max(40))
}

/// `run NEW --fork PATH[@MOMENT]`: writes the memory of the creature at PATH as it was at
/// MOMENT (now without one) into `dir`, a new creature whose BIRTH.json names its parent
/// and the fork point, born now on `model`. The parent is only read.
pub fn fork(
    parent: &crate::recorder::PathAt,
    dir: &std::path::Path,
    model: &str,
) -> Result<(), super::AppError> {
    use super::AppError;
    use crate::memory::identity::{Birth, ForkPoint};
    use crate::memory::time::format_time;
    let usage = |m: String| AppError::Usage(format!("--fork: {m}"));
    if !(parent.path.join(".self").is_dir() || parent.path.join("BIRTH.json").is_file()) {
        return Err(usage(format!(
            "{}: not a creature directory",
            parent.path.display()
        )));
    }
    let taken = std::fs::read_dir(dir)
        .map(|mut d| d.next().is_some())
        .unwrap_or(false);
    if taken {
        return Err(usage(format!(
            "{} is not empty: a fork is a new creature",
            dir.display()
        )));
    }
    let now = Utc::now();
    let at = parent.at.unwrap_or(crate::recorder::At::Time(now));
    let past = crate::recorder::resolve(&parent.path, at, &Sources::default_places(), now)
        .map_err(|e| usage(e.to_string()))?;
    crate::recorder::materialize(&parent.path, &past, dir).map_err(|e| usage(e.to_string()))?;
    crate::recorder::copy_record(&parent.path, &past, dir).map_err(|e| usage(e.to_string()))?;
    for u in &past.unknown {
        say!("dreamwatch: --fork: not known at {at}, so not in the fork: {u}");
    }
    let old = crate::tail::read_bounded(&parent.path.join("BIRTH.json"), 1 << 20)
        .ok()
        .flatten()
        .and_then(|b| Birth::parse(&b).ok())
        .unwrap_or_default();
    let from = parent
        .path
        .canonicalize()
        .unwrap_or_else(|_| parent.path.clone());
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "fork".into());
    let birth = Birth {
        name,
        born: Some(format_time(now)),
        genome: old.genome.clone(),
        model: Some(model.to_string()),
        parent: Some(old.name.clone())
            .filter(|n| !n.is_empty())
            .or_else(|| Some(from.display().to_string())),
        created_by: Some(crate::runner::adoption::CREATOR.to_string()),
        fork: Some(ForkPoint {
            from: from.display().to_string(),
            at: at.to_string(),
            t: past.t.map(format_time),
            dreams: past.dreams as u64,
        }),
        ..Birth::default()
    };
    crate::memory::write::write_birth(&crate::memory::write::SeedPaths::new(dir), &birth)
        .map_err(|e| usage(format!("{}: {e}", dir.display())))
}
