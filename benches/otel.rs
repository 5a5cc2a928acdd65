//! The runner's per-action overhead with the OpenTelemetry export on, off, and with a
//! collector that cannot be reached (budget: 1 ms per action, as for the runner alone;
//! an unreachable collector must leave it unchanged).
//!
//! Each sample is a whole life of 5 dreams on the rehearsal brain, a virtual clock and
//! a tool runner that answers at once (as `benches/runner.rs`), in a temp dir:
//! - `otel/off`: no export;
//! - `otel/on`: spans and metrics sent to a local collector on 127.0.0.1 (it answers
//!   200 to every request);
//! - `otel/unreachable`: sent to a port where nothing listens.
//!
//! Run: `cargo bench --bench otel`. The throughput is in actions/s (per-action overhead
//! = 1 / throughput).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a bench may stop at the first failure

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{TimeDelta, TimeZone, Utc};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::runner::brain::rehearsal::Rehearsal;
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};
use dreamwatch::runner::telemetry::TelemetryOptions;
use dreamwatch::runner::tools::{ToolFuture, ToolOutcome, ToolRunner};
use dreamwatch::telemetry::{Exporter, TelemetryConfig, TelemetrySection};

const DREAMS: u64 = 5;

struct Instant0;

impl ToolRunner for Instant0 {
    fn run<'a>(&'a self, _dir: &'a Path, command: &'a str) -> ToolFuture<'a> {
        Box::pin(async move {
            ToolOutcome {
                ok: true,
                content: format!("{{\"stdout\":\"output of {command}\",\"stderr\":\"\"}}"),
                display: format!("output of {command}"),
                ms: 0,
            }
        })
    }
}

/// One life; the number of tool calls it made.
async fn life(root: &Path, n: u64, telemetry: Option<TelemetryOptions>) -> u64 {
    let dir = root.join(format!("c{n}"));
    let mut opts = RunnerOptions::new(
        dir.clone(),
        RunnerConfig::default(),
        Arc::new(Rehearsal::new()),
        "rehearsal".into(),
    );
    opts.clock = Arc::new(VirtualClock::new(
        Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap(),
        TimeDelta::seconds(2),
    ));
    opts.tools = Arc::new(Instant0);
    opts.max_dreams = Some(DREAMS);
    opts.telemetry = telemetry;
    Runner::open_genome(opts, Dreamer::default())
        .unwrap()
        .run(std::future::pending())
        .await;
    std::fs::read_to_string(dir.join(".sys/events.jsonl"))
        .unwrap()
        .matches("\"type\":\"creature.tool_call\"")
        .count() as u64
}

/// A collector that takes everything: `200` with no body, connections kept alive.
async fn collector() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buffer = Vec::new();
                let mut piece = [0u8; 16384];
                loop {
                    let Ok(n) = socket.read(&mut piece).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    buffer.extend_from_slice(&piece[..n]);
                    while let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                        let head = String::from_utf8_lossy(&buffer[..end]).to_lowercase();
                        let length: usize = head
                            .lines()
                            .find_map(|l| l.strip_prefix("content-length:"))
                            .and_then(|v| v.trim().parse().ok())
                            .unwrap_or(0);
                        if buffer.len() < end + 4 + length {
                            break;
                        }
                        buffer.drain(..end + 4 + length);
                        let ok = b"HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\n\r\n";
                        if socket.write_all(ok).await.is_err() {
                            return;
                        }
                    }
                }
            });
        }
    });
    base
}

fn refused() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    base
}

fn config(endpoint: &str) -> TelemetryConfig {
    let section = TelemetrySection {
        endpoint: Some(endpoint.to_string()),
        ..TelemetrySection::default()
    };
    TelemetryConfig::resolve(Some(&section), |_| None)
        .unwrap()
        .unwrap()
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let per_life = rt.block_on(life(tmp.path(), 0, None));
    let on = rt.block_on(collector());
    let mut group = c.benchmark_group("otel");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(15));
    group.throughput(Throughput::Elements(per_life));
    let mut n = 1;
    for (name, endpoint) in [
        ("off", None),
        ("on", Some(on)),
        ("unreachable", Some(refused())),
    ] {
        let exporter = endpoint.map(|e| {
            let _in = rt.enter();
            Exporter::start(&config(&e)).unwrap()
        });
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut lived = Duration::ZERO;
                for _ in 0..iters {
                    let telemetry = exporter.as_ref().map(|e| TelemetryOptions {
                        sink: e.sink(),
                        capture: Default::default(),
                    });
                    n += 1;
                    let began = Instant::now();
                    rt.block_on(life(tmp.path(), n, telemetry));
                    lived += began.elapsed();
                }
                lived
            })
        });
        if let Some(e) = exporter {
            rt.block_on(e.shutdown());
        }
    }
    group.finish();
    eprintln!("actions per life: {per_life}, {DREAMS} dreams");
}

criterion_group!(benches, bench);
criterion_main!(benches);
