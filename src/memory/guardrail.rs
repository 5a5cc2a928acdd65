//! `.sys/guardrail.json`: the morning report of a creature a guardrail put to sleep,
//! written by dreamwatch's runner, read by the observatory and `inspect`.
//!
//! ```text
//! {"rail": "cost_cap", "reason": "cost cap $2.00",
//!  "detail": "$2.04 spent today (UTC), the cap is $2.00",
//!  "tripped_at": "2026-03-01T10:00:00Z", "cost_today_usd": 2.04,
//!  "slept_at": "2026-03-01T10:02:00Z", "consolidated": true,
//!  "changes": ["observations.md: 3 added, 1 pruned"], "wake_key": "w"}
//! ```
//!
//! Written when the guardrail trips (the creature is being put to sleep: no `slept_at`
//! yet), again when the sleep is over (`slept_at`, `consolidated`, `changes`: what the
//! sleep changed, from `.sys/dream-diffs.jsonl`), and once more when a person wakes it
//! (`woken_at`). The creature is held asleep while there is no `woken_at`. The events log
//! says the same: `creature.guardrail` with `phase` `tripped`, `held` (the report's text)
//! and `woken`.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::dream_diff::FileChanges;
use super::dream_diffs::DiffRecord;
use super::dreams::opt_time;

/// Where the runner keeps the report, relative to the creature's root.
pub const GUARDRAIL_FILE: &str = ".sys/guardrail.json";
/// The event of each step: `phase` says which.
pub const GUARDRAIL_EVENT: &str = "creature.guardrail";
/// Most of the file read (a report is a few hundred bytes).
pub const MAX_REPORT: u64 = 64 << 10;

pub fn path(root: &Path) -> PathBuf {
    root.join(GUARDRAIL_FILE)
}

/// What tripped, what it cost, what the sleep changed, and how to wake the creature.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MorningReport {
    /// `cost_cap`, `loop` or `fatigue`.
    pub rail: String,
    /// In a few words, for a garden row: `cost cap $2.00`.
    pub reason: String,
    /// In a sentence.
    #[serde(default)]
    pub detail: String,
    pub tripped_at: DateTime<Utc>,
    /// What the creature's model calls cost today (UTC), when their price is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_today_usd: Option<f64>,
    /// When the sleep it was put to was over; `None`: it is still going to sleep.
    #[serde(default, with = "opt_time", skip_serializing_if = "Option::is_none")]
    pub slept_at: Option<DateTime<Utc>>,
    /// The sleep consolidated (a dream).
    #[serde(default)]
    pub consolidated: bool,
    /// What the sleep changed in the memory files, one line per file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
    /// The observatory's key that wakes it.
    #[serde(default = "wake_key")]
    pub wake_key: String,
    /// When a person woke it; `None`: it is held.
    #[serde(default, with = "opt_time", skip_serializing_if = "Option::is_none")]
    pub woken_at: Option<DateTime<Utc>>,
}

fn wake_key() -> String {
    "w".into()
}

impl MorningReport {
    /// Held asleep until a person wakes it.
    pub fn held(&self) -> bool {
        self.woken_at.is_none()
    }

    /// `held: cost cap $2.00`, as the garden row and the header say it.
    pub fn headline(&self) -> String {
        format!("held: {}", self.reason)
    }

    /// The report as lines of text (the popup, `inspect`, the `held` event).
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!("Tripped: {}", self.reason)];
        if !self.detail.is_empty() {
            lines.push(self.detail.clone());
        }
        if let Some(usd) = self.cost_today_usd {
            lines.push(format!("Cost today: ${usd:.2}"));
        }
        match (self.slept_at, self.consolidated) {
            (None, _) => lines.push("Sleep: under way".into()),
            (Some(_), false) => lines.push("Sleep: over, nothing consolidated".into()),
            (Some(_), true) if self.changes.is_empty() => {
                lines.push("Sleep: consolidated; no recorded change to the memory files".into())
            }
            (Some(_), true) => {
                lines.push("The sleep changed:".into());
                lines.extend(self.changes.iter().map(|c| format!("  {c}")));
            }
        }
        match self.woken_at {
            None => lines.push(format!("Held asleep: press {} to wake it", self.wake_key)),
            Some(_) => lines.push("Woken by a person".into()),
        }
        lines
    }

    /// The report from the bytes of the file; `None` when they are not one.
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        serde_json::from_slice(bytes).ok()
    }
}

/// Most of `.sys/dream-diffs.jsonl` read for what a sleep changed (its end).
const MAX_DIFFS: u64 = 4 << 20;

/// What the dreams recorded since `since` changed, one line per file:
/// `observations.md: 3 added, 1 pruned` (from `.sys/dream-diffs.jsonl`).
pub fn changes_since(root: &Path, since: DateTime<Utc>) -> Vec<String> {
    let Ok(bytes) = super::write::read_tail_nofollow(&super::dream_diffs::path(root), MAX_DIFFS)
    else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    for line in bytes.split(|b| *b == b'\n') {
        let Ok(record) = serde_json::from_slice::<DiffRecord>(line) else {
            continue;
        };
        if record.t.is_none_or(|t| t < since) || record.changes.is_empty() {
            continue;
        }
        lines.push(format!("{}: {}", record.file, counted(&record.changes)));
    }
    lines
}

/// `3 added, 1 pruned`.
fn counted(changes: &FileChanges) -> String {
    let counts: Vec<(usize, &str)> = match changes {
        FileChanges::Observations(o) => vec![
            (o.added.len(), "added"),
            (o.pruned.len(), "pruned"),
            (o.moved.len(), "moved"),
            (o.reprioritised.len(), "reprioritised"),
            (o.duplicated.len(), "duplicated"),
            (o.deduplicated.len(), "deduplicated"),
        ],
        FileChanges::Lines(l) => vec![(l.added.len(), "added"), (l.removed.len(), "removed")],
    };
    let said: Vec<String> = counts
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    said.join(", ")
}

/// The creature's report, when it has a readable one.
pub fn read(root: &Path) -> Option<MorningReport> {
    let bytes = super::write::read_tail_nofollow(&path(root), MAX_REPORT).ok()?;
    MorningReport::parse(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_reads_back_and_says_how_to_wake() {
        let text = r#"{"rail":"loop","reason":"loop: `make` failed 3 times","tripped_at":"2026-03-01T10:00:00Z","slept_at":"2026-03-01T10:01:00Z","consolidated":true,"changes":["observations.md: 2 added"]}"#;
        let r = MorningReport::parse(text.as_bytes()).unwrap();
        assert!(r.held());
        assert_eq!(r.wake_key, "w");
        assert_eq!(r.headline(), "held: loop: `make` failed 3 times");
        let lines = r.lines();
        assert!(lines.contains(&"  observations.md: 2 added".to_string()));
        assert_eq!(lines.last().unwrap(), "Held asleep: press w to wake it");
        assert!(MorningReport::parse(b"{not json").is_none());
    }
}
