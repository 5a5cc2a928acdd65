//! A stand-in for OpenSeed's orchestrator, built from its code (openseed-dev/openseed
//! 815f9fd: `src/host/index.ts`, `supervisor.ts`, `costs.ts`, `health.ts`; see
//! `dreamwatch::openseed`'s module doc), behaving as it does where dreamwatch can tell:
//! - it listens on every interface; `GET /api/status` says its health (`docker`, `janee`,
//!   `pricing`), and a change of it is pushed on the stream as `orchestrator.status`;
//! - `GET /api/creatures`: a creature no supervisor runs has `sha`, `port` and
//!   `sleepReason` null; a failed start leaves a ghost supervisor (`stopped`, with a port)
//!   that makes the next start answer "already running"; after a stop `sleepReason` is
//!   null;
//! - stop and start emit nothing on the stream; a start gives `host.spawn` at once for a
//!   fresh container, and `host.promote` (the creature then runs) once its health gate
//!   has passed (10 s there, [`StandIn::set_health_gate`] here); a creature paused at its
//!   budget (`sleeping`, `budget`, its container stopped) is started again by the start
//!   route only: `wake` and `message` answer `400 fetch failed`;
//! - `start` while degraded answers 503 with a JSON body; a failing start answers 400 with
//!   the command's output, lines and all; `ok` and the 400s carry no content type;
//! - `wake` emits `creature.wake` with the reason sent; `message` emits
//!   `creature.message`, then a wake (`Message from user: ...`) of a sleeper;
//! - `GET /api/creatures/:name/events` answers `[]` for a name it does not know (and
//!   creates its directory: [`StandIn::asked_of_unknown`]), and `[]` for a creature with
//!   one malformed line in its events file ([`StandIn::corrupt_events`]);
//! - `/api/usage` keeps the narrator's `_narrator` entry and entries of a past day;
//! - `POST /api/creatures/:name/event` takes a creature's event in (as the creature's own
//!   code posts them), applied to its status as the supervisor does;
//! - the dashboard's routes: `restart`, `rebuild` (a failing `docker build` answers 400
//!   with its output), `remount` (each 503 while degraded, `host.spawn` then
//!   `host.promote`), `archive` (the creature leaves the list, no event), `GET
//!   /api/genomes`, `/api/models`, `POST /api/creatures` (202, `creature.spawning`, then
//!   `creature.spawned` and the creature listed `stopped`), `GET`/`PUT /api/budget` and
//!   `PUT /api/creatures/:name/budget` (`400 nothing to update`);
//! - `GET /api/creatures/:name/files`: the tabs of the creature's `genome.json` under
//!   its home ([`StandIn::set_home`]) and each one's data, read as the orchestrator reads
//!   them (no tabs for a name it does not know);
//! - `POST /api/ranger/chat`: with no model key (its default) a 200 with no content type,
//!   an `error` event (`No ANTHROPIC_API_KEY configured`) and `done`; with one
//!   ([`StandIn::ranger_answers`]) the scripted events and `done`; `400 message is
//!   required`; `DELETE /api/ranger/chat` forgets the conversation (`{"ok": true}`);
//! - a container that refuses a wake: `400 creature rejected wake`
//!   ([`StandIn::reject_wakes`]);
//! - mail (files in a mail directory: inbox, sent, archived) and the narrator's story and
//!   config: [`mail`];
//! - no authentication (pull request #16's per-creature bearer tokens can be required).
//!
//! It can go away (every connection dropped, the port closed; its `orchestrator.json`
//! left behind, [`StandIn::write_run_file`]) and come back on the same port, keeping its creatures and stored events meanwhile, as a restarted orchestrator
//! reads them back from `.sys/events.jsonl`.
//!
//! Its clock is its own: each event is stamped one second after the one before, from
//! 2026-03-09 10:00 UTC, so that what tests see does not depend on the time.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, TimeZone, Utc};
use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::{Reply, Seen, Server};

mod mail;

/// The stand-in's day, as its usage dates today's entries.
pub const TODAY: &str = "2026-03-09";

