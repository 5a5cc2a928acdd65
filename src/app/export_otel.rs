//! `dreamwatch export-otel PATH... [--follow]`: watched creatures' lives, from their
//! files, as OpenTelemetry spans; what their dreams changed from their own dream-diff
//! record, else from the observatory's watched history of them (for OpenSeed's
//! creatures, which keep none). Each creature's cursor is saved once its spans were
//! sent, so a span goes once across restarts; a collector that does not answer is said
//! once and tried again with backoff (with `--follow`; without it, the command fails and
//! the next run sends what this one could not).

use std::path::PathBuf;
use std::time::Duration;

use super::AppError;
use super::cli::{Cli, ExportOtelArgs};
use super::config::ConfigFile;
use crate::history::{History, Stamp};
use crate::memory::dream_diffs;
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
        let history =
            History::default_root().map(|r| History::new(r, crate::history::DEFAULT_LIMIT));
        let mut exports: Vec<Export> = creatures
            .iter()
            .map(|c| Export::open(c, &cursors, config.capture, history.as_ref()))
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

/// One creature's export and, for a creature that keeps no dream-diff record, the
/// watched history the observatory keeps of it.
struct Export {
    files: FileExport,
    watched: Option<Watched>,
}

struct Watched {
    history: History,
    /// The creature's path as the observatory names it (canonical).
    root: PathBuf,
    /// The record of changes as it was when last read.
    stamp: Option<Stamp>,
}

impl Export {
    fn open(
        root: &std::path::Path,
        cursors: &std::path::Path,
        capture: crate::telemetry::content::Capture,
        history: Option<&History>,
    ) -> Self {
        let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let watched = history
            .filter(|_| !dream_diffs::path(&root).exists())
            .map(|h| Watched {
                history: h.clone(),
                root: root.clone(),
                stamp: None,
            });
        Self {
            files: FileExport::open(&root, cursors, capture),
            watched,
        }
    }

    /// Takes in the watched history's records when its record changed since the last
    /// look; one that cannot be read is said and left as it is.
    fn look_at_history(&mut self) {
        let Some(w) = &mut self.watched else { return };
        let stamp = w.history.changes_stamp(&w.root);
        if stamp.is_none() || stamp == w.stamp {
            return;
        }
        w.stamp = stamp;
        match w.history.records_of(&w.root) {
            Ok(records) => self.files.watched(records),
            Err(why) => say!(
                "export-otel: {}: the watched history cannot be read ({why}): \
                 what its dreams changed is not sent",
                self.files.name()
            ),
        }
    }
}

/// Sends what `export` has read since, and saves its cursor. A creature's spans that
/// could not be sent are read again next time (from the cursor, or kept while
/// following).
async fn send(export: &mut Export, spans: &SpanSender, follow: bool) -> Result<(), AppError> {
    export.look_at_history();
    let export = &mut export.files;
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
