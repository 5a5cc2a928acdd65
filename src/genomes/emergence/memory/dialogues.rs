//! `.self/dialogues.jsonl`: what the creature and the other agents said to each other,
//! archived by self-care into a conversation summary (kept, flagged).
//!
//! Bounded whatever the file holds: the newest [`KEPT_LINES`] lines are kept, each with
//! at most [`KEPT_TEXT`] characters of its text and [`KEPT_NAME`] of a name; lines are
//! counted per partner for the first [`KEPT_PARTIES`] partners, the lines with any other
//! counted together ([`Dialogues::other_parties`]).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::lines::{Archive, LineCounts};
use crate::memory::json::LineError;
use crate::memory::keyed::Keyed;
use crate::memory::lenient::{key, lenient_records, read, text};
use crate::memory::op_line::OpRecord;

lenient_records! {
    /// `said`: one thing said in a conversation with another agent.
    #[op = "said"]
    pub struct SaidLine {
        id: String,
        /// The other party of the conversation.
        with: String,
        /// Who spoke (the other party when left out).
        from: String,
        text: String,
    }
}

/// Dialogue lines kept (the newest), archived ones included.
pub const KEPT_LINES: usize = 50_000;

/// Characters of a line's text kept (the rest is cut, marked `…`).
pub const KEPT_TEXT: usize = 1_000;

/// Characters of a partner's or a speaker's name kept.
pub const KEPT_NAME: usize = 100;

/// Partners whose lines are counted one by one (the first met).
pub const KEPT_PARTIES: usize = 1_000;

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
    /// Said lines per other party (the first [`KEPT_PARTIES`] met).
    pub per_party: BTreeMap<String, u64>,
    /// Said lines with the parties past those.
    pub other_parties: u64,
    pub counts: LineCounts,
}

/// `s` cut to `max` characters, marked `…` when cut.
fn cut(mut s: String, max: usize) -> String {
    if let Some((at, _)) = s.char_indices().nth(max) {
        s.truncate(at);
        s.push('…');
    }
    s
}

impl Default for Dialogues {
    fn default() -> Self {
        Self {
            by_id: Keyed::new(KEPT_LINES),
            said: 0,
            archived: 0,
            per_party: BTreeMap::new(),
            other_parties: 0,
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
                SaidLine::OP => {
                    let said: SaidLine = read(&line.fields);
                    let id = key(said.id, "id")?;
                    let with = cut(key(said.with, "with")?, KEPT_NAME);
                    self.said += 1;
                    if let Some(n) = self.per_party.get_mut(&with) {
                        *n += 1;
                    } else if self.per_party.len() < KEPT_PARTIES {
                        self.per_party.insert(with.clone(), 1);
                    } else {
                        self.other_parties += 1;
                    }
                    let said = Said {
                        id: id.clone(),
                        t: line.t,
                        from: text(said.from).map_or_else(|| with.clone(), |f| cut(f, KEPT_NAME)),
                        with,
                        text: cut(said.text.unwrap_or_default(), KEPT_TEXT),
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
                Archive::OP => {
                    let archive: Archive = read(&line.fields);
                    let summary = key(archive.summary_id, "summary_id")?;
                    for id in archive.ids.unwrap_or_default().0 {
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

    #[test]
    fn partners_and_texts_are_bounded_and_the_rest_counted() {
        let mut d = Dialogues::default();
        let long = "x".repeat(5 * KEPT_TEXT);
        let n = KEPT_PARTIES as u64 + 500;
        for i in 0..n {
            let line = format!(
                r#"{{"op":"said","id":"d{i}","with":"partner-{i}-{long}","text":"{long}"}}"#
            );
            d.push(i, line.as_bytes()).unwrap();
        }
        assert_eq!(d.said, n);
        assert_eq!(d.per_party.len(), KEPT_PARTIES);
        assert_eq!(d.other_parties, 500);
        assert_eq!(d.per_party.values().sum::<u64>() + d.other_parties, n);
        let last = d.get(&format!("d{}", n - 1)).unwrap();
        assert_eq!(last.text.chars().count(), KEPT_TEXT + 1);
        assert!(last.text.ends_with('…'));
        assert_eq!(last.with.chars().count(), KEPT_NAME + 1);
        assert!(
            d.per_party
                .keys()
                .all(|k| k.chars().count() <= KEPT_NAME + 1)
        );
    }
}
