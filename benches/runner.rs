//! The runner's own overhead per action (a tool call), LLM and tool time excluded.
//!
//! The creature lives on the rehearsal brain (answers in microseconds) with a virtual
//! clock (sleeps take no time) and a tool runner that answers at once, so what is left is
//! the runner: the state machine, the context, the records and the file writes (appends,
//! and the fsync'd atomic rewrites of each sleep and deep sleep), amortised over the
//! actions of a life. Budget (DESIGN.md section 6): 1 ms per action.
//!
//! - `runner/life`: the whole driver writing a creature to a temp dir: a life of 10 dreams
//!   (one deep sleep, one forced consolidation). The creature's birth is not timed.
//! - `runner/fsm`: the state machine (engine and dreamer) alone, answering its outputs in
//!   memory.
//!
//! Run: `cargo bench --bench runner`. Criterion prints the time per life and, from the
//! actions per life, the throughput in actions/s (per-action overhead = 1 / throughput).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, TimeDelta, TimeZone, Utc};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use dreamwatch::genomes::dreamer::runner::{Dreamer, DreamerDone, DreamerIo};
use dreamwatch::runner::brain::rehearsal::Rehearsal;
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};
use dreamwatch::runner::engine::Engine;
use dreamwatch::runner::engine::input::{Input, Restored};
use dreamwatch::runner::engine::output::Output;
use dreamwatch::runner::mail::Delivery;
use dreamwatch::runner::tools::{ToolFuture, ToolOutcome, ToolRunner};

const DREAMS: u64 = 10;

/// Answers every command at once: tool time is not the runner's.
struct Instant0;

impl ToolRunner for Instant0 {
    fn run<'a>(&'a self, _dir: &'a Path, command: &'a str) -> ToolFuture<'a> {
        Box::pin(async move { outcome(command) })
    }
}

fn outcome(command: &str) -> ToolOutcome {
    ToolOutcome {
        ok: !command.contains("forecast"),
        content: format!("{{\"stdout\":\"output of {command}\",\"stderr\":\"\"}}"),
        display: format!("output of {command}"),
        ms: 0,
    }
}

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap()
}

/// A creature born in a fresh directory, ready to live.
fn born(root: &Path, n: u64) -> (Runner<Dreamer>, std::path::PathBuf) {
    let dir = root.join(format!("c{n}"));
    let mut opts = RunnerOptions::new(
        dir.clone(),
        RunnerConfig::default(),
        Arc::new(Rehearsal::new()),
        "rehearsal".into(),
    );
    opts.clock = Arc::new(VirtualClock::new(start(), TimeDelta::seconds(2)));
    opts.tools = Arc::new(Instant0);
    opts.max_dreams = Some(DREAMS);
    (Runner::open_genome(opts, Dreamer::default()).unwrap(), dir)
}

/// The tool calls a life made.
fn actions(dir: &Path) -> u64 {
    std::fs::read_to_string(dir.join(".sys/events.jsonl"))
        .unwrap()
        .matches("\"type\":\"creature.tool_call\"")
        .count() as u64
}

/// The state machine alone: every output answered in memory.
fn fsm_life() -> u64 {
    let brain = Rehearsal::new();
    let mut engine = Engine::new(RunnerConfig::default(), Dreamer::default(), Some(DREAMS));
    let mut now = start();
    let mut queue = vec![Input::Start(Box::new(Restored {
        fresh: true,
        purpose: "grow".into(),
        ..Default::default()
    }))];
    let mut actions = 0;
    while let Some(input) = queue.pop() {
        for output in engine.handle(now, input) {
            match output {
                Output::Think { id, task, .. } => {
                    now += TimeDelta::seconds(2);
                    queue.push(Input::Thought {
                        id,
                        result: Ok(brain.answer(&task)),
                    });
                }
                Output::RunTool { id, command } => {
                    actions += 1;
                    queue.push(Input::ToolDone {
                        id,
                        outcome: outcome(&command),
                    });
                }
                Output::Timer { id, at } => {
                    now = now.max(at);
                    queue.push(Input::Timer { id });
                }
                Output::Gather { id, .. } => queue.push(Input::Gathered {
                    id,
                    view: Default::default(),
                }),
                Output::Genome(DreamerIo::Commit { id, .. }) => {
                    queue.push(Input::Genome(DreamerDone::Committed { id, result: Ok(()) }))
                }
                Output::Genome(DreamerIo::LoadObservations { id }) => {
                    queue.push(Input::Genome(DreamerDone::ObservationsLoaded {
                        id,
                        result: Ok("# Observations\n".into()),
                    }))
                }
                Output::Send { id, message } => queue.push(Input::Sent {
                    id,
                    message,
                    delivery: Delivery::NotInGarden,
                }),
                Output::Genome(_)
                | Output::Embed { .. }
                | Output::Answer(_)
                | Output::Record(_)
                | Output::Status { .. }
                | Output::Fault(_)
                // Review is off.
                | Output::Review(_) => {}
                Output::Exit => return actions,
            }
        }
    }
    actions
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (runner, dir) = born(tmp.path(), 0);
    rt.block_on(runner.run(std::future::pending()));
    let per_life = actions(&dir);
    let mut group = c.benchmark_group("runner");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(per_life));
    let mut n = 1;
    group.bench_function("life", |b| {
        b.iter_custom(|iters| {
            let mut lived = Duration::ZERO;
            for _ in 0..iters {
                let (runner, _) = born(tmp.path(), n);
                n += 1;
                let began = Instant::now();
                rt.block_on(runner.run(std::future::pending()));
                lived += began.elapsed();
            }
            lived
        })
    });
    let fsm_actions = fsm_life();
    group.throughput(Throughput::Elements(fsm_actions));
    group.sample_size(20);
    group.bench_function("fsm", |b| b.iter(fsm_life));
    group.finish();
    eprintln!(
        "actions per life: {per_life} (driver), {fsm_actions} (state machine alone), {DREAMS} dreams"
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
