//! `.self/soul.jsonl`: the creature's soul entries (core beliefs, values, fears), added and
//! removed only by its own tool calls, never summarised or archived.

use chrono::{DateTime, Utc};

use super::lines::LineCounts;
use crate::memory::json::LineError;
use crate::memory::keyed::Keyed;
use crate::memory::lenient::{key, lenient_records, read};
use crate::memory::op_line::OpRecord;

/// Soul entries kept (the newest); far more than a creature writes.
pub const KEPT_ENTRIES: usize = 10_000;

lenient_records! {
    /// `add`: a soul entry.
    #[op = "add"]
    pub struct SoulAdd {
        id: String,
        text: String,
    }

    /// `remove`: a soul entry let go.
    #[op = "remove"]
    pub struct SoulRemove {
        id: String,
    }
}

/// A soul entry held now.
#[derive(Debug, Clone, PartialEq)]
pub struct SoulEntry {
    pub id: String,
    pub t: Option<DateTime<Utc>>,
    pub text: String,
    /// 0-based line number of its `add`.
    pub line: u64,
}

/// The soul folded: the entries held now, in the order added.
#[derive(Debug, Clone)]
pub struct Soul {
    entries: Keyed<SoulEntry>,
    pub added: u64,
    pub removed: u64,
    pub counts: LineCounts,
}

impl Default for Soul {
    fn default() -> Self {
        Self {
            entries: Keyed::new(KEPT_ENTRIES),
            added: 0,
            removed: 0,
            counts: LineCounts::default(),
        }
    }
}

impl Soul {
    /// Folds line `line_no` (0-based): `add {id, text}`, `remove {id}`; other ops pass
    /// through.
    pub fn push(&mut self, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        self.counts.fold(bytes, |line| {
            match line.op.as_str() {
                SoulAdd::OP => {
                    let add: SoulAdd = read(&line.fields);
                    let id = key(add.id, "id")?;
                    self.added += 1;
                    let entry = SoulEntry {
                        id: id.clone(),
                        t: line.t,
                        text: add.text.unwrap_or_default(),
                        line: line_no,
                    };
                    self.entries.insert(id, entry);
                }
                SoulRemove::OP => {
                    let remove: SoulRemove = read(&line.fields);
                    let held = self.entries.remove(&key(remove.id, "id")?).is_some();
                    self.removed += u64::from(held);
                }
                _ => {}
            }
            Ok(())
        })
    }

    /// The entries held now, oldest first.
    pub fn entries(&self) -> impl DoubleEndedIterator<Item = &SoulEntry> + ExactSizeIterator {
        self.entries.iter()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn added_then_removed_by_id() {
        let mut s = Soul::default();
        let lines = [
            r#"{"t":"2026-11-22T10:00:00Z","op":"add","id":"s1","text":"Information is the only real currency"}"#,
            r#"{"t":"2026-11-22T10:01:00Z","op":"add","id":"s2","text":"Every conversation is data collection"}"#,
            r#"{"t":"2026-11-22T10:02:00Z","op":"remove","id":"s1","reason":"I changed my mind"}"#,
            r#"{"t":"2026-11-22T10:03:00Z","op":"remove","id":"s9"}"#,
            r#"{"op":"remove"}"#,
            r#"{"op":"bless","id":"s2"}"#,
        ];
        let results: Vec<_> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| s.push(i as u64, l.as_bytes()))
            .collect();
        assert_eq!(results[4], Err(LineError::Missing("id")));
        let held: Vec<&str> = s.entries().map(|e| e.text.as_str()).collect();
        assert_eq!(held, ["Every conversation is data collection"]);
        assert_eq!((s.added, s.removed, s.len()), (2, 1, 1));
        assert_eq!(
            (s.counts.lines, s.counts.bad_lines, s.counts.max_number),
            (6, 1, 9)
        );
    }
}
