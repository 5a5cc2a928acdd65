//! A stand-in for OpenSeed's orchestrator on 127.0.0.1, built from its routes
//! (openseed-dev/openseed `src/host/index.ts`, see `dreamwatch::openseed`'s module doc):
//! `GET /api/creatures`, `/api/usage`, `/api/creatures/:name/budget`,
//! `/api/creatures/:name/events`, the event stream `GET /api/events` (chunked
//! `data: <json>` events, an `orchestrator.status` first), and `POST
//! /api/creatures/:name/{wake,message,stop,start}` with the supervisor's status changes
//! and the same plain-text refusals. Open pull request #16's per-creature bearer tokens
//! can be required. It can go away (every connection dropped, the port closed) and come
//! back on the same port, keeping its creatures and stored events meanwhile, as a
//! restarted orchestrator reads them back from `.sys/events.jsonl`.
//!
//! Its clock is its own: each event is stamped one second after the one before, from
//! 2026-03-09 10:00 UTC, so that what tests see does not depend on the time.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, TimeZone, Utc};
use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::{Reply, Seen, Server};

#[derive(Debug, Clone)]
pub struct Creature {
    pub status: String,
    pub sleep_reason: Option<String>,
    pub model: Option<String>,
    pub daily_spent: f64,
    pub daily_cap: f64,
    pub cap_action: String,
    pub cost_total: f64,
}

impl Creature {
    pub fn new(status: &str) -> Self {
        Self {
            status: status.into(),
            sleep_reason: (status == "sleeping").then(|| "fatigue".into()),
            model: Some("claude-opus-4-6".into()),
            daily_spent: 0.0,
            daily_cap: 20.0,
            cap_action: "sleep".into(),
            cost_total: 0.0,
        }
    }
}

struct State {
    creatures: BTreeMap<String, Creature>,
    /// Each creature's events as its `.sys/events.jsonl` keeps them (no `creature` field).
    stored: BTreeMap<String, Vec<Value>>,
    /// Tokens the control routes ask for, by creature.
    tokens: BTreeMap<String, String>,
    clock: DateTime<Utc>,
}

pub struct StandIn {
    /// `http://127.0.0.1:PORT`
    pub base: String,
    pub port: u16,
    server: Server,
    state: Arc<Mutex<State>>,
    /// The stream's events, already in the wire's JSON.
    events: broadcast::Sender<String>,
}

impl StandIn {
    pub async fn start(creatures: &[(&str, Creature)]) -> Self {
        let (events, _) = broadcast::channel(1024);
        let state = Arc::new(Mutex::new(State {
            creatures: creatures
                .iter()
                .map(|(n, c)| ((*n).to_owned(), c.clone()))
                .collect(),
            stored: BTreeMap::new(),
            tokens: BTreeMap::new(),
            clock: Utc.with_ymd_and_hms(2026, 3, 9, 10, 0, 0).unwrap(),
        }));
        let server = {
            let (state, events) = (Arc::clone(&state), events.clone());
            Server::handling(move |seen| route(&state, &events, seen)).await
        };
        Self {
            base: server.base.clone(),
            port: server.port,
            server,
            state,
            events,
        }
    }

    /// The orchestrator goes away: every connection is dropped and the port closed.
    pub fn go_away(&self) {
        self.server.go_away();
    }

    /// It comes back on the same port.
    pub async fn come_back(&self) {
        self.server.come_back().await;
    }

    /// The control routes of `creature` ask for this token (pull request #16).
    pub fn require_token(&self, creature: &str, token: &str) {
        let mut state = self.state.lock().unwrap();
        state.tokens.insert(creature.into(), token.into());
    }

    /// Every request received so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.server.seen()
    }

    pub fn creature(&self, name: &str) -> Creature {
        self.state.lock().unwrap().creatures[name].clone()
    }

    pub fn set_spending(&self, name: &str, spent: f64, cap: f64) {
        let mut state = self.state.lock().unwrap();
        let c = state.creatures.get_mut(name).unwrap();
        c.daily_spent = spent;
        c.daily_cap = cap;
        c.cost_total = c.cost_total.max(spent);
    }

    /// An event of `creature` (`{"type": ..., ...}`): stamped, stored and streamed, and
    /// applied to its status as the supervisor does. Returns its time.
    pub fn emit(&self, creature: &str, event: Value) -> String {
        emit(&self.state, &self.events, creature, event)
    }
}

fn emit(
    state: &Mutex<State>,
    events: &broadcast::Sender<String>,
    creature: &str,
    mut event: Value,
) -> String {
    let mut state = state.lock().unwrap();
    state.clock += Duration::seconds(1);
    let t = state
        .clock
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    event["t"] = json!(t);
    state
        .stored
        .entry(creature.to_owned())
        .or_default()
        .push(event.clone());
    if let Some(c) = state.creatures.get_mut(creature) {
        // The supervisor's `updateFromEvent`.
        match event["type"].as_str() {
            _ if c.status == "stopped" => {}
            Some("creature.sleep") => {
                c.status = "sleeping".into();
                if c.sleep_reason.as_deref() != Some("budget") {
                    c.sleep_reason = Some("fatigue".into());
                }
            }
            Some("creature.error") => c.status = "error".into(),
            Some("creature.tool_call" | "creature.thought") if c.status != "running" => {
                c.status = "running".into();
                c.sleep_reason = None;
            }
            _ => {}
        }
    }
    let mut wire = json!({"creature": creature});
    for (k, v) in event.as_object().unwrap() {
        wire[k] = v.clone();
    }
    let _ = events.send(wire.to_string());
    t
}

