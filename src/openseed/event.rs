//! The orchestrator's events (`GET /api/events`, and `GET /api/creatures/:name/events`
//! for what was missed) as types. The text they carry is the creatures' own: untrusted,
//! and made inert by whoever shows it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The creature name the orchestrator gives its own events.
pub const ORCHESTRATOR: &str = "_orchestrator";

/// One event: whose, when, what (serialised in its own form for a far observatory, not
/// the orchestrator's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LiveEvent {
    /// The creature's name, or [`ORCHESTRATOR`].
    pub creature: String,
    /// When it happened (every event the orchestrator sends has a time).
    pub t: Option<DateTime<Utc>>,
    pub kind: EventKind,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum EventKind {
    Thought {
        text: String,
    },
    ToolCall {
        tool: String,
        input: String,
        ok: bool,
        output: String,
    },
    Sleep {
        text: String,
        seconds: Option<f64>,
    },
    Wake {
        reason: String,
        source: String,
    },
    /// A message to the creature (`source`: `user` or `system`).
    Message {
        text: String,
        source: String,
    },
    Error {
        error: String,
        fatal: bool,
    },
    BudgetExceeded {
        spent: f64,
        cap: f64,
    },
    BudgetReset,
    /// The creature's process (re)started.
    Boot,
    Spawning,
    Spawned,
    SpawnFailed {
        error: String,
    },
    /// The orchestrator's health: `down` names the dependencies that are down.
    Orchestrator {
        healthy: bool,
        down: Vec<String>,
    },
    /// The narrator's summary of what happened.
    Narration {
        text: String,
    },
    /// Anything else (`host.*`, `genome.*`, a newer kind): its type.
    Other {
        kind: String,
    },
}

