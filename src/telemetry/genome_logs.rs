//! A genome's own memory logs as memory operations: each log its plug-in lists
//! (`memory::genome`'s `GenomeSpec::files`, those under `.self/` followed line by line)
//! is read from an offset, and each line's `op` (DESIGN.md section 7: `{"t", "op",
//! ...}`) is a memory operation on that store: an `add` creates, a `forget` or `prune`
//! deletes, any other op (a link, a score, a rewrite) updates. No genome is named here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::semconv as sc;
use crate::memory::genome::Registry;
use crate::memory::layout::FileKind;

/// The most bytes of one log read at one look.
const MAX_READ: u64 = 4 << 20;

/// One line of a genome's memory log, as a memory operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoggedOp {
    pub t: DateTime<Utc>,
    /// `create_memory`, `update_memory` or `delete_memory`.
    pub operation: String,
    /// The log's file name (`journal.jsonl`).
    pub store: String,
    /// The op as written (`add`, `link`...).
    pub op: String,
    pub id: Option<String>,
    pub text: Option<String>,
}

/// The operation an op word means.
pub fn operation(op: &str) -> &'static str {
    match op {
        "add" | "create" | "insert" | "store" => sc::CREATE_MEMORY,
        "forget" | "prune" | "remove" | "delete" | "drop" => sc::DELETE_MEMORY,
        _ => sc::UPDATE_MEMORY,
    }
}

/// The memory logs of one creature's genome, each read from an offset.
#[derive(Debug, Default)]
pub struct GenomeLogs {
    /// Each log's path (relative to the root) and where its next unread line begins.
    pub offsets: BTreeMap<String, u64>,
    root: PathBuf,
}

/// The genome's memory logs of the creature in `root` (its BIRTH.json's genome, else the
/// one its files tell).
fn logs_of(root: &Path) -> Vec<&'static str> {
    let birth = std::fs::read(root.join("BIRTH.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| v.get("genome").and_then(|g| g.as_str()).map(str::to_string));
    let genome = Registry::installed().detect(birth.as_deref(), |kind| {
        kind.candidates().iter().any(|p| root.join(p).exists())
    });
    genome
        .files()
        .iter()
        .filter_map(|kind| match kind {
            FileKind::Genome(file) if !file.0.whole && file.path().starts_with(".self/") => {
                Some(file.path())
            }
            _ => None,
        })
        .collect()
}

impl GenomeLogs {
    /// The logs of the creature in `root`, from `offsets` (a log not named there: from
    /// its end when `from_end`, else from its start).
    pub fn open(root: &Path, offsets: BTreeMap<String, u64>, from_end: bool) -> Self {
        let mut all = BTreeMap::new();
        for path in logs_of(root) {
            let offset = offsets.get(path).copied().unwrap_or_else(|| {
                if from_end {
                    std::fs::metadata(root.join(path)).map_or(0, |m| m.len())
                } else {
                    0
                }
            });
            all.insert(path.to_string(), offset);
        }
        Self {
            offsets: all,
            root: root.to_path_buf(),
        }
    }

    /// Reads what was written since, into `ops`.
    pub fn read(&mut self, ops: &mut Vec<LoggedOp>) {
        for (path, offset) in &mut self.offsets {
            let store = path.rsplit('/').next().unwrap_or(path).to_string();
            for line in crate::tail::lines_since(&self.root.join(path.as_str()), offset, MAX_READ) {
                if let Some(op) = parse(&line, &store) {
                    ops.push(op);
                }
            }
        }
    }
}

fn parse(line: &[u8], store: &str) -> Option<LoggedOp> {
    let value: serde_json::Value = serde_json::from_slice(line).ok()?;
    let t = value.get("t")?.as_str()?.parse::<DateTime<Utc>>().ok()?;
    let op = value.get("op")?.as_str()?.to_string();
    let str_of = |key: &str| value.get(key).and_then(|v| v.as_str()).map(str::to_string);
    Some(LoggedOp {
        t,
        operation: operation(&op).to_string(),
        store: store.to_string(),
        op,
        id: str_of("id"),
        text: str_of("text").or_else(|| str_of("content")),
    })
}