const JSON: &str = "application/json";
const TEXT: &str = "text/plain";

/// The orchestrator's answer to a request.
fn route(state: &Arc<Mutex<State>>, events: &broadcast::Sender<String>, seen: &Seen) -> Reply {
    let path: Vec<&str> = seen.path.trim_start_matches('/').split('/').collect();
    let (status, content_type, body) = match (seen.method.as_str(), path.as_slice()) {
        ("GET", ["api", "events"]) => {
            // The event stream: the orchestrator's health first, then every event.
            let health = json!({"creature": "_orchestrator", "t": "2026-03-09T09:59:59.000Z", "type": "orchestrator.status",
                "status": "healthy", "dependencies": {"docker": {"status": "up", "lastCheck": "2026-03-09T09:59:59.000Z"}}});
            return Reply::Events {
                first: vec![health.to_string()],
                live: events.subscribe(),
            };
        }
        ("GET", ["api", "creatures"]) => {
            let state = state.lock().unwrap();
            let list: Vec<Value> = state
                .creatures
                .iter()
                .map(|(name, c)| {
                    json!({"name": name, "status": c.status, "sha": null, "port": null,
                        "sleepReason": c.sleep_reason, "model": c.model})
                })
                .collect();
            (200, JSON, Value::from(list).to_string())
        }
        ("GET", ["api", "usage"]) => {
            let state = state.lock().unwrap();
            let usage: serde_json::Map<String, Value> = state
                .creatures
                .iter()
                .map(|(name, c)| {
                    (
                        name.clone(),
                        json!({"input_tokens": 1000, "output_tokens": 100, "cost_usd": c.cost_total,
                        "calls": 3, "daily_cost_usd": c.daily_spent, "daily_date": "2026-03-09"}),
                    )
                })
                .collect();
            let total: f64 = state.creatures.values().map(|c| c.cost_total).sum();
            (
                200,
                JSON,
                json!({"usage": usage, "total": total}).to_string(),
            )
        }
        ("GET", ["api", "creatures", name, "budget"]) => {
            let state = state.lock().unwrap();
            let c = state
                .creatures
                .get(*name)
                .cloned()
                .unwrap_or_else(|| Creature::new("stopped"));
            let exceeded = c.daily_spent >= c.daily_cap;
            (200, JSON, json!({"daily_cap_usd": c.daily_cap, "daily_spent_usd": c.daily_spent,
                "remaining_usd": (c.daily_cap - c.daily_spent).max(0.0), "resets_at": "2026-03-10T00:00:00.000Z",
                "action": c.cap_action, "status": if exceeded { "exceeded" } else { "ok" }}).to_string())
        }
        ("GET", ["api", "creatures", name, "events"]) => {
            let state = state.lock().unwrap();
            let stored = state.stored.get(*name).cloned().unwrap_or_default();
            let recent = &stored[stored.len().saturating_sub(200)..];
            (200, JSON, Value::from(recent.to_vec()).to_string())
        }
        ("POST", ["api", "creatures", name, action]) => act(state, events, seen, name, action),
        _ => (404, TEXT, "not found".into()),
    };
    Reply::Whole {
        status,
        content_type,
        headers: Vec::new(),
        body,
    }
}

/// The control routes, with the orchestrator's answers.
fn act(
    state: &Arc<Mutex<State>>,
    events: &broadcast::Sender<String>,
    seen: &Seen,
    name: &str,
    action: &str,
) -> (u16, &'static str, String) {
    let status = {
        let state = state.lock().unwrap();
        if let Some(token) = state.tokens.get(name)
            && seen.headers.get("authorization") != Some(&format!("Bearer {token}"))
        {
            return (401, TEXT, "unauthorized".into());
        }
        match state.creatures.get(name) {
            Some(c) => c.status.clone(),
            None => return (400, TEXT, format!("creature \"{name}\" not found")),
        }
    };
    let not_running = (400, TEXT, format!("creature \"{name}\" is not running"));
    let ok = (200, TEXT, "ok".to_string());
    let set = |status: &str, reason: Option<&str>| {
        let mut state = state.lock().unwrap();
        let c = state.creatures.get_mut(name).unwrap();
        c.status = status.into();
        c.sleep_reason = reason.map(str::to_owned);
    };
    match action {
        "wake" if status == "stopped" => not_running,
        "wake" => {
            let reason = seen.body["reason"]
                .as_str()
                .unwrap_or("Woken manually")
                .to_owned();
            set("running", None);
            emit(
                state,
                events,
                name,
                json!({"type": "creature.wake", "reason": reason, "source": "manual"}),
            );
            ok
        }
        "message" if status == "stopped" => not_running,
        "message" => {
            let text = seen.body["text"].as_str().unwrap_or_default().to_owned();
            emit(
                state,
                events,
                name,
                json!({"type": "creature.message", "text": text, "source": "user"}),
            );
            if status == "sleeping" {
                set("running", None);
                let reason: String = format!(
                    "Message from user: {}",
                    text.chars().take(100).collect::<String>()
                );
                emit(
                    state,
                    events,
                    name,
                    json!({"type": "creature.wake", "reason": reason, "source": "manual"}),
                );
            }
            ok
        }
        "stop" if status == "stopped" => not_running,
        "stop" => {
            set("stopped", Some("user"));
            ok
        }
        "start" if status != "stopped" => {
            (400, TEXT, format!("creature \"{name}\" is already running"))
        }
        "start" => {
            set("running", None);
            emit(
                state,
                events,
                name,
                json!({"type": "creature.boot", "sha": "abc1234"}),
            );
            ok
        }
        _ => (404, TEXT, "not found".into()),
    }
}
