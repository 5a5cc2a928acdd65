//! `.self/longterm.jsonl`: long-term memories stored by the creature's tool calls,
//! archived by self-care into a summary (still kept and searchable), copied from another
//! creature by a neural link, and the neural links themselves.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::lines::{Archive, LineCounts};
use crate::memory::json::LineError;
use crate::memory::keyed::Keyed;
use crate::memory::lenient::{key, lenient_records, read, text};
use crate::memory::op_line::{OpLine, OpRecord};
use crate::memory::recent::Recent;

/// Memories kept (the newest), archived ones included; every line is counted.
pub const KEPT_MEMORIES: usize = 50_000;
/// Neural-link lines kept (the newest).
pub const KEPT_LINKS: usize = 200;

lenient_records! {
    /// `add`: a memory, stored by the creature or copied by a neural link.
    #[op = "add"]
    pub struct LongTermAdd {
        id: String,
        text: String,
        /// The agent a neural link copied it from.
        from: String,
        /// Its id in that agent's file.
        origin: String,
    }

    /// `neural_link`: this creature's part in a neural link.
    #[op = "neural_link"]
    pub struct NeuralLinkLine {
        agent: String,
        role: LinkRole,
        /// Memories copied (received or shared).
        memories: u64,
        /// Summaries copied.
        summaries: u64,
    }
}

/// A long-term memory as it stands now.
#[derive(Debug, Clone, PartialEq)]
pub struct LongTermMemory {
    pub id: String,
    pub t: Option<DateTime<Utc>>,
    pub text: String,
    /// The agent a neural link copied it from.
    pub from: Option<String>,
    /// Its id in that agent's file.
    pub origin: Option<String>,
    /// The summary self-care archived it into.
    pub archived: Option<String>,
    pub archived_at: Option<DateTime<Utc>>,
    /// 0-based line number of its `add`.
    pub line: u64,
}

/// A neural link's part as one creature's file records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LinkRole {
    /// This creature asked the other for its memory bank.
    Requested,
    /// The other accepted: its memory bank was copied here.
    Received,
    /// This creature accepted: its memory bank was copied to the other.
    Shared,
    /// The 2-minute window passed without an accept.
    Expired,
}

impl LinkRole {
    pub fn as_str(self) -> &'static str {
        match self {
            LinkRole::Requested => "requested",
            LinkRole::Received => "received",
            LinkRole::Shared => "shared",
            LinkRole::Expired => "expired",
        }
    }
}

/// A `neural_link` line.
#[derive(Debug, Clone, PartialEq)]
pub struct NeuralLink {
    pub t: Option<DateTime<Utc>>,
    pub agent: String,
    pub role: LinkRole,
    pub memories: Option<u64>,
    pub summaries: Option<u64>,
}

/// The long-term memories folded.
#[derive(Debug, Clone)]
pub struct LongTerm {
    memories: Keyed<LongTermMemory>,
    links: Recent<NeuralLink>,
    pub added: u64,
    /// Memories added by a neural link (with `from`).
    pub copied: u64,
    /// Memories archived (those let go since included).
    pub archived: u64,
    /// Archive lines naming ids not kept (let go, or never added).
    pub archived_unknown: u64,
    pub neural_links: u64,
    pub counts: LineCounts,
}

impl Default for LongTerm {
    fn default() -> Self {
        Self {
            memories: Keyed::new(KEPT_MEMORIES),
            links: Recent::new(KEPT_LINKS),
            added: 0,
            copied: 0,
            archived: 0,
            archived_unknown: 0,
            neural_links: 0,
            counts: LineCounts::default(),
        }
    }
}

