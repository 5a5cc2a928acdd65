//! The OpenSeed client and attachment against the stand-in orchestrator: status, costs,
//! actions and their refusals, tokens, the event stream, the orchestrator going away and
//! coming back (nothing missed, nothing twice), the run file; and the routes of its web
//! dashboard (lifecycle, spawn, genomes, models, budgets).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use crate::common::http::openseed::{Creature, StandIn};
use dreamwatch::openseed::{
    ApiStatus, AttachOptions, Cap, Client, EventKind, Lifecycle, OpenSeedError, SleepReason,
    SpawnRequest, Target, Token, Tokens, Update, attach, event::ORCHESTRATOR,
};
use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedReceiver;

const TOKEN: &str = "finch-token-5d1e-SECRET";

async fn garden() -> StandIn {
    StandIn::start(&[
        ("finch", Creature::new("running")),
        ("wren", Creature::new("sleeping")),
        ("moss", Creature::new("stopped")),
    ])
    .await
}

fn client(stand_in: &StandIn, tokens: Tokens) -> Client {
    Client::new(&stand_in.base, Arc::new(tokens), Duration::from_secs(5)).unwrap()
}

fn options() -> AttachOptions {
    AttachOptions {
        timeout: Duration::from_secs(5),
        poll_every: Duration::from_secs(600),
        backoff_first: Duration::from_millis(10),
        backoff_max: Duration::from_millis(40),
        first_backfill: 20,
    }
}

/// The next update (a test that gets none fails instead of hanging).
async fn next(rx: &mut UnboundedReceiver<Update>) -> Update {
    tokio::time::timeout(Duration::from_secs(20), rx.recv())
        .await
        .expect("no update came")
        .expect("the attachment ended")
}

/// Updates until one matches; the ones before it are returned too.
async fn until(rx: &mut UnboundedReceiver<Update>, want: impl Fn(&Update) -> bool) -> Vec<Update> {
    let mut got = Vec::new();
    loop {
        let update = next(rx).await;
        let done = want(&update);
        got.push(update);
        if done {
            return got;
        }
    }
}

