//! `.self/journal.jsonl`: the creature's journal. Entries are added with a heuristic
//! importance, rescored by the model while compacting, consolidated into semantic memory,
//! and pruned when old and unimportant.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::memory::json::LineError;
use crate::memory::keyed::Keyed;
use crate::memory::lenient::{lenient_records, read};
use crate::memory::op_line::{OpLine, OpRecord};

/// Entries kept for the views (the newest); counts cover every line.
pub const KEPT_ENTRIES: usize = 10_000;

/// `source_type` of a reflection's insight.
pub const REFLECTION_SOURCE: &str = "reflection";

lenient_records! {
    /// `add`: a new entry.
    #[op = "add"]
    pub struct JournalAdd {
        id: String,
        text: String,
        tags: Vec<String>,
        /// `observation`, `direct`, `reflection`, `synthesis`, `self`.
        source_type: String,
        source_trust: f64,
        /// Written `null` when the entry comes from no one.
        #[null]
        source_entity: String,
        /// 1..=10 (the Generative Agents scale).
        importance: u32,
        importance_method: ImportanceMethod,
        /// The compaction summary.
        synthesis: bool,
    }

    /// `score`: the model's importance for an entry (compacting phase).
    #[op = "score"]
    pub struct JournalScore {
        id: String,
        importance: u32,
        importance_method: ImportanceMethod,
    }

    /// `consolidated`: the entry went to semantic memory (`memory_id` written `null`:
    /// nothing was extracted).
    #[op = "consolidated"]
    pub struct JournalConsolidated {
        id: String,
        #[null]
        memory_id: String,
    }

    /// `prune`: the entry is removed from the journal.
    #[op = "prune"]
    pub struct JournalPrune {
        id: String,
        reason: String,
    }
}

/// How an importance was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImportanceMethod {
    Heuristic,
    Llm,
    #[serde(untagged)]
    Other(String),
}

impl ImportanceMethod {
    /// The method named `s`.
    pub fn named(s: &str) -> Self {
        match s {
            "heuristic" => ImportanceMethod::Heuristic,
            "llm" => ImportanceMethod::Llm,
            other => ImportanceMethod::Other(other.to_string()),
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            ImportanceMethod::Heuristic => "heuristic",
            ImportanceMethod::Llm => "llm",
            ImportanceMethod::Other(s) => s,
        }
    }
}

/// One line of the journal.
#[derive(Debug, Clone, PartialEq)]
pub enum JournalOp {
    Add(JournalAdd),
    Score(JournalScore),
    Consolidated(JournalConsolidated),
    Prune(JournalPrune),
    /// An op this reader does not know: passed through.
    Other(String),
}

impl JournalOp {
    /// The op of a line; a known op without its `id` is a bad line.
    pub fn parse(line: &OpLine) -> Result<Self, LineError> {
        let op = match line.op.as_str() {
            JournalAdd::OP => JournalOp::Add(read(&line.fields)),
            JournalScore::OP => JournalOp::Score(read(&line.fields)),
            JournalConsolidated::OP => JournalOp::Consolidated(read(&line.fields)),
            JournalPrune::OP => JournalOp::Prune(read(&line.fields)),
            other => return Ok(JournalOp::Other(other.to_string())),
        };
        line.key("id")?;
        Ok(op)
    }
}

/// Where an entry went at consolidation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Consolidation {
    /// Into this semantic memory.
    Into(String),
    /// Nothing was worth extracting.
    Nothing,
}

/// A journal entry as it stands now.
#[derive(Debug, Clone, PartialEq)]
pub struct JournalEntry {
    pub id: String,
    pub t: Option<DateTime<Utc>>,
    pub text: String,
    pub tags: Vec<String>,
    pub source_type: Option<String>,
    pub source_trust: Option<f64>,
    pub source_entity: Option<String>,
    /// The last score, else the importance it was added with.
    pub importance: Option<u32>,
    pub method: Option<ImportanceMethod>,
    /// The importance it was added with, once a score changed it.
    pub added_importance: Option<u32>,
    pub synthesis: bool,
    pub consolidated: Option<Consolidation>,
    /// 0-based numbers of its lines in the file, its `add` first.
    pub lines: Vec<u64>,
}

impl JournalEntry {
    fn new(line_no: u64, t: Option<DateTime<Utc>>, add: JournalAdd) -> Self {
        Self {
            id: add.id.unwrap_or_default(),
            t,
            text: add.text.unwrap_or_default(),
            tags: add.tags.unwrap_or_default(),
            source_type: add.source_type,
            source_trust: add.source_trust,
            source_entity: add.source_entity,
            importance: add.importance,
            method: add.importance_method,
            added_importance: None,
            synthesis: add.synthesis.unwrap_or(false),
            consolidated: None,
            lines: vec![line_no],
        }
    }

