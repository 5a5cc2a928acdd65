//! Guardrails on a rehearsal creature: a cost cap and a loop put it to sleep, hold it
//! there however long, leave a morning report, and a person's wake ends the hold.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use chrono::{TimeDelta, TimeZone, Utc};
use dreamwatch::control::{ControlCommand, HostStatus, HostedCreature};
use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::llm::prices::{Price, Prices};
use dreamwatch::memory::guardrail::{self, MorningReport};
use dreamwatch::memory::status::Status;
use dreamwatch::runner::brain::rehearsal::{self, Rehearsal, STUBBORN};
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};
use dreamwatch::runner::guard::Guardrails;
use tokio::sync::watch;

use crate::common::runner::SimulatedShell;

const PATIENCE: Duration = Duration::from_secs(20);

fn options(dir: &Path, rails: Guardrails, clock: Arc<VirtualClock>) -> RunnerOptions {
    let config = RunnerConfig {
        speed: 20.0,
        guardrails: rails,
        ..RunnerConfig::default()
    };
    let mut opts = RunnerOptions::new(
        dir.to_path_buf(),
        config,
        Arc::new(Rehearsal::new()),
        rehearsal::MODEL.into(),
    );
    opts.tools = Arc::new(SimulatedShell::default());
    opts.clock = clock;
    opts
}

fn held_clock() -> Arc<VirtualClock> {
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    Arc::new(VirtualClock::held(start, TimeDelta::seconds(2)))
}

async fn settle(clock: &VirtualClock, what: &str) {
    assert!(
        tokio::time::timeout(PATIENCE, clock.settled())
            .await
            .is_ok(),
        "never settled {what}"
    );
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_default()
}

