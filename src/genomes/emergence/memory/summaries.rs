//! `.self/summaries.jsonl`: what self-care wrote: summaries of long-term memories around
//! the focus the creature chose, and recursive summaries of its dialogues, each folding the
//! earlier ones in, up to a watermark so nothing is summarised twice.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::lines::LineCounts;
use crate::memory::json::LineError;
use crate::memory::keyed::Keyed;
use crate::memory::lenient::{Strings, key, lenient_records, read, text};
use crate::memory::op_line::OpRecord;

/// Summaries kept (the newest).
pub const KEPT_SUMMARIES: usize = 10_000;

lenient_records! {
    /// `summary`: what self-care wrote, or a summary copied by a neural link.
    #[op = "summary"]
    pub struct SummaryLine {
        id: String,
        kind: SummaryKind,
        focus: String,
        text: String,
        /// Long-term ids or dialogue ids it summarised.
        covers: Strings,
        /// Earlier summaries re-summarised into it.
        folded: Strings,
        /// The last dialogue id it summarised (written `null` when none).
        #[null]
        watermark: String,
        /// The agent a neural link copied it from.
        from: String,
        /// Its id in that agent's file.
        origin: String,
    }
}

/// What a summary summarised.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SummaryKind {
    Memories,
    Conversations,
    #[serde(untagged)]
    Other(String),
}

impl SummaryKind {
    pub fn as_str(&self) -> &str {
        match self {
            SummaryKind::Memories => "memories",
            SummaryKind::Conversations => "conversations",
            SummaryKind::Other(s) => s,
        }
    }
}

/// A summary.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub id: String,
    pub t: Option<DateTime<Utc>>,
    pub kind: SummaryKind,
    pub focus: Option<String>,
    pub text: String,
    /// Long-term ids or dialogue ids it summarised.
    pub covers: Vec<String>,
    /// Earlier summaries re-summarised into it.
    pub folded: Vec<String>,
    /// The last dialogue id it summarised (conversations).
    pub watermark: Option<String>,
    /// The later summary this one was folded into.
    pub folded_into: Option<String>,
    /// The agent a neural link copied it from.
    pub from: Option<String>,
    pub line: u64,
}

/// The summaries folded.
#[derive(Debug, Clone)]
pub struct Summaries {
    by_id: Keyed<Summary>,
    pub memories: u64,
    pub conversations: u64,
    /// The watermark of the last conversations summary of this creature's own.
    pub watermark: Option<String>,
    /// The id of the last conversations summary of its own (the one the next folds in).
    pub last_conversations: Option<String>,
    pub counts: LineCounts,
}

impl Default for Summaries {
    fn default() -> Self {
        Self {
            by_id: Keyed::new(KEPT_SUMMARIES),
            memories: 0,
            conversations: 0,
            watermark: None,
            last_conversations: None,
            counts: LineCounts::default(),
        }
    }
}

impl Summaries {
    /// Folds line `line_no` (0-based): `summary`; other ops pass through.
    pub fn push(&mut self, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        self.counts.fold(bytes, |line| {
            if line.op != SummaryLine::OP {
                return Ok(());
            }
            let record: SummaryLine = read(&line.fields);
            let id = key(record.id, "id")?;
            let summary = Summary {
                id: id.clone(),
                t: line.t,
                kind: record
                    .kind
                    .unwrap_or_else(|| SummaryKind::Other(String::new())),
                focus: text(record.focus),
                text: record.text.unwrap_or_default(),
                covers: record.covers.unwrap_or_default().0,
                folded: record.folded.unwrap_or_default().0,
                watermark: text(record.watermark),
                folded_into: None,
                from: text(record.from),
                line: line_no,
            };
            match summary.kind {
                SummaryKind::Memories => self.memories += 1,
                SummaryKind::Conversations => self.conversations += 1,
                SummaryKind::Other(_) => {}
            }
            if summary.kind == SummaryKind::Conversations && summary.from.is_none() {
                self.watermark = summary.watermark.clone().or(self.watermark.take());
                self.last_conversations = Some(id.clone());
            }
            for earlier in &summary.folded {
                if let Some(s) = self.by_id.get_mut(earlier) {
                    s.folded_into = Some(id.clone());
                }
            }
            self.by_id.insert(id, summary);
            Ok(())
        })
    }

    /// Every summary kept, oldest first.
    pub fn all(&self) -> impl DoubleEndedIterator<Item = &Summary> + ExactSizeIterator {
        self.by_id.iter()
    }

    pub fn get(&self, id: &str) -> Option<&Summary> {
        self.by_id.get(id)
    }

    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recursive_conversation_summaries_and_the_watermark() {
        let mut s = Summaries::default();
        let lines = [
            r#"{"t":"2026-11-22T10:00:00Z","op":"summary","id":"sum1","kind":"memories","focus":"Ada","text":"Ada is reliable","covers":["m1","m2"],"folded":[],"watermark":null}"#,
            r#"{"t":"2026-11-22T10:00:01Z","op":"summary","id":"sum2","kind":"conversations","text":"we met","covers":["d1","d2"],"folded":[],"watermark":"d2"}"#,
            r#"{"t":"2026-11-22T10:00:02Z","op":"summary","id":"sum3","kind":"memories","text":"copied","from":"ada"}"#,
            r#"{"t":"2026-11-23T10:00:00Z","op":"summary","id":"sum4","kind":"conversations","text":"we met, then argued","covers":["d3"],"folded":["sum2"],"watermark":"d3"}"#,
            r#"{"t":"2026-11-23T10:00:01Z","op":"summary","id":"sum5","kind":"conversations","text":"ada's","from":"ada","watermark":"d99"}"#,
            r#"{"op":"summary","kind":"memories"}"#,
            r#"{"op":"resummarise","id":"sum1"}"#,
        ];
        let results: Vec<_> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| s.push(i as u64, l.as_bytes()))
            .collect();
        assert_eq!(results[5], Err(LineError::Missing("id")));
        assert_eq!((s.memories, s.conversations, s.len()), (2, 3, 5));
        assert_eq!(s.watermark.as_deref(), Some("d3"));
        assert_eq!(s.last_conversations.as_deref(), Some("sum4"));
        assert_eq!(s.get("sum2").unwrap().folded_into.as_deref(), Some("sum4"));
        assert_eq!(s.get("sum1").unwrap().covers, ["m1", "m2"]);
        assert_eq!(s.get("sum1").unwrap().focus.as_deref(), Some("Ada"));
        assert_eq!(s.get("sum4").unwrap().folded_into, None);
    }
}
