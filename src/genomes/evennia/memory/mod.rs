//! The evennia genome's memory (seed 002, "Memory and Sleep"; DESIGN.md section 7): the
//! journal, semantic memory, entity profiles, reflections, the operating mode and the
//! working memory, each file folded from its lines as it is followed. The contract with
//! the runner that writes them is the file format in docs/evennia.md ("evennia creatures").

pub mod entities;
mod figures;
pub mod journal;
pub mod mode;
pub mod reflections;
#[cfg(test)]
mod schema_tests;
pub mod semantic;
pub mod working;

use std::any::Any;
use std::io::Write;
use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use crate::memory::creature::Creature;
use crate::memory::genome::{GenomeFile, GenomeFileSpec, GenomeMemory, GenomeSpec, LoadError};
use crate::memory::json::LineError;
use crate::memory::layout::FileKind;
use crate::memory::status::Status;
use entities::Entities;
use journal::Journal;
use mode::{Mode, ModeLog};
use reflections::Reflections;
use semantic::Semantic;
use working::WorkingMemory;

/// The genome's name, as BIRTH.json writes it.
pub const NAME: &str = "evennia";

/// `.self/journal.jsonl`.
pub const JOURNAL: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".self/journal.jsonl"],
    whole: false,
}));
/// `.self/semantic.jsonl`.
pub const SEMANTIC: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".self/semantic.jsonl"],
    whole: false,
}));
/// `.self/entities.jsonl`.
pub const ENTITIES: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".self/entities.jsonl"],
    whole: false,
}));
/// `.self/reflections.jsonl`.
pub const REFLECTIONS: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".self/reflections.jsonl"],
    whole: false,
}));
/// `.sys/mode.jsonl`.
pub const OPERATING_MODE: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".sys/mode.jsonl"],
    whole: false,
}));
/// `.self/working_memory.json`, rewritten whole.
pub const WORKING_MEMORY: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".self/working_memory.json"],
    whole: true,
}));

/// The files of this genome.
pub const FILES: [FileKind; 6] = [
    JOURNAL,
    SEMANTIC,
    ENTITIES,
    REFLECTIONS,
    OPERATING_MODE,
    WORKING_MEMORY,
];

/// The genome as the memory model knows it.
pub static SPEC: GenomeSpec = GenomeSpec {
    name: NAME,
    aliases: &[],
    files: &FILES,
    marks: &FILES,
    memory: Some(|| Box::new(EvenniaMemory::default())),
};

/// Everything an evennia creature's files say, folded.
#[derive(Debug, Clone, Default)]
pub struct EvenniaMemory {
    pub journal: Journal,
    pub semantic: Semantic,
    pub entities: Entities,
    pub reflections: Reflections,
    pub mode: ModeLog,
    /// The last working memory read (`None`: no file, or one that does not parse).
    pub working: Option<WorkingMemory>,
}

impl EvenniaMemory {
    /// Folds line `line_no` (0-based) of the log `kind`.
    pub fn fold(&mut self, kind: FileKind, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        match kind {
            JOURNAL => self.journal.push(line_no, bytes),
            SEMANTIC => self.semantic.push(line_no, bytes),
            ENTITIES => self.entities.push(line_no, bytes),
            REFLECTIONS => self.reflections.push(line_no, bytes),
            OPERATING_MODE => self.mode.push(bytes),
            _ => Ok(()),
        }
    }

    /// Forgets what was folded from `kind` (it is read again from its start).
    pub fn reset(&mut self, kind: FileKind) {
        match kind {
            JOURNAL => self.journal = Journal::default(),
            SEMANTIC => self.semantic = Semantic::default(),
            ENTITIES => self.entities = Entities::default(),
            REFLECTIONS => self.reflections = Reflections::default(),
            OPERATING_MODE => self.mode = ModeLog::default(),
            WORKING_MEMORY => self.working = None,
            _ => {}
        }
    }

    /// The cumulative importance toward the next reflection: the current importance of
    /// the journal entries added after the last reflection (insights and compaction
    /// summaries left out).
    pub fn cumulative_importance(&self) -> u64 {
        self.journal
            .importance_since(self.reflections.last_reflect_t)
    }

    /// The threshold the next reflection fires at.
    pub fn threshold(&self) -> u64 {
        self.reflections.threshold()
    }

    /// The latest time in any of these files.
    pub fn last_t(&self) -> Option<DateTime<Utc>> {
        [
            self.journal.last_t,
            self.semantic.last_t,
            self.entities.last_t,
            self.reflections.last_t,
            self.mode.last_t,
        ]
        .into_iter()
        .flatten()
        .max()
    }
}

