//! The files of a dream held for review (`--review-dreams`, see `memory::proposal`): the
//! working copy the sleep work writes to, the proposal made from it, and its decision.
//! Nothing here touches the creature's memory files but [`decide`] applying a proposal.

use std::io;
use std::path::Path;

use chrono::{DateTime, Utc};

use crate::memory::dream_diffs;
use crate::memory::layout::FileKind;
use crate::memory::proposal::{
    self, Decision, InvalidEdit, Proposal, ProposedFile, RefusedPath, STAGE,
};
use crate::memory::write::{self, SeedPaths};

use super::engine::output::HeldSleep;

/// Why an edited proposal was not held.
#[derive(Debug, thiserror::Error)]
pub enum ReplaceError {
    #[error(transparent)]
    Invalid(#[from] InvalidEdit),
    #[error("{PROPOSAL}: {0}", PROPOSAL = proposal::PROPOSAL)]
    Io(#[from] io::Error),
}

/// The sleep work's working copy: the `files` as they are now, under [`STAGE`] (an old
/// copy, left by a runner stopped while it dreamt, is dropped first).
pub fn stage(paths: &SeedPaths, files: &[FileKind]) -> io::Result<SeedPaths> {
    let root = paths.root.join(STAGE);
    remove_stage(paths)?;
    let stage = SeedPaths::new(root);
    std::fs::create_dir_all(stage.self_dir())?;
    std::fs::create_dir_all(stage.sys_dir())?;
    for &kind in files {
        let from = relative(kind);
        let to = stage.root.join(from);
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir)?;
        }
        copy_bounded(&paths.root.join(from), &to)?;
    }
    Ok(stage)
}

/// Copies a regular file of at most [`write::MAX_WHOLE_FILE`] bytes (nothing when it is
/// missing): a FIFO or a device in its place is an error, never a hang.
fn copy_bounded(from: &Path, to: &Path) -> io::Result<()> {
    let file = match crate::tail::open_regular(from) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    let len = file.metadata()?.len();
    if len > write::MAX_WHOLE_FILE {
        return Err(crate::tail::too_large(len));
    }
    let mut out = std::fs::File::create(to)?;
    let copied = io::copy(
        &mut io::Read::take(file, write::MAX_WHOLE_FILE + 1),
        &mut out,
    )?;
    if copied > write::MAX_WHOLE_FILE {
        return Err(crate::tail::too_large(copied));
    }
    Ok(())
}

/// The files a proposal may name: those of `files` (the genome's
/// [`crate::runner::genome::Genome::REVIEWED`]), relative to the creature's root.
pub fn reviewed_paths(files: &[FileKind]) -> Vec<&'static str> {
    files.iter().map(|&k| relative(k)).collect()
}

fn remove_stage(paths: &SeedPaths) -> io::Result<()> {
    match std::fs::remove_dir_all(paths.root.join(STAGE)) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

fn relative(kind: FileKind) -> &'static str {
    kind.candidates().first().copied().unwrap_or_default()
}

fn text(path: &Path) -> io::Result<String> {
    Ok(write::read_optional(path)?
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default())
}

/// What the sleep work wrote to the working copy, held as the pending proposal (written
/// to `.sys/proposal.json`); `None` when it wrote nothing. The working copy is dropped.
pub fn propose(
    paths: &SeedPaths,
    stage: &SeedPaths,
    files: &[FileKind],
    sleep: &HeldSleep,
    now: DateTime<Utc>,
) -> io::Result<Option<Proposal>> {
    let mut proposed = Vec::new();
    for &kind in files {
        let rel = relative(kind);
        let before = text(&paths.root.join(rel))?;
        let after = text(&stage.root.join(rel))?;
        proposed.extend(ProposedFile::between(rel, &before, &after));
    }
    // The dream it belongs to, as the genome recorded it in the working copy.
    let last = text(&dream_diffs::path(&stage.root))?
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str::<dream_diffs::DiffRecord>(l).ok());
    let held = (!proposed.is_empty()).then(|| Proposal {
        created: now,
        deadline: sleep.deadline,
        dream: last.as_ref().and_then(|r| r.dream),
        t: last.as_ref().and_then(|r| r.t),
        deep: sleep.deep,
        edited: false,
        started: sleep.started,
        rest_s: sleep.rest_s,
        files: proposed,
    });
    if let Some(p) = &held {
        write::write_json(&proposal::path(&paths.root), p)?;
    }
    remove_stage(paths)?;
    Ok(held)
}

