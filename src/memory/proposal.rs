//! `.sys/proposal.json`: a consolidation's result held for the operator's review
//! (`--review-dreams`), written by dreamwatch's runner instead of the memory files.
//!
//! ```text
//! {"created": "2026-03-01T10:00:00Z", "deadline": "2026-03-01T10:10:00Z",
//!  "dream": 12, "t": "2026-03-01T10:00:00Z", "deep": false, "edited": false,
//!  "started": "2026-03-01T09:58:00Z", "rest_s": 300.0,
//!  "files": [{"path": ".self/observations.md", "op": "append", "text": "..."},
//!            {"path": ".self/priorities.md", "op": "replace", "text": "..."}]}
//! ```
//!
//! Each file is what the dream would write: `append` adds `text` at the end, `replace`
//! writes `text` as the whole file. `deadline` is when the proposal applies itself (absent:
//! never); `dream` and `t` are the dream it belongs to (as in `dream-diffs.jsonl`);
//! `started` and `rest_s` are the sleep's, for the runner to go on with once it is decided.
//! While it is pending the creature stays in its sleep; the decision is an event
//! (`creature.review`) and a `review` field on the dream's `dream-diffs.jsonl` lines.
//!
//! The operator edits a proposal as plain text ([`Proposal::to_text`], read back by
//! [`Proposal::with_text`]): each file under a header line `=== PATH (OP) ===`.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::dream_diff::FileChanges;
use super::dream_diffs::{DiffRecord, RECORDED};
use super::dreams::{Dream, opt_time};
use super::json::LineError;

/// Where the runner keeps a pending proposal, relative to the creature's root.
pub const PROPOSAL: &str = ".sys/proposal.json";
/// The runner's working copy of the files a dream writes, while it dreams under review.
pub const STAGE: &str = ".sys/proposal-stage";
/// The event written when a proposal is held.
pub const HELD_EVENT: &str = "creature.proposal";
/// The event written when a proposal is decided.
pub const DECIDED_EVENT: &str = "creature.review";

pub fn path(root: &Path) -> PathBuf {
    root.join(PROPOSAL)
}

/// A consolidation's result, not yet written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Proposal {
    pub created: DateTime<Utc>,
    /// When it applies itself; `None`: never.
    #[serde(default, with = "opt_time", skip_serializing_if = "Option::is_none")]
    pub deadline: Option<DateTime<Utc>>,
    /// The dream's 1-based line in `dreams.jsonl`, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dream: Option<u64>,
    #[serde(default, with = "opt_time", skip_serializing_if = "Option::is_none")]
    pub t: Option<DateTime<Utc>>,
    #[serde(default)]
    pub deep: bool,
    /// The operator replaced what the dream wrote.
    #[serde(default)]
    pub edited: bool,
    /// When the sleep began.
    pub started: DateTime<Utc>,
    /// Creature seconds the creature rests once the proposal is decided.
    pub rest_s: f64,
    pub files: Vec<ProposedFile>,
}

/// What the dream would write to one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProposedFile {
    /// Relative to the creature's root, e.g. `.self/observations.md`.
    pub path: String,
    pub op: Op,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    Append,
    Replace,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Append => "append",
            Op::Replace => "replace",
        }
    }
}

/// How a proposal was decided (the `review` of its `dream-diffs.jsonl` lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    pub applied: bool,
    /// `true`: its time ran out; `false`: the operator decided.
    #[serde(default)]
    pub timed_out: bool,
    #[serde(default)]
    pub edited: bool,
}

impl Decision {
    /// As the views and events say it.
    pub fn describe(self) -> &'static str {
        match (self.applied, self.timed_out, self.edited) {
            (false, _, _) => "rejected by the operator: nothing of it was written",
            (true, true, false) => "applied when its review time ran out",
            (true, true, true) => "applied as edited, when its review time ran out",
            (true, false, true) => "applied as edited by the operator",
            (true, false, false) => "applied by the operator",
        }
    }
}

/// Most of `.sys/proposal.json` read: the observatory's bound for a whole file.
pub const MAX_PROPOSAL: u64 = super::whole_files::MAX_DOCUMENT;

