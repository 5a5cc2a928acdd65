//! The evennia genome's memory (seed 002, "Memory and Sleep"; DESIGN.md section 7): the
//! journal, semantic memory, entity profiles, reflections, the operating mode and the
//! working memory, each file folded from its lines as it is followed. The contract with
//! the runner that writes them is the file format in the README ("evennia creatures").

pub mod entities;
pub mod journal;
pub mod mode;
pub mod reflections;
pub mod semantic;
pub mod working;

use chrono::{DateTime, Utc};

use super::json::LineError;
use super::layout::{FileKind, FilesPresent};
use entities::Entities;
use journal::Journal;
use mode::ModeLog;
use reflections::Reflections;
use semantic::Semantic;
use working::WorkingMemory;

/// The files of this genome.
pub const FILES: [FileKind; 6] = [
    FileKind::Journal,
    FileKind::Semantic,
    FileKind::Entities,
    FileKind::Reflections,
    FileKind::OperatingMode,
    FileKind::WorkingMemory,
];

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
    /// The files of this genome found on disk.
    present: FilesPresent,
}

impl EvenniaMemory {
    /// Whether `kind` is a file of this genome.
    pub fn owns(kind: FileKind) -> bool {
        FILES.contains(&kind)
    }

    /// Folds line `line_no` (0-based) of the log `kind`.
    pub fn fold(&mut self, kind: FileKind, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        match kind {
            FileKind::Journal => self.journal.push(line_no, bytes),
            FileKind::Semantic => self.semantic.push(line_no, bytes),
            FileKind::Entities => self.entities.push(line_no, bytes),
            FileKind::Reflections => self.reflections.push(line_no, bytes),
            FileKind::OperatingMode => self.mode.push(bytes),
            _ => Ok(()),
        }
    }

    /// Forgets what was folded from `kind` (it is read again from its start).
    pub fn reset(&mut self, kind: FileKind) {
        match kind {
            FileKind::Journal => self.journal = Journal::default(),
            FileKind::Semantic => self.semantic = Semantic::default(),
            FileKind::Entities => self.entities = Entities::default(),
            FileKind::Reflections => self.reflections = Reflections::default(),
            FileKind::OperatingMode => self.mode = ModeLog::default(),
            FileKind::WorkingMemory => self.working = None,
            _ => {}
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
            m.fold(FileKind::Journal, n, line.as_bytes()).unwrap();
            n += 1;
        };
        add(&mut m, "2026-11-22T09:00:00Z", 10, "");
        m.fold(
            FileKind::Reflections,
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
            FileKind::Reflections,
            1,
            br#"{"t":"2026-11-22T10:32:00Z","op":"reflect","id":"r2","threshold":150}"#,
        )
        .unwrap();
        assert_eq!(m.cumulative_importance(), 0);
    }

    #[test]
    fn presence_and_reset() {
        let mut m = EvenniaMemory::default();
        assert!(!m.is_present());
        m.set_present(FileKind::OperatingMode, true);
        assert!(m.is_present());
        m.fold(
            FileKind::OperatingMode,
            0,
            br#"{"op":"transition","to":"sleep"}"#,
        )
        .unwrap();
        assert_eq!(m.mode.mode(), mode::Mode::Sleep);
        m.reset(FileKind::OperatingMode);
        assert_eq!(m.mode.mode(), mode::Mode::Awake);
        m.set_present(FileKind::OperatingMode, false);
        assert!(!m.is_present());
    }
}
