//! The emergence genome's IO, run by the driver: its appends, and the restore (a fold of
//! its files by the memory model, `memory::emergence`, the observatory's own readers,
//! which the genome's state is read from: `restore.rs`).

use super::{Emergence, EmergenceDone, EmergenceIo, EmergenceRestored};
use crate::genomes::emergence::memory::{EmergenceMemory, FILES};
use crate::memory::identity::Birth;
use crate::memory::write::SeedPaths;
use crate::runner::genome::{
    GenomeFiles, GenomeRestore, Performed, append_lines, file_name, file_path as path,
};
use crate::tail::read_bounded;

/// A genome file is read whole at restore up to this size; past it, a problem line.
const MAX_FILE: u64 = 256 << 20;

/// The genome's files folded by the memory model. Bad lines are counted, listed in
/// `errors`, and skipped.
pub fn fold(paths: &SeedPaths, errors: &mut Vec<String>) -> EmergenceMemory {
    let mut mem = EmergenceMemory::default();
    for file in FILES {
        let bytes = match read_bounded(&path(paths, file), MAX_FILE) {
            Ok(Some(b)) => b,
            Ok(None) => continue,
            Err(e) => {
                errors.push(format!("{}: {e}", file_name(file)));
                continue;
            }
        };
        let mut bad = 0;
        let lines = bytes
            .split(|b| *b == b'\n')
            .filter(|l| !l.iter().all(u8::is_ascii_whitespace));
        for (n, line) in lines.enumerate() {
            if mem.fold(file, n as u64, line).is_err() {
                bad += 1;
            }
        }
        if bad > 0 {
            errors.push(format!("{}: {bad} bad line(s) skipped", file_name(file)));
        }
    }
    mem
}

/// BIRTH.json's name, else the directory's.
fn name_of(paths: &SeedPaths) -> String {
    read_bounded(&paths.birth(), MAX_FILE)
        .ok()
        .flatten()
        .and_then(|b| Birth::parse(&b).ok())
        .map(|b| b.name)
        .filter(|n| !n.trim().is_empty())
        .or_else(|| {
            paths
                .root
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_default()
}

#[derive(Default)]
pub struct EmergenceFiles;

impl GenomeFiles<Emergence> for EmergenceFiles {
    fn restore(&mut self, paths: &SeedPaths) -> GenomeRestore<EmergenceRestored> {
        let mut errors = Vec::new();
        let mem = fold(paths, &mut errors);
        let state = EmergenceRestored::from_memory(&mem, name_of(paths));
        GenomeRestore {
            lived: FILES.iter().any(|f| mem.counts(*f).lines > 0),
            last_consolidated: state.last_self_care_at,
            state,
            errors,
        }
    }

    fn refresh(_paths: &SeedPaths) -> ((), Vec<String>) {
        ((), Vec::new())
    }

    fn perform(&mut self, paths: &SeedPaths, io: EmergenceIo) -> Performed<EmergenceDone> {
        match io {
            EmergenceIo::Append { file, lines } => append_lines(paths, file, &lines),
        }
    }
}
