//! `.sys/dream-diffs.jsonl`: what each dream changed in the memory files, written by
//! dreamwatch's runner as it writes them (one line per file a dream wrote), and the same
//! record kept by the observatory's watched history for creatures it does not host.
//!
//! A line: `{"dream": 12, "t": "2026-03-01T10:00:00Z", "file": "observations.md",
//! "changes": {"kind": "observations", "added": [...], "pruned": [...], ...}}`; `dream` is
//! the dream's 1-based line in `dreams.jsonl` and `t` its time. Only changed lines are
//! kept, never copies of the files.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::dream_diff::FileChanges;
use super::dreams::opt_time;
use super::proposal::Decision;

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
    /// The dream was held for review (`--review-dreams`): how it was decided. A rejected
    /// dream's changes are recorded too, and were not written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<Decision>,
    pub changes: FileChanges,
}

/// The records of one dream read from the runner's file.
#[derive(Debug, Default, PartialEq)]
pub struct DreamRecords {
    pub records: Vec<DiffRecord>,
    /// Lines that could not be read.
    pub bad: usize,
    /// The first dream the file records (older dreams were not recorded).
    pub first: Option<u64>,
}

/// A longer line of the file is skipped (counted bad).
const MAX_RECORD_LINE: u64 = 16 << 20;

/// Reads past the rest of the current line.
fn skip_line(reader: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        match memchr::memchr(b'\n', buf) {
            Some(i) => {
                reader.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                reader.consume(n);
            }
        }
    }
}

/// The records of `path` for dream `number`, in file order.
pub fn read_dream(path: &Path, number: u64) -> std::io::Result<DreamRecords> {
    let file = match crate::tail::open_regular(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(DreamRecords::default()),
        Err(e) => return Err(e),
    };
    let mut out = DreamRecords::default();
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    loop {
        line.clear();
        // A line longer than the cap is not a record: skipped, never held.
        let n = (&mut reader)
            .take(MAX_RECORD_LINE + 1)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            break;
        }
        if line.len() as u64 > MAX_RECORD_LINE {
            out.bad += 1;
            if line.last() != Some(&b'\n') {
                skip_line(&mut reader)?;
            }
            continue;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<DiffRecord>(&line) {
            Ok(r) => {
                if let Some(d) = r.dream {
                    out.first = Some(out.first.map_or(d, |f| f.min(d)));
                }
                if r.dream == Some(number) {
                    out.records.push(r);
                }
            }
            Err(_) => out.bad += 1,
        }
    }
    Ok(out)
}

/// How far from a dream's time a change seen by the watched history still counts as
/// that dream's (an agentic consolidation rewrites files for minutes before its dream
/// line is written, a self-evaluation after).
pub const SEEN_WINDOW_MIN: i64 = 15;

/// The watched history's records that belong to the dream at `times[i]` (`times`: every
/// dream's time, oldest first): a change seen nearer to it than to any other dream and
/// within [`SEEN_WINDOW_MIN`]; a change made while nothing watched, when the dream falls
/// in the time it was made in.
pub fn seen_for_dream<'a>(
    records: &'a [DiffRecord],
    times: &[Option<DateTime<Utc>>],
    i: usize,
) -> Vec<&'a DiffRecord> {
    let Some(t) = times.get(i).copied().flatten() else {
        return Vec::new();
    };
    let window = chrono::Duration::minutes(SEEN_WINDOW_MIN);
    let dist = |a: DateTime<Utc>, b: DateTime<Utc>| (a - b).abs();
    records
        .iter()
        .filter(|r| {
            let Some(seen) = r.t else { return false };
            if let Some(since) = r.since {
                return since < t && t <= seen;
            }
            let d = dist(seen, t);
            let prev = i.checked_sub(1).and_then(|p| times[p]);
            let next = times.get(i + 1).copied().flatten();
            d <= window
                && prev.is_none_or(|p| d <= dist(seen, p))
                && next.is_none_or(|n| d < dist(seen, n))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::dream_diff::LineChanges;

    #[test]
    fn reads_the_lines_of_one_dream_and_counts_bad_ones() {
        let dir = tempfile::tempdir().unwrap();
        let p = path(dir.path());
        assert_eq!(read_dream(&p, 1).unwrap(), DreamRecords::default());
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let rec = |dream| DiffRecord {
            review: None,
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
        let two = read_dream(&p, 2).unwrap();
        assert_eq!(two.records, [rec(2), rec(2)]);
        assert_eq!((two.bad, two.first), (1, Some(1)));
    }

    #[test]
    fn a_change_seen_belongs_to_the_nearest_dream_within_the_window() {
        use chrono::TimeZone;
        let at = |h: u32, m: u32| Some(Utc.with_ymd_and_hms(2026, 3, 1, h, m, 0).unwrap());
        let seen = |t, since| DiffRecord {
            review: None,
            dream: None,
            t,
            file: "observations.md".into(),
            since,
            changes: FileChanges::Lines(LineChanges::default()),
        };
        let times = [at(10, 0), at(10, 20), at(12, 0)];
        let records = [
            seen(at(9, 58), None),                       // before dream 1's line: its own
            seen(at(10, 12), None),                      // nearer dream 2
            seen(at(11, 0), None),                       // awake, far from any dream
            seen(at(12, 30), Some(at(10, 30).unwrap())), // while nothing watched: dream 3
        ];
        let of = |i| seen_for_dream(&records, &times, i).len();
        assert_eq!(seen_for_dream(&records, &times, 0), [&records[0]]);
        assert_eq!(seen_for_dream(&records, &times, 1), [&records[1]]);
        assert_eq!(seen_for_dream(&records, &times, 2), [&records[3]]);
        assert_eq!(of(3), 0);
    }
}
