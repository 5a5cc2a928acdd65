//! `dreamwatch export-otel PATH... [--follow]`: watched creatures' lives, from their
//! files, as OpenTelemetry spans. Each creature's cursor is saved once its spans were
//! sent, so a span goes once across restarts; a collector that does not answer is said
//! once and tried again with backoff (with `--follow`; without it, the command fails and
//! the next run sends what this one could not).

use std::path::PathBuf;
use std::time::Duration;

use super::AppError;
use super::cli::{Cli, ExportOtelArgs};
use super::config::ConfigFile;
use crate::memory::garden::{Root, creatures_in};
use crate::telemetry::files::{FileExport, default_cursor_dir};
use crate::telemetry::health::Health;
use crate::telemetry::sender::{self, SpanSender};

/// How often `--follow` looks at the files again.
const POLL: Duration = Duration::from_millis(500);
const MAX_BACKOFF: Duration = Duration::from_secs(60);

pub fn run(args: &ExportOtelArgs, cli: &Cli) -> Result<(), AppError> {
    let file = ConfigFile::load(cli.ui.config.as_deref())?;
    let mut warnings = Vec::new();
    let config = super::settings::telemetry(&file, &mut warnings);
    super::warn(&warnings);
    let Some(config) = config else {
        return Err(AppError::Usage(
            "export-otel: no collector configured: set OTEL_EXPORTER_OTLP_ENDPOINT or \
             [telemetry] endpoint in the config file"
                .into(),
        ));
    };
    let mut creatures: Vec<PathBuf> = Vec::new();
    for path in &args.paths {
        match Root::classify(path) {
            Ok(Root::Creature(p)) => creatures.push(p),
            Ok(Root::Garden(p)) => creatures.extend(creatures_in(&p)),
            Err(e) => return Err(AppError::Usage(format!("export-otel: {e}"))),
        }
    }
    let cursors = match args.cursors.clone().or_else(default_cursor_dir) {
        Some(dir) => dir,
        None => {
            return Err(AppError::Usage(
                "export-otel: no state directory for the cursors: give --cursors DIR".into(),
            ));
        }
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(AppError::io("cannot start the async runtime"))?;
    rt.block_on(async move {
        let health = std::sync::Arc::new(Health::default());
        let client = sender::client(&health).map_err(|e| AppError::Usage(e.to_string()))?;
        let spans = SpanSender::new(&config, client, &sender::resource(&config))
            .map_err(|e| AppError::Usage(e.to_string()))?;
        let mut exports: Vec<FileExport> = creatures
            .iter()
            .map(|c| FileExport::open(c, &cursors, config.capture))
            .collect();
        let mut backoff = POLL;
        loop {
            let mut failed = None;
            for export in &mut exports {
                if let Err(e) = send(export, &spans, args.follow).await {
                    failed = Some(e);
                    break;
                }
            }
            match failed {
                Some(e) if !args.follow => return Err(e),
                Some(_) => backoff = (backoff * 2).min(MAX_BACKOFF),
                None => backoff = POLL,
            }
            if !args.follow {
                return Ok(());
            }
            tokio::select! {
                () = tokio::time::sleep(backoff) => {}
                _ = tokio::signal::ctrl_c() => return Ok(()),
            }
        }
    })
}

/// Sends what `export` has read since, and saves its cursor. A creature's spans that
/// could not be sent are read again next time (from the cursor, or kept while
/// following).
async fn send(export: &mut FileExport, spans: &SpanSender, follow: bool) -> Result<(), AppError> {
    let read = export.read();
    for batch in read.chunks(512) {
        if let Err(e) = spans.send(batch).await {
            let why = format!(
                "export-otel: {}: the collector did not take the spans: {e}",
                export.name()
            );
            if follow {
                tracing::warn!("{why}");
            }
            // Not saved: the next run starts again from the cursor.
            return Err(AppError::Usage(why));
        }
    }
    export.commit().map_err(AppError::io(format!(
        "export-otel: cannot save the cursor of {}",
        export.name()
    )))?;
    if !read.is_empty() {
        say!(
            "export-otel: {}: {} span(s) sent",
            export.name(),
            read.len()
        );
    }
    Ok(())
}
