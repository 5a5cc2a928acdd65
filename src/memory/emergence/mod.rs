//! The emergence genome's memory (seed 003, Emergence World's "Agent Memory & Cognition";
//! DESIGN.md section 7): soul entries, long-term memories, self-care summaries, the diary,
//! to-dos, the calendar, the relationship graph and the dialogues, each file folded from
//! its lines as it is followed. What the DESIGN table leaves open is fixed in the README
//! ("emergence creatures"); the runner restores its state through these folds.

pub mod calendar;
pub mod dialogues;
pub mod diary;
mod lines;
pub mod longterm;
pub mod recurrence;
pub mod relations;
pub mod soul;
pub mod summaries;
pub mod todos;

use chrono::{DateTime, Utc};

use super::json::LineError;
use super::layout::{FileKind, FilesPresent};
pub use lines::LineCounts;

use calendar::Calendar;
use dialogues::Dialogues;
use diary::Diary;
use longterm::LongTerm;
use relations::Relations;
use soul::Soul;
use summaries::Summaries;
use todos::Todos;

/// The files of this genome.
pub const FILES: [FileKind; 8] = [
    FileKind::Soul,
    FileKind::LongTerm,
    FileKind::Summaries,
    FileKind::DiaryLog,
    FileKind::Todos,
    FileKind::Calendar,
    FileKind::Relations,
    FileKind::Dialogues,
];

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
    /// The files of this genome found on disk.
    present: FilesPresent,
}

impl EmergenceMemory {
    /// Whether `kind` is a file of this genome.
    pub fn owns(kind: FileKind) -> bool {
        FILES.contains(&kind)
    }

    /// Folds line `line_no` (0-based) of the file `kind`.
    pub fn fold(&mut self, kind: FileKind, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        match kind {
            FileKind::Soul => self.soul.push(line_no, bytes),
            FileKind::LongTerm => self.longterm.push(line_no, bytes),
            FileKind::Summaries => self.summaries.push(line_no, bytes),
            FileKind::DiaryLog => self.diary.push(line_no, bytes),
            FileKind::Todos => self.todos.push(line_no, bytes),
            FileKind::Calendar => self.calendar.push(line_no, bytes),
            FileKind::Relations => self.relations.push(line_no, bytes),
            FileKind::Dialogues => self.dialogues.push(line_no, bytes),
            _ => Ok(()),
        }
    }

    /// Forgets what was folded from `kind` (it is read again from its start).
    pub fn reset(&mut self, kind: FileKind) {
        match kind {
            FileKind::Soul => self.soul = Soul::default(),
            FileKind::LongTerm => self.longterm = LongTerm::default(),
            FileKind::Summaries => self.summaries = Summaries::default(),
            FileKind::DiaryLog => self.diary = Diary::default(),
            FileKind::Todos => self.todos = Todos::default(),
            FileKind::Calendar => self.calendar = Calendar::default(),
            FileKind::Relations => self.relations = Relations::default(),
            FileKind::Dialogues => self.dialogues = Dialogues::default(),
            _ => {}
        }
    }

    /// The counts of the file `kind`.
    pub fn counts(&self, kind: FileKind) -> LineCounts {
        match kind {
            FileKind::Soul => self.soul.counts,
            FileKind::LongTerm => self.longterm.counts,
            FileKind::Summaries => self.summaries.counts,
            FileKind::DiaryLog => self.diary.counts,
            FileKind::Todos => self.todos.counts,
            FileKind::Calendar => self.calendar.counts,
            FileKind::Relations => self.relations.counts,
            FileKind::Dialogues => self.dialogues.counts,
            _ => LineCounts::default(),
        }
    }

    /// Records whether the file of `kind` is on disk.
    pub fn set_present(&mut self, kind: FileKind, present: bool) {
        self.present.set(kind, present);
    }

    /// Whether any file of this genome is on disk.
    pub fn is_present(&self) -> bool {
        self.present.any()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_folds_and_resets() {
        let mut m = EmergenceMemory::default();
        assert!(!m.is_present());
        let lines: [(FileKind, &str); 8] = [
            (
                FileKind::Soul,
                r#"{"t":"2026-11-22T10:00:00Z","op":"add","id":"s1","text":"I keep my word"}"#,
            ),
            (
                FileKind::LongTerm,
                r#"{"t":"2026-11-22T10:01:00Z","op":"add","id":"m1","text":"Ada"}"#,
            ),
            (
                FileKind::Summaries,
                r#"{"t":"2026-11-22T10:02:00Z","op":"summary","id":"sum1","kind":"conversations","covers":["d1"],"watermark":"d1"}"#,
            ),
            (
                FileKind::DiaryLog,
                r#"{"t":"2026-11-22T10:03:00Z","op":"entry","date":"2026-11-22","text":"a day"}"#,
            ),
            (
                FileKind::Todos,
                r#"{"t":"2026-11-22T10:04:00Z","op":"add","id":"td1","title":"x"}"#,
            ),
            (
                FileKind::Calendar,
                r#"{"t":"2026-11-22T10:05:00Z","op":"add","id":"ev1","at":"2026-11-23T10:00:00Z"}"#,
            ),
            (
                FileKind::Relations,
                r#"{"t":"2026-11-22T10:06:00Z","op":"relation","agent":"ada"}"#,
            ),
            (
                FileKind::Dialogues,
                r#"{"t":"2026-11-22T10:07:00Z","op":"said","id":"d2","with":"ada"}"#,
            ),
        ];
        for (kind, line) in lines {
            m.set_present(kind, true);
            m.fold(kind, 0, line.as_bytes()).unwrap();
            assert_eq!(m.counts(kind).lines, 1, "{kind:?}");
        }
        m.fold(
            FileKind::Dialogues,
            0,
            br#"{"op":"said","id":"d1","with":"ada"}"#,
        )
        .unwrap();
        assert!(m.is_present());
        assert_eq!(
            m.last_t().map(|t| t.to_rfc3339()),
            Some("2026-11-22T10:07:00+00:00".into())
        );
        // d2 was said before d1's line in this file: only what follows d1 is new.
        assert_eq!(m.unsummarised_dialogues(), 0);
        m.fold(
            FileKind::Dialogues,
            2,
            br#"{"op":"said","id":"d3","with":"ada"}"#,
        )
        .unwrap();
        assert_eq!(m.unsummarised_dialogues(), 1);
        for kind in FILES {
            m.reset(kind);
            m.set_present(kind, false);
            assert_eq!(m.counts(kind), LineCounts::default());
        }
        assert!(!m.is_present());
        assert_eq!(m.fold(FileKind::Journal, 0, b"x"), Ok(()));
    }
}
