//! `.self/entities.jsonl`: entity profiles (O-Mem). Raw observations (Pf), consolidated
//! attributes (Pa), and the relationship: favorability, its state at the Dunbar
//! thresholds, interactions. Every relationship line is kept on disk: the lines of an
//! entity are its relationship history.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;

use crate::memory::json::LineError;
use crate::memory::lenient::{lenient_records, read};
use crate::memory::op_line::{OpLine, OpRecord};
use crate::memory::recent::Recent;

/// Raw observations kept per entity (the newest).
pub const KEPT_OBSERVATIONS: usize = 50;
/// Relationship lines kept per entity (the newest).
pub const KEPT_HISTORY: usize = 200;
/// Entities kept; past this, new ones are only counted.
pub const KEPT_ENTITIES: usize = 10_000;

lenient_records! {
    /// `observe`: a raw observation of an entity (Pf).
    #[op = "observe"]
    pub struct EntityObserve {
        entity_id: String,
        /// `creator`, `creature`, `player`, `npc`, `object`.
        entity_type: String,
        text: String,
    }

    /// `consolidate`: the entity's attributes now (Pa), from the observations so far.
    #[op = "consolidate"]
    pub struct EntityConsolidate {
        entity_id: String,
        attributes: serde_json::Map<String, Value>,
    }

    /// `relationship`: where the relationship stands after an interaction.
    #[op = "relationship"]
    pub struct EntityRelationship {
        entity_id: String,
        favorability: f64,
        state: String,
        interaction_count: u64,
        reason: String,
    }
}

/// One line of the entities file.
#[derive(Debug, Clone, PartialEq)]
pub enum EntityOp {
    Observe(EntityObserve),
    Consolidate(EntityConsolidate),
    Relationship(EntityRelationship),
    Other(String),
}

impl EntityOp {
    /// The op of a line; a known op without its `entity_id` is a bad line.
    pub fn parse(line: &OpLine) -> Result<Self, LineError> {
        let op = match line.op.as_str() {
            EntityObserve::OP => EntityOp::Observe(read(&line.fields)),
            EntityConsolidate::OP => EntityOp::Consolidate(read(&line.fields)),
            EntityRelationship::OP => EntityOp::Relationship(read(&line.fields)),
            other => return Ok(EntityOp::Other(other.to_string())),
        };
        line.key("entity_id")?;
        Ok(op)
    }
}

/// A relationship's state (Dunbar): stranger < 0.25 <= acquaintance < 0.50 <= friend <
/// 0.75 <= ally.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RelationshipState {
    Stranger,
    Acquaintance,
    Friend,
    Ally,
}

impl RelationshipState {
    pub const ALL: [RelationshipState; 4] = [
        RelationshipState::Stranger,
        RelationshipState::Acquaintance,
        RelationshipState::Friend,
        RelationshipState::Ally,
    ];

    /// The state a favorability falls in.
    pub fn of_favorability(favorability: f64) -> Self {
        if favorability >= 0.75 {
            RelationshipState::Ally
        } else if favorability >= 0.50 {
            RelationshipState::Friend
        } else if favorability >= 0.25 {
            RelationshipState::Acquaintance
        } else {
            RelationshipState::Stranger
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|state| state.as_str() == s)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RelationshipState::Stranger => "stranger",
            RelationshipState::Acquaintance => "acquaintance",
            RelationshipState::Friend => "friend",
            RelationshipState::Ally => "ally",
        }
    }
}

/// One raw observation.
#[derive(Debug, Clone, PartialEq)]
pub struct EntityObservation {
    pub t: Option<DateTime<Utc>>,
    pub text: String,
    /// 1-based: the entity's nth observation.
    pub n: u64,
    /// 0-based line number in the file.
    pub line: u64,
}

/// One relationship line: the relationship after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Relationship {
    pub t: Option<DateTime<Utc>>,
    pub favorability: Option<f64>,
    /// As written, else from the favorability.
    pub state: RelationshipState,
    pub interaction_count: Option<u64>,
    pub reason: Option<String>,
    pub line: u64,
}

/// An entity's profile.
#[derive(Debug, Clone)]
pub struct Entity {
    pub id: String,
    pub entity_type: Option<String>,
    /// The newest [`KEPT_OBSERVATIONS`] raw observations, oldest first.
    pub observations: Recent<EntityObservation>,
    /// Observations in all.
    pub observed: u64,
    /// Observations consolidated into the attributes (those up to the last `consolidate`).
    pub consolidated: u64,
    /// Attributes (Pa) as the last `consolidate` wrote them; values that are not strings
    /// as JSON text.
    pub attributes: BTreeMap<String, String>,
    pub consolidated_at: Option<DateTime<Utc>>,
    /// The newest [`KEPT_HISTORY`] relationship lines, oldest first; the last is current.
    pub history: Recent<Relationship>,
    /// Relationship lines in all.
    pub relationship_lines: u64,
    /// The consolidate line, if kept.
    pub consolidate_line: Option<u64>,
}