    /// Whether its importance counts toward the next reflection: not an insight of a
    /// reflection, not a compaction summary.
    pub fn counts_toward_reflection(&self) -> bool {
        !self.synthesis && self.source_type.as_deref() != Some(REFLECTION_SOURCE)
    }
}

/// The journal folded: its current entries (the newest [`KEPT_ENTRIES`]) and counts.
#[derive(Debug, Clone)]
pub struct Journal {
    entries: Keyed<JournalEntry>,
    pub lines: u64,
    pub bad_lines: u64,
    pub added: u64,
    pub scored: u64,
    pub consolidated: u64,
    pub pruned: u64,
    /// Prune lines of entries not kept (let go, or never added).
    pruned_unknown: u64,
    pub last_t: Option<DateTime<Utc>>,
}

impl Default for Journal {
    fn default() -> Self {
        Self {
            entries: Keyed::new(KEPT_ENTRIES),
            lines: 0,
            bad_lines: 0,
            added: 0,
            scored: 0,
            consolidated: 0,
            pruned: 0,
            pruned_unknown: 0,
            last_t: None,
        }
    }
}

impl Journal {
    /// Folds line `line_no` (0-based).
    pub fn push(&mut self, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        self.lines += 1;
        let parsed = OpLine::parse(bytes).and_then(|l| Ok((l.t, JournalOp::parse(&l)?)));
        let (t, op) = match parsed {
            Ok(p) => p,
            Err(e) => {
                self.bad_lines += 1;
                return Err(e);
            }
        };
        if t.is_some() {
            self.last_t = self.last_t.max(t);
        }
        self.apply(line_no, t, op);
        Ok(())
    }

    /// Applies one op (lines about an entry that is not kept change only the counts).
    pub fn apply(&mut self, line_no: u64, t: Option<DateTime<Utc>>, op: JournalOp) {
        match op {
            JournalOp::Add(add) => {
                self.added += 1;
                let entry = JournalEntry::new(line_no, t, add);
                self.entries.insert(entry.id.clone(), entry);
            }
            JournalOp::Score(score) => {
                self.scored += 1;
                if let Some(e) = self.entry_mut(score.id.as_deref(), line_no) {
                    if e.added_importance.is_none() && e.importance != score.importance {
                        e.added_importance = e.importance;
                    }
                    e.importance = score.importance.or(e.importance);
                    e.method = score.importance_method.or(e.method.take());
                }
            }
            JournalOp::Consolidated(c) => {
                self.consolidated += 1;
                if let Some(e) = self.entry_mut(c.id.as_deref(), line_no) {
                    e.consolidated = Some(match c.memory_id {
                        Some(m) if !m.is_empty() => Consolidation::Into(m),
                        _ => Consolidation::Nothing,
                    });
                }
            }
            JournalOp::Prune(p) => {
                self.pruned += 1;
                if p.id.and_then(|id| self.entries.remove(&id)).is_none() {
                    self.pruned_unknown += 1;
                }
            }
            JournalOp::Other(_) => {}
        }
    }

    fn entry_mut(&mut self, id: Option<&str>, line_no: u64) -> Option<&mut JournalEntry> {
        let e = self.entries.get_mut(id?)?;
        e.lines.push(line_no);
        Some(e)
    }

    /// The current entries kept, oldest first.
    pub fn entries(&self) -> impl DoubleEndedIterator<Item = &JournalEntry> + ExactSizeIterator {
        self.entries.iter()
    }

    /// Current entries, including those not kept.
    pub fn current(&self) -> u64 {
        self.entries.len() as u64 + self.entries.dropped().saturating_sub(self.pruned_unknown)
    }

    /// Entries let go to stay within [`KEPT_ENTRIES`].
    pub fn not_kept(&self) -> u64 {
        self.entries.dropped()
    }

    /// The sum of the current importance of the entries added after `since` (all when
    /// `None`; an entry without a time counts), insights and summaries left out.
    pub fn importance_since(&self, since: Option<DateTime<Utc>>) -> u64 {
        self.entries
            .iter()
            .filter(|e| e.counts_toward_reflection())
            .filter(|e| match (since, e.t) {
                (Some(since), Some(t)) => t > since,
                _ => true,
            })
            .map(|e| u64::from(e.importance.unwrap_or(0)))
            .sum()
    }

