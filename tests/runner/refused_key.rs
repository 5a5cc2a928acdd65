//! A model call that fails says why in words: a refused key names the variable to check
//! and is not tried again until the operator wakes the creature; a refused connection
//! names the URL and the cause, and is tried again later. The model is an Anthropic one
//! on the local test server, the clock a held virtual one.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chrono::{TimeDelta, TimeZone, Utc};
use dreamwatch::control::ControlCommand;
use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::llm::{ProviderKind, ProviderOptions, RetryPolicy, build_provider_with};
use dreamwatch::memory::status::Status;
use dreamwatch::runner::brain::Model;
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};
use serde_json::json;

use crate::common::http::{Reply, Server, anthropic, refused_base};

const PATIENCE: Duration = Duration::from_secs(10);

/// A runner on an Anthropic model at `base` with a key, on a virtual clock only the
/// test moves; one try per model call (the runner's backoff is what is tested).
fn runner(dir: &Path, base: &str, clock: Arc<VirtualClock>) -> Runner<Dreamer> {
    let env = |name: &str| (name == "ANTHROPIC_API_KEY").then(|| "sk-ant-wrong".to_string());
    let options = ProviderOptions {
        retry: RetryPolicy {
            max_tries: 1,
            ..RetryPolicy::default()
        },
        stream: false,
        ..ProviderOptions::default()
    };
    let provider = build_provider_with(
        ProviderKind::Anthropic,
        Some("m".into()),
        Some(base.into()),
        &env,
        options,
    )
    .unwrap();
    let mut opts = RunnerOptions::new(
        dir.to_path_buf(),
        RunnerConfig::default(),
        Arc::new(Model(Arc::from(provider))),
        "m".into(),
    );
    opts.clock = clock;
    Runner::open_genome(opts, Dreamer::default()).unwrap()
}

fn held_clock() -> Arc<VirtualClock> {
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    Arc::new(VirtualClock::held(start, TimeDelta::seconds(2)))
}

