//! The dreamer's IO, run by the driver: its part of the restore, the reads at wake, the
//! commit of a dream all or nothing, and its rewrites.

use std::path::Path;

use chrono::{DateTime, Utc};

use crate::memory::documents::Priorities;
use crate::memory::dreams::Dream;
use crate::memory::write::{self, SeedPaths};
use crate::runner::genome::{GenomeFiles, GenomeRestore, Performed};

use crate::runner::disk::FileError;

use super::record::DreamRecorder;
use super::{
    CommitError, DreamCommit, Dreamer, DreamerDone, DreamerFresh, DreamerIo, DreamerRestored,
    recent_observation_lines,
};

/// Dreams kept for prompts and the diary.
const KEEP_DREAMS: usize = 50;

#[derive(Default)]
pub struct DreamerFiles {
    /// What each dream changed, recorded as it writes.
    recorder: DreamRecorder,
}

impl GenomeFiles<Dreamer> for DreamerFiles {
    fn restore(&mut self, paths: &SeedPaths) -> GenomeRestore<DreamerRestored> {
        let mut errors = Vec::new();
        let mut r = DreamerRestored::default();
        let mut dreams: Vec<Dream> = Vec::new();
        let mut bad = 0;
        for line in text(&paths.dreams(), &mut errors)
            .unwrap_or_default()
            .lines()
        {
            if line.trim().is_empty() {
                continue;
            }
            match Dream::parse(line.as_bytes()) {
                Ok(d) => {
                    r.dreams += 1;
                    dreams.push(d);
                    if dreams.len() > KEEP_DREAMS {
                        dreams.remove(0);
                    }
                }
                Err(_) => bad += 1,
            }
        }
        if bad > 0 {
            errors.push(format!("dreams.jsonl: {bad} bad line(s) skipped"));
        }
        let last_deep = dreams.iter().rposition(|d| d.deep);
        r.since_deep = dreams[last_deep.map_or(0, |i| i + 1)..].to_vec();
        let last_consolidated: Option<DateTime<Utc>> = dreams.last().and_then(|d| d.t);
        self.recorder = DreamRecorder::restored(r.dreams);
        r.recent_dreams = dreams;
        r.priorities = text(&paths.priorities(), &mut errors)
            .map(|t| Priorities::parse(&t).items)
            .unwrap_or_default();
        r.recent_observations = text(&paths.observations(), &mut errors)
            .map(|t| recent_observation_lines(&t))
            .unwrap_or_default();
        GenomeRestore {
            lived: r.dreams > 0,
            state: r,
            last_consolidated,
            errors,
        }
    }

    fn refresh(paths: &SeedPaths) -> (DreamerFresh, Vec<String>) {
        let mut g = DreamerFresh::default();
        let mut errors = Vec::new();
        match read_text(&paths.priorities()) {
            Ok(p) => {
                g.priorities = Some(p.map(|t| Priorities::parse(&t).items).unwrap_or_default())
            }
            Err(e) => errors.push(format!("priorities.md: {e}")),
        }
        match read_text(&paths.observations()) {
            Ok(o) => {
                g.recent_observations =
                    Some(o.map(|t| recent_observation_lines(&t)).unwrap_or_default())
            }
            Err(e) => errors.push(format!("observations.md: {e}")),
        }
        (g, errors)
    }

    fn perform(&mut self, paths: &SeedPaths, io: DreamerIo) -> Performed<DreamerDone> {
        let (file, result) = match io {
            DreamerIo::Commit { id, commit } => {
                let before = text_before(&paths.observations());
                let result = commit_dream(paths, &commit);
                if result.is_ok() {
                    self.recorder.committed(commit.dream.t);
                    if !commit.observations.is_empty() {
                        let mut after = before.clone();
                        after.push_str(&write::observations_append_text(
                            Some(&before),
                            &commit.date,
                            &commit.observations,
                        ));
                        self.recorder
                            .record(paths, "observations.md", &before, &after);
                    }
                }
                return Performed::Done(DreamerDone::Committed { id, result });
            }
            DreamerIo::LoadObservations { id } => {
                let result = read_text(&paths.observations())
                    .map(Option::unwrap_or_default)
                    .map_err(FileError::of("observations.md"));
                return Performed::Done(DreamerDone::ObservationsLoaded { id, result });
            }
            DreamerIo::Observations { text } => {
                let before = text_before(&paths.observations());
                let result = write::atomic_write(&paths.observations(), text.as_bytes());
                if result.is_ok() {
                    self.recorder
                        .record(paths, "observations.md", &before, &text);
                }
                ("observations.md", result)
            }
            DreamerIo::Priorities { updated, items } => {
                let before = text_before(&paths.priorities());
                let result = write::write_priorities(paths, updated, &items);
                if result.is_ok() {
                    let after = write::priorities_text(updated, &items);
                    self.recorder
                        .record(paths, "priorities.md", &before, &after);
                }
                ("priorities.md", result)
            }
            DreamerIo::Diary { at, body } => {
                let result = write::append_diary(paths, at, &body).map(drop);
                if result.is_ok() {
                    let entry = write::diary_entry(at, &body);
                    self.recorder.record(paths, "diary.md", "", &entry);
                }
                ("diary.md", result)
            }
        };
        match result {
            Ok(()) => Performed::Written,
            Err(e) => Performed::Failed {
                file,
                error: e.to_string(),
            },
        }
    }
}