impl Entity {
    fn new(id: String) -> Self {
        Self {
            id,
            entity_type: None,
            observations: Recent::new(KEPT_OBSERVATIONS),
            observed: 0,
            consolidated: 0,
            attributes: BTreeMap::new(),
            consolidated_at: None,
            history: Recent::new(KEPT_HISTORY),
            relationship_lines: 0,
            consolidate_line: None,
        }
    }

    /// The relationship now, if any line said.
    pub fn relationship(&self) -> Option<&Relationship> {
        self.history.last()
    }

    /// Whether line `line` (0-based) is one of the lines kept for this entity.
    pub fn has_line(&self, line: u64) -> bool {
        self.consolidate_line == Some(line)
            || self.observations.as_slice().iter().any(|o| o.line == line)
            || self.history.as_slice().iter().any(|r| r.line == line)
    }
}

/// The entities folded, by id.
#[derive(Debug, Clone, Default)]
pub struct Entities {
    by_id: BTreeMap<String, Entity>,
    pub lines: u64,
    pub bad_lines: u64,
    /// Entities past [`KEPT_ENTITIES`], only counted.
    pub not_kept: u64,
    pub last_t: Option<DateTime<Utc>>,
}

impl Entities {
    /// Folds line `line_no` (0-based).
    pub fn push(&mut self, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        self.lines += 1;
        let result = OpLine::parse(bytes)
            .and_then(|l| Ok((l.t, EntityOp::parse(&l)?)))
            .and_then(|(t, op)| self.apply(line_no, t, op));
        if result.is_err() {
            self.bad_lines += 1;
        }
        result
    }

