//! `dreamwatch export-otel`: a watched creature's life from its files (its events log,
//! `.sys/events.jsonl` or `.self/events.jsonl`, and the dream-diff records), read from
//! where the last export stopped: a cursor per creature in the state directory (never
//! in the creature's), saved once what was read has been sent, so each span goes once
//! across restarts. Events read together go in time order, whatever order they were
//! written in.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::content::Capture;
use super::diffs::DiffTail;
use super::genome_logs::GenomeLogs;
use super::life::{Agent, Life, LifeState, Unsaid};
use super::span::SpanRecord;
use crate::memory::dream_diffs;
use crate::memory::events::Event;

/// The most bytes of the events log read at one look.
const MAX_READ: u64 = 8 << 20;

/// Where the last export of a creature stopped.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Cursor {
    pub events: u64,
    pub diffs: u64,
    /// Each genome memory log's offset, by its path in the creature.
    #[serde(default)]
    pub logs: std::collections::BTreeMap<String, u64>,
    /// What was read of the memory files and not yet said (its wake or sleep goes on).
    #[serde(default)]
    pub unsaid: Unsaid,
    pub life: LifeState,
}

/// `<state dir>/dreamwatch/export-otel` (the data directory where the platform has no
/// state directory).
pub fn default_cursor_dir() -> Option<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "dreamwatch")?;
    let base = dirs.state_dir().unwrap_or_else(|| dirs.data_local_dir());
    Some(base.join("export-otel"))
}

/// The creature's events log: OpenSeed's `.sys/`, or an older `.self/`.
pub fn events_path(root: &Path) -> PathBuf {
    let sys = root.join(".sys/events.jsonl");
    let older = root.join(".self/events.jsonl");
    if !sys.exists() && older.exists() {
        older
    } else {
        sys
    }
}

/// The creature's name: BIRTH.json's, else its directory's.
fn name_of(root: &Path) -> String {
    std::fs::read(root.join("BIRTH.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| v.get("name").and_then(|n| n.as_str()).map(str::to_string))
        .or_else(|| root.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "creature".to_string())
}

/// One creature's export from its files.
#[derive(Debug)]
pub struct FileExport {
    events: PathBuf,
    cursor_path: PathBuf,
    offset: u64,
    life: Life,
    diffs: DiffTail,
    logs: GenomeLogs,
    unsaid: Unsaid,
}

impl FileExport {
    /// The export of the creature in `root`, going on from its cursor in `cursor_dir`.
    pub fn open(root: &Path, cursor_dir: &Path, capture: Capture) -> Self {
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        let id = root.display().to_string();
        let digest = Sha256::digest(id.as_bytes());
        let cursor_path = cursor_dir.join(format!("{}.json", super::span::hex(&digest[..16])));
        let cursor: Cursor = std::fs::read(&cursor_path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        let agent = Agent {
            name: name_of(&root),
            id,
        };
        Self {
            events: events_path(&root),
            cursor_path,
            offset: cursor.events,
            life: Life::resume(agent, capture, cursor.life),
            diffs: DiffTail::new(dream_diffs::path(&root), cursor.diffs),
            logs: GenomeLogs::open(&root, cursor.logs, false),
            unsaid: cursor.unsaid,
        }
    }

    pub fn name(&self) -> &str {
        &self.life.agent().name
    }

    /// The spans the lines written since the last read finish (the events read in
    /// time order).
    pub fn read(&mut self) -> Vec<SpanRecord> {
        let mut events = self.new_events();
        events.sort_by_key(|e| e.t);
        self.diffs.read(&mut self.unsaid.diffs);
        self.logs.read(&mut self.unsaid.ops);
        let mut out = Vec::new();
        for e in events {
            let Some(t) = e.t else { continue };
            out.extend(self.life.event(t, &e.kind, &e.fields, &mut self.unsaid));
        }
        out
    }

    fn new_events(&mut self) -> Vec<Event> {
        crate::tail::lines_since(&self.events, &mut self.offset, MAX_READ)
            .iter()
            .filter_map(|line| Event::parse(line).ok())
            .collect()
    }

    /// Saves where this export is: what was read has been sent.
    pub fn commit(&self) -> std::io::Result<()> {
        if let Some(dir) = self.cursor_path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let cursor = Cursor {
            events: self.offset,
            diffs: self.diffs.offset,
            logs: self.logs.offsets.clone(),
            unsaid: self.unsaid.clone(),
            life: self.life.state().clone(),
        };
        crate::memory::write::write_json(&self.cursor_path, &cursor)
    }
}
