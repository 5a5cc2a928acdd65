//! Operator control of a running creature: in-process (the observatory's channel) and over
//! the control socket (a headless runner).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, TimeDelta, TimeZone, Utc};
use dreamwatch::control::{Answer, ControlCommand, HostStatus, HostedCreature, send_command};
use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::memory::status::Status;
use dreamwatch::runner::brain::rehearsal::{self, Rehearsal};
use dreamwatch::runner::clock::{Clock, VirtualClock};
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};
use tokio::sync::watch;

use crate::common::runner::SimulatedShell;

const PATIENCE: Duration = Duration::from_secs(10);

fn options(dir: &Path, speed: f64) -> RunnerOptions {
    let config = RunnerConfig {
        speed,
        ..RunnerConfig::default()
    };
    let mut opts = RunnerOptions::new(
        dir.to_path_buf(),
        config,
        Arc::new(Rehearsal::new()),
        rehearsal::MODEL.into(),
    );
    opts.tools = Arc::new(SimulatedShell {
        delay: Duration::from_millis(40),
    });
    opts
}

async fn status_where(
    status: &mut watch::Receiver<HostStatus>,
    what: &str,
    f: impl Fn(&HostStatus) -> bool,
) {
    let waited = tokio::time::timeout(PATIENCE, async {
        loop {
            if f(&status.borrow_and_update()) {
                return;
            }
            if status.changed().await.is_err() {
                panic!("the runner went away while waiting for {what}");
            }
        }
    })
    .await;
    assert!(
        waited.is_ok(),
        "no status {what}; last: {:?}",
        *status.borrow()
    );
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_default()
}

async fn file_where(dir: &Path, file: &str, what: &str, f: impl Fn(&str) -> bool) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while tokio::time::Instant::now() < deadline {
        if f(&read(dir, file)) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{file}: never {what}");
}

fn asleep(s: &HostStatus) -> bool {
    matches!(
        s.status,
        Status::Asleep { .. } | Status::DeepSleep { .. } | Status::Napping { .. }
    )
}

/// Waits until the runner is idle with no timer due (see [`VirtualClock::settled`]).
async fn settle(clock: &VirtualClock, what: &str) {
    assert!(
        tokio::time::timeout(PATIENCE, clock.settled())
            .await
            .is_ok(),
        "never settled {what}"
    );
}

/// A virtual clock that only the test moves, from a fixed start.
fn held_clock() -> Arc<VirtualClock> {
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    Arc::new(VirtualClock::held(start, TimeDelta::seconds(2)))
}

/// Pause, resume, message, wake and force sleep, each checked in the files and the status.
async fn drive(
    dir: &Path,
    hosted: &HostedCreature,
    clock: &VirtualClock,
    send: impl AsyncFn(ControlCommand) -> Option<Answer>,
) {
    let mut status = hosted.status.clone();
    // Paused at birth, while the first session's commands run.
    send(ControlCommand::Pause).await;
    status_where(&mut status, "paused", |s| s.status == Status::Paused).await;
    assert!(status.borrow().brain.contains("rehearsal"));
    file_where(dir, ".sys/runner.json", "paused", |t| {
        t.contains("\"paused\": true")
    })
    .await;
    // What was in flight lands; then nothing moves, however long.
    settle(clock, "paused").await;
    let before = read(dir, ".self/conversation.jsonl").len();
    clock.advance(TimeDelta::hours(6));
    settle(clock, "six hours later").await;
    assert_eq!(
        read(dir, ".self/conversation.jsonl").len(),
        before,
        "a paused creature does nothing"
    );

    send(ControlCommand::Resume).await;
    status_where(&mut status, "resumed", |s| s.status != Status::Paused).await;
    file_where(dir, ".sys/runner.json", "resumed", |t| {
        t.contains("\"paused\": false")
    })
    .await;
    file_where(dir, ".self/conversation.jsonl", "growing again", |t| {
        t.len() > before
    })
    .await;

    send(ControlCommand::Message {
        text: "Hello from the test, sprout.".into(),
    })
    .await;
    file_where(dir, "MESSAGES.md", "holding the message", |t| {
        t.contains("Hello from the test, sprout.")
    })
    .await;
    file_where(
        dir,
        ".self/conversation.jsonl",
        "delivering the message",
        |t| t.contains("MESSAGE FROM YOUR CREATOR") && t.contains("Hello from the test, sprout."),
    )
    .await;
    file_where(dir, ".sys/events.jsonl", "recording the message", |t| {
        t.contains("\"type\":\"creature.message\"") && t.contains("\"source\":\"operator\"")
    })
    .await;

    status_where(&mut status, "asleep", asleep).await;
    send(ControlCommand::Wake).await;
    file_where(dir, ".sys/events.jsonl", "woken by the operator", |t| {
        t.contains("Woken early by the operator")
    })
    .await;

    status_where(&mut status, "awake", |s| s.status == Status::Awake).await;
    let answer = send(ControlCommand::ForceSleep).await;
    assert!(
        matches!(answer, Some(Answer::Dreaming | Answer::DreamsNext)),
        "{answer:?}"
    );
    file_where(dir, ".sys/events.jsonl", "forcing a sleep", |t| {
        t.contains("forced consolidation (operator)")
    })
    .await;
    file_where(
        dir,
        ".sys/events.jsonl",
        "dreaming after the forced sleep",
        |t| {
            let at = t
                .rfind("forced consolidation (operator)")
                .unwrap_or(usize::MAX);
            t.get(at..)
                .is_some_and(|rest| rest.contains("\"type\":\"creature.dream\""))
        },
    )
    .await;
    status_where(&mut status, "asleep after the forced dream", asleep).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operator_commands_in_process() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    let clock = held_clock();
    let mut opts = options(&dir, 20.0);
    opts.clock = clock.clone();
    let runner = Runner::open_genome(opts, Dreamer::default()).unwrap();
    let hosted = runner.hosted();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(runner.run(async {
        let _ = stopped.await;
    }));
    let control = hosted.control.clone();
    drive(&dir, &hosted, &clock, async |cmd| {
        control.ask(cmd).await.unwrap()
    })
    .await;
    let _ = stop.send(());
    let report = tokio::time::timeout(PATIENCE, task).await.unwrap().unwrap();
    assert!(report.dreams >= 1);
    assert_eq!(hosted.status.borrow().status, Status::Stopped);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operator_commands_over_the_socket() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    let clock = held_clock();
    let mut opts = options(&dir, 20.0);
    opts.clock = clock.clone();
    opts.control_socket = true;
    let runner = Runner::open_genome(opts, Dreamer::default()).unwrap();
    let hosted = runner.hosted();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(runner.run(async {
        let _ = stopped.await;
    }));
    let d = dir.clone();
    drive(&dir, &hosted, &clock, async |cmd| {
        send_command(&d, &cmd).await.unwrap()
    })
    .await;
    let _ = stop.send(());
    tokio::time::timeout(PATIENCE, task).await.unwrap().unwrap();
    assert!(
        !dir.join(".sys/control.sock").exists(),
        "the socket goes with the runner"
    );
    assert!(send_command(&dir, &ControlCommand::Wake).await.is_err());
}