#[derive(Debug, Clone)]
pub struct Creature {
    pub status: String,
    pub sleep_reason: Option<String>,
    pub model: Option<String>,
    pub daily_spent: f64,
    pub daily_cap: f64,
    pub cap_action: String,
    pub cost_total: f64,
    /// The day its usage entry is of (the orchestrator keeps a past day's until the
    /// creature's next call).
    pub daily_date: String,
    /// A supervisor runs it (else it is only a directory: `stopped`, no sha or port).
    pub supervised: bool,
    /// Its container answers (not after a budget pause).
    pub reachable: bool,
    /// Its container exists (a start reuses it: no `host.spawn`).
    pub container: bool,
    pub port: Option<u16>,
}

impl Creature {
    pub fn new(status: &str) -> Self {
        let supervised = status != "stopped";
        Self {
            status: status.into(),
            sleep_reason: (status == "sleeping").then(|| "fatigue".into()),
            model: Some("claude-opus-4-6".into()),
            daily_spent: 0.0,
            daily_cap: 20.0,
            cap_action: "sleep".into(),
            cost_total: 0.0,
            daily_date: TODAY.into(),
            supervised,
            reachable: supervised,
            container: supervised,
            port: supervised.then_some(7771),
        }
    }

    /// Paused at its daily budget: the API says it sleeps, its container is stopped.
    pub fn paused_for_budget(spent: f64, cap: f64) -> Self {
        Self {
            sleep_reason: Some("budget".into()),
            daily_spent: spent,
            daily_cap: cap,
            cost_total: spent,
            reachable: false,
            ..Self::new("sleeping")
        }
    }
}

struct State {
    creatures: BTreeMap<String, Creature>,
    /// Each creature's events as its `.sys/events.jsonl` keeps them (no `creature` field).
    stored: BTreeMap<String, Vec<Value>>,
    /// Creatures whose events file has a malformed line: their stored events read `[]`.
    corrupt: BTreeSet<String>,
    /// Names whose events were asked for that it did not know (it made their directory).
    unknown_asked: Vec<String>,
    /// Tokens the control routes ask for, by creature.
    tokens: BTreeMap<String, String>,
    /// The dependencies that are down, with why.
    down: BTreeMap<String, String>,
    /// The output the next start fails with, by creature.
    failing_start: BTreeMap<String, String>,
    /// The output the next rebuild's `docker build` fails with, by creature.
    failing_build: BTreeMap<String, String>,
    /// Creatures whose container answers a wake with an error ("creature rejected wake").
    rejecting_wake: BTreeSet<String>,
    /// The global daily cap and its action (`GET`/`PUT /api/budget`).
    global_cap: (f64, String),
    /// Creatures archived (moved out of the garden), by name.
    archived: Vec<String>,
    /// What the narrator spent today.
    narrator: f64,
    health_gate: std::time::Duration,
    clock: DateTime<Utc>,
    /// Where its mail is kept (`MAIL_DIR`).
    mail_dir: std::path::PathBuf,
    /// Messages sent so far (their ids are made of the count).
    mails: u64,
    /// `narration.jsonl`'s entries.
    narration: Vec<Value>,
    narrator_config: Value,
    /// Its creatures' home (`~/.openseed/creatures`), where `.../files` reads; none: every
    /// creature's directory is missing.
    home: Option<std::path::PathBuf>,
    /// The Ranger's scripted answer (its events before `done`) once a model key is
    /// configured; `None`: no `ANTHROPIC_API_KEY`.
    ranger: Option<Vec<Value>>,
    /// The Ranger's conversation: each message asked, and the creature it was about.
    ranger_asked: Vec<(String, Option<String>)>,
}

type Shared = Arc<Mutex<State>>;

pub struct StandIn {
    /// `http://127.0.0.1:PORT`
    pub base: String,
    pub port: u16,
    server: Server,
    state: Shared,
    /// The stream's events, already in the wire's JSON.
    events: broadcast::Sender<String>,
    /// Its own mail directory, until it is told to keep mail elsewhere.
    _mail: tempfile::TempDir,
}

