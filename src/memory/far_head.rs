//! A conversation's head counted on the machine that has it. A far side sends a log's
//! recent window and, with it, what its own model counted of the lines before the
//! window; the near side's model takes that count as it takes a large local log's
//! background count, so a copy of a few KiB shows the whole log's figures.
//!
//! The count reaches the model through [`offer`]: the copy's file and the model meet only
//! by path (the model reads the copy as it reads any creature), so the count is offered
//! for the path and the file's inode before the file is renamed into place, and the model
//! takes it when it reads that very file from its start.

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// What a conversation's lines before a window hold, as the model counts them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FarHead {
    /// Lines, good and bad.
    pub lines: u64,
    pub entries: u64,
    pub bad: u64,
    /// Tool calls (time, calls) after the far side's last dream: fatigue.
    #[serde(default)]
    pub calls: Vec<(DateTime<Utc>, u32)>,
    /// Tool calls per interval, the recent ones: the sparklines.
    #[serde(default)]
    pub pulse: Vec<(i64, u32)>,
    #[serde(default)]
    pub last_t: Option<DateTime<Utc>>,
    /// The first bad lines (0-based number, why), and how many more there were.
    #[serde(default)]
    pub problems: Vec<(u64, String)>,
    #[serde(default)]
    pub dropped: u64,
}

/// Tool calls a head may carry: a count of at most 8 MiB of lines (a far side counts only
/// conversations up to its window) holds far fewer lines with a call.
pub const MAX_CALLS: usize = 1 << 18;

impl FarHead {
    /// Whether it is the size a far side's count can be (the far side is trusted with
    /// nothing: a report of millions of calls would be held in memory).
    pub fn is_bounded(&self) -> bool {
        self.calls.len() <= MAX_CALLS
            && self.problems.len() <= super::problem::MAX_KEPT + 1
            && self.pulse.len() <= 2 * super::pulse::KEPT as usize
            && self.entries.saturating_add(self.bad) <= self.lines
    }

    /// Whether the count was cut short by an error (not one to go on from).
    pub fn stopped(&self) -> bool {
        self.problems
            .iter()
            .any(|(_, what)| what.starts_with(super::streams::COUNTING_STOPPED))
    }
}

/// Counts offered, by the copy's path: the inode of the file they count the head of.
type Offered = HashMap<PathBuf, (u64, Arc<FarHead>)>;

static OFFERED: LazyLock<Mutex<Offered>> = LazyLock::new(Default::default);

fn offered() -> std::sync::MutexGuard<'static, Offered> {
    OFFERED.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The file that will be at `path`, inode `inode`, is a window whose earlier lines `head`
/// counts.
pub fn offer(path: &Path, inode: u64, head: FarHead) {
    offered().insert(path.to_path_buf(), (inode, Arc::new(head)));
}

/// The file at `path` is no longer a counted window.
pub fn withdraw(path: &Path) {
    offered().remove(path);
}

/// No file under `dir` is a counted window any more.
pub fn withdraw_under(dir: &Path) {
    offered().retain(|p, _| !p.starts_with(dir));
}

/// The files under `from` are under `to` now (its directories renamed there).
pub fn moved(from: &Path, to: &Path) {
    let mut offered = offered();
    let keys: Vec<PathBuf> = offered
        .keys()
        .filter(|p| p.starts_with(from))
        .cloned()
        .collect();
    for key in keys {
        if let (Some(head), Ok(rest)) = (offered.remove(&key), key.strip_prefix(from)) {
            offered.insert(to.join(rest), head);
        }
    }
}

/// The count offered for the file at `path`, if it is still the file it was offered for.
pub(crate) fn find(path: &Path) -> Option<Arc<FarHead>> {
    let (inode, head) = offered().get(path).cloned()?;
    let now = std::fs::metadata(path).ok()?.ino();
    (now == inode).then_some(head)
}

/// The time of the last dream in the dreams log at `path` that has one, read from its
/// end (what fatigue is counted after).
pub fn last_dream_in(path: &Path) -> Option<DateTime<Utc>> {
    let mut last = None;
    // A dream line longer than this (a reflection of megabytes) is passed over.
    const MAX_LINE: usize = 4 << 20;
    let found = crate::tail::read_back(path, u64::MAX, MAX_LINE, |line| {
        last = match super::dream_fields::dream_fields(line) {
            Some(f) => f.t,
            None => super::dreams::Dream::parse(line).ok().and_then(|d| d.t),
        };
        last.is_none()
    });
    found.ok().and(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_is_found_only_for_the_file_it_was_offered_for() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("conversation.jsonl");
        std::fs::write(&p, "{}\n").unwrap();
        let inode = std::fs::metadata(&p).unwrap().ino();
        let head = FarHead {
            lines: 7,
            ..FarHead::default()
        };
        offer(&p, inode, head.clone());
        assert_eq!(find(&p).as_deref(), Some(&head));
        // Replaced by another file: not that file's count.
        let other = dir.path().join("other");
        std::fs::write(&other, "{}\n").unwrap();
        std::fs::rename(&other, &p).unwrap();
        assert_eq!(find(&p), None);
        offer(&p, std::fs::metadata(&p).unwrap().ino(), head);
        withdraw_under(dir.path());
        assert_eq!(find(&p), None);
    }

    #[test]
    fn the_last_dream_is_read_from_the_end_past_lines_without_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("dreams.jsonl");
        assert_eq!(last_dream_in(&p), None);
        let mut text = String::new();
        for i in 0..2000 {
            text.push_str(&format!(
                "{{\"t\":\"2026-03-01T00:{:02}:{:02}Z\",\"reflection\":\"{}\"}}\n",
                i / 60 % 60,
                i % 60,
                "x".repeat(100)
            ));
        }
        text.push_str("not json\n{\"reflection\":\"no time\"}\n");
        std::fs::write(&p, &text).unwrap();
        assert_eq!(
            last_dream_in(&p).map(|t| t.to_rfc3339()),
            Some("2026-03-01T00:33:19+00:00".into())
        );
    }

    #[test]
    fn a_count_larger_than_a_far_side_makes_is_refused() {
        let fine = FarHead {
            lines: 10,
            entries: 9,
            bad: 1,
            calls: vec![(Utc::now(), 2); 5],
            ..FarHead::default()
        };
        assert!(fine.is_bounded());
        let more_lines_than_counted = FarHead {
            entries: 11,
            ..fine.clone()
        };
        assert!(!more_lines_than_counted.is_bounded());
        let flood = FarHead {
            calls: vec![(Utc::now(), 1); MAX_CALLS + 1],
            ..fine
        };
        assert!(!flood.is_bounded());
    }
}