/// A file's text before a write, for the record ("" when absent or unreadable: the
/// write itself reports a file that cannot be used).
fn text_before(path: &Path) -> String {
    read_text(path).ok().flatten().unwrap_or_default()
}

fn text(path: &Path, errors: &mut Vec<String>) -> Option<String> {
    match read_text(path) {
        Ok(t) => t,
        Err(e) => {
            errors.push(format!("{}: {e}", path.display()));
            None
        }
    }
}

fn read_text(path: &Path) -> std::io::Result<Option<String>> {
    Ok(write::read_optional(path)?.map(|b| String::from_utf8_lossy(&b).into_owned()))
}

/// Appends the observations and the dream, all or nothing: when the dream cannot be
/// written, the observations appended just before are cut off again.
pub fn commit_dream(paths: &SeedPaths, commit: &DreamCommit) -> Result<(), CommitError> {
    let obs_before = if commit.observations.is_empty() {
        None
    } else {
        Some(
            write::append_observations(paths, &commit.date, &commit.observations)
                .map_err(CommitError::Observations)?,
        )
    };
    if let Err(dream) = write::append_dream(paths, &commit.dream) {
        if let Some(len) = obs_before
            && let Err(undo) = write::truncate_to(&paths.observations(), len)
        {
            return Err(CommitError::Rollback { dream, undo });
        }
        return Err(CommitError::Dream(dream));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn commit() -> DreamCommit {
        DreamCommit {
            date: "2026-03-01".into(),
            observations: vec!["RED 10:00 x".into()],
            dream: Dream {
                t: Some(Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap()),
                actions: 1,
                reflection: "r".into(),
                priority: "p".into(),
                observations: 1,
                deep: false,
            },
        }
    }

    #[test]
    fn a_failed_dream_write_rolls_the_observations_back() {
        let dir = tempfile::tempdir().unwrap();
        let paths = SeedPaths::new(dir.path());
        std::fs::create_dir_all(paths.self_dir()).unwrap();
        commit_dream(&paths, &commit()).unwrap();
        let obs = std::fs::read(paths.observations()).unwrap();
        // dreams.jsonl becomes a directory: the append fails.
        std::fs::remove_file(paths.dreams()).unwrap();
        std::fs::create_dir(paths.dreams()).unwrap();
        assert!(commit_dream(&paths, &commit()).is_err());
        assert_eq!(std::fs::read(paths.observations()).unwrap(), obs);
    }

    #[test]
    fn restore_reads_the_dreams_and_what_came_after_the_last_deep_one() {
        let dir = tempfile::tempdir().unwrap();
        let paths = SeedPaths::new(dir.path());
        std::fs::create_dir_all(paths.self_dir()).unwrap();
        std::fs::write(
            paths.dreams(),
            "{\"t\":\"2026-03-01T10:00:00.000Z\",\"reflection\":\"r\",\"priority\":\"p\",\"deep\":true}\nnot json\n{\"t\":\"2026-03-01T10:20:00.000Z\",\"reflection\":\"r2\",\"priority\":\"p2\",\"deep\":false}\n",
        )
        .unwrap();
        let r = DreamerFiles::default().restore(&paths);
        assert_eq!(r.state.dreams, 2);
        assert_eq!(r.state.since_deep.len(), 1);
        assert!(r.lived);
        assert_eq!(
            r.last_consolidated.map(|t| t.to_rfc3339()),
            Some("2026-03-01T10:20:00+00:00".into())
        );
        assert!(r.errors.iter().any(|e| e.contains("dreams.jsonl: 1 bad")));
    }
}