async fn report_where(dir: &Path, what: &str, f: impl Fn(&MorningReport) -> bool) -> MorningReport {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while tokio::time::Instant::now() < deadline {
        if let Some(r) = guardrail::read(dir).filter(|r| f(r)) {
            return r;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no morning report {what}: {:?}", guardrail::read(dir));
}

async fn status_where(
    status: &mut watch::Receiver<HostStatus>,
    what: &str,
    f: impl Fn(&Status) -> bool,
) {
    let waited = tokio::time::timeout(PATIENCE, async {
        while !f(&status.borrow_and_update().status) {
            if status.changed().await.is_err() {
                panic!("the runner went away while waiting for {what}");
            }
        }
    })
    .await;
    assert!(
        waited.is_ok(),
        "no status {what}: {:?}",
        status.borrow().status
    );
}

/// Held: asleep with no wake time, and still so six hours later; then a person wakes it.
async fn held_then_woken(dir: &Path, hosted: &HostedCreature, clock: &VirtualClock) {
    let mut status = hosted.status.clone();
    status_where(&mut status, "held asleep", |s| {
        matches!(
            s,
            Status::Asleep { until: None } | Status::DeepSleep { until: None }
        )
    })
    .await;
    settle(clock, "held").await;
    let conversation = read(dir, ".self/conversation.jsonl").len();
    clock.advance(TimeDelta::hours(6));
    settle(clock, "six hours later").await;
    assert!(guardrail::read(dir).is_some_and(|r| r.held()), "still held");
    assert_eq!(
        read(dir, ".self/conversation.jsonl").len(),
        conversation,
        "a held creature does nothing"
    );
    hosted.control.ask(ControlCommand::Wake).await.unwrap();
    report_where(dir, "woken", |r| r.woken_at.is_some()).await;
    // Awake, or already resting between turns: a status watch shows only the latest.
    status_where(&mut status, "awake", |s| {
        matches!(s, Status::Awake | Status::Napping { .. })
    })
    .await;
    let events = read(dir, ".sys/events.jsonl");
    assert!(events.contains("\"phase\":\"woken\""), "{events}");
    assert!(events.contains("Woken early by the operator"));
}

/// Creature time moves on until the guardrail trips and its sleep is over (the clock is
/// the test's): the report then.
async fn until_slept(dir: &Path, clock: &VirtualClock) -> MorningReport {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        if let Some(r) = guardrail::read(dir).filter(|r| r.slept_at.is_some()) {
            return r;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no morning report after the sleep: {:?}",
            guardrail::read(dir)
        );
        let settled = tokio::time::timeout(Duration::from_millis(100), clock.settled()).await;
        if settled.is_ok() {
            clock.advance(TimeDelta::minutes(1));
        }
    }
}

async fn run_until_held(
    dir: &Path,
    opts: RunnerOptions,
    clock: Arc<VirtualClock>,
    before: impl AsyncFnOnce(&HostedCreature),
) -> MorningReport {
    let runner = Runner::open_genome(opts, Dreamer::default()).unwrap();
    let hosted = runner.hosted();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(runner.run(async {
        let _ = stopped.await;
    }));
    before(&hosted).await;
    let report = until_slept(dir, &clock).await;
    held_then_woken(dir, &hosted, &clock).await;
    let _ = stop.send(());
    tokio::time::timeout(PATIENCE, task).await.unwrap().unwrap();
    report
}

/// A runner capped at $2 a day whose rehearsal tokens are priced dear: a few turns reach
/// the cap.
fn capped(dir: &Path, clock: Arc<VirtualClock>) -> RunnerOptions {
    let rails = Guardrails {
        daily_cost_usd: Some(2.0),
        ..Guardrails::default()
    };
    let mut opts = options(dir, rails, clock);
    let dear = Price {
        input: 1_000.0,
        output: 1_000.0,
        cache_read: None,
        cache_write: None,
    };
    opts.prices = Prices::builtin().with(&[("rehearsal".to_string(), dear)].into());
    opts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cost_cap_puts_the_creature_to_sleep_until_a_person_wakes_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    let clock = held_clock();
    let opts = capped(&dir, clock.clone());
    let report = run_until_held(&dir, opts, clock, async |_| {}).await;
    assert_eq!(report.rail, "cost_cap");
    assert_eq!(report.reason, "cost cap $2.00");
    assert!(
        report.cost_today_usd.is_some_and(|c| c >= 2.0),
        "{report:?}"
    );
    assert!(report.consolidated, "the forced sleep dreamt: {report:?}");
    assert!(
        !report.changes.is_empty(),
        "what the dream changed: {report:?}"
    );
    let events = read(&dir, ".sys/events.jsonl");
    assert!(events.contains("\"type\":\"creature.guardrail\""));
    assert!(events.contains("forced consolidation (guardrail: cost cap $2.00)"));
    assert!(events.contains("\"phase\":\"held\""));
    assert!(events.contains("press w to wake it"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_loop_of_one_failing_command_puts_the_creature_to_sleep() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    let clock = held_clock();
    let rails = Guardrails {
        loop_repeats: Some(4),
        ..Guardrails::default()
    };
    let opts = options(&dir, rails, clock.clone());
    let report = run_until_held(&dir, opts, clock, async |hosted| {
        hosted
            .control
            .ask(ControlCommand::Message {
                text: format!("Please {STUBBORN}."),
            })
            .await
            .unwrap();
    })
    .await;
    assert_eq!(report.rail, "loop");
    assert!(
        report.detail.contains("failed 4 times in a row"),
        "{report:?}"
    );
    assert!(report.slept_at.is_some());
}

/// A runner stopped while a guardrail holds its creature: the next runner holds it
/// still (asleep, no wake time, the report kept), until a person wakes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_runner_keeps_the_hold() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    let clock = held_clock();
    let runner = Runner::open_genome(capped(&dir, clock.clone()), Dreamer::default()).unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(runner.run(async {
        let _ = stopped.await;
    }));
    until_slept(&dir, &clock).await;
    settle(&clock, "held").await;
    let _ = stop.send(());
    tokio::time::timeout(PATIENCE, task).await.unwrap().unwrap();
    assert!(guardrail::read(&dir).is_some_and(|r| r.held()));

    // Started again a day later: a new day's spending, the hold all the same.
    let later = Utc.with_ymd_and_hms(2026, 3, 2, 9, 0, 0).unwrap();
    let clock = Arc::new(VirtualClock::held(later, TimeDelta::seconds(2)));
    let runner = Runner::open_genome(capped(&dir, clock.clone()), Dreamer::default()).unwrap();
    let hosted = runner.hosted();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(runner.run(async {
        let _ = stopped.await;
    }));
    held_then_woken(&dir, &hosted, &clock).await;
    let _ = stop.send(());
    tokio::time::timeout(PATIENCE, task).await.unwrap().unwrap();
}
