//! Events already passed on, so that none is shown twice when a reconnect fills the gap
//! from the stored events; and, per creature, the time of the newest one (where a gap
//! starts).

use std::collections::{BTreeMap, HashSet, VecDeque};

use chrono::{DateTime, Utc};

use super::event::LiveEvent;

type Key = (String, DateTime<Utc>, String);

/// How many keys are remembered (a gap is filled from at most 200 events a creature).
const REMEMBERED: usize = 8192;

#[derive(Debug, Default)]
pub struct Seen {
    keys: HashSet<Key>,
    order: VecDeque<Key>,
    newest: BTreeMap<String, DateTime<Utc>>,
}

impl Seen {
    /// Whether the event is new (and remembers it). An event without a time is always new:
    /// nothing can tell it apart.
    pub fn first_time(&mut self, event: &LiveEvent) -> bool {
        let Some(key) = event.key() else {
            return true;
        };
        if self.keys.contains(&key) {
            return false;
        }
        let newest = self.newest.entry(key.0.clone()).or_insert(key.1);
        *newest = (*newest).max(key.1);
        self.keys.insert(key.clone());
        self.order.push_back(key);
        if self.order.len() > REMEMBERED
            && let Some(old) = self.order.pop_front()
        {
            self.keys.remove(&old);
        }
        true
    }

    /// The time of the newest event seen from `creature`.
    pub fn newest(&self, creature: &str) -> Option<DateTime<Utc>> {
        self.newest.get(creature).copied()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn event(creature: &str, t: &str, kind: &str) -> LiveEvent {
        LiveEvent::parse(&json!({"creature": creature, "t": t, "type": kind}), None).unwrap()
    }

    #[test]
    fn an_event_passes_once() {
        let mut seen = Seen::default();
        let a = event("a", "2026-03-09T10:00:00.001Z", "creature.thought");
        assert!(seen.first_time(&a));
        assert!(!seen.first_time(&a));
        assert!(seen.first_time(&event("a", "2026-03-09T10:00:00.001Z", "creature.sleep")));
        assert!(seen.first_time(&event("b", "2026-03-09T10:00:00.001Z", "creature.thought")));
        assert!(seen.first_time(&event("a", "2026-03-09T09:00:00Z", "creature.thought")));
        assert_eq!(
            seen.newest("a").unwrap().to_rfc3339(),
            "2026-03-09T10:00:00.001+00:00"
        );
        let timeless =
            LiveEvent::parse(&json!({"creature": "a", "type": "creature.thought"}), None).unwrap();
        assert!(seen.first_time(&timeless) && seen.first_time(&timeless));
    }
}