fn errors(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join(".sys/events.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| e["type"] == "creature.error")
        .collect()
}

async fn until(what: &str, f: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while tokio::time::Instant::now() < deadline {
        if f() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("never {what}");
}

async fn settle(clock: &VirtualClock, what: &str) {
    assert!(
        tokio::time::timeout(PATIENCE, clock.settled())
            .await
            .is_ok(),
        "never settled {what}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_key_is_not_retried_until_a_wake() {
    let key_fixed = Arc::new(AtomicBool::new(false));
    let fixed = key_fixed.clone();
    let server = Server::handling(move |seen| {
        if !fixed.load(Ordering::SeqCst) {
            let body = json!({"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}});
            return Reply::json(401, body);
        }
        // Awake turns go to sleep; dreams (requests without tools) consolidate.
        let awake = seen.body["tools"].as_array().is_some_and(|t| !t.is_empty());
        let (content, stop) = if awake {
            let call = json!([{"type": "tool_use", "id": "t1", "name": "set_sleep", "input": {"seconds": 300}}]);
            (call, "tool_use")
        } else {
            let dream = "OBSERVATIONS:\nGRN 09:00 the key works\nREFLECTION:\nRelief.\nPRIORITY:\nRest.";
            (json!([{"type": "text", "text": dream}]), "end_turn")
        };
        Reply::json(200, anthropic::message("m", content, stop, (1, 1)))
    })
    .await;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("locked");
    let clock = held_clock();
    let runner = runner(&dir, &server.base, clock.clone());
    let hosted = runner.hosted();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(runner.run(async {
        let _ = stopped.await;
    }));

    until("an error event", || !errors(&dir).is_empty()).await;
    settle(&clock, "after the refusal").await;
    clock.advance(TimeDelta::hours(6));
    settle(&clock, "six hours later").await;
    assert_eq!(server.seen().len(), 1, "a refused key is not tried again");
    let errors_now = errors(&dir);
    assert_eq!(errors_now.len(), 1, "{errors_now:?}");
    let error = errors_now[0]["error"].as_str().unwrap_or_default();
    assert!(
        error.starts_with("the model refused the key (401): check ANTHROPIC_API_KEY"),
        "{error}"
    );
    assert!(errors_now[0].get("retryIn").is_none(), "no retry scheduled");
    let last_error = hosted
        .status
        .borrow()
        .last_error
        .clone()
        .unwrap_or_default();
    assert!(
        last_error.contains("check ANTHROPIC_API_KEY"),
        "{last_error}"
    );

    key_fixed.store(true, Ordering::SeqCst);
    hosted.control.ask(ControlCommand::Wake).await.unwrap();
    until("a wake tries again", || server.seen().len() >= 2).await;
    until("the fault cleared", || {
        hosted.status.borrow().last_error.is_none()
    })
    .await;

    let _ = stop.send(());
    tokio::time::timeout(PATIENCE, task).await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_connection_names_the_url_and_is_retried() {
    let base = refused_base();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("alone");
    let clock = held_clock();
    let runner = runner(&dir, &base, clock.clone());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(runner.run(async {
        let _ = stopped.await;
    }));

    until("an error event", || !errors(&dir).is_empty()).await;
    let first = errors(&dir)[0].clone();
    assert_eq!(
        first["error"],
        json!(format!(
            "model call failed: cannot connect to {base}/v1/messages: connection refused"
        ))
    );
    assert!(first["retryIn"].as_f64().is_some(), "{first}");
    settle(&clock, "after the first failure").await;
    clock.advance(TimeDelta::minutes(5));
    until("a second try", || errors(&dir).len() >= 2).await;

    let _ = stop.send(());
    tokio::time::timeout(PATIENCE, task).await.unwrap().unwrap();
}

/// A key refused during the sleep work (a dream's model call) is handled as in a wake:
/// said once with the variable to check, not tried again by the sleep work or by the
/// wake timer, and the creature sleeps until a person wakes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_refused_asleep_waits_for_a_person() {
    let key_fixed = Arc::new(AtomicBool::new(false));
    let fixed = key_fixed.clone();
    let server = Server::handling(move |seen| {
        let awake = seen.body["tools"].as_array().is_some_and(|t| !t.is_empty());
        if !awake && !fixed.load(Ordering::SeqCst) {
            let body = json!({"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}});
            return Reply::json(401, body);
        }
        let (content, stop) = if awake {
            let call = json!([{"type": "tool_use", "id": "t1", "name": "set_sleep", "input": {"seconds": 300}}]);
            (call, "tool_use")
        } else {
            let dream = "OBSERVATIONS:\nGRN 09:00 the key works\nREFLECTION:\nRelief.\nPRIORITY:\nRest.";
            (json!([{"type": "text", "text": dream}]), "end_turn")
        };
        Reply::json(200, anthropic::message("m", content, stop, (1, 1)))
    })
    .await;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("dreamless");
    let clock = held_clock();
    let runner = runner(&dir, &server.base, clock.clone());
    let hosted = runner.hosted();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(runner.run(async {
        let _ = stopped.await;
    }));

    until("an error event", || !errors(&dir).is_empty()).await;
    settle(&clock, "after the refusal").await;
    let tried = server.seen().len();
    clock.advance(TimeDelta::hours(6));
    settle(&clock, "six hours later").await;
    assert_eq!(
        server.seen().len(),
        tried,
        "neither the dream nor a wake tries again"
    );
    // The dream's own word (no dream written), and the refusal, said once.
    let errors_now = errors(&dir);
    let text = |e: &serde_json::Value| e["error"].as_str().unwrap_or_default().to_string();
    assert!(
        errors_now
            .iter()
            .all(|e| text(e).contains("check ANTHROPIC_API_KEY") && e.get("retryIn").is_none()),
        "{errors_now:?}"
    );
    let refusals: Vec<_> = errors_now
        .iter()
        .filter(|e| e["phase"] == "sleep")
        .collect();
    assert_eq!(refusals.len(), 1, "{errors_now:?}");
    assert!(
        text(refusals[0]).starts_with("the model refused the key (401): check ANTHROPIC_API_KEY")
            && text(refusals[0]).ends_with("wake to try again"),
        "{errors_now:?}"
    );
    let status = hosted.status.borrow().status;
    assert!(
        matches!(
            status,
            Status::Asleep { until: None } | Status::DeepSleep { until: None }
        ),
        "asleep with no wake time: {status:?}"
    );
    let last_error = hosted.status.borrow().last_error.clone();
    assert!(
        last_error
            .as_deref()
            .is_some_and(|e| e.ends_with("wake to try again")),
        "{last_error:?}"
    );

    key_fixed.store(true, Ordering::SeqCst);
    hosted.control.ask(ControlCommand::Wake).await.unwrap();
    until("a wake tries again", || server.seen().len() > tried).await;
    until("the fault cleared", || {
        hosted.status.borrow().last_error.is_none()
    })
    .await;

    let _ = stop.send(());
    tokio::time::timeout(PATIENCE, task).await.unwrap().unwrap();
}