/// The proposal pending at start, if any (a working copy left by a runner stopped while
/// it dreamt is dropped: the dream it held was never proposed). An unreadable proposal
/// (not JSON, not a regular file, larger than [`proposal::MAX_PROPOSAL`]) is set aside as
/// `proposal.json.unreadable`, one that names a file outside `files` (the genome's
/// reviewed files) as `proposal.json.refused`: never deleted, never applied, nothing of
/// it written; the error says so.
pub fn pending(paths: &SeedPaths, files: &[FileKind]) -> (Option<Proposal>, Vec<String>) {
    let mut errors: Vec<String> = remove_stage(paths)
        .err()
        .map(|e| format!("{STAGE}: could not be removed: {e}"))
        .into_iter()
        .collect();
    let (why, aside) = match Proposal::read(&paths.root) {
        Ok(None) => return (None, errors),
        Ok(Some(p)) => match p.check_paths(&reviewed_paths(files)) {
            Ok(()) => return (Some(p), errors),
            Err(e) => (
                format!("refused: {e}: nothing of it was written"),
                "json.refused",
            ),
        },
        Err(e) => (e.to_string(), "json.unreadable"),
    };
    let path = proposal::path(&paths.root);
    let aside = path.with_extension(aside);
    let moved = std::fs::rename(&path, &aside).map_or_else(
        |m| format!("; it could not be set aside: {m}"),
        |()| format!("; set aside as {}", aside.display()),
    );
    errors.push(format!("{}: {why}{moved}", proposal::PROPOSAL));
    (None, errors)
}

/// The engine's part of a pending proposal.
pub fn held(p: &Proposal) -> HeldSleep {
    HeldSleep {
        deadline: p.deadline,
        deep: p.deep,
        consolidated: true,
        started: p.started,
        rest_s: p.rest_s,
        wake: false,
    }
}

/// Why a decided proposal was not (wholly) written.
#[derive(Debug, thiserror::Error)]
pub enum DecideError {
    #[error("{PROPOSAL}: {0}", PROPOSAL = proposal::PROPOSAL)]
    Refused(#[from] RefusedPath),
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Writes the proposal's files (`decision.applied`) or drops them, records the decision
/// with the changes in `dream-diffs.jsonl`, and removes the pending proposal. A file that
/// cannot be written leaves the files not yet written pending (none is written twice).
/// A proposal naming a file outside `files` (the genome's reviewed files) is refused
/// before anything is written.
pub fn decide(
    paths: &SeedPaths,
    files: &[FileKind],
    p: &Proposal,
    decision: Decision,
) -> Result<(), DecideError> {
    p.check_paths(&reviewed_paths(files))?;
    let mut records = p.changes(|rel| text(&paths.root.join(rel)).unwrap_or_default());
    if decision.applied {
        for (i, f) in p.files.iter().enumerate() {
            let path = paths.root.join(&f.path);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let written = match f.op {
                proposal::Op::Append => write::append_bytes(&path, f.text.as_bytes()).map(drop),
                proposal::Op::Replace => write::atomic_write(&path, f.text.as_bytes()),
            };
            if let Err(e) = written {
                let rest = Proposal {
                    files: p.files[i..].to_vec(),
                    ..p.clone()
                };
                write::write_json(&proposal::path(&paths.root), &rest)?;
                return Err(e.into());
            }
        }
    }
    std::fs::create_dir_all(paths.sys_dir())?;
    for r in &mut records {
        r.review = Some(decision);
        write::append_json(&dream_diffs::path(&paths.root), r)?;
    }
    match std::fs::remove_file(proposal::path(&paths.root)) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e.into()),
        _ => Ok(()),
    }
}