/// What a creature's evennia files say: nothing for a creature of another genome.
pub fn of(c: &Creature) -> &EvenniaMemory {
    static EMPTY: LazyLock<EvenniaMemory> = LazyLock::new(Default::default);
    c.genome_memory_as::<EvenniaMemory>().unwrap_or(&EMPTY)
}

impl GenomeMemory for EvenniaMemory {
    fn fold(&mut self, file: FileKind, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        EvenniaMemory::fold(self, file, line_no, bytes)
    }

    fn load(&mut self, file: FileKind, bytes: Option<&[u8]>) -> Result<(), LoadError> {
        if file != WORKING_MEMORY {
            return Ok(());
        }
        self.working = None;
        match bytes.map(WorkingMemory::parse) {
            Some(Ok(working)) => self.working = Some(working),
            Some(Err(e)) => return Err(e.into()),
            None => {}
        }
        Ok(())
    }

    fn reset(&mut self, file: FileKind) {
        EvenniaMemory::reset(self, file);
    }

    fn last_t(&self) -> Option<DateTime<Utc>> {
        EvenniaMemory::last_t(self)
    }

    /// Asleep from a transition to sleep until its wake (the transition's `wake_at`, else
    /// the sleep file's), or while it is still active past it; else by activity.
    fn status(
        &self,
        now: DateTime<Utc>,
        sleep_wake_at: Option<DateTime<Utc>>,
        by_activity: Status,
    ) -> Option<Status> {
        if self.mode.mode() != Mode::Sleep {
            return Some(by_activity);
        }
        let until = self.mode.wake_at().or(sleep_wake_at).filter(|w| *w > now);
        Some(match (until, by_activity) {
            (None, Status::Stopped) => Status::Stopped,
            _ => Status::Asleep { until },
        })
    }

    fn figures(&self, _now: DateTime<Utc>) -> Value {
        figures::json(self)
    }

    fn file_figures(&self, file: FileKind, _now: DateTime<Utc>) -> Map<String, Value> {
        figures::figures(self, file)
    }

    fn write_text(&self, out: &mut dyn Write, _now: DateTime<Utc>) -> std::io::Result<()> {
        figures::write_text(out, self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The notes' rule at its edge: 149 does not reach 150, 150 does; entries before the
    /// last reflection and its insights do not count.
    #[test]
    fn cumulative_importance_at_the_threshold() {
        let mut m = EvenniaMemory::default();
        let mut n = 0;
        let mut add = |m: &mut EvenniaMemory, t: &str, importance: u32, extra: &str| {
            let line =
                format!(r#"{{"t":"{t}","op":"add","id":"j{n}","importance":{importance}{extra}}}"#);
            m.fold(JOURNAL, n, line.as_bytes()).unwrap();
            n += 1;
        };
        add(&mut m, "2026-11-22T09:00:00Z", 10, "");
        m.fold(
            REFLECTIONS,
            0,
            br#"{"t":"2026-11-22T09:30:00Z","op":"reflect","id":"r1","cumulative_importance":150,"threshold":150}"#,
        )
        .unwrap();
        add(
            &mut m,
            "2026-11-22T09:30:01Z",
            10,
            r#","source_type":"reflection""#,
        );
        for i in 0..14 {
            add(&mut m, &format!("2026-11-22T10:{i:02}:00Z"), 10, "");
        }
        add(&mut m, "2026-11-22T10:30:00Z", 9, "");
        assert_eq!(m.cumulative_importance(), 149);
        assert!(m.cumulative_importance() < m.threshold());
        add(&mut m, "2026-11-22T10:31:00Z", 1, "");
        assert_eq!(m.cumulative_importance(), 150);
        assert!(m.cumulative_importance() >= m.threshold());
        // A reflection resets it.
        m.fold(
            REFLECTIONS,
            1,
            br#"{"t":"2026-11-22T10:32:00Z","op":"reflect","id":"r2","threshold":150}"#,
        )
        .unwrap();
        assert_eq!(m.cumulative_importance(), 0);
    }

    #[test]
    fn reset_forgets_a_file() {
        let mut m = EvenniaMemory::default();
        m.fold(OPERATING_MODE, 0, br#"{"op":"transition","to":"sleep"}"#)
            .unwrap();
        assert_eq!(m.mode.mode(), mode::Mode::Sleep);
        m.reset(OPERATING_MODE);
        assert_eq!(m.mode.mode(), mode::Mode::Awake);
    }
}
