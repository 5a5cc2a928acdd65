//! `.self/relations.jsonl`: the creature's relationship graph, one model per other agent
//! (type, trust, emotional tone, rationale, interactions, first met, notes). Every change
//! is a line: the last per agent is current, the lines are its history. A field a line
//! leaves out keeps its previous value.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::lines::LineCounts;
use crate::memory::json::LineError;
use crate::memory::lenient::{key, lenient_records, read, text};
use crate::memory::op_line::OpRecord;
use crate::memory::recent::Recent;
use crate::memory::time::parse_time;

lenient_records! {
    /// `relation`: a change in how the creature sees `agent` (the fields it leaves out
    /// keep their value).
    #[op = "relation"]
    pub struct RelationLine {
        agent: String,
        relationship_type: String,
        trust_level: f64,
        emotional_tone: String,
        rationale: String,
        interaction_count: u64,
        /// Written `null` when not known.
        #[null]
        first_met_at: String,
        notes: String,
    }
}

/// History lines kept per agent (the newest).
pub const KEPT_HISTORY: usize = 200;
/// Agents kept; past this, new ones are only counted.
pub const KEPT_AGENTS: usize = 10_000;

/// A relationship as one line left it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Relation {
    pub t: Option<DateTime<Utc>>,
    /// `ally`, `rival`, `mentor`, `romantic_partner`, `neutral`, ...
    pub relationship_type: Option<String>,
    /// 0.0..=1.0 as the contract says (other numbers kept as written).
    pub trust_level: Option<f64>,
    pub emotional_tone: Option<String>,
    pub rationale: Option<String>,
    pub interaction_count: Option<u64>,
    pub first_met_at: Option<DateTime<Utc>>,
    pub notes: Option<String>,
    /// 0-based line number.
    pub line: u64,
}

impl Relation {
    /// This relationship after a line at `t`: the fields it names replace, the others
    /// stay.
    fn updated(&self, t: Option<DateTime<Utc>>, line: RelationLine, line_no: u64) -> Self {
        Relation {
            t,
            relationship_type: text(line.relationship_type).or(self.relationship_type.clone()),
            trust_level: line.trust_level.or(self.trust_level),
            emotional_tone: text(line.emotional_tone).or(self.emotional_tone.clone()),
            rationale: text(line.rationale).or(self.rationale.clone()),
            interaction_count: line.interaction_count.or(self.interaction_count),
            first_met_at: self
                .first_met_at
                .or(text(line.first_met_at).and_then(|s| parse_time(&s))),
            notes: text(line.notes).or(self.notes.clone()),
            line: line_no,
        }
    }
}

/// One agent's relationship: now, and how it came to be.
#[derive(Debug, Clone)]
pub struct AgentRelation {
    pub agent: String,
    /// The newest [`KEPT_HISTORY`] states, oldest first; the last is current.
    pub history: Recent<Relation>,
    /// Lines about this agent in all.
    pub changes: u64,
}

impl AgentRelation {
    /// The relationship now.
    pub fn current(&self) -> Option<&Relation> {
        self.history.last()
    }
}

/// The relationship graph folded, by agent.
#[derive(Debug, Clone, Default)]
pub struct Relations {
    by_agent: BTreeMap<String, AgentRelation>,
    /// Agents past [`KEPT_AGENTS`], only counted.
    pub not_kept: u64,
    pub counts: LineCounts,
}

impl Relations {
    /// Folds line `line_no` (0-based): `relation {agent, ...}`; other ops pass through.
    pub fn push(&mut self, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        self.counts.fold(bytes, |line| {
            if line.op != RelationLine::OP {
                return Ok(());
            }
            let record: RelationLine = read(&line.fields);
            let agent = key(record.agent.clone(), "agent")?;
            if !self.by_agent.contains_key(&agent) && self.by_agent.len() >= KEPT_AGENTS {
                self.not_kept += 1;
                return Ok(());
            }
            let entry = self
                .by_agent
                .entry(agent.clone())
                .or_insert_with(|| AgentRelation {
                    agent,
                    history: Recent::new(KEPT_HISTORY),
                    changes: 0,
                });
            let now = entry
                .current()
                .cloned()
                .unwrap_or_default()
                .updated(line.t, record, line_no);
            entry.history.push(now);
            entry.changes += 1;
            Ok(())
        })
    }

    /// Every agent, by name.
    pub fn agents(&self) -> impl ExactSizeIterator<Item = &AgentRelation> {
        self.by_agent.values()
    }

    pub fn get(&self, agent: &str) -> Option<&AgentRelation> {
        self.by_agent.get(agent)
    }

    pub fn len(&self) -> usize {
        self.by_agent.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_agent.is_empty()
    }

    /// Agents per relationship type (`unknown` for none said yet).
    pub fn by_type(&self) -> BTreeMap<String, u64> {
        let mut counts = BTreeMap::new();
        for a in self.by_agent.values() {
            let kind = a
                .current()
                .and_then(|r| r.relationship_type.clone())
                .unwrap_or_else(|| "unknown".to_string());
            *counts.entry(kind).or_default() += 1;
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_line_is_current_and_every_line_history() {
        let mut r = Relations::default();
        let lines = [
            r#"{"t":"2026-11-22T10:00:00Z","op":"relation","agent":"ada","relationship_type":"neutral","trust_level":0.5,"emotional_tone":"curious","rationale":"we just met","interaction_count":1,"first_met_at":"2026-11-22T10:00:00Z","notes":"likes puzzles"}"#,
            r#"{"t":"2026-11-22T11:00:00Z","op":"relation","agent":"ada","interaction_count":2}"#,
            r#"{"t":"2026-11-22T12:00:00Z","op":"relation","agent":"ada","relationship_type":"ally","trust_level":0.8,"rationale":"she kept her word","interaction_count":3,"first_met_at":"2026-11-22T11:59:00Z"}"#,
            r#"{"t":"2026-11-22T12:30:00Z","op":"relation","agent":"creator","relationship_type":"mentor"}"#,
            r#"{"op":"relation","trust_level":0.1}"#,
            r#"{"op":"forget","agent":"ada"}"#,
        ];
        let results: Vec<_> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| r.push(i as u64, l.as_bytes()))
            .collect();
        assert_eq!(results[4], Err(LineError::Missing("agent")));
        let ada = r.get("ada").unwrap();
        assert_eq!(ada.changes, 3);
        let now = ada.current().unwrap();
        assert_eq!(now.relationship_type.as_deref(), Some("ally"));
        assert_eq!(now.trust_level, Some(0.8));
        assert_eq!(now.emotional_tone.as_deref(), Some("curious"));
        assert_eq!(now.notes.as_deref(), Some("likes puzzles"));
        assert_eq!(
            now.first_met_at.map(|t| t.to_rfc3339()),
            Some("2026-11-22T10:00:00+00:00".into())
        );
        let counts: Vec<Option<u64>> = ada
            .history
            .as_slice()
            .iter()
            .map(|h| h.interaction_count)
            .collect();
        assert_eq!(counts, [Some(1), Some(2), Some(3)]);
        assert_eq!(
            ada.history.as_slice()[1].relationship_type.as_deref(),
            Some("neutral")
        );
        assert_eq!(r.by_type()["ally"], 1);
        assert_eq!(r.by_type()["mentor"], 1);
        assert_eq!(r.len(), 2);
    }
}
