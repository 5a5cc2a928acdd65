//! The emergence genome's memory (seed 003, Emergence World's "Agent Memory & Cognition";
//! DESIGN.md section 7): soul entries, long-term memories, self-care summaries, the diary,
//! to-dos, the calendar, the relationship graph and the dialogues, each file folded from
//! its lines as it is followed. What the DESIGN table leaves open is fixed in docs/emergence.md
//! ("emergence creatures"); the runner restores its state through these folds.

pub mod calendar;
pub mod dialogues;
pub mod diary;
mod figures;
pub mod lines;
pub mod longterm;
pub mod recurrence;
pub mod relations;
#[cfg(test)]
mod schema_tests;
pub mod soul;
pub mod summaries;
pub mod todos;

use std::any::Any;
use std::io::Write;
use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use crate::memory::creature::Creature;
use crate::memory::genome::{GenomeFile, GenomeFileSpec, GenomeMemory, GenomeSpec};
use crate::memory::json::LineError;
use crate::memory::layout::FileKind;
pub use lines::LineCounts;

use calendar::Calendar;
use dialogues::Dialogues;
use diary::Diary;
use longterm::LongTerm;
use relations::Relations;
use soul::Soul;
use summaries::Summaries;
use todos::Todos;

/// The genome's name, as BIRTH.json writes it.
pub const NAME: &str = "emergence";

/// `.self/soul.jsonl`.
pub const SOUL: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".self/soul.jsonl"],
    whole: false,
}));
/// `.self/longterm.jsonl`.
pub const LONG_TERM: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".self/longterm.jsonl"],
    whole: false,
}));
/// `.self/summaries.jsonl`.
pub const SUMMARIES: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".self/summaries.jsonl"],
    whole: false,
}));
/// `.self/diary.jsonl`: one entry per date (the dreamer's diary is `.self/diary.md`).
pub const DIARY_LOG: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".self/diary.jsonl"],
    whole: false,
}));
/// `.self/todos.jsonl`.
pub const TODOS: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".self/todos.jsonl"],
    whole: false,
}));
/// `.self/calendar.jsonl`.
pub const CALENDAR: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".self/calendar.jsonl"],
    whole: false,
}));
/// `.self/relations.jsonl`.
pub const RELATIONS: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".self/relations.jsonl"],
    whole: false,
}));
/// `.self/dialogues.jsonl`.
pub const DIALOGUES: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".self/dialogues.jsonl"],
    whole: false,
}));

/// The files of this genome.
pub const FILES: [FileKind; 8] = [
    SOUL, LONG_TERM, SUMMARIES, DIARY_LOG, TODOS, CALENDAR, RELATIONS, DIALOGUES,
];

/// The genome as the memory model knows it.
pub static SPEC: GenomeSpec = GenomeSpec {
    name: NAME,
    aliases: &[],
    files: &FILES,
    marks: &FILES,
    memory: Some(|| Box::new(EmergenceMemory::default())),
};

/// Everything an emergence creature's files say, folded.
#[derive(Debug, Clone, Default)]
pub struct EmergenceMemory {
    pub soul: Soul,
    pub longterm: LongTerm,
    pub summaries: Summaries,
    pub diary: Diary,
    pub todos: Todos,
    pub calendar: Calendar,
    pub relations: Relations,
    pub dialogues: Dialogues,
}

impl EmergenceMemory {
    /// Folds line `line_no` (0-based) of the file `kind`.
    pub fn fold(&mut self, kind: FileKind, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        match kind {
            SOUL => self.soul.push(line_no, bytes),
            LONG_TERM => self.longterm.push(line_no, bytes),
            SUMMARIES => self.summaries.push(line_no, bytes),
            DIARY_LOG => self.diary.push(line_no, bytes),
            TODOS => self.todos.push(line_no, bytes),
            CALENDAR => self.calendar.push(line_no, bytes),
            RELATIONS => self.relations.push(line_no, bytes),
            DIALOGUES => self.dialogues.push(line_no, bytes),
            _ => Ok(()),
        }
    }

    /// Forgets what was folded from `kind` (it is read again from its start).
    pub fn reset(&mut self, kind: FileKind) {
        match kind {
            SOUL => self.soul = Soul::default(),
            LONG_TERM => self.longterm = LongTerm::default(),
            SUMMARIES => self.summaries = Summaries::default(),
            DIARY_LOG => self.diary = Diary::default(),
            TODOS => self.todos = Todos::default(),
            CALENDAR => self.calendar = Calendar::default(),
            RELATIONS => self.relations = Relations::default(),
            DIALOGUES => self.dialogues = Dialogues::default(),
            _ => {}
        }
    }

