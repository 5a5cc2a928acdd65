//! `.sys/dream-diffs.jsonl`: what each dream changed in the memory files, written by
//! dreamwatch's runner as it writes them (one line per file a dream wrote), and the same
//! record kept by the observatory's watched history for creatures it does not host.
//!
//! A line: `{"dream": 12, "t": "2026-03-01T10:00:00Z", "file": "observations.md",
//! "changes": {"kind": "observations", "added": [...], "pruned": [...], ...}}`; `dream` is
//! the dream's 1-based line in `dreams.jsonl` and `t` its time. Only changed lines are
//! kept, never copies of the files.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::dream_diff::FileChanges;
use super::dreams::opt_time;

/// Where the runner keeps the record, relative to the creature's root.
pub const DREAM_DIFFS: &str = ".sys/dream-diffs.jsonl";

pub fn path(root: &Path) -> PathBuf {
    root.join(DREAM_DIFFS)
}

/// The memory files whose changes are recorded, by their name in `.self/`.
pub const RECORDED: [&str; 5] = [
    "observations.md",
    "priorities.md",
    "rules.md",
    "briefing.md",
    "diary.md",
];

/// What one dream changed in one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiffRecord {
    /// The dream's 1-based line in `dreams.jsonl`, when known (the runner knows it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dream: Option<u64>,
    /// The dream's time (the runner's record), or when the change was seen (the
    /// observatory's, matched to the nearest dream when shown).
    #[serde(default, with = "opt_time")]
    pub t: Option<DateTime<Utc>>,
    /// The file's name in `.self/`.
    pub file: String,
    /// Seen after a time nothing watched: made between `since` and `t` by whatever ran.
    #[serde(default, with = "opt_time", skip_serializing_if = "Option::is_none")]
    pub since: Option<DateTime<Utc>>,
    pub changes: FileChanges,
}

/// The records of `path` for dream `number`, in file order; bad lines are counted.
pub fn read_dream(path: &Path, number: u64) -> std::io::Result<(Vec<DiffRecord>, usize)> {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
        Err(e) => return Err(e),
    };
    let mut out = Vec::new();
    let mut bad = 0;
    for line in BufReader::new(file).split(b'\n') {
        let line = line?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<DiffRecord>(&line) {
            Ok(r) if r.dream == Some(number) => out.push(r),
            Ok(_) => {}
            Err(_) => bad += 1,
        }
    }
    Ok((out, bad))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::dream_diff::LineChanges;

    #[test]
    fn reads_the_lines_of_one_dream_and_counts_bad_ones() {
        let dir = tempfile::tempdir().unwrap();
        let p = path(dir.path());
        assert_eq!(read_dream(&p, 1).unwrap().0, []);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let rec = |dream| DiffRecord {
            dream: Some(dream),
            t: None,
            file: "priorities.md".into(),
            since: None,
            changes: FileChanges::Lines(LineChanges {
                removed: vec![],
                added: vec![format!("- {dream}")],
            }),
        };
        let mut text = String::new();
        for r in [rec(1), rec(2), rec(2)] {
            text.push_str(&serde_json::to_string(&r).unwrap());
            text.push('\n');
        }
        text.push_str("{not json\n");
        std::fs::write(&p, text).unwrap();
        let (two, bad) = read_dream(&p, 2).unwrap();
        assert_eq!(two, [rec(2), rec(2)]);
        assert_eq!(bad, 1);
    }
}