fn thoughts(updates: &[Update]) -> Vec<String> {
    updates
        .iter()
        .filter_map(|u| match u {
            Update::Event(e) | Update::Stored(e) => match &e.kind {
                EventKind::Thought { text } => Some(format!("{}: {text}", e.creature)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn status_usage_and_budget() {
    let stand_in = garden().await;
    stand_in.set_spending("finch", 17.5, 20.0);
    let client = client(&stand_in, Tokens::default());
    let creatures = client.creatures().await.unwrap();
    let finch = creatures.iter().find(|c| c.name == "finch").unwrap();
    assert_eq!(finch.status, ApiStatus::Running);
    let wren = creatures.iter().find(|c| c.name == "wren").unwrap();
    assert_eq!(wren.status, ApiStatus::Sleeping);
    assert_eq!(wren.sleep_reason, Some(SleepReason::Fatigue));
    let usage = client.usage().await.unwrap();
    assert_eq!(usage.usage["finch"].daily_cost_usd, 17.5);
    assert_eq!(usage.total, 17.5);
    let budget = client.budget("finch").await.unwrap();
    assert_eq!((budget.daily_spent_usd, budget.daily_cap_usd), (17.5, 20.0));
    assert_eq!(budget.level(), dreamwatch::openseed::BudgetLevel::Near);
    let paths: Vec<String> = stand_in.seen().iter().map(|s| s.path.clone()).collect();
    assert_eq!(
        paths,
        [
            "/api/creatures",
            "/api/usage",
            "/api/creatures/finch/budget"
        ]
    );
    assert!(
        stand_in
            .seen()
            .iter()
            .all(|s| !s.headers.contains_key("authorization"))
    );
}

#[tokio::test]
async fn actions_and_refusals() {
    let stand_in = garden().await;
    let client = client(&stand_in, Tokens::default());
    client.message("wren", "Look at the moon.").await.unwrap();
    assert_eq!(
        stand_in.creature("wren").status,
        "running",
        "a message wakes it"
    );
    client.wake("finch").await.unwrap();
    client.stop("finch").await.unwrap();
    assert_eq!(stand_in.creature("finch").status, "stopped");
    assert_eq!(
        stand_in.creature("finch").sleep_reason,
        None,
        "after a stop, never `user`"
    );
    match client.wake("finch").await {
        Err(OpenSeedError::Refused { status: 400, body }) => {
            assert_eq!(body, "creature \"finch\" is not running");
        }
        other => panic!("{other:?}"),
    }
    client.start("finch").await.unwrap();
    assert_eq!(
        stand_in.creature("finch").status,
        "starting",
        "until its health gate has passed"
    );
    assert!(matches!(
        client.start("finch").await,
        Err(OpenSeedError::Refused { status: 400, .. })
    ));
    let seen = stand_in.seen();
    assert_eq!(seen[0].method, "POST");
    assert_eq!(seen[0].path, "/api/creatures/wren/message");
    assert_eq!(seen[0].body, json!({"text": "Look at the moon."}));
    assert_eq!(seen[1].path, "/api/creatures/finch/wake");
    assert!(
        seen[1].body["reason"]
            .as_str()
            .unwrap()
            .contains("dreamwatch")
    );
}

#[tokio::test]
async fn a_token_is_sent_where_asked_and_never_shown() {
    let stand_in = garden().await;
    stand_in.require_token("finch", TOKEN);
    let without = client(&stand_in, Tokens::default());
    let refused = without.stop("finch").await.unwrap_err();
    assert!(matches!(
        refused,
        OpenSeedError::Unauthorized { status: 401 }
    ));
    assert!(refused.to_string().contains("DREAMWATCH_OPENSEED_TOKEN"));

    let tokens = Tokens {
        all: None,
        creatures: BTreeMap::from([("finch".into(), Token::new(TOKEN).unwrap())]),
    };
    let with = client(&stand_in, tokens);
    assert!(!format!("{with:?}").contains(TOKEN));
    with.stop("finch").await.unwrap();
    with.wake("wren").await.unwrap();
    let seen = stand_in.seen();
    let stop = seen
        .iter()
        .rfind(|s| s.path.ends_with("finch/stop"))
        .unwrap();
    assert_eq!(stop.headers["authorization"], format!("Bearer {TOKEN}"));
    let wake = seen
        .iter()
        .rfind(|s| s.path.ends_with("wren/wake"))
        .unwrap();
    assert!(
        !wake.headers.contains_key("authorization"),
        "finch's token is finch's"
    );

    let all = client(
        &stand_in,
        Tokens {
            all: Token::new(TOKEN),
            creatures: BTreeMap::new(),
        },
    );
    all.start("finch").await.unwrap();
    let error = all.start("finch").await.unwrap_err();
    assert!(!format!("{error} {error:?}").contains(TOKEN));
}

#[tokio::test]
async fn a_stalled_orchestrator_times_out() {
    let server = crate::common::http::Server::start(vec![
        crate::common::http::Reply::Stall,
        crate::common::http::Reply::Stall,
    ])
    .await;
    let client = Client::new(&server.base, Arc::default(), Duration::from_millis(200)).unwrap();
    assert!(matches!(
        client.creatures().await,
        Err(OpenSeedError::Timeout(_))
    ));
    assert!(matches!(
        client.events().await,
        Err(OpenSeedError::Timeout(_))
    ));
}

#[tokio::test]
async fn the_stream_brings_events_and_the_status_follows() {
    let stand_in = garden().await;
    stand_in.emit(
        "finch",
        json!({"type": "creature.thought", "text": "before we met"}),
    );
    let (_attachment, mut rx) = attach(
        Target::Url(stand_in.base.clone()),
        Tokens::default(),
        options(),
    );
    let first = until(
        &mut rx,
        |u| matches!(u, Update::Event(e) if e.creature == ORCHESTRATOR),
    )
    .await;
    assert!(matches!(&first[0], Update::Up { base } if *base == stand_in.base));
    assert!(matches!(&first[1], Update::Creatures(c) if c.len() == 3));
    assert!(matches!(&first[2], Update::Costs(c) if c.budgets.len() == 3));
    assert_eq!(
        thoughts(&first),
        ["finch: before we met"],
        "the stored history first"
    );
    assert!(
        first
            .iter()
            .any(|u| matches!(u, Update::Stored(e) if e.creature == "finch"))
    );

    stand_in.emit(
        "finch",
        json!({"type": "creature.thought", "text": "hello"}),
    );
    stand_in.emit(
        "finch",
        json!({"type": "creature.sleep", "text": "tired", "seconds": 600, "actions": 3}),
    );
    let got = until(&mut rx, |u| {
        matches!(u, Update::Creatures(c) if c.iter().any(|c| c.name == "finch" && c.status == ApiStatus::Sleeping))
    })
    .await;
    assert_eq!(thoughts(&got), ["finch: hello"]);
    assert!(
        got.iter()
            .any(|u| matches!(u, Update::Event(e) if matches!(e.kind, EventKind::Sleep { .. })))
    );
}

#[tokio::test]
async fn going_away_and_coming_back_loses_nothing_and_repeats_nothing() {
    let stand_in = garden().await;
    let (attachment, mut rx) = attach(
        Target::Url(stand_in.base.clone()),
        Tokens::default(),
        options(),
    );
    until(
        &mut rx,
        |u| matches!(u, Update::Event(e) if e.creature == ORCHESTRATOR),
    )
    .await;
    assert!(attachment.client().is_some());
    stand_in.emit("wren", json!({"type": "creature.thought", "text": "one"}));
    until(&mut rx, |u| matches!(u, Update::Event(_))).await;

    stand_in.go_away();
    let down = until(&mut rx, |u| matches!(u, Update::Down { .. })).await;
    assert_eq!(thoughts(&down), Vec::<String>::new());
    // Said again at each failed try, each a little later.
    let Update::Down {
        retry_in: first, ..
    } = next(&mut rx).await
    else {
        panic!()
    };
    let Update::Down {
        retry_in: second,
        error,
    } = next(&mut rx).await
    else {
        panic!()
    };
    assert!(second >= first, "{first:?} then {second:?}");
    assert!(error.contains("cannot reach"), "{error}");
    assert!(attachment.client().is_none());

    // The stream missed these (a dropped tunnel: the orchestrator went on).
    stand_in.emit("wren", json!({"type": "creature.thought", "text": "two"}));
    stand_in.emit(
        "finch",
        json!({"type": "creature.thought", "text": "three"}),
    );
    stand_in.come_back().await;
    let back = until(&mut rx, |u| matches!(u, Update::Up { .. })).await;
    assert!(
        back.iter()
            .all(|u| matches!(u, Update::Down { .. } | Update::Up { .. }))
    );
    stand_in.emit("wren", json!({"type": "creature.thought", "text": "four"}));
    let after = until(&mut rx, |u| matches!(u, Update::Event(e) if matches!(&e.kind, EventKind::Thought { text } if text == "four"))).await;
    assert_eq!(
        thoughts(&after),
        ["wren: two", "finch: three", "wren: four"]
    );
    let stored = after
        .iter()
        .filter(|u| matches!(u, Update::Stored(_)))
        .count();
    assert_eq!(stored, 2, "what the stream missed is older news: {after:?}");
    assert!(attachment.client().is_some());
}

#[tokio::test]
async fn the_run_file_is_followed() {
    let stand_in = garden().await;
    let home = tempfile::tempdir().unwrap();
    let run_file = home.path().join("orchestrator.json");
    std::fs::write(
        &run_file,
        json!({"port": stand_in.port, "pid": 1, "started_at": "2026-03-09T09:59:00.000Z"})
            .to_string(),
    )
    .unwrap();
    let (_attachment, mut rx) = attach(
        Target::RunFile(run_file.clone()),
        Tokens::default(),
        options(),
    );
    assert!(matches!(next(&mut rx).await, Update::Up { .. }));
    stand_in.go_away();
    std::fs::remove_file(&run_file).unwrap();
    let down = until(
        &mut rx,
        |u| matches!(u, Update::Down { error, .. } if error.contains("no orchestrator running")),
    )
    .await;
    assert!(!down.is_empty());
    stand_in.come_back().await;
    std::fs::write(&run_file, json!({"port": stand_in.port}).to_string()).unwrap();
    until(&mut rx, |u| matches!(u, Update::Up { .. })).await;
}

#[tokio::test]
async fn a_run_file_left_behind_is_a_dead_orchestrator_until_it_is_back() {
    let stand_in = garden().await;
    let home = tempfile::tempdir().unwrap();
    let run_file = home.path().join("orchestrator.json");
    stand_in.write_run_file(&run_file);
    let (_attachment, mut rx) = attach(Target::RunFile(run_file), Tokens::default(), options());
    assert!(matches!(next(&mut rx).await, Update::Up { .. }));
    // SIGTERM: the file stays, naming a dead pid; its port refuses.
    stand_in.go_away();
    let down = until(
        &mut rx,
        |u| matches!(u, Update::Down { error, .. } if error.contains("cannot reach the orchestrator")),
    )
    .await;
    assert!(!down.is_empty());
    stand_in.come_back().await;
    until(&mut rx, |u| matches!(u, Update::Up { .. })).await;
}

#[tokio::test]
async fn the_stand_in_answers_as_the_orchestrator_does() {
    let stand_in = StandIn::start(&[
        ("finch", Creature::new("running")),
        ("wren", Creature::new("stopped")),
        ("moss", Creature::paused_for_budget(5.5, 5.0)),
    ])
    .await;
    let client = client(&stand_in, Tokens::default());
    let raw = reqwest::Client::new();
    let list: Value = raw
        .get(format!("{}/api/creatures", stand_in.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let wren = list
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "wren")
        .unwrap();
    assert_eq!(
        (&wren["sha"], &wren["port"], &wren["sleepReason"]),
        (&Value::Null, &Value::Null, &Value::Null),
        "no supervisor runs it"
    );
    let status: Value = raw
        .get(format!("{}/api/status", stand_in.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(status["status"], "healthy");
    assert_eq!(status["dependencies"]["pricing"]["status"], "up");
    // `ok` and the 400s carry no content type.
    let ok = raw
        .post(format!("{}/api/creatures/finch/wake", stand_in.base))
        .json(&json!({"reason": "test"}))
        .send()
        .await
        .unwrap();
    assert!(!ok.headers().contains_key("content-type"));
    // A budget pause is undone by start only.
    let refused = client
        .message("moss", "hello")
        .await
        .unwrap_err()
        .to_string();
    assert_eq!(refused, "the orchestrator refused (400): fetch failed");
    client.start("moss").await.unwrap();
    assert_eq!(stand_in.creature("moss").status, "starting");
    // Stop and start emit nothing; a fresh container gives host.spawn.
    client.start("wren").await.unwrap();
    let usage = client.usage().await.unwrap();
    assert!(usage.usage.contains_key("_narrator"));
    let stored = client.recent_events("wren").await.unwrap();
    let kinds: Vec<String> = stored
        .iter()
        .map(|e| {
            format!("{:?}", e.kind)
                .split([' ', '{'])
                .next()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(kinds, ["HostSpawn"]);
    // Events of a name it does not know: [] (and a directory made for it).
    assert!(client.recent_events("nobody").await.unwrap().is_empty());
    assert_eq!(stand_in.asked_of_unknown(), ["nobody"]);
    stand_in.corrupt_events("wren");
    assert!(client.recent_events("wren").await.unwrap().is_empty());
}

#[tokio::test]
async fn the_dashboards_routes() {
    let stand_in = garden().await;
    let client = client(&stand_in, Tokens::default());
    let genomes = client.genomes().await.unwrap();
    assert_eq!(genomes[0].name, "dreamer");
    let models = client.models().await.unwrap();
    assert!(
        models
            .iter()
            .any(|m| m.id == "claude-opus-4-6" && m.is_default)
    );

    client.lifecycle("finch", Lifecycle::Restart).await.unwrap();
    assert_eq!(stand_in.creature("finch").status, "starting");
    match client.lifecycle("moss", Lifecycle::Remount).await {
        Err(OpenSeedError::Refused { status: 400, body }) => {
            assert_eq!(body, "creature \"moss\" is not running");
        }
        other => panic!("{other:?}"),
    }
    stand_in.set_down("docker", Some("Cannot connect to the Docker daemon"));
    let degraded = client
        .lifecycle("finch", Lifecycle::Rebuild)
        .await
        .unwrap_err();
    assert_eq!(
        degraded.to_string(),
        "the orchestrator refused (503): Orchestrator degraded — cannot rebuild creatures (docker down: Cannot connect to the Docker daemon)"
    );
    let spawn = SpawnRequest {
        name: "newt".into(),
        genome: Some("dreamer".into()),
        purpose: None,
        model: None,
    };
    assert!(matches!(
        client.spawn(&spawn).await,
        Err(OpenSeedError::Refused { status: 503, .. })
    ));
    stand_in.set_down("docker", None);
    client.spawn(&spawn).await.unwrap();
    let posted = stand_in
        .seen()
        .into_iter()
        .rfind(|s| s.path == "/api/creatures")
        .unwrap();
    assert_eq!(posted.body, json!({"name": "newt", "genome": "dreamer"}));
    let bad = SpawnRequest {
        name: "Bad Name".into(),
        ..spawn
    };
    assert_eq!(
        client.spawn(&bad).await.unwrap_err().to_string(),
        "the orchestrator refused (400): invalid name (lowercase alphanumeric + hyphens)"
    );

    let cap = Cap {
        daily_usd: 4.5,
        action: "warn".into(),
    };
    assert_eq!(client.set_cap(Some("wren"), &cap).await.unwrap(), cap);
    assert_eq!(client.budget("wren").await.unwrap().daily_cap_usd, 4.5);
    let global = client
        .set_cap(
            None,
            &Cap {
                daily_usd: 9.0,
                action: "off".into(),
            },
        )
        .await
        .unwrap();
    assert_eq!(global, client.global_cap().await.unwrap());
    let nothing = Cap {
        daily_usd: -1.0,
        action: "maybe".into(),
    };
    assert_eq!(
        client
            .set_cap(None, &nothing)
            .await
            .unwrap_err()
            .to_string(),
        "the orchestrator refused (400): nothing to update"
    );

    client.lifecycle("wren", Lifecycle::Archive).await.unwrap();
    assert!(!stand_in.has("wren"));
    assert!(
        client
            .creatures()
            .await
            .unwrap()
            .iter()
            .all(|c| c.name != "wren")
    );
}