    /// The counts of the file `kind`.
    pub fn counts(&self, kind: FileKind) -> LineCounts {
        match kind {
            SOUL => self.soul.counts,
            LONG_TERM => self.longterm.counts,
            SUMMARIES => self.summaries.counts,
            DIARY_LOG => self.diary.counts,
            TODOS => self.todos.counts,
            CALENDAR => self.calendar.counts,
            RELATIONS => self.relations.counts,
            DIALOGUES => self.dialogues.counts,
            _ => LineCounts::default(),
        }
    }

    /// Dialogue lines said after the conversation watermark: what the next self-care
    /// summarises.
    pub fn unsummarised_dialogues(&self) -> u64 {
        self.dialogues.after(self.summaries.watermark.as_deref())
    }

    /// The latest time in any of these files.
    pub fn last_t(&self) -> Option<DateTime<Utc>> {
        FILES
            .into_iter()
            .filter_map(|kind| self.counts(kind).last_t)
            .max()
    }
}

/// What a creature's emergence files say: nothing for a creature of another genome.
pub fn of(c: &Creature) -> &EmergenceMemory {
    static EMPTY: LazyLock<EmergenceMemory> = LazyLock::new(Default::default);
    c.genome_memory_as::<EmergenceMemory>().unwrap_or(&EMPTY)
}

impl GenomeMemory for EmergenceMemory {
    fn fold(&mut self, file: FileKind, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        EmergenceMemory::fold(self, file, line_no, bytes)
    }

    fn reset(&mut self, file: FileKind) {
        EmergenceMemory::reset(self, file);
    }

    fn last_t(&self) -> Option<DateTime<Utc>> {
        EmergenceMemory::last_t(self)
    }

    fn figures(&self, now: DateTime<Utc>) -> Value {
        figures::json(self, now)
    }

    fn file_figures(&self, file: FileKind, now: DateTime<Utc>) -> Map<String, Value> {
        figures::figures(self, file, now)
    }

    fn write_text(&self, out: &mut dyn Write, now: DateTime<Utc>) -> std::io::Result<()> {
        figures::write_text(out, self, now)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_folds_and_resets() {
        let mut m = EmergenceMemory::default();
        let lines: [(FileKind, &str); 8] = [
            (
                SOUL,
                r#"{"t":"2026-11-22T10:00:00Z","op":"add","id":"s1","text":"I keep my word"}"#,
            ),
            (
                LONG_TERM,
                r#"{"t":"2026-11-22T10:01:00Z","op":"add","id":"m1","text":"Ada"}"#,
            ),
            (
                SUMMARIES,
                r#"{"t":"2026-11-22T10:02:00Z","op":"summary","id":"sum1","kind":"conversations","covers":["d1"],"watermark":"d1"}"#,
            ),
            (
                DIARY_LOG,
                r#"{"t":"2026-11-22T10:03:00Z","op":"entry","date":"2026-11-22","text":"a day"}"#,
            ),
            (
                TODOS,
                r#"{"t":"2026-11-22T10:04:00Z","op":"add","id":"td1","title":"x"}"#,
            ),
            (
                CALENDAR,
                r#"{"t":"2026-11-22T10:05:00Z","op":"add","id":"ev1","at":"2026-11-23T10:00:00Z"}"#,
            ),
            (
                RELATIONS,
                r#"{"t":"2026-11-22T10:06:00Z","op":"relation","agent":"ada"}"#,
            ),
            (
                DIALOGUES,
                r#"{"t":"2026-11-22T10:07:00Z","op":"said","id":"d2","with":"ada"}"#,
            ),
        ];
        for (kind, line) in lines {
            m.fold(kind, 0, line.as_bytes()).unwrap();
            assert_eq!(m.counts(kind).lines, 1, "{kind:?}");
        }
        m.fold(DIALOGUES, 0, br#"{"op":"said","id":"d1","with":"ada"}"#)
            .unwrap();
        assert_eq!(
            m.last_t().map(|t| t.to_rfc3339()),
            Some("2026-11-22T10:07:00+00:00".into())
        );
        // d2 was said before d1's line in this file: only what follows d1 is new.
        assert_eq!(m.unsummarised_dialogues(), 0);
        m.fold(DIALOGUES, 2, br#"{"op":"said","id":"d3","with":"ada"}"#)
            .unwrap();
        assert_eq!(m.unsummarised_dialogues(), 1);
        for kind in FILES {
            m.reset(kind);
            assert_eq!(m.counts(kind), LineCounts::default());
        }
        assert_eq!(m.fold(FileKind::Birth, 0, b"x"), Ok(()));
    }
}