    /// Applies one op; a relationship line with neither a known state nor a
    /// favorability says nothing and is a bad line.
    pub fn apply(
        &mut self,
        line_no: u64,
        t: Option<DateTime<Utc>>,
        op: EntityOp,
    ) -> Result<(), LineError> {
        let id = match &op {
            EntityOp::Observe(o) => o.entity_id.clone(),
            EntityOp::Consolidate(c) => c.entity_id.clone(),
            EntityOp::Relationship(r) => r.entity_id.clone(),
            EntityOp::Other(_) => return Ok(()),
        };
        let state = match &op {
            EntityOp::Relationship(r) => Some(
                r.state
                    .as_deref()
                    .and_then(RelationshipState::parse)
                    .or(r.favorability.map(RelationshipState::of_favorability))
                    .ok_or(LineError::Missing("favorability"))?,
            ),
            _ => None,
        };
        if t.is_some() {
            self.last_t = self.last_t.max(t);
        }
        let Some(entity) = self.entity(id.unwrap_or_default()) else {
            return Ok(());
        };
        match op {
            EntityOp::Observe(o) => {
                entity.observed += 1;
                if o.entity_type.is_some() {
                    entity.entity_type = o.entity_type;
                }
                entity.observations.push(EntityObservation {
                    t,
                    text: o.text.unwrap_or_default(),
                    n: entity.observed,
                    line: line_no,
                });
            }
            EntityOp::Consolidate(c) => {
                entity.consolidated = entity.observed;
                entity.consolidated_at = t;
                entity.consolidate_line = Some(line_no);
                entity.attributes = c
                    .attributes
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(k, v)| match v {
                        Value::String(s) => (k, s),
                        other => (k, other.to_string()),
                    })
                    .collect();
            }
            EntityOp::Relationship(r) => {
                entity.relationship_lines += 1;
                entity.history.push(Relationship {
                    t,
                    favorability: r.favorability,
                    state: state.unwrap_or(RelationshipState::Stranger),
                    interaction_count: r.interaction_count,
                    reason: r.reason,
                    line: line_no,
                });
            }
            EntityOp::Other(_) => {}
        }
        Ok(())
    }

    /// The entity `id`, created when new (`None` past [`KEPT_ENTITIES`]).
    fn entity(&mut self, id: String) -> Option<&mut Entity> {
        if !self.by_id.contains_key(&id) && self.by_id.len() >= KEPT_ENTITIES {
            self.not_kept += 1;
            return None;
        }
        Some(
            self.by_id
                .entry(id.clone())
                .or_insert_with(|| Entity::new(id)),
        )
    }

    /// Every entity kept, by id.
    pub fn all(&self) -> impl ExactSizeIterator<Item = &Entity> {
        self.by_id.values()
    }

    pub fn get(&self, id: &str) -> Option<&Entity> {
        self.by_id.get(id)
    }

    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// Entities kept that no relationship line speaks of yet.
    pub fn without_relationship(&self) -> u64 {
        self.by_id
            .values()
            .filter(|e| e.relationship().is_none())
            .count() as u64
    }

    /// Entities per relationship state (those without a relationship line are left out).
    pub fn by_state(&self) -> BTreeMap<RelationshipState, u64> {
        let mut counts: BTreeMap<RelationshipState, u64> =
            RelationshipState::ALL.iter().map(|s| (*s, 0)).collect();
        for e in self.by_id.values() {
            if let Some(r) = e.relationship() {
                *counts.entry(r.state).or_default() += 1;
            }
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fold(lines: &[&str]) -> (Entities, Vec<Result<(), LineError>>) {
        let mut e = Entities::default();
        let results = lines
            .iter()
            .enumerate()
            .map(|(i, l)| e.push(i as u64, l.as_bytes()))
            .collect();
        (e, results)
    }

    #[test]
    fn states_at_the_dunbar_thresholds() {
        use RelationshipState::*;
        for (f, state) in [
            (0.0, Stranger),
            (0.2499, Stranger),
            (0.25, Acquaintance),
            (0.4999, Acquaintance),
            (0.50, Friend),
            (0.7499, Friend),
            (0.75, Ally),
            (1.0, Ally),
        ] {
            assert_eq!(RelationshipState::of_favorability(f), state, "{f}");
        }
        assert_eq!(RelationshipState::parse("friend"), Some(Friend));
        assert_eq!(RelationshipState::parse("enemy"), None);
    }

    #[test]
    fn every_op() {
        let (e, results) = fold(&[
            r#"{"t":"2026-11-22T10:00:00Z","op":"observe","entity_id":"creator","entity_type":"creator","text":"asked about the garden"}"#,
            r#"{"t":"2026-11-22T10:01:00Z","op":"relationship","entity_id":"creator","favorability":0.24,"state":"stranger","interaction_count":1,"reason":"first words"}"#,
            r#"{"t":"2026-11-22T10:02:00Z","op":"observe","entity_id":"creator","text":"prefers short answers"}"#,
            r#"{"t":"2026-11-22T10:03:00Z","op":"consolidate","entity_id":"creator","attributes":{"prefers":"short answers","visits":3}}"#,
            r#"{"t":"2026-11-22T10:04:00Z","op":"observe","entity_id":"creator","text":"came back"}"#,
            r#"{"t":"2026-11-22T10:05:00Z","op":"relationship","entity_id":"creator","favorability":0.52,"interaction_count":13,"reason":"thanked me"}"#,
        ]);
        assert!(results.iter().all(Result::is_ok));
        let c = e.get("creator").unwrap();
        assert_eq!(c.entity_type.as_deref(), Some("creator"));
        assert_eq!((c.observed, c.consolidated), (3, 2));
        assert_eq!(c.attributes["prefers"], "short answers");
        assert_eq!(c.attributes["visits"], "3");
        let history: Vec<RelationshipState> =
            c.history.as_slice().iter().map(|r| r.state).collect();
        assert_eq!(
            history,
            [RelationshipState::Stranger, RelationshipState::Friend]
        );
        assert_eq!(c.relationship().unwrap().interaction_count, Some(13));
        assert!(c.has_line(3) && c.has_line(4) && !c.has_line(9));
        assert_eq!(e.by_state()[&RelationshipState::Friend], 1);
    }

    #[test]
    fn bad_lines_and_unknown_ops() {
        let (e, results) = fold(&[
            r#"{"op":"observe","text":"who?"}"#,
            r#"{"op":"relationship","entity_id":"x","reason":"no numbers"}"#,
            r#"{"op":"relationship","entity_id":"y","state":"ally"}"#,
            r#"{"op":"forget_entity","entity_id":"y"}"#,
            "[]",
        ]);
        assert_eq!(results[0], Err(LineError::Missing("entity_id")));
        assert_eq!(results[1], Err(LineError::Missing("favorability")));
        assert!(results[2].is_ok() && results[3].is_ok() && results[4].is_err());
        assert_eq!((e.lines, e.bad_lines), (5, 3));
        assert_eq!(e.len(), 1);
        assert_eq!(
            e.get("y").unwrap().relationship().map(|r| r.state),
            Some(RelationshipState::Ally)
        );
    }
}
