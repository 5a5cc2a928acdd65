//! Entity profiles (O-Mem): raw observations (Pf), consolidated attributes (Pa), and the
//! relationship, whose state follows favorability at the Dunbar thresholds.

use std::collections::BTreeMap;

use crate::genomes::evennia::memory::entities::RelationshipState;

/// stranger < 0.25 <= acquaintance < 0.50 <= friend < 0.75 <= ally: the memory model's
/// rule, which the observatory reads the files by.
pub fn relationship_state(favorability: f64) -> &'static str {
    RelationshipState::of_favorability(favorability).as_str()
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Profile {
    pub entity_type: String,
    /// Pa: consolidated facts.
    pub attributes: BTreeMap<String, String>,
    /// Pf: raw observations since the last consolidation.
    pub observations: Vec<String>,
    pub favorability: f64,
    pub interactions: u64,
}

impl Profile {
    pub fn new(entity_type: &str) -> Self {
        Self {
            entity_type: entity_type.to_string(),
            ..Self::default()
        }
    }

    pub fn state(&self) -> &'static str {
        relationship_state(self.favorability)
    }

    /// One interaction that moves favorability by `delta` (kept within 0..=1); the
    /// states before and after.
    pub fn interact(&mut self, delta: f64) -> (&'static str, &'static str) {
        let before = self.state();
        let delta = if delta.is_finite() { delta } else { 0.0 };
        self.favorability = (self.favorability + delta).clamp(0.0, 1.0);
        self.interactions += 1;
        (before, self.state())
    }
}

/// `key: value` lines (or a JSON object) from the model: an entity's attributes.
pub fn parse_attributes(answer: &str) -> BTreeMap<String, String> {
    if let Some(start) = answer.find('{')
        && let Some(end) = answer.rfind('}')
        && let Ok(serde_json::Value::Object(map)) =
            serde_json::from_str::<serde_json::Value>(&answer[start..=end])
    {
        return map
            .into_iter()
            .map(|(k, v)| {
                let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                (k, v)
            })
            .filter(|(k, v)| !k.trim().is_empty() && !v.trim().is_empty())
            .collect();
    }
    answer
        .lines()
        .filter_map(|l| {
            let l = l.trim().trim_start_matches(['-', '*']).trim();
            let (k, v) = l.split_once(':')?;
            let (k, v) = (k.trim(), v.trim());
            (!k.is_empty() && !v.is_empty() && k.len() <= 40)
                .then(|| (k.to_string(), v.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dunbar_thresholds_are_exact() {
        assert_eq!(relationship_state(0.2499), "stranger");
        assert_eq!(relationship_state(0.25), "acquaintance");
        assert_eq!(relationship_state(0.4999), "acquaintance");
        assert_eq!(relationship_state(0.50), "friend");
        assert_eq!(relationship_state(0.7499), "friend");
        assert_eq!(relationship_state(0.75), "ally");
    }

    #[test]
    fn favorability_stays_in_range_and_counts() {
        let mut p = Profile::new("creator");
        assert_eq!(p.interact(0.3), ("stranger", "acquaintance"));
        assert_eq!(p.interact(5.0), ("acquaintance", "ally"));
        assert_eq!(p.favorability, 1.0);
        assert_eq!(p.interact(f64::NAN).1, "ally");
        assert_eq!(p.interactions, 3);
    }

    #[test]
    fn attributes_from_json_or_lines() {
        let a = parse_attributes("Here: {\"role\": \"keeper\", \"likes\": 3}");
        assert_eq!(a.get("role").map(String::as_str), Some("keeper"));
        assert_eq!(a.get("likes").map(String::as_str), Some("3"));
        let b = parse_attributes("- role: keeper\n- prefers: short notes\nnonsense");
        assert_eq!(b.len(), 2);
    }
}