/// Why a proposal's files are not written ([`Proposal::check_paths`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefusedPath {
    #[error("it names {path:?}, not a file its dreams write (only {allowed})")]
    NotReviewed { path: String, allowed: String },
    #[error("it names {0:?} twice")]
    Twice(String),
}

/// Why an edited proposal was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidEdit {
    #[error("line {0}: text before the first `=== PATH (OP) ===` header")]
    Orphan(usize),
    #[error("line {line}: {path} is not a file of this proposal")]
    Unknown { line: usize, path: String },
    #[error("line {line}: {path} is a {want} in this proposal, not a {got}")]
    WrongOp {
        line: usize,
        path: String,
        want: &'static str,
        got: String,
    },
    #[error("line {line}: {path} appears twice")]
    Twice { line: usize, path: String },
    #[error("{0} is missing: keep every file's header (leave its text empty to write nothing)")]
    Missing(String),
    #[error("{path}: line {line} is not a dream: {error}")]
    BadDream {
        path: String,
        line: usize,
        error: String,
    },
}

const HEAD: &str = "=== ";
const TAIL: &str = " ===";

impl ProposedFile {
    /// The change from `before` to `after`; `None` when there is none.
    pub fn between(path: &str, before: &str, after: &str) -> Option<Self> {
        if before == after {
            return None;
        }
        let (op, text) = match after.strip_prefix(before) {
            Some(tail) => (Op::Append, tail.to_string()),
            None => (Op::Replace, after.to_string()),
        };
        Some(Self {
            path: path.to_string(),
            op,
            text,
        })
    }

    /// The file's name (what `dream-diffs.jsonl` calls it).
    pub fn name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or(&self.path)
    }

    /// The file's text once applied to `before`.
    pub fn after(&self, before: &str) -> String {
        match self.op {
            Op::Append => format!("{before}{}", self.text),
            Op::Replace => self.text.clone(),
        }
    }
}

impl Proposal {
    /// A proposal from the bytes of `.sys/proposal.json`.
    pub fn parse(bytes: &[u8]) -> Result<Self, LineError> {
        Ok(serde_json::from_slice(bytes)?)
    }

    /// Reads the pending proposal of the creature at `root`, if any: a regular file of at
    /// most [`MAX_PROPOSAL`] bytes (what the observatory reads of it too); a FIFO, a
    /// device or a larger file is an error, never a hang or the whole file in memory.
    pub fn read(root: &Path) -> std::io::Result<Option<Self>> {
        let Some(bytes) = crate::tail::read_bounded(&path(root), MAX_PROPOSAL)? else {
            return Ok(None);
        };
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }

    /// Refuses a proposal that names a file outside `allowed` (the files its genome's
    /// sleep work writes, relative to the creature's root, e.g. `.self/observations.md`),
    /// or one file twice. Paths are compared as written: `../x`, `/x`, `BIRTH.json` or
    /// `.self/../x` are never one of them.
    pub fn check_paths(&self, allowed: &[&str]) -> Result<(), RefusedPath> {
        for (i, f) in self.files.iter().enumerate() {
            if !allowed.contains(&f.path.as_str()) {
                return Err(RefusedPath::NotReviewed {
                    path: f.path.clone(),
                    allowed: allowed.join(", "),
                });
            }
            if self.files[..i].iter().any(|g| g.path == f.path) {
                return Err(RefusedPath::Twice(f.path.clone()));
            }
        }
        Ok(())
    }

    /// What applying it would change, per file, against `before` (each file's text now,
    /// by path): the same records as `dream-diffs.jsonl`'s, for the recorded files.
    pub fn changes(&self, before: impl Fn(&str) -> String) -> Vec<DiffRecord> {
        self.files
            .iter()
            .filter(|f| RECORDED.contains(&f.name()))
            .filter_map(|f| {
                let was = before(&f.path);
                let changes = FileChanges::between(f.name(), &was, &f.after(&was));
                (!changes.is_empty()).then(|| DiffRecord {
                    dream: self.dream,
                    t: self.t,
                    file: f.name().to_string(),
                    since: None,
                    review: None,
                    changes,
                })
            })
            .collect()
    }

