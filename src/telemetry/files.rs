//! `dreamwatch export-otel`: a watched creature's life from its files (its events log,
//! `.sys/events.jsonl` or `.self/events.jsonl`, and the dream-diff records), read from
//! where the last export stopped: a cursor per creature in the state directory (never
//! in the creature's), saved once what was read has been sent, so each span goes once
//! across restarts. Events read together go in time order, whatever order they were
//! written in.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::answers::{AnswerTail, AnswersCursor};
use super::content::Capture;
use super::diffs::DiffTail;
use super::genome_logs::GenomeLogs;
use super::life::{Agent, Life, LifeState, Unsaid};
use super::span::SpanRecord;
use crate::memory::dream_diffs::{self, DiffRecord};
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
    /// Where the reading of the conversation log's answers stopped.
    #[serde(default)]
    pub answers: AnswersCursor,
    /// The time of the newest event read.
    #[serde(default, with = "crate::memory::dreams::opt_time")]
    pub seen_until: Option<DateTime<Utc>>,
    /// The last of the watched history's records taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watched: Option<Taken>,
    pub life: LifeState,
}

/// Where the watched history's records were taken up to: the time of the last one taken,
/// and how many of that time were (several files change in one look).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Taken {
    #[serde(with = "chrono::serde::ts_nanoseconds")]
    pub t: DateTime<Utc>,
    pub n: usize,
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

/// What was read, in time order: an event, or a model's answer with when its call began.
enum Read {
    Event(Event),
    Answer(DateTime<Utc>, Box<super::call::ModelCall>),
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
    watched: Option<Taken>,
    answers: AnswerTail,
    seen_until: Option<DateTime<Utc>>,
    capture: Capture,
}

impl FileExport {
    /// The export of the creature in `root`, going on from its cursor in `cursor_dir`.
    pub fn open(root: &Path, cursor_dir: &Path, capture: Capture) -> Self {
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        let id = root.display().to_string();
        let digest = Sha256::digest(id.as_bytes());
        let cursor_path = cursor_dir.join(format!("{}.json", crate::text::hex(&digest[..16])));
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
            watched: cursor.watched,
            answers: AnswerTail::open(&root, cursor.answers),
            seen_until: cursor.seen_until,
            capture,
        }
    }

    pub fn name(&self) -> &str {
        &self.life.agent().name
    }

    /// Takes the records of the watched history (the observatory's record of what
    /// changed in the memory files of a creature that keeps no dream-diff record of its
    /// own, in the order it saw them): those after the cursor join what is to be said,
    /// each with the sleep or wake of its time.
    pub fn watched(&mut self, records: Vec<DiffRecord>) {
        let before = self.watched;
        let mut same = 0;
        for record in records {
            let Some(t) = record.t else { continue };
            if let Some(b) = before {
                if t < b.t {
                    continue;
                }
                if t == b.t {
                    same += 1;
                    if same <= b.n {
                        continue;
                    }
                }
            }
            match &mut self.watched {
                Some(taken) if taken.t == t => taken.n += 1,
                _ => self.watched = Some(Taken { t, n: 1 }),
            }
            self.unsaid.diffs.push(record);
        }
    }

    /// The spans the lines written since the last read finish (the events read in
    /// time order).
    pub fn read(&mut self) -> Vec<SpanRecord> {
        let events = self.new_events();
        self.seen_until = events
            .iter()
            .filter_map(|e| e.t)
            .chain(self.seen_until)
            .max();
        let answers = self.answers.read(self.seen_until, &self.capture);
        let mut read: Vec<(DateTime<Utc>, Read)> = events
            .into_iter()
            .filter_map(|e| Some((e.t?, Read::Event(e))))
            .chain(
                answers
                    .into_iter()
                    .map(|(began, call)| (call.end, Read::Answer(began, Box::new(call)))),
            )
            .collect();
        read.sort_by_key(|(t, _)| *t);
        self.diffs.read(&mut self.unsaid.diffs);
        self.logs.read(&mut self.unsaid.ops);
        let mut out = Vec::new();
        for (t, r) in read {
            match r {
                Read::Event(e) => {
                    out.extend(self.life.event(t, &e.kind, &e.fields, &mut self.unsaid));
                }
                Read::Answer(began, call) => {
                    out.extend(self.life.awake(began, true, &mut self.unsaid));
                    self.life.call_begins(call.id, began);
                    out.push(self.life.call_ends(&call));
                }
            }
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
            watched: self.watched,
            answers: self.answers.cursor().clone(),
            seen_until: self.seen_until,
            life: self.life.state().clone(),
        };
        crate::memory::write::write_json(&self.cursor_path, &cursor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::dream_diff::{FileChanges, LineChanges};

    fn record(file: &str, second: u32) -> DiffRecord {
        use chrono::TimeZone;
        DiffRecord {
            dream: None,
            t: Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, second).single(),
            file: file.into(),
            since: None,
            review: None,
            changes: FileChanges::Lines(LineChanges::default()),
        }
    }

    #[test]
    fn a_watched_record_is_taken_once_even_among_others_of_its_time() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let mut export = FileExport::open(tmp.path(), &tmp.path().join("c"), Capture::default());
        let (a, b, c) = (record("a.md", 1), record("b.md", 1), record("c.md", 1));
        export.watched(vec![a.clone(), b.clone()]);
        assert_eq!(export.unsaid.diffs.len(), 2);
        // The next look finds a third change seen in the same look, and a later one.
        export.watched(vec![a, b, c.clone(), record("d.md", 2)]);
        let files: Vec<&str> = export
            .unsaid
            .diffs
            .iter()
            .map(|r| r.file.as_str())
            .collect();
        assert_eq!(files, ["a.md", "b.md", "c.md", "d.md"]);
        export.commit().unwrap_or_else(|e| panic!("{e}"));
        let mut again = FileExport::open(tmp.path(), &tmp.path().join("c"), Capture::default());
        let unsaid = again.unsaid.diffs.len();
        again.watched(vec![record("a.md", 1), c, record("d.md", 2)]);
        assert_eq!(
            again.unsaid.diffs.len(),
            unsaid,
            "nothing twice across runs"
        );
    }
}
