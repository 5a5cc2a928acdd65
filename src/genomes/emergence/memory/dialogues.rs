//! `.self/dialogues.jsonl`: what the creature and the other agents said to each other,
//! archived by self-care into a conversation summary (kept, flagged).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::lines::{LineCounts, string_list, text};
use crate::memory::json::LineError;
use crate::memory::keyed::Keyed;

/// Dialogue lines kept (the newest), archived ones included.
pub const KEPT_LINES: usize = 50_000;

/// One thing said.
#[derive(Debug, Clone, PartialEq)]
pub struct Said {
    pub id: String,
    pub t: Option<DateTime<Utc>>,
    /// The other party of the conversation.
    pub with: String,
    /// Who spoke.
    pub from: String,
    pub text: String,
    /// The conversation summary self-care archived it into.
    pub archived: Option<String>,
    /// 1-based: the nth `said` line of the file.
    pub n: u64,
    pub line: u64,
}

/// The dialogues folded.
#[derive(Debug, Clone)]
pub struct Dialogues {
    by_id: Keyed<Said>,
    /// `said` lines in all.
    pub said: u64,
    /// Lines archived (those let go since included).
    pub archived: u64,
    /// Said lines per other party.
    pub per_party: BTreeMap<String, u64>,
    pub counts: LineCounts,
}

impl Default for Dialogues {
    fn default() -> Self {
        Self {
            by_id: Keyed::new(KEPT_LINES),
            said: 0,
            archived: 0,
            per_party: BTreeMap::new(),
            counts: LineCounts::default(),
        }
    }
}

impl Dialogues {
    /// Folds line `line_no` (0-based): `said {id, with, from, text}`, `archive {ids,
    /// summary_id}`; other ops pass through.
    pub fn push(&mut self, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        self.counts.fold(bytes, |line| {
            match line.op.as_str() {
                "said" => {
                    let id = line.key("id")?;
                    let with = line.key("with")?;
                    self.said += 1;
                    *self.per_party.entry(with.clone()).or_default() += 1;
                    let said = Said {
                        id: id.clone(),
                        t: line.t,
                        from: text(line, "from").unwrap_or_else(|| with.clone()),
                        with,
                        text: text(line, "text").unwrap_or_default(),
                        archived: None,
                        n: self.said,
                        line: line_no,
                    };
                    if self
                        .by_id
                        .remove(&id)
                        .is_some_and(|old| old.archived.is_some())
                    {
                        self.archived -= 1;
                    }
                    self.by_id.insert(id, said);
                }
                "archive" => {
                    let summary = line.key("summary_id")?;
                    for id in string_list(line, "ids") {
                        if let Some(s) = self.by_id.get_mut(&id)
                            && s.archived.is_none()
                        {
                            s.archived = Some(summary.clone());
                            self.archived += 1;
                        }
                    }
                }
                _ => {}
            }
            Ok(())
        })
    }

    /// Every line kept, archived ones included, oldest first.
    pub fn all(&self) -> impl DoubleEndedIterator<Item = &Said> + ExactSizeIterator {
        self.by_id.iter()
    }

    pub fn get(&self, id: &str) -> Option<&Said> {
        self.by_id.get(id)
    }

    /// Lines not archived (those let go counted as live).
    pub fn live(&self) -> u64 {
        self.said.saturating_sub(self.archived)
    }

    /// Said lines after the watermark `id` (all of them without one; none when the
    /// watermark is a line not kept, which is older than every kept one).
    pub fn after(&self, watermark: Option<&str>) -> u64 {
        match watermark {
            None => self.said,
            Some(id) => match self.by_id.get(id) {
                Some(mark) => self.said - mark.n,
                None => self.said.min(self.by_id.len() as u64),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn said_archived_and_the_lines_past_a_watermark() {
        let mut d = Dialogues::default();
        let lines = [
            r#"{"t":"2026-11-22T10:00:00Z","op":"said","id":"d1","with":"ada","from":"ada","text":"hello"}"#,
            r#"{"t":"2026-11-22T10:00:05Z","op":"said","id":"d2","with":"ada","from":"bo","text":"hi Ada"}"#,
            r#"{"t":"2026-11-22T10:01:00Z","op":"said","id":"d3","with":"creator","text":"how are you?"}"#,
            r#"{"t":"2026-11-22T11:00:00Z","op":"archive","ids":["d1","d2","d2","d8"],"summary_id":"sum2"}"#,
            r#"{"op":"said","id":"d4","text":"to whom?"}"#,
            r#"{"op":"archive","ids":["d3"]}"#,
        ];
        let results: Vec<_> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| d.push(i as u64, l.as_bytes()))
            .collect();
        assert_eq!(results[4], Err(LineError::Missing("with")));
        assert_eq!(results[5], Err(LineError::Missing("summary_id")));
        assert_eq!((d.said, d.archived, d.live()), (3, 2, 1));
        assert_eq!(d.per_party["ada"], 2);
        assert_eq!(d.get("d3").unwrap().from, "creator");
        assert_eq!(d.get("d1").unwrap().archived.as_deref(), Some("sum2"));
        assert_eq!(d.after(None), 3);
        assert_eq!(d.after(Some("d2")), 1);
        assert_eq!(d.after(Some("d3")), 0);
    }
}