/// The time of the first `.sys/events.jsonl` line holding `needle`.
fn event_time(dir: &Path, needle: &str) -> Option<DateTime<Utc>> {
    read(dir, ".sys/events.jsonl")
        .lines()
        .find(|l| l.contains(needle))
        .and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .and_then(|v| v["t"].as_str().map(str::to_string))
        .and_then(|t| DateTime::parse_from_rfc3339(&t).ok())
        .map(|t| t.with_timezone(&Utc))
}

/// Pause, wake early and force sleep on a virtual clock that only the test moves: each
/// step waits for the runner to settle (nothing in flight, no timer due), never for a
/// length of real time.
#[tokio::test]
async fn operator_commands_on_a_held_virtual_clock() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    let clock = held_clock();
    let mut opts = options(&dir, 1.0);
    opts.clock = clock.clone();
    opts.tools = Arc::new(SimulatedShell::default());
    let runner = Runner::open_genome(opts, Dreamer::default()).unwrap();
    let hosted = runner.hosted();
    let control = hosted.control.clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(runner.run(async {
        let _ = stopped.await;
    }));
    let status = || hosted.status.borrow().status;

    // Paused at birth: hours pass, nothing happens.
    control.ask(ControlCommand::Pause).await.unwrap();
    settle(&clock, "paused").await;
    let before = read(&dir, ".self/conversation.jsonl");
    clock.advance(TimeDelta::hours(6));
    settle(&clock, "six hours later").await;
    assert_eq!(status(), Status::Paused);
    assert_eq!(
        read(&dir, ".self/conversation.jsonl"),
        before,
        "a paused creature does nothing"
    );

    // Resumed, it lives until it sleeps; scheduling its timer did not move time.
    control.ask(ControlCommand::Resume).await.unwrap();
    settle(&clock, "asleep after resuming").await;
    let wake_at = status().wakes_at().expect("asleep");
    let fell_asleep = clock.now();
    assert!(wake_at > fell_asleep, "time jumped to the wake time");

    // Woken early, halfway: the wake is at that time, not at the timer's.
    let early = (wake_at - fell_asleep) / 2;
    clock.advance(early);
    control.ask(ControlCommand::Wake).await.unwrap();
    settle(&clock, "after the early wake").await;
    assert_eq!(
        event_time(&dir, "Woken early by the operator"),
        Some(fell_asleep + early)
    );
    assert_eq!(event_time(&dir, "Sleep timer expired"), None);

    // Asleep again inside the dream interval: a force sleep dreams now, at this time.
    assert!(status().wakes_at().is_some(), "asleep again");
    let forced_at = clock.now();
    assert_eq!(
        control.ask(ControlCommand::ForceSleep).await.unwrap(),
        Some(Answer::Dreaming)
    );
    settle(&clock, "after the forced sleep").await;
    assert_eq!(
        event_time(&dir, "forced consolidation (operator)"),
        Some(forced_at)
    );
    let events = read(&dir, ".sys/events.jsonl");
    let forced = events.find("forced consolidation (operator)").unwrap();
    assert!(events[forced..].contains("\"type\":\"creature.dream\""));
    // Asleep after the dream: the answer says until when.
    let until = status().wakes_at().expect("asleep after the dream");
    assert_eq!(
        control.ask(ControlCommand::ForceSleep).await.unwrap(),
        Some(Answer::AlreadyAsleep { until })
    );
    let _ = stop.send(());
    tokio::time::timeout(PATIENCE, task).await.unwrap().unwrap();
}