    /// The proposal as text to edit: a comment, then each file under its header.
    pub fn to_text(&self) -> String {
        let mut out = String::from(
            "# A dream held for review. Edit the text under each header; keep the headers.\n\
             # append: the text is added at the end of the file; replace: it becomes the file.\n\
             # Lines starting with # before the first header are ignored.\n",
        );
        for f in &self.files {
            out.push_str(&format!("{HEAD}{} ({}){TAIL}\n", f.path, f.op.name()));
            out.push_str(&f.text);
            if !f.text.is_empty() && !f.text.ends_with('\n') {
                out.push('\n');
            }
        }
        out
    }

    /// This proposal with the files of an edited text ([`Self::to_text`]'s form): the
    /// same files with the same operations, each dream line a dream.
    pub fn with_text(&self, text: &str) -> Result<Self, InvalidEdit> {
        let mut files: Vec<ProposedFile> = Vec::new();
        for (i, line) in text.split_inclusive('\n').enumerate() {
            let n = i + 1;
            let bare = line.trim_end_matches(['\n', '\r']);
            if let Some(head) = bare.strip_prefix(HEAD).and_then(|h| h.strip_suffix(TAIL))
                && let Some((path, op)) = head.rsplit_once(" (")
                && let Some(op) = op.strip_suffix(')')
            {
                let Some(mine) = self.files.iter().find(|f| f.path == path) else {
                    return Err(InvalidEdit::Unknown {
                        line: n,
                        path: path.into(),
                    });
                };
                if op != mine.op.name() {
                    return Err(InvalidEdit::WrongOp {
                        line: n,
                        path: path.into(),
                        want: mine.op.name(),
                        got: op.into(),
                    });
                }
                if files.iter().any(|f| f.path == path) {
                    return Err(InvalidEdit::Twice {
                        line: n,
                        path: path.into(),
                    });
                }
                files.push(ProposedFile {
                    path: path.into(),
                    op: mine.op,
                    text: String::new(),
                });
                continue;
            }
            match files.last_mut() {
                Some(f) => f.text.push_str(line),
                None if bare.starts_with('#') || bare.trim().is_empty() => {}
                None => return Err(InvalidEdit::Orphan(n)),
            }
        }
        if let Some(missing) = self
            .files
            .iter()
            .find(|m| !files.iter().any(|f| f.path == m.path))
        {
            return Err(InvalidEdit::Missing(missing.path.clone()));
        }
        for f in &files {
            check(f)?;
        }
        Ok(Self {
            files,
            edited: true,
            ..self.clone()
        })
    }
}

