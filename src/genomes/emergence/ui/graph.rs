//! The garden's relationship graph, prepared from every creature the observatory sees:
//! the creatures and the agents their relations name are nodes, each emergence creature's
//! current relation to another agent an edge (its type and trust).

use std::collections::BTreeMap;

use crate::memory::creature::Creature;
use crate::ui::genome::GardenState;
use crate::ui::prepare::inert;

/// Nodes drawn at most (a large garden keeps those with relations, then the first).
pub const MAX_NODES: usize = 24;

/// A creature of the garden, or an agent only named by one.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphNode {
    /// Inert.
    pub name: String,
    /// A creature the observatory sees (else an agent a relation names: the creator, a
    /// creature elsewhere).
    pub in_garden: bool,
}

/// One creature's relation to another agent, as it stands.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphEdge {
    pub from: usize,
    pub to: usize,
    /// Inert.
    pub kind: Option<String>,
    pub trust: Option<f64>,
}

/// The graph; empty when no creature has relations.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GardenGraph {
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
    /// Nodes past [`MAX_NODES`], not drawn.
    pub left_out: usize,
}

impl GardenState for GardenGraph {}

/// The graph of every creature the observatory sees.
pub fn make(creatures: &[&Creature]) -> Box<dyn GardenState> {
    Box::new(GardenGraph::of(creatures.iter().copied()))
}

impl GardenGraph {
    pub fn of<'c>(creatures: impl IntoIterator<Item = &'c Creature>) -> Self {
        let creatures: Vec<&Creature> = creatures.into_iter().collect();
        // Names in the garden's order, then the agents named, by name.
        let mut names: Vec<(String, bool)> = creatures
            .iter()
            .map(|c| (c.name().to_string(), true))
            .collect();
        let mut relations = Vec::new();
        for c in &creatures {
            for a in crate::genomes::emergence::memory::of(c).relations.agents() {
                let now = a.current().cloned().unwrap_or_default();
                relations.push((c.name().to_string(), a.agent.clone(), now));
            }
        }
        let mut named: Vec<String> = relations
            .iter()
            .map(|(_, agent, _)| agent.clone())
            .filter(|a| !names.iter().any(|(n, _)| n == a))
            .collect();
        named.sort();
        named.dedup();
        names.extend(named.into_iter().map(|n| (n, false)));
        if relations.is_empty() {
            return Self::default();
        }
        // A large garden: those in a relation first.
        let related = |n: &str| relations.iter().any(|(f, t, _)| f == n || t == n);
        names.sort_by_key(|(n, _)| !related(n));
        let left_out = names.len().saturating_sub(MAX_NODES);
        names.truncate(MAX_NODES);
        let index: BTreeMap<&str, usize> = names
            .iter()
            .enumerate()
            .map(|(i, (n, _))| (n.as_str(), i))
            .collect();
        let edges = relations
            .iter()
            .filter_map(|(from, to, r)| {
                Some(GraphEdge {
                    from: *index.get(from.as_str())?,
                    to: *index.get(to.as_str())?,
                    kind: r.relationship_type.as_deref().map(inert),
                    trust: r.trust_level,
                })
            })
            .filter(|e| e.from != e.to)
            .collect();
        Self {
            nodes: names
                .into_iter()
                .map(|(name, in_garden)| GraphNode {
                    name: inert(&name),
                    in_garden,
                })
                .collect(),
            edges,
            left_out,
        }
    }
}