fn text(v: &Value, key: &str) -> String {
    match v.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

fn number(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}

impl LiveEvent {
    /// Parses one event; `creature` names the creature when the JSON does not (the stored
    /// events of `GET /api/creatures/:name/events` carry no name). `None` when it is not an
    /// event (no `type`).
    pub fn parse(v: &Value, creature: Option<&str>) -> Option<Self> {
        let kind = v.get("type")?.as_str()?;
        let creature = v
            .get("creature")
            .and_then(Value::as_str)
            .or(creature)?
            .to_owned();
        let t = v
            .get("t")
            .and_then(Value::as_str)
            .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
            .map(|t| t.with_timezone(&Utc));
        let kind = match kind {
            "creature.thought" => EventKind::Thought {
                text: text(v, "text"),
            },
            "creature.tool_call" => EventKind::ToolCall {
                tool: text(v, "tool"),
                input: text(v, "input"),
                ok: v.get("ok").and_then(Value::as_bool).unwrap_or(true),
                output: text(v, "output"),
            },
            "creature.sleep" => EventKind::Sleep {
                text: text(v, "text"),
                seconds: number(v, "seconds"),
            },
            "creature.wake" => EventKind::Wake {
                reason: text(v, "reason"),
                source: text(v, "source"),
            },
            "creature.message" => EventKind::Message {
                text: text(v, "text"),
                source: text(v, "source"),
            },
            "creature.error" => EventKind::Error {
                error: text(v, "error"),
                fatal: v.get("fatal").and_then(Value::as_bool).unwrap_or(false),
            },
            "budget.exceeded" => EventKind::BudgetExceeded {
                spent: number(v, "daily_spent").unwrap_or(0.0),
                cap: number(v, "daily_cap").unwrap_or(0.0),
            },
            "budget.reset" => EventKind::BudgetReset,
            "creature.boot" => EventKind::Boot,
            "creature.spawning" => EventKind::Spawning,
            "creature.spawned" => EventKind::Spawned,
            "creature.spawn_failed" => EventKind::SpawnFailed {
                error: text(v, "error"),
            },
            "orchestrator.status" => EventKind::Orchestrator {
                healthy: v.get("status").and_then(Value::as_str) == Some("healthy"),
                down: v
                    .get("dependencies")
                    .and_then(Value::as_object)
                    .map(|deps| {
                        deps.iter()
                            .filter(|(_, d)| {
                                d.get("status").and_then(Value::as_str) == Some("down")
                            })
                            .map(|(name, _)| name.clone())
                            .collect()
                    })
                    .unwrap_or_default(),
            },
            "narrator.entry" => EventKind::Narration {
                text: text(v, "text"),
            },
            other => EventKind::Other {
                kind: other.to_owned(),
            },
        };
        Some(Self { creature, t, kind })
    }

    /// The event changes what `GET /api/creatures` or the costs say.
    pub fn changes_status(&self) -> bool {
        matches!(
            self.kind,
            EventKind::Sleep { .. }
                | EventKind::Wake { .. }
                | EventKind::Error { .. }
                | EventKind::BudgetExceeded { .. }
                | EventKind::BudgetReset
                | EventKind::Boot
                | EventKind::Spawning
                | EventKind::Spawned
                | EventKind::SpawnFailed { .. }
        )
    }

    /// What tells it from every other event, where anything can: whose, when, and of
    /// what type (the orchestrator stamps each with the millisecond). `None` without a
    /// time.
    pub fn key(&self) -> Option<(String, DateTime<Utc>, String)> {
        Some((self.creature.clone(), self.t?, self.kind_name()))
    }

    fn kind_name(&self) -> String {
        match &self.kind {
            EventKind::Thought { .. } => "thought".into(),
            EventKind::ToolCall { .. } => "tool_call".into(),
            EventKind::Sleep { .. } => "sleep".into(),
            EventKind::Wake { .. } => "wake".into(),
            EventKind::Message { .. } => "message".into(),
            EventKind::Error { .. } => "error".into(),
            EventKind::BudgetExceeded { .. } => "budget.exceeded".into(),
            EventKind::BudgetReset => "budget.reset".into(),
            EventKind::Boot => "boot".into(),
            EventKind::Spawning => "spawning".into(),
            EventKind::Spawned => "spawned".into(),
            EventKind::SpawnFailed { .. } => "spawn_failed".into(),
            EventKind::Orchestrator { .. } => "orchestrator.status".into(),
            EventKind::Narration { .. } => "narrator.entry".into(),
            EventKind::Other { kind } => kind.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn events_parse_as_the_stream_sends_them() {
        let tool = json!({"creature": "finch", "t": "2026-03-09T10:00:00.123Z", "type": "creature.tool_call",
            "tool": "bash", "input": "ls", "ok": false, "output": "no", "ms": 12});
        let e = LiveEvent::parse(&tool, None).unwrap();
        assert_eq!(e.creature, "finch");
        assert_eq!(
            e.kind,
            EventKind::ToolCall {
                tool: "bash".into(),
                input: "ls".into(),
                ok: false,
                output: "no".into()
            }
        );
        let status = json!({"creature": "_orchestrator", "t": "2026-03-09T10:00:00Z", "type": "orchestrator.status",
            "status": "degraded", "dependencies": {"docker": {"status": "down"}, "janee": {"status": "up"}}});
        assert_eq!(
            LiveEvent::parse(&status, None).unwrap().kind,
            EventKind::Orchestrator {
                healthy: false,
                down: vec!["docker".into()]
            }
        );
        let stored = json!({"t": "2026-03-09T10:00:01Z", "type": "genome.dream", "deep": true});
        let e = LiveEvent::parse(&stored, Some("wren")).unwrap();
        assert_eq!(e.creature, "wren");
        assert_eq!(
            e.kind,
            EventKind::Other {
                kind: "genome.dream".into()
            }
        );
        assert!(LiveEvent::parse(&json!({"t": "x"}), Some("wren")).is_none());
    }

    #[test]
    fn the_key_needs_a_time() {
        let e = LiveEvent::parse(
            &json!({"type": "creature.thought", "text": "hm"}),
            Some("a"),
        )
        .unwrap();
        assert_eq!(e.key(), None);
        let e = LiveEvent::parse(
            &json!({"type": "creature.thought", "t": "2026-03-09T10:00:00.5Z"}),
            Some("a"),
        )
        .unwrap();
        assert!(e.key().is_some());
    }
}
