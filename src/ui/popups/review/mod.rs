//! A dream held for the operator's review (`--review-dreams`, `.sys/proposal.json`), as
//! the observatory keeps it: the proposal (for an edit), what it would change (the same
//! lines as what a dream changed), its dream's priority and reflection, and when it
//! applies itself.

mod draw;
mod keys;
pub mod prepare;

pub use keys::Edited;

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use crate::memory::creature::Creature;
use crate::memory::dreams::Dream;
use crate::memory::layout::FileKind;
use crate::memory::proposal::Proposal;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::prepare::changes::{self, DreamChanges};
use crate::ui::prepare::inert;

/// The review popup's own state.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewPopup {
    /// Where the popup is scrolled.
    anchor: Anchor,
    /// An edit not held yet: one the proposal's form refused, one sent that the runner
    /// has not said it holds, or one it refused. The creature, and the text, which the
    /// next edit starts from (nothing the operator wrote is lost).
    pub draft: Option<(PathBuf, String)>,
    /// This creature's dream was applied or rejected from here: when its proposal goes,
    /// the runner's answer says so (nothing more to tell).
    pub decided: Option<PathBuf>,
}

impl Default for ReviewPopup {
    fn default() -> Self {
        Self {
            anchor: Anchor::Line(0),
            draft: None,
            decided: None,
        }
    }
}

impl ReviewPopup {
    /// Opened again: at its top.
    pub fn open(&mut self) {
        self.anchor = Anchor::Line(0);
    }

    /// Scrolls `lines` (the popup's document) in `vp`.
    pub fn scroll(&mut self, lines: &[DocLine], vp: Viewport, step: Step) {
        self.anchor = scroll::scroll(lines, self.anchor, vp, step);
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct PendingReview {
    /// As the runner holds it: its text form is what the operator edits.
    pub proposal: Proposal,
    /// What applying it would change in the memory files, against them now.
    pub changes: DreamChanges,
    /// The proposed dream's priority (inert), when its line reads as a dream.
    pub priority: Option<String>,
    /// Its reflection, line by line (inert).
    pub reflection: Vec<String>,
}

impl PendingReview {
    /// The creature's pending proposal, compared with its files as they are now (a
    /// proposal names its files; only the memory files are read for it).
    pub fn of(c: &Creature) -> Option<Self> {
        let proposal = c.proposal()?.clone();
        let root = c.root();
        let records = proposal.changes(|path| {
            let file = root.join(path);
            FileKind::of_path(root, &file)
                .and_then(|_| std::fs::read_to_string(&file).ok())
                .unwrap_or_default()
        });
        let dream = proposal
            .files
            .iter()
            .filter(|f| f.name() == "dreams.jsonl")
            .flat_map(|f| f.text.lines())
            .find_map(|line| Dream::parse(line.as_bytes()).ok());
        Some(Self {
            changes: changes::proposed(&records),
            priority: dream.as_ref().map(|d| inert(&d.priority)),
            reflection: dream
                .map(|d| d.reflection.lines().map(inert).collect())
                .unwrap_or_default(),
            proposal,
        })
    }

    /// Seconds before it applies itself (none left: 0); `None`: it never does.
    pub fn left(&self, now: DateTime<Utc>) -> Option<i64> {
        self.proposal
            .deadline
            .map(|d| (d - now).num_seconds().max(0))
    }

    /// What it is: `dream #12`, `deep sleep #12`.
    pub fn what(&self) -> String {
        let kind = if self.proposal.deep {
            "deep sleep"
        } else {
            "dream"
        };
        match self.proposal.dream {
            Some(n) => format!("{kind} #{n}"),
            None => kind.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn a_proposal_on_disk_is_compared_with_the_files_now() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join(".self")).unwrap();
        std::fs::create_dir_all(root.join(".sys")).unwrap();
        std::fs::write(
            root.join(".self/observations.md"),
            "## 2026-03-01\n\nGRN 08:00 old\n",
        )
        .unwrap();
        std::fs::write(root.join(".self/priorities.md"), "- before\n").unwrap();
        let proposal = serde_json::json!({
            "created": "2026-03-01T09:00:00Z", "deadline": "2026-03-01T09:10:00Z",
            "dream": 3, "deep": true, "started": "2026-03-01T08:59:00Z", "rest_s": 300.0,
            "files": [
                {"path": ".self/observations.md", "op": "replace",
                 "text": "## 2026-03-01\n\nRED 09:00 new \u{1b}[31m\n"},
                {"path": ".self/priorities.md", "op": "replace", "text": "- after\n"},
                {"path": ".self/dreams.jsonl", "op": "append",
                 "text": "{\"t\":\"2026-03-01T09:00:00Z\",\"reflection\":\"one\\ntwo\",\"priority\":\"rest\",\"deep\":true}\n"},
                {"path": "../elsewhere/diary.md", "op": "append", "text": "x\n"}
            ]
        });
        std::fs::write(root.join(".sys/proposal.json"), proposal.to_string()).unwrap();
        let c = Creature::open(root);
        let review = PendingReview::of(&c).unwrap();
        let texts: Vec<&str> = review
            .changes
            .lines
            .iter()
            .map(|l| l.text.as_str())
            .collect();
        assert!(texts.contains(&"- GRN 08:00 old"), "{texts:?}");
        assert!(texts.contains(&"+ RED 09:00 new ^[[31m"), "{texts:?}");
        assert!(texts.contains(&"- - before"), "{texts:?}");
        assert!(texts.contains(&"+ - after"), "{texts:?}");
        assert_eq!(review.priority.as_deref(), Some("rest"));
        assert_eq!(review.reflection, ["one", "two"]);
        assert_eq!(review.what(), "deep sleep #3");
        let at = |m| Utc.with_ymd_and_hms(2026, 3, 1, 9, m, 0).unwrap();
        assert_eq!(review.left(at(5)), Some(300));
        assert_eq!(review.left(at(20)), Some(0));
    }

    #[test]
    fn no_proposal_is_nothing_to_review() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".self")).unwrap();
        assert_eq!(PendingReview::of(&Creature::open(dir.path())), None);
    }
}