impl LongTerm {
    /// Folds line `line_no` (0-based): `add`, `archive`, `neural_link`; other ops pass
    /// through.
    pub fn push(&mut self, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        self.counts.fold(bytes, |line| match line.op.as_str() {
            LongTermAdd::OP => {
                let add: LongTermAdd = read(&line.fields);
                let id = key(add.id, "id")?;
                let memory = LongTermMemory {
                    id: id.clone(),
                    t: line.t,
                    text: add.text.unwrap_or_default(),
                    from: text(add.from),
                    origin: text(add.origin),
                    archived: None,
                    archived_at: None,
                    line: line_no,
                };
                self.added += 1;
                self.copied += u64::from(memory.from.is_some());
                if let Some(old) = self.memories.remove(&id) {
                    self.archived -= u64::from(old.archived.is_some());
                }
                self.memories.insert(id, memory);
                Ok(())
            }
            Archive::OP => {
                let archive: Archive = read(&line.fields);
                let summary = key(archive.summary_id, "summary_id")?;
                for id in archive.ids.unwrap_or_default().0 {
                    match self.memories.get_mut(&id) {
                        Some(m) => {
                            self.archived += u64::from(m.archived.is_none());
                            m.archived = Some(summary.clone());
                            m.archived_at = line.t;
                        }
                        None => self.archived_unknown += 1,
                    }
                }
                Ok(())
            }
            NeuralLinkLine::OP => {
                let link = neural_link(line)?;
                self.neural_links += 1;
                self.links.push(link);
                Ok(())
            }
            _ => Ok(()),
        })
    }

    /// Every memory kept, archived ones included, oldest first.
    pub fn all(&self) -> impl DoubleEndedIterator<Item = &LongTermMemory> + ExactSizeIterator {
        self.memories.iter()
    }

    /// The memories not archived, oldest first (what self-care would summarise).
    pub fn current(&self) -> impl DoubleEndedIterator<Item = &LongTermMemory> {
        self.memories.iter().filter(|m| m.archived.is_none())
    }

    pub fn get(&self, id: &str) -> Option<&LongTermMemory> {
        self.memories.get(id)
    }

    /// Memories not archived, counting those let go.
    pub fn current_count(&self) -> u64 {
        (self.memories.len() as u64 + self.memories.dropped()).saturating_sub(self.archived)
    }

    /// The newest neural-link lines, oldest first.
    pub fn links(&self) -> &[NeuralLink] {
        self.links.as_slice()
    }
}

fn neural_link(line: &OpLine) -> Result<NeuralLink, LineError> {
    let link: NeuralLinkLine = read(&line.fields);
    let agent = key(link.agent, "agent")?;
    let role = link.role.ok_or(LineError::Missing("role"))?;
    Ok(NeuralLink {
        t: line.t,
        agent,
        role,
        memories: link.memories,
        summaries: link.summaries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fold(lines: &[&str]) -> (LongTerm, Vec<Result<(), LineError>>) {
        let mut l = LongTerm::default();
        let results = lines
            .iter()
            .enumerate()
            .map(|(i, line)| l.push(i as u64, line.as_bytes()))
            .collect();
        (l, results)
    }

    #[test]
    fn added_archived_copied_and_linked() {
        let (l, results) = fold(&[
            r#"{"t":"2026-11-22T10:00:00Z","op":"add","id":"m1","text":"Ada keeps her promises"}"#,
            r#"{"t":"2026-11-22T10:01:00Z","op":"add","id":"m2","text":"the well is dry"}"#,
            r#"{"t":"2026-11-22T10:02:00Z","op":"add","id":"m3","text":"Bo likes bread","from":"ada","origin":"m9"}"#,
            r#"{"t":"2026-11-22T10:03:00Z","op":"archive","ids":["m1","m2","m7"],"summary_id":"sum1"}"#,
            r#"{"t":"2026-11-22T10:04:00Z","op":"neural_link","agent":"ada","role":"received","memories":1,"summaries":0}"#,
            r#"{"op":"archive","ids":["m3"]}"#,
            r#"{"op":"neural_link","agent":"ada","role":"stolen"}"#,
            r#"{"op":"forget","id":"m3"}"#,
        ]);
        assert_eq!(results[5], Err(LineError::Missing("summary_id")));
        assert_eq!(results[6], Err(LineError::Missing("role")));
        assert!(results[7].is_ok());
        assert_eq!(
            (l.added, l.copied, l.archived, l.archived_unknown),
            (3, 1, 2, 1)
        );
        assert_eq!(l.current_count(), 1);
        let current: Vec<&str> = l.current().map(|m| m.id.as_str()).collect();
        assert_eq!(current, ["m3"]);
        assert_eq!(l.get("m1").unwrap().archived.as_deref(), Some("sum1"));
        assert_eq!(l.get("m3").unwrap().from.as_deref(), Some("ada"));
        assert_eq!(l.links()[0].role, LinkRole::Received);
        assert_eq!(l.links()[0].memories, Some(1));
        assert_eq!(l.counts.bad_lines, 2);
    }
}
