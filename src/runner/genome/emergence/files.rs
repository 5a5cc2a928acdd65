//! The emergence genome's IO, run by the driver: its appends, and the restore.

use std::path::PathBuf;

use super::{Emergence, EmergenceDone, EmergenceIo, EmergenceRestored};
use crate::memory::write::{self, SeedPaths};
use crate::runner::genome::{GenomeFiles, GenomeRestore, Performed};

/// The genome's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum File {
    Soul,
    LongTerm,
    Summaries,
    DiaryLog,
    Todos,
    Calendar,
    Relations,
    Dialogues,
}

impl File {
    pub fn relative(self) -> &'static str {
        match self {
            File::Soul => ".self/soul.jsonl",
            File::LongTerm => ".self/longterm.jsonl",
            File::Summaries => ".self/summaries.jsonl",
            File::DiaryLog => ".self/diary.jsonl",
            File::Todos => ".self/todos.jsonl",
            File::Calendar => ".self/calendar.jsonl",
            File::Relations => ".self/relations.jsonl",
            File::Dialogues => ".self/dialogues.jsonl",
        }
    }

    /// The file's name, for messages.
    pub fn name(self) -> &'static str {
        let r = self.relative();
        r.rsplit('/').next().unwrap_or(r)
    }
}

fn path(paths: &SeedPaths, file: File) -> PathBuf {
    paths.root.join(file.relative())
}

#[derive(Default)]
pub struct EmergenceFiles;

impl GenomeFiles<Emergence> for EmergenceFiles {
    fn restore(&mut self, _paths: &SeedPaths) -> GenomeRestore<EmergenceRestored> {
        GenomeRestore::default()
    }

    fn refresh(_paths: &SeedPaths) -> ((), Vec<String>) {
        ((), Vec::new())
    }

    fn perform(&mut self, paths: &SeedPaths, io: EmergenceIo) -> Performed<EmergenceDone> {
        match io {
            EmergenceIo::Append { file, lines } => {
                match write::append_json_lines(&path(paths, file), &lines) {
                    Ok(_) => Performed::Written,
                    Err(e) => Performed::Failed {
                        file: file.name(),
                        error: e.to_string(),
                    },
                }
            }
        }
    }
}