impl StandIn {
    pub async fn start(creatures: &[(&str, Creature)]) -> Self {
        let (events, _) = broadcast::channel(1024);
        let mail_home = tempfile::tempdir().unwrap();
        let state = Arc::new(Mutex::new(State {
            creatures: creatures
                .iter()
                .map(|(n, c)| ((*n).to_owned(), c.clone()))
                .collect(),
            stored: BTreeMap::new(),
            corrupt: BTreeSet::new(),
            unknown_asked: Vec::new(),
            tokens: BTreeMap::new(),
            down: BTreeMap::new(),
            failing_start: BTreeMap::new(),
            failing_build: BTreeMap::new(),
            rejecting_wake: BTreeSet::new(),
            global_cap: (20.0, "sleep".into()),
            archived: Vec::new(),
            narrator: 0.0,
            health_gate: std::time::Duration::from_millis(300),
            clock: Utc.with_ymd_and_hms(2026, 3, 9, 10, 0, 0).unwrap(),
            mail_dir: mail_home.path().to_path_buf(),
            mails: 0,
            narration: Vec::new(),
            narrator_config: mail::default_narrator_config(),
            home: None,
            ranger: None,
            ranger_asked: Vec::new(),
        }));
        let server = {
            let (state, events) = (Arc::clone(&state), events.clone());
            Server::handling_on(std::net::Ipv4Addr::UNSPECIFIED.into(), move |seen| {
                route(&state, &events, seen)
            })
            .await
        };
        Self {
            base: server.base.clone(),
            port: server.port,
            server,
            state,
            events,
            _mail: mail_home,
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

    /// Writes the `orchestrator.json` it would write into OpenSeed's home at `path`. It
    /// stays behind when the orchestrator goes away (its SIGTERM handler exits before the
    /// one that removes it), naming a pid no process has.
    pub fn write_run_file(&self, path: &std::path::Path) {
        let run = json!({"port": self.port, "pid": 999_999_999u32, "started_at": "2026-03-09T09:59:00.000Z"});
        std::fs::write(path, run.to_string()).unwrap();
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

    /// What the narrator spent today (its `_narrator` usage entry).
    pub fn set_narrator(&self, spent: f64) {
        self.state.lock().unwrap().narrator = spent;
    }

    /// How long a started creature takes to pass its health gate (10 s there).
    pub fn set_health_gate(&self, gate: std::time::Duration) {
        self.state.lock().unwrap().health_gate = gate;
    }

    /// `dependency` goes down (with why) or comes back up (`None`); the change is pushed
    /// on the stream.
    pub fn set_down(&self, dependency: &str, why: Option<&str>) {
        let health = {
            let mut state = self.state.lock().unwrap();
            match why {
                Some(why) => state.down.insert(dependency.into(), why.into()),
                None => state.down.remove(dependency),
            };
            health(&state)
        };
        emit(&self.state, &self.events, "_orchestrator", health);
    }

    /// The next start of `name` fails with this command output.
    pub fn fail_next_start(&self, name: &str, output: &str) {
        let mut state = self.state.lock().unwrap();
        state.failing_start.insert(name.into(), output.into());
    }

    /// The next rebuild of `name` fails with this `docker build` output.
    pub fn fail_next_rebuild(&self, name: &str, output: &str) {
        let mut state = self.state.lock().unwrap();
        state.failing_build.insert(name.into(), output.into());
    }

    /// `name`'s container answers a wake with an error: the orchestrator says "creature
    /// rejected wake".
    pub fn reject_wakes(&self, name: &str) {
        self.state
            .lock()
            .unwrap()
            .rejecting_wake
            .insert(name.into());
    }

    /// The global daily cap and its action.
    pub fn global_cap(&self) -> (f64, String) {
        self.state.lock().unwrap().global_cap.clone()
    }

    /// The creatures archived so far.
    pub fn archived(&self) -> Vec<String> {
        self.state.lock().unwrap().archived.clone()
    }

    /// Whether it lists a creature of that name.
    pub fn has(&self, name: &str) -> bool {
        self.state.lock().unwrap().creatures.contains_key(name)
    }

    /// A malformed line in `name`'s events file: its stored events read `[]`.
    pub fn corrupt_events(&self, name: &str) {
        self.state.lock().unwrap().corrupt.insert(name.into());
    }

    /// The names whose stored events were asked for that it does not know (each made a
    /// directory in its creatures' home).
    pub fn asked_of_unknown(&self) -> Vec<String> {
        self.state.lock().unwrap().unknown_asked.clone()
    }

    /// The orchestrator pauses `name` at its budget (its proxy's `handleBudgetExceeded`).
    pub fn pause_for_budget(&self, name: &str) {
        let (spent, cap) = {
            let mut state = self.state.lock().unwrap();
            let c = state.creatures.get_mut(name).unwrap();
            c.status = "sleeping".into();
            c.sleep_reason = Some("budget".into());
            c.reachable = false;
            (c.daily_spent, c.daily_cap)
        };
        self.emit(
            name,
            json!({"type": "budget.exceeded", "daily_spent": spent, "daily_cap": cap}),
        );
    }

    /// Its creatures' home, where `GET /api/creatures/:name/files` reads.
    pub fn set_home(&self, home: &std::path::Path) {
        self.state.lock().unwrap().home = Some(home.to_path_buf());
    }

    /// A model key is configured: the Ranger answers each message with these events
    /// (`{"type": "text", "text": ...}`...), then `done`.
    pub fn ranger_answers(&self, events: Vec<Value>) {
        self.state.lock().unwrap().ranger = Some(events);
    }

    /// The Ranger's conversation as it holds it: each message, and the creature it was
    /// about.
    pub fn ranger_asked(&self) -> Vec<(String, Option<String>)> {
        self.state.lock().unwrap().ranger_asked.clone()
    }

    /// An event of `creature` (`{"type": ..., ...}`): stamped, stored and streamed, and
    /// applied to its status as the supervisor does. Returns its time.
    pub fn emit(&self, creature: &str, event: Value) -> String {
        emit(&self.state, &self.events, creature, event)
    }
}

/// `orchestrator.status`'s body and `GET /api/status`: its health.
fn health(state: &State) -> Value {
    let t = "2026-03-09T09:59:59.000Z";
    let dependencies: serde_json::Map<String, Value> = ["docker", "janee", "pricing"]
        .into_iter()
        .map(|name| {
            let dep = match state.down.get(name) {
                Some(why) => json!({"status": "down", "lastCheck": t, "error": why}),
                None => json!({"status": "up", "lastCheck": t}),
            };
            (name.to_owned(), dep)
        })
        .collect();
    let status = if state.down.is_empty() {
        "healthy"
    } else {
        "degraded"
    };
    json!({"type": "orchestrator.status", "status": status, "dependencies": dependencies})
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
            Some("creature.tool_call" | "creature.thought")
                if matches!(c.status.as_str(), "sleeping" | "error") =>
            {
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
/// The orchestrator's `ok` and its 400s say no content type.
const NONE: &str = "";

/// The orchestrator's answer to a request.
fn route(state: &Shared, events: &broadcast::Sender<String>, seen: &Seen) -> Reply {
    let (path, query) = seen.path.split_once('?').unwrap_or((&seen.path, ""));
    let path: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let mail = mail::route(state, events, seen, &path, query);
    let (status, content_type, body) = match (seen.method.as_str(), path.as_slice()) {
        _ if mail.is_some() => mail.unwrap_or_default(),
        ("GET", ["api", "events"]) => {
            // The event stream: the orchestrator's health first, then every event.
            let mut first = health(&state.lock().unwrap());
            first["creature"] = json!("_orchestrator");
            first["t"] = json!("2026-03-09T09:59:59.000Z");
            return Reply::Events {
                first: vec![first.to_string()],
                live: events.subscribe(),
            };
        }
        ("GET", ["api", "status"]) => {
            let mut health = health(&state.lock().unwrap());
            health.as_object_mut().unwrap().remove("type");
            (200, JSON, health.to_string())
        }
        ("GET", ["api", "creatures"]) => {
            let state = state.lock().unwrap();
            let list: Vec<Value> = state
                .creatures
                .iter()
                .map(|(name, c)| {
                    if c.supervised {
                        json!({"name": name, "status": c.status, "sha": "abc1234def", "port": c.port,
                            "sleepReason": c.sleep_reason, "model": c.model})
                    } else {
                        json!({"name": name, "status": c.status, "sha": null, "port": null,
                            "sleepReason": null, "model": c.model})
                    }
                })
                .collect();
            (200, JSON, Value::from(list).to_string())
        }
        ("GET", ["api", "usage"]) => {
            let state = state.lock().unwrap();
            let mut usage: serde_json::Map<String, Value> = state
                .creatures
                .iter()
                .map(|(name, c)| {
                    (
                        name.clone(),
                        json!({"input_tokens": 1000, "output_tokens": 100, "cost_usd": c.cost_total,
                        "calls": 3, "daily_cost_usd": c.daily_spent, "daily_date": c.daily_date}),
                    )
                })
                .collect();
            usage.insert(
                "_narrator".into(),
                json!({"input_tokens": 50, "output_tokens": 5, "cost_usd": state.narrator,
                    "calls": 1, "daily_cost_usd": state.narrator, "daily_date": TODAY}),
            );
            let total: f64 =
                state.creatures.values().map(|c| c.cost_total).sum::<f64>() + state.narrator;
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
            // `getCreatureDailyCost`: nothing when its entry is of another day.
            let spent = if c.daily_date == TODAY {
                c.daily_spent
            } else {
                0.0
            };
            let exceeded = spent >= c.daily_cap;
            (200, JSON, json!({"daily_cap_usd": c.daily_cap, "daily_spent_usd": spent,
                "remaining_usd": (c.daily_cap - spent).max(0.0), "resets_at": "2026-03-10T00:00:00.000Z",
                "action": c.cap_action, "status": if exceeded { "exceeded" } else { "ok" }}).to_string())
        }
        ("GET", ["api", "creatures", name, "events"]) => {
            let mut state = state.lock().unwrap();
            if !state.creatures.contains_key(*name) {
                state.unknown_asked.push((*name).to_owned());
            }
            let stored = if state.corrupt.contains(*name) {
                Vec::new()
            } else {
                state.stored.get(*name).cloned().unwrap_or_default()
            };
            let recent = &stored[stored.len().saturating_sub(200)..];
            (200, JSON, Value::from(recent.to_vec()).to_string())
        }
        ("POST", ["api", "creatures", name, "event"]) => {
            if seen.body.get("type").and_then(Value::as_str).is_none() {
                (400, NONE, "invalid event".into())
            } else {
                emit(state, events, name, seen.body.clone());
                (200, NONE, "ok".into())
            }
        }
        ("GET", ["api", "genomes"]) => (
            200,
            JSON,
            json!([{"name": "dreamer", "description": "dreams, observes, consolidates", "source": "bundled"},
                {"name": "minimal", "description": "a bare loop", "source": "bundled"}])
            .to_string(),
        ),
        ("GET", ["api", "models"]) => (
            200,
            JSON,
            json!([{"id": "claude-opus-4-6", "provider": "anthropic", "isDefault": true,
                    "inputCostPerMillion": 15.0, "outputCostPerMillion": 75.0},
                {"id": "gpt-5", "provider": "openai", "isDefault": false,
                    "inputCostPerMillion": 1.25, "outputCostPerMillion": 10.0}])
            .to_string(),
        ),
        ("GET", ["api", "budget"]) => {
            let (daily, action) = state.lock().unwrap().global_cap.clone();
            (200, JSON, json!({"daily_usd": daily, "action": action}).to_string())
        }
        ("PUT", ["api", "budget"]) => match cap_patch(&seen.body) {
            None => (400, NONE, "nothing to update".into()),
            Some((daily, action)) => {
                let mut state = state.lock().unwrap();
                if let Some(daily) = daily {
                    state.global_cap.0 = daily;
                }
                if let Some(action) = action {
                    state.global_cap.1 = action;
                }
                let (daily, action) = state.global_cap.clone();
                (200, JSON, json!({"daily_usd": daily, "action": action}).to_string())
            }
        },
        ("PUT", ["api", "creatures", name, "budget"]) => match cap_patch(&seen.body) {
            None => (400, NONE, "nothing to update".into()),
            Some((daily, action)) => {
                let mut state = state.lock().unwrap();
                // `saveCreatureSpendingCap` writes its config whether or not it runs.
                let c = state
                    .creatures
                    .entry((*name).to_owned())
                    .or_insert_with(|| Creature::new("stopped"));
                if let Some(daily) = daily {
                    c.daily_cap = daily;
                }
                if let Some(action) = action {
                    c.cap_action = action;
                }
                (200, JSON, json!({"daily_usd": c.daily_cap, "action": c.cap_action}).to_string())
            }
        },
        ("GET", ["api", "creatures", name, "files"]) => {
            let home = state.lock().unwrap().home.clone();
            (200, JSON, files(home.map(|h| h.join(name))).to_string())
        }
        ("POST", ["api", "ranger", "chat"]) => ranger(state, seen),
        ("DELETE", ["api", "ranger", "chat"]) => {
            state.lock().unwrap().ranger_asked.clear();
            (200, JSON, json!({"ok": true}).to_string())
        }
        ("POST", ["api", "creatures"]) => spawn(state, events, seen),
        ("POST", ["api", "creatures", name, action]) => act(state, events, seen, name, action),
        _ => (404, NONE, "not found".into()),
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
    state: &Shared,
    events: &broadcast::Sender<String>,
    seen: &Seen,
    name: &str,
    action: &str,
) -> (u16, &'static str, String) {
    let c = {
        let state = state.lock().unwrap();
        if let Some(token) = state.tokens.get(name)
            && seen.headers.get("authorization") != Some(&format!("Bearer {token}"))
        {
            return (401, NONE, "unauthorized".into());
        }
        if matches!(action, "start" | "restart" | "rebuild" | "remount") && !state.down.is_empty() {
            let mut health = health(&state);
            let body = json!({"error": format!("Orchestrator degraded — cannot {action} creatures"),
                "dependencies": health["dependencies"].take()});
            return (503, JSON, body.to_string());
        }
        state.creatures.get(name).cloned()
    };
    let not_running = (400, NONE, format!("creature \"{name}\" is not running"));
    let ok = (200, NONE, "ok".to_string());
    let change = |f: &dyn Fn(&mut Creature)| {
        let mut state = state.lock().unwrap();
        if let Some(c) = state.creatures.get_mut(name) {
            f(c);
        }
    };
    let Some(c) = c else {
        return match action {
            "start" | "archive" => (400, NONE, format!("creature \"{name}\" not found")),
            _ => not_running,
        };
    };
    match action {
        "wake" | "message" if !c.supervised => not_running,
        // Its container is stopped: the orchestrator's fetch to it fails.
        "wake" | "message" if !c.reachable => (400, NONE, "fetch failed".into()),
        "wake" if state.lock().unwrap().rejecting_wake.contains(name) => {
            (400, NONE, "creature rejected wake".into())
        }
        "wake" => {
            let reason = seen.body["reason"]
                .as_str()
                .unwrap_or("Woken manually")
                .to_owned();
            change(&|c| {
                c.status = "running".into();
                c.sleep_reason = None;
            });
            emit(
                state,
                events,
                name,
                json!({"type": "creature.wake", "reason": reason, "source": "manual"}),
            );
            ok
        }
        "message" => {
            let text = seen.body["text"].as_str().unwrap_or_default().to_owned();
            emit(
                state,
                events,
                name,
                json!({"type": "creature.message", "text": text, "source": "user"}),
            );
            if c.status == "sleeping" {
                change(&|c| {
                    c.status = "running".into();
                    c.sleep_reason = None;
                });
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
        "stop" if !c.supervised => not_running,
        "stop" => {
            // The supervisor is dropped: listed from its directory again. No event.
            change(&|c| {
                c.status = "stopped".into();
                c.sleep_reason = None;
                c.supervised = false;
                c.reachable = false;
                c.port = None;
            });
            ok
        }
        "start" if c.supervised && c.sleep_reason.as_deref() != Some("budget") => {
            (400, NONE, format!("creature \"{name}\" is already running"))
        }
        "start" => start(state, events, name, &c),
        "restart" | "rebuild" | "remount" => lifecycle(state, events, name, action, &c),
        "archive" => {
            // Stopped, its container and image removed, its directory moved: no event.
            let mut state = state.lock().unwrap();
            state.creatures.remove(name);
            state.archived.push(name.to_owned());
            ok
        }
        _ => (404, NONE, "not found".into()),
    }
}

/// `startCreature`: from a budget pause, or afresh; no event but `host.spawn` for a fresh
/// container, then `host.promote` once the health gate has passed.
fn start(
    state: &Shared,
    events: &broadcast::Sender<String>,
    name: &str,
    c: &Creature,
) -> (u16, &'static str, String) {
    let (failure, gate) = {
        let mut state = state.lock().unwrap();
        let failure = state.failing_start.remove(name);
        let c = state.creatures.get_mut(name).unwrap();
        // The supervisor is made before its start can fail: a ghost stays behind.
        c.supervised = true;
        c.port = Some(7771);
        c.sleep_reason = None;
        if failure.is_some() {
            c.status = "stopped".into();
        } else {
            c.status = "starting".into();
            c.reachable = true;
        }
        (failure, state.health_gate)
    };
    if let Some(output) = failure {
        return (400, NONE, output);
    }
    if !c.container {
        {
            let mut state = state.lock().unwrap();
            state.creatures.get_mut(name).unwrap().container = true;
        }
        emit(
            state,
            events,
            name,
            json!({"type": "host.spawn", "pid": 4242, "sha": "abc1234def"}),
        );
    }
    promote_after(state, events, name, gate);
    (200, NONE, "ok".to_string())
}

/// `host.promote` once `gate` has passed, if the creature is still there and starting
/// (it then runs).
fn promote_after(
    state: &Shared,
    events: &broadcast::Sender<String>,
    name: &str,
    gate: std::time::Duration,
) {
    let (state, events, name) = (Arc::clone(state), events.clone(), name.to_owned());
    tokio::spawn(async move {
        tokio::time::sleep(gate).await;
        let starting = {
            let mut state = state.lock().unwrap();
            // Archived meanwhile: nothing to promote.
            let c = state.creatures.get_mut(&name);
            let starting = c.as_ref().is_some_and(|c| c.status == "starting");
            if starting && let Some(c) = c {
                c.status = "running".into();
            }
            starting
        };
        if starting {
            emit(
                &state,
                &events,
                &name,
                json!({"type": "host.promote", "sha": "abc1234def"}),
            );
        }
    });
}

/// What a budget `PUT` changes: a dollar amount of at least 0, an action of `sleep`,
/// `warn`, `off`; `None` when neither (`400 nothing to update`).
fn cap_patch(body: &Value) -> Option<(Option<f64>, Option<String>)> {
    let daily = body["daily_usd"].as_f64().filter(|d| *d >= 0.0);
    let action = body["action"]
        .as_str()
        .filter(|a| ["sleep", "warn", "off"].contains(a))
        .map(str::to_owned);
    (daily.is_some() || action.is_some()).then_some((daily, action))
}

/// `POST /api/creatures`: refused while degraded (503, JSON) or for a bad name, an
/// existing one or a model it does not know (400, the reason); else `202` at once,
/// `creature.spawning`, and `creature.spawned` once its directory is made (it is then
/// listed `stopped`, no supervisor running it).
fn spawn(
    state: &Shared,
    events: &broadcast::Sender<String>,
    seen: &Seen,
) -> (u16, &'static str, String) {
    let name = seen.body["name"]
        .as_str()
        .unwrap_or_default()
        .trim()
        .to_owned();
    let model = seen.body["model"]
        .as_str()
        .map(str::trim)
        .filter(|m| !m.is_empty());
    {
        let state = state.lock().unwrap();
        if !state.down.is_empty() {
            let mut health = health(&state);
            let body = json!({"error": "Orchestrator degraded — cannot spawn creatures",
                "dependencies": health["dependencies"].take()});
            return (503, JSON, body.to_string());
        }
        let good = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !good {
            return (
                400,
                NONE,
                "invalid name (lowercase alphanumeric + hyphens)".into(),
            );
        }
        if let Some(model) = model
            && !["claude-opus-4-6", "gpt-5"].contains(&model)
        {
            return (400, NONE, format!("unsupported model \"{model}\""));
        }
        if state.creatures.contains_key(&name) {
            return (400, NONE, format!("creature \"{name}\" already exists"));
        }
    }
    emit(state, events, &name, json!({"type": "creature.spawning"}));
    let model = model.map(str::to_owned);
    let (state, events, spawned) = (Arc::clone(state), events.clone(), name.clone());
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        {
            let mut state = state.lock().unwrap();
            let mut c = Creature::new("stopped");
            c.model = model;
            state.creatures.insert(spawned.clone(), c);
        }
        emit(
            &state,
            &events,
            &spawned,
            json!({"type": "creature.spawned"}),
        );
    });
    (
        202,
        JSON,
        json!({"ok": true, "name": name, "status": "spawning"}).to_string(),
    )
}

/// `restart`, `rebuild`, `remount` of a creature a supervisor runs: its container made
/// again (a rebuild's `docker build` may fail: 400 with its output), `starting`, then
/// `host.spawn` at once and `host.promote` once its health gate has passed.
fn lifecycle(
    state: &Shared,
    events: &broadcast::Sender<String>,
    name: &str,
    action: &str,
    c: &Creature,
) -> (u16, &'static str, String) {
    if !c.supervised {
        return (400, NONE, format!("creature \"{name}\" is not running"));
    }
    let gate = {
        let mut state = state.lock().unwrap();
        if action == "rebuild"
            && let Some(output) = state.failing_build.remove(name)
        {
            return (400, NONE, output);
        }
        let c = state.creatures.get_mut(name).unwrap();
        c.status = "starting".into();
        c.reachable = true;
        c.container = true;
        state.health_gate
    };
    emit(
        state,
        events,
        name,
        json!({"type": "host.spawn", "pid": 4243, "sha": "abc1234def"}),
    );
    promote_after(state, events, name, gate);
    (200, NONE, "ok".to_string())
}

/// `GET /api/creatures/:name/files` (`index.ts:1296`): the tabs of the creature's
/// `genome.json` as they are, and each one's data: a `jsonl` file's last `limit || 10`
/// non-empty lines parsed (a line that is not JSON, or is falsy, left out), any other
/// file's text (`""` when it cannot be read). It reads where the tab says, inside the
/// creature's directory or not.
fn files(dir: Option<std::path::PathBuf>) -> Value {
    let genome = dir
        .as_ref()
        .and_then(|d| std::fs::read_to_string(d.join("genome.json")).ok())
        .and_then(|g| serde_json::from_str::<Value>(&g).ok());
    let tabs = genome
        .as_ref()
        .and_then(|g| g.get("tabs"))
        .filter(|t| t.is_array())
        .cloned()
        .unwrap_or_else(|| json!([]));
    let mut data = serde_json::Map::new();
    for tab in tabs.as_array().into_iter().flatten() {
        let id = match tab.get("id") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => "undefined".into(),
        };
        let file = tab
            .get("file")
            .and_then(Value::as_str)
            .unwrap_or("undefined");
        let text = dir
            .as_ref()
            .and_then(|d| std::fs::read_to_string(d.join(file)).ok());
        let value = if tab.get("type").and_then(Value::as_str) == Some("jsonl") {
            let n = tab
                .get("limit")
                .and_then(Value::as_u64)
                .filter(|n| *n > 0)
                .unwrap_or(10) as usize;
            let text = text.unwrap_or_default();
            let lines: Vec<&str> = text.trim().split('\n').filter(|l| !l.is_empty()).collect();
            let rows: Vec<Value> = lines[lines.len().saturating_sub(n)..]
                .iter()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .filter(|v| {
                    !matches!(v, Value::Null | Value::Bool(false))
                        && v.as_f64() != Some(0.0)
                        && v.as_str() != Some("")
                })
                .collect();
            Value::from(rows)
        } else {
            Value::from(text.unwrap_or_default())
        };
        data.insert(id, value);
    }
    json!({"tabs": tabs, "data": data})
}

/// `POST /api/ranger/chat` (`index.ts:740`, `ranger.ts` `chat`): `message || text`
/// required; with no model key, a 200 with no content type whose events are the error
/// and `done`; else the scripted answer's events and `done`, as server-sent events.
fn ranger(state: &Shared, seen: &Seen) -> (u16, &'static str, String) {
    if seen.body.is_null() {
        return (400, NONE, "Unexpected end of JSON input".into());
    }
    let said = |k: &str| {
        seen.body
            .get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    };
    let Some(message) = said("message").or_else(|| said("text")) else {
        return (400, NONE, "message is required".into());
    };
    let about = seen
        .body
        .pointer("/context/creature")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let sse = |events: &[Value]| -> String {
        events
            .iter()
            .chain(std::iter::once(&json!({"type": "done"})))
            .map(|e| format!("data: {e}\n\n"))
            .collect()
    };
    let mut state = state.lock().unwrap();
    match state.ranger.clone() {
        None => (
            200,
            NONE,
            sse(&[json!({"type": "error", "text": "No ANTHROPIC_API_KEY configured"})]),
        ),
        Some(events) => {
            state.ranger_asked.push((message.to_owned(), about));
            (200, "text/event-stream", sse(&events))
        }
    }
}