/// Dream lines must stay dreams: the runner counts them.
fn check(f: &ProposedFile) -> Result<(), InvalidEdit> {
    if f.name() != "dreams.jsonl" {
        return Ok(());
    }
    for (i, line) in f.text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        Dream::parse(line.as_bytes()).map_err(|e| InvalidEdit::BadDream {
            path: f.path.clone(),
            line: i + 1,
            error: e.to_string(),
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn proposal() -> Proposal {
        let t = Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap();
        Proposal {
            created: t,
            deadline: None,
            dream: Some(3),
            t: Some(t),
            deep: false,
            edited: false,
            started: t,
            rest_s: 300.0,
            files: vec![
                ProposedFile::between(".self/observations.md", "a\n", "a\nRED 10:00 b\n").unwrap(),
                ProposedFile::between(".self/priorities.md", "x\n", "y\n").unwrap(),
                ProposedFile::between(
                    ".self/dreams.jsonl",
                    "",
                    "{\"t\":\"2026-03-01T10:00:00Z\",\"reflection\":\"r\",\"priority\":\"p\"}\n",
                )
                .unwrap(),
            ],
        }
    }

    #[test]
    fn a_change_is_an_append_when_the_old_text_stays_in_front() {
        let p = proposal();
        assert_eq!(
            (p.files[0].op, p.files[0].text.as_str()),
            (Op::Append, "RED 10:00 b\n")
        );
        assert_eq!(
            (p.files[1].op, p.files[1].text.as_str()),
            (Op::Replace, "y\n")
        );
        assert_eq!(p.files[0].after("a\n"), "a\nRED 10:00 b\n");
        assert_eq!(ProposedFile::between("x", "same", "same"), None);
        assert_eq!(p.files[0].name(), "observations.md");
    }

    #[test]
    fn the_text_form_round_trips_and_an_edit_is_marked() {
        let p = proposal();
        let edited = p.with_text(&p.to_text()).unwrap();
        assert_eq!(edited.files, p.files);
        assert!(edited.edited);
        let text = p.to_text().replace("y\n", "z\nw\n");
        assert_eq!(p.with_text(&text).unwrap().files[1].text, "z\nw\n");
    }

    #[test]
    fn an_edit_that_breaks_the_form_is_refused_with_where() {
        let p = proposal();
        let text = p.to_text();
        let e = |t: &str| p.with_text(t).unwrap_err().to_string();
        assert!(e(&format!("stray\n{text}")).contains("line 1: text before"));
        assert!(
            e(&text.replace("priorities.md (replace)", "priorities.md (append)"))
                .contains("is a replace")
        );
        assert!(
            e(&text.replace("priorities.md", "rules.md")).contains("not a file of this proposal")
        );
        assert!(
            e(&text.replace("=== .self/priorities.md (replace) ===\ny\n", ""))
                .contains("priorities.md is missing")
        );
        assert!(e(&text.replace("\"priority\":\"p\"}", "oops")).contains("line 1 is not a dream"));
        let twice = format!("{text}=== .self/priorities.md (replace) ===\n");
        assert!(e(&twice).contains("appears twice"));
    }

    #[test]
    fn changes_are_the_recorded_files_against_their_text_now() {
        let p = proposal();
        let records = p.changes(|path| match path {
            ".self/observations.md" => "a\n".into(),
            _ => "x\n".into(),
        });
        let files: Vec<&str> = records.iter().map(|r| r.file.as_str()).collect();
        assert_eq!(files, ["observations.md", "priorities.md"]);
        assert_eq!(records[0].dream, Some(3));
    }

    #[test]
    fn the_file_reads_back_and_a_missing_one_is_none() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Proposal::read(dir.path()).unwrap(), None);
        std::fs::create_dir_all(dir.path().join(".sys")).unwrap();
        std::fs::write(path(dir.path()), serde_json::to_vec(&proposal()).unwrap()).unwrap();
        assert_eq!(Proposal::read(dir.path()).unwrap(), Some(proposal()));
        std::fs::write(path(dir.path()), b"{").unwrap();
        assert!(Proposal::read(dir.path()).is_err());
    }

    #[test]
    fn a_fifo_a_device_or_a_huge_file_is_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".sys")).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(path(dir.path()))
            .status()
            .unwrap();
        assert!(made.success());
        let e = Proposal::read(dir.path()).unwrap_err();
        assert!(e.to_string().contains("FIFO"), "{e}");
        std::fs::remove_file(path(dir.path())).unwrap();
        std::os::unix::fs::symlink("/dev/zero", path(dir.path())).unwrap();
        let e = Proposal::read(dir.path()).unwrap_err();
        assert!(e.to_string().contains("character device"), "{e}");
        std::fs::remove_file(path(dir.path())).unwrap();
        let f = std::fs::File::create(path(dir.path())).unwrap();
        f.set_len(MAX_PROPOSAL + 1).unwrap();
        let e = Proposal::read(dir.path()).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::FileTooLarge);
    }

    #[test]
    fn only_the_reviewed_files_may_be_named() {
        let allowed = [
            ".self/observations.md",
            ".self/priorities.md",
            ".self/dreams.jsonl",
        ];
        assert_eq!(proposal().check_paths(&allowed), Ok(()));
        for bad in [
            "../PWN_rel.txt",
            "/tmp/PWN_abs.txt",
            "BIRTH.json",
            ".self/../BIRTH.json",
            "./.self/observations.md",
            ".self/observations.md/",
        ] {
            let mut p = proposal();
            p.files[1].path = bad.into();
            let e = p.check_paths(&allowed).unwrap_err();
            assert!(e.to_string().contains(bad), "{e}");
        }
        let mut p = proposal();
        p.files[1].path = p.files[0].path.clone();
        assert_eq!(
            p.check_paths(&allowed),
            Err(RefusedPath::Twice(".self/observations.md".into()))
        );
    }
}