    /// Current entries by the method of their importance: (heuristic, llm).
    pub fn by_method(&self) -> (u64, u64) {
        self.entries
            .iter()
            .fold((0, 0), |(h, l), e| match e.method {
                Some(ImportanceMethod::Llm) => (h, l + 1),
                Some(ImportanceMethod::Heuristic) => (h + 1, l),
                _ => (h, l),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fold(lines: &[&str]) -> (Journal, Vec<Result<(), LineError>>) {
        let mut j = Journal::default();
        let results = lines
            .iter()
            .enumerate()
            .map(|(i, l)| j.push(i as u64, l.as_bytes()))
            .collect();
        (j, results)
    }

    const ADD: &str = r#"{"t":"2026-11-22T10:00:00Z","op":"add","id":"j1","text":"The tavern is north.","tags":["tavern"],"source_type":"observation","source_trust":0.8,"source_entity":"creator","importance":6,"importance_method":"heuristic","synthesis":false}"#;

    #[test]
    fn every_op() {
        let (j, results) = fold(&[
            ADD,
            r#"{"t":"2026-11-22T10:01:00Z","op":"add","id":"j2","text":"low","importance":2,"importance_method":"heuristic","source_entity":null}"#,
            r#"{"t":"2026-11-22T11:00:00Z","op":"score","id":"j1","importance":8,"importance_method":"llm"}"#,
            r#"{"t":"2026-11-22T11:01:00Z","op":"consolidated","id":"j1","memory_id":"m3"}"#,
            r#"{"t":"2026-11-22T11:02:00Z","op":"consolidated","id":"j2","memory_id":null}"#,
            r#"{"t":"2026-11-22T11:03:00Z","op":"prune","id":"j2","reason":"low importance (2) and older than 48h"}"#,
        ]);
        assert!(results.iter().all(Result::is_ok));
        let entries: Vec<&JournalEntry> = j.entries().collect();
        assert_eq!(entries.len(), 1);
        let e = entries[0];
        assert_eq!(e.text, "The tavern is north.");
        assert_eq!(e.tags, ["tavern"]);
        assert_eq!(e.source_type.as_deref(), Some("observation"));
        assert_eq!(e.source_trust, Some(0.8));
        assert_eq!(e.source_entity.as_deref(), Some("creator"));
        assert_eq!((e.importance, e.added_importance), (Some(8), Some(6)));
        assert_eq!(e.method, Some(ImportanceMethod::Llm));
        assert_eq!(e.consolidated, Some(Consolidation::Into("m3".into())));
        assert_eq!(e.lines, [0, 2, 3]);
        assert_eq!((j.added, j.scored, j.consolidated, j.pruned), (2, 1, 2, 1));
        assert_eq!(j.current(), 1);
        assert_eq!(j.by_method(), (0, 1));
        assert_eq!(
            j.last_t.map(|t| t.to_rfc3339()),
            Some("2026-11-22T11:03:00+00:00".into())
        );
    }

    #[test]
    fn bad_lines_are_counted_and_unknown_ops_pass() {
        let (j, results) = fold(&[
            "not json",
            r#"{"op":"add","text":"no id"}"#,
            r#"{"op":"score","id":"j9","importance":3}"#,
            r#"{"op":"annotate","id":"j1","note":"later format"}"#,
            r#"{"t":"x","op":"add","id":"j3","importance":"high","tags":"one"}"#,
        ]);
        assert!(results[0].is_err());
        assert_eq!(results[1], Err(LineError::Missing("id")));
        assert!(results[2..].iter().all(Result::is_ok));
        assert_eq!((j.lines, j.bad_lines), (5, 2));
        // An odd field reads as missing; the entry is still there.
        let e = j.entries().next().unwrap();
        assert_eq!((e.id.as_str(), e.importance, e.t), ("j3", None, None));
        assert!(e.tags.is_empty());
    }

    #[test]
    fn importance_since_a_reflection_leaves_out_insights_and_summaries() {
        let (j, _) = fold(&[
            r#"{"t":"2026-11-22T09:00:00Z","op":"add","id":"j1","importance":9}"#,
            r#"{"t":"2026-11-22T10:00:00Z","op":"add","id":"j2","importance":4}"#,
            r#"{"t":"2026-11-22T10:00:01Z","op":"add","id":"j3","importance":9,"source_type":"reflection"}"#,
            r#"{"t":"2026-11-22T10:00:02Z","op":"add","id":"j4","importance":7,"source_type":"synthesis","synthesis":true}"#,
            r#"{"op":"add","id":"j5","importance":1}"#,
            r#"{"t":"2026-11-22T10:30:00Z","op":"score","id":"j2","importance":5,"importance_method":"llm"}"#,
        ]);
        assert_eq!(j.importance_since(None), 9 + 5 + 1);
        let reflected = "2026-11-22T09:30:00Z".parse().ok();
        assert_eq!(j.importance_since(reflected), 5 + 1);
    }

    #[test]
    fn only_the_newest_entries_are_kept_but_all_are_counted() {
        let mut j = Journal::default();
        for i in 0..(KEPT_ENTRIES as u64 + 5) {
            let line = format!(r#"{{"op":"add","id":"j{i}","importance":1}}"#);
            j.push(i, line.as_bytes()).unwrap();
        }
        assert_eq!(j.entries().len(), KEPT_ENTRIES);
        assert_eq!((j.current(), j.not_kept()), (KEPT_ENTRIES as u64 + 5, 5));
        j.push(0, br#"{"op":"prune","id":"j0"}"#).unwrap();
        assert_eq!((j.pruned, j.current()), (1, KEPT_ENTRIES as u64 + 4));
    }
}
