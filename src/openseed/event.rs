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
    /// The creature's process (re)started (`creature.boot`), at this commit.
    Boot {
        sha: String,
    },
    /// `creature.dream`: a dream (deep or not) over so many observations, its priority
    /// and its reflection.
    Dream {
        deep: bool,
        observations: Option<u64>,
        priority: String,
        reflection: String,
    },
    /// `creature.subconscious`: a memory that surfaced.
    Subconscious {
        memory: String,
    },
    /// `creature.progress_check`, after so many actions.
    ProgressCheck {
        actions: Option<u64>,
    },
    /// `creature.self_evaluation` (the older `creator.evaluation`): whether it changed
    /// its own code, what set it off, its reasoning.
    SelfEvaluation {
        changed: bool,
        trigger: String,
        reasoning: String,
    },
    /// `creature.request_restart`.
    RequestRestart {
        reason: String,
    },
    /// `host.boot`.
    HostBoot,
    /// `host.spawn`: the supervisor started a fresh container.
    HostSpawn {
        pid: Option<u64>,
        sha: String,
    },
    /// `host.promote`: the container passed its health gate (and runs).
    HostPromote {
        sha: String,
    },
    /// `host.rollback`: its code was rolled back.
    HostRollback {
        from: String,
        to: String,
        reason: String,
    },
    /// `host.infra_failure`: the supervisor could not run it.
    InfraFailure {
        reason: String,
    },
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
    /// Not the orchestrator's: its refusal of what this observatory asked (`action`),
    /// kept whole, its lines too (a failed start's command output), in the live view.
    Refused {
        action: String,
        answer: String,
    },
    /// Anything else (`genome.*`, a newer kind): its type, and its other fields as
    /// `(key, value)` (a string as it is, anything else as JSON), as the orchestrator's
    /// dashboard lists them.
    Other {
        kind: String,
        #[serde(default)]
        fields: Vec<(String, String)>,
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

fn count(v: &Value, key: &str) -> Option<u64> {
    v.get(key).and_then(Value::as_u64)
}

fn flag(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// The most fields of an event of a kind not known here that are kept.
const MAX_FIELDS: usize = 32;

/// The event's fields but its envelope (`t`, `type`, `creature`), in key order.
fn fields(v: &Value) -> Vec<(String, String)> {
    v.as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| !matches!(k.as_str(), "t" | "type" | "creature"))
        .take(MAX_FIELDS)
        .map(|(k, _)| (k.clone(), text(v, k)))
        .collect()
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
            "creature.boot" => EventKind::Boot {
                sha: text(v, "sha"),
            },
            "creature.dream" => EventKind::Dream {
                deep: flag(v, "deep"),
                observations: count(v, "observations"),
                priority: text(v, "priority"),
                reflection: text(v, "reflection"),
            },
            "creature.subconscious" => EventKind::Subconscious {
                memory: text(v, "memory"),
            },
            "creature.progress_check" => EventKind::ProgressCheck {
                actions: count(v, "actions"),
            },
            "creature.self_evaluation" | "creator.evaluation" => EventKind::SelfEvaluation {
                changed: flag(v, "changed")
                    || v.get("changes")
                        .and_then(Value::as_array)
                        .is_some_and(|c| !c.is_empty()),
                trigger: text(v, "trigger"),
                reasoning: text(v, "reasoning"),
            },
            "creature.request_restart" => EventKind::RequestRestart {
                reason: text(v, "reason"),
            },
            "host.boot" => EventKind::HostBoot,
            "host.spawn" => EventKind::HostSpawn {
                pid: count(v, "pid"),
                sha: text(v, "sha"),
            },
            "host.promote" => EventKind::HostPromote {
                sha: text(v, "sha"),
            },
            "host.rollback" => EventKind::HostRollback {
                from: text(v, "from"),
                to: text(v, "to"),
                reason: text(v, "reason"),
            },
            "host.infra_failure" => EventKind::InfraFailure {
                reason: text(v, "reason"),
            },
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
                fields: fields(v),
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
                | EventKind::Boot { .. }
                | EventKind::Spawning
                | EventKind::Spawned
                | EventKind::SpawnFailed { .. }
                | EventKind::HostBoot
                | EventKind::HostSpawn { .. }
                | EventKind::HostPromote { .. }
                | EventKind::HostRollback { .. }
                | EventKind::InfraFailure { .. }
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
            EventKind::Boot { .. } => "boot".into(),
            EventKind::Dream { .. } => "creature.dream".into(),
            EventKind::Subconscious { .. } => "creature.subconscious".into(),
            EventKind::ProgressCheck { .. } => "creature.progress_check".into(),
            EventKind::SelfEvaluation { .. } => "creature.self_evaluation".into(),
            EventKind::RequestRestart { .. } => "creature.request_restart".into(),
            EventKind::HostBoot => "host.boot".into(),
            EventKind::HostSpawn { .. } => "host.spawn".into(),
            EventKind::HostPromote { .. } => "host.promote".into(),
            EventKind::HostRollback { .. } => "host.rollback".into(),
            EventKind::InfraFailure { .. } => "host.infra_failure".into(),
            EventKind::Spawning => "spawning".into(),
            EventKind::Spawned => "spawned".into(),
            EventKind::SpawnFailed { .. } => "spawn_failed".into(),
            EventKind::Orchestrator { .. } => "orchestrator.status".into(),
            EventKind::Narration { .. } => "narrator.entry".into(),
            EventKind::Refused { .. } => "dreamwatch.refused".into(),
            EventKind::Other { kind, .. } => kind.clone(),
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
                kind: "genome.dream".into(),
                fields: vec![("deep".into(), "true".into())]
            }
        );
        assert!(LiveEvent::parse(&json!({"t": "x"}), Some("wren")).is_none());
    }

    #[test]
    fn the_orchestrators_own_kinds_keep_what_they_say() {
        let parse = |v: Value| LiveEvent::parse(&v, Some("finch")).unwrap().kind;
        assert_eq!(
            parse(
                json!({"type": "creature.dream", "deep": true, "observations": 7,
                "priority": "Fix the cron", "reflection": "I keep retrying."})
            ),
            EventKind::Dream {
                deep: true,
                observations: Some(7),
                priority: "Fix the cron".into(),
                reflection: "I keep retrying.".into()
            }
        );
        assert_eq!(
            parse(
                json!({"type": "creature.self_evaluation", "trigger": "timer",
                "reasoning": "fine", "changes": ["src/mind.ts"]})
            ),
            EventKind::SelfEvaluation {
                changed: true,
                trigger: "timer".into(),
                reasoning: "fine".into()
            }
        );
        assert_eq!(
            parse(json!({"type": "host.rollback", "from": "abc", "to": "def", "reason": "crash"})),
            EventKind::HostRollback {
                from: "abc".into(),
                to: "def".into(),
                reason: "crash".into()
            }
        );
        assert_eq!(
            parse(json!({"type": "host.spawn", "pid": 42, "sha": "abc1234"})),
            EventKind::HostSpawn {
                pid: Some(42),
                sha: "abc1234".into()
            }
        );
        assert_eq!(
            parse(json!({"type": "genome.memory", "count": 3, "tags": ["a"], "note": "x"})),
            EventKind::Other {
                kind: "genome.memory".into(),
                fields: vec![
                    ("count".into(), "3".into()),
                    ("note".into(), "x".into()),
                    ("tags".into(), "[\"a\"]".into())
                ]
            }
        );
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