/// The pending proposal with an edited text's files, held in its place until `deadline`.
pub fn replace(
    paths: &SeedPaths,
    p: &Proposal,
    edited: &str,
    deadline: Option<DateTime<Utc>>,
) -> Result<Proposal, ReplaceError> {
    let mut new = p.with_text(edited)?;
    new.deadline = deadline;
    write::write_json(&proposal::path(&paths.root), &new)?;
    Ok(new)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn sleep() -> HeldSleep {
        HeldSleep {
            deadline: None,
            deep: false,
            consolidated: true,
            started: Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap(),
            rest_s: 60.0,
            wake: false,
        }
    }

    const FILES: [FileKind; 2] = [FileKind::Observations, FileKind::Priorities];

    fn creature() -> (tempfile::TempDir, SeedPaths) {
        let dir = tempfile::tempdir().unwrap();
        let paths = SeedPaths::new(dir.path());
        std::fs::create_dir_all(paths.self_dir()).unwrap();
        std::fs::create_dir_all(paths.sys_dir()).unwrap();
        std::fs::write(paths.observations(), "## 2026-03-01\nRED 09:00 keep\n").unwrap();
        (dir, paths)
    }

    /// A dream written to the working copy: one observation added, priorities new.
    fn dream(paths: &SeedPaths) -> Proposal {
        let stage = stage(paths, &FILES).unwrap();
        let obs = std::fs::read_to_string(stage.observations()).unwrap();
        std::fs::write(stage.observations(), format!("{obs}YLW 10:00 new\n")).unwrap();
        std::fs::write(stage.priorities(), "- one\n").unwrap();
        propose(paths, &stage, &FILES, &sleep(), sleep().started)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn the_working_copy_becomes_a_proposal_and_the_files_stay() {
        let (_dir, paths) = creature();
        let p = dream(&paths);
        assert_eq!(p.files.len(), 2);
        assert_eq!(p.files[0].op, proposal::Op::Append);
        assert!(!paths.root.join(STAGE).exists());
        assert!(!paths.priorities().exists());
        assert_eq!(pending(&paths, &FILES).0, Some(p));
        // A sleep work that wrote nothing proposes nothing.
        let stage = stage(&paths, &FILES).unwrap();
        assert_eq!(
            propose(&paths, &stage, &FILES, &sleep(), sleep().started).unwrap(),
            None
        );
    }

    #[test]
    fn applied_the_files_change_as_proposed_and_the_decision_is_recorded() {
        let (_dir, paths) = creature();
        let p = dream(&paths);
        let decision = Decision {
            applied: true,
            timed_out: false,
            edited: false,
        };
        decide(&paths, &FILES, &p, decision).unwrap();
        assert_eq!(
            std::fs::read_to_string(paths.observations()).unwrap(),
            "## 2026-03-01\nRED 09:00 keep\nYLW 10:00 new\n"
        );
        assert_eq!(
            std::fs::read_to_string(paths.priorities()).unwrap(),
            "- one\n"
        );
        assert_eq!(pending(&paths, &FILES).0, None);
        let record = std::fs::read_to_string(dream_diffs::path(&paths.root)).unwrap();
        assert_eq!(record.lines().count(), 2);
        assert!(record.contains("\"review\":{\"applied\":true"), "{record}");
    }

    #[test]
    fn rejected_nothing_is_written_and_the_changes_are_recorded_as_rejected() {
        let (_dir, paths) = creature();
        let before = std::fs::read(paths.observations()).unwrap();
        let p = dream(&paths);
        let decision = Decision {
            applied: false,
            timed_out: false,
            edited: false,
        };
        decide(&paths, &FILES, &p, decision).unwrap();
        assert_eq!(std::fs::read(paths.observations()).unwrap(), before);
        assert!(!paths.priorities().exists());
        let record = std::fs::read_to_string(dream_diffs::path(&paths.root)).unwrap();
        assert!(record.contains("\"applied\":false"), "{record}");
    }

    #[test]
    fn an_edit_is_held_in_place_and_a_bad_one_changes_nothing() {
        let (_dir, paths) = creature();
        let p = dream(&paths);
        let text = p.to_text().replace("- one\n", "- two\n");
        let new = replace(&paths, &p, &text, None).unwrap();
        assert!(new.edited);
        assert_eq!(pending(&paths, &FILES).0, Some(new.clone()));
        assert!(replace(&paths, &new, "nonsense", None).is_err());
        assert_eq!(pending(&paths, &FILES).0, Some(new));
    }

    #[test]
    fn an_unreadable_proposal_is_set_aside_and_a_stale_stage_dropped() {
        let (_dir, paths) = creature();
        std::fs::create_dir_all(paths.root.join(STAGE)).unwrap();
        std::fs::write(proposal::path(&paths.root), b"{").unwrap();
        let (p, errors) = pending(&paths, &FILES);
        assert_eq!(p, None);
        assert!(errors[0].contains("set aside"), "{errors:?}");
        assert!(paths.sys_dir().join("proposal.json.unreadable").exists());
        assert!(!paths.root.join(STAGE).exists());
    }

    /// A proposal naming files outside the reviewed ones (a path escaping the creature,
    /// an absolute path, BIRTH.json) is set aside as refused at start and never applied.
    #[test]
    fn a_proposal_naming_other_files_is_refused_and_nothing_written() {
        let (dir, paths) = creature();
        let outside = tempfile::tempdir().unwrap();
        let abs = outside.path().join("PWN_abs.txt");
        let birth = std::fs::read(paths.birth()).ok();
        let good = dream(&paths);
        for bad in [
            "../PWN_rel.txt".to_string(),
            abs.display().to_string(),
            "BIRTH.json".to_string(),
        ] {
            let mut p = good.clone();
            p.files[1].path = bad.clone();
            write::write_json(&proposal::path(&paths.root), &p).unwrap();
            let (held, errors) = pending(&paths, &FILES);
            assert_eq!(held, None);
            assert!(
                errors[0].contains("refused") && errors[0].contains(&format!("{bad:?}")),
                "{errors:?}"
            );
            assert!(errors[0].contains("proposal.json.refused"), "{errors:?}");
            assert!(!proposal::path(&paths.root).exists());
            let decision = Decision {
                applied: true,
                timed_out: true,
                edited: false,
            };
            assert!(matches!(
                decide(&paths, &FILES, &p, decision),
                Err(DecideError::Refused(_))
            ));
        }
        assert!(!dir.path().parent().unwrap().join("PWN_rel.txt").exists());
        assert!(!abs.exists());
        assert_eq!(std::fs::read(paths.birth()).ok(), birth);
        assert_eq!(
            std::fs::read_to_string(paths.observations()).unwrap(),
            "## 2026-03-01\nRED 09:00 keep\n",
            "not even the allowed file of a refused proposal is written"
        );
    }

    #[test]
    fn a_fifo_among_the_reviewed_files_fails_the_stage_at_once() {
        let (_dir, paths) = creature();
        let made = std::process::Command::new("mkfifo")
            .arg(paths.priorities())
            .status()
            .unwrap();
        assert!(made.success());
        let e = stage(&paths, &FILES).unwrap_err();
        assert!(e.to_string().contains("FIFO"), "{e}");
    }
}
