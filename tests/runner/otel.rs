//! OpenTelemetry export of hosted creatures: a rehearsal life of each hosted genome sent
//! to a stand-in collector on 127.0.0.1 and decoded with the official OTLP schema
//! (names, parent/child links, attributes); and a collector that cannot be reached
//! changes nothing of the creature's life.

use std::path::Path;
use std::sync::Arc;

use chrono::{TimeDelta, TimeZone, Utc};

use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::genomes::emergence::runner::Emergence;
use dreamwatch::genomes::evennia::runner::Evennia;
use dreamwatch::runner::brain::rehearsal::{self, Rehearsal};
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{RunReport, Runner, RunnerOptions};
use dreamwatch::runner::genome::Genome;
use dreamwatch::runner::telemetry::TelemetryOptions;
use dreamwatch::telemetry::content::Capture;
use dreamwatch::telemetry::{Exporter, TelemetryConfig, TelemetrySection};

use crate::common::http::otlp::{Collector, attr, check_links, named};
use crate::common::http::refused_base;
use crate::common::runner::SimulatedShell;

/// The export's settings for a collector at `endpoint`, whatever the environment says.
fn config(endpoint: &str) -> TelemetryConfig {
    let section = TelemetrySection {
        endpoint: Some(endpoint.to_string()),
        ..TelemetrySection::default()
    };
    TelemetryConfig::resolve(Some(&section), |_| None)
        .unwrap()
        .unwrap()
}

/// A rehearsal life of `sleeps` sleeps, exported to `endpoint` (none: not exported);
/// the host status's last error at its end.
async fn live<G: Genome>(
    dir: &Path,
    genome: G,
    sleeps: u64,
    endpoint: Option<&str>,
    capture: Capture,
) -> (RunReport, Option<String>) {
    let clock = Arc::new(VirtualClock::new(
        Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap(),
        TimeDelta::seconds(1),
    ));
    let mut opts = RunnerOptions::new(
        dir.to_path_buf(),
        RunnerConfig::default(),
        Arc::new(Rehearsal::new()),
        rehearsal::MODEL.into(),
    );
    opts.clock = clock;
    opts.tools = Arc::new(SimulatedShell::default());
    opts.max_sleeps = Some(sleeps);
    let exporter = endpoint.map(|e| Exporter::start(&config(e)).unwrap());
    opts.telemetry = exporter.as_ref().map(|e| TelemetryOptions {
        sink: e.sink(),
        capture,
    });
    let runner = Runner::open_genome(opts, genome).unwrap();
    let hosted = runner.hosted();
    let report = runner.run(std::future::pending()).await;
    if let Some(e) = exporter {
        e.shutdown().await;
    }
    let last_error = hosted.status.borrow().last_error.clone();
    (report, last_error)
}

/// What every hosted genome's life says: wakes as `invoke_agent` traces with their
/// model calls and tools as children, sleeps' consolidations linked to their wake.
async fn a_life_as_traces<G: Genome>(
    genome: G,
    capture: Capture,
) -> Vec<opentelemetry_proto::tonic::trace::v1::Span> {
    // The genomes' memory logs are found through the registry, as the binary has it.
    dreamwatch::app::genomes::install();
    let collector = Collector::start().await;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    let (report, last_error) = live(&dir, genome, 2, Some(&collector.endpoint()), capture).await;
    assert_eq!(last_error, None);
    assert!(report.dreams_this_run >= 1, "{report:?}");
    let spans = collector.spans();
    check_links(&spans);
    let wakes = named(&spans, "invoke_agent sprout");
    assert!(
        !wakes.is_empty(),
        "{:?}",
        spans.iter().map(|s| &s.name).collect::<Vec<_>>()
    );
    for w in &wakes {
        assert!(w.parent_span_id.is_empty(), "a wake is a trace's root");
        assert_eq!(
            attr(w, "gen_ai.operation.name").as_deref(),
            Some("invoke_agent")
        );
        assert_eq!(attr(w, "gen_ai.agent.name").as_deref(), Some("sprout"));
        assert!(attr(w, "gen_ai.agent.id").is_some_and(|id| id.ends_with("sprout")));
        assert!(attr(w, "gen_ai.conversation.id").is_some());
        assert!(w.end_time_unix_nano >= w.start_time_unix_nano);
    }
    let chats = named(&spans, "chat ");
    assert!(!chats.is_empty());
    for c in &chats {
        assert_eq!(attr(c, "gen_ai.operation.name").as_deref(), Some("chat"));
        assert!(attr(c, "gen_ai.request.model").is_some());
        assert!(
            !c.parent_span_id.is_empty(),
            "a model call belongs to a wake or a sleep"
        );
    }
    let sleeps = named(&spans, "consolidate_memory sprout");
    assert!(!sleeps.is_empty());
    for s in &sleeps {
        assert!(s.parent_span_id.is_empty());
        assert_eq!(s.links.len(), 1, "linked to the wake before it");
    }
    for t in named(&spans, "execute_tool ") {
        assert!(attr(t, "gen_ai.tool.name").is_some());
        assert!(attr(t, "dreamwatch.tool.ok").is_some());
        assert_eq!(
            attr(t, "gen_ai.tool.call.arguments").is_some(),
            capture.on,
            "content only when captured"
        );
        let wake = wakes
            .iter()
            .chain(&sleeps)
            .find(|w| w.span_id == t.parent_span_id)
            .expect("a tool's parent is a wake or a sleep");
        assert_eq!(wake.trace_id, t.trace_id);
    }
    assert_eq!(
        collector.resource().get("service.name").map(String::as_str),
        Some("dreamwatch")
    );
    spans
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dreamer_life_as_genai_traces() {
    let spans = a_life_as_traces(Dreamer::default(), Capture::default()).await;
    assert!(!named(&spans, "execute_tool bash").is_empty());
    let created = named(&spans, "create_memory observations.md");
    assert!(!created.is_empty(), "the dream's new observations");
    for m in &created {
        assert_eq!(
            attr(m, "gen_ai.memory.type").as_deref(),
            Some("observation")
        );
        assert_eq!(
            attr(m, "gen_ai.memory.store.name").as_deref(),
            Some("observations.md")
        );
        assert!(
            attr(m, "gen_ai.memory.content").is_none(),
            "content is off by default"
        );
        let parent = spans
            .iter()
            .find(|s| s.span_id == m.parent_span_id)
            .unwrap();
        assert!(parent.name.starts_with("consolidate_memory"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn captured_content_is_the_calls_messages_inert_and_capped() {
    let capture = Capture { on: true, cap: 300 };
    let spans = a_life_as_traces(Dreamer::default(), capture).await;
    let chats = named(&spans, "chat ");
    for c in &chats {
        let input = attr(c, "gen_ai.input.messages").expect("the call's new input");
        let input: serde_json::Value = serde_json::from_str(&input).expect("JSON");
        let first = &input[0];
        assert!(["user", "tool"].contains(&first["role"].as_str().unwrap_or("")));
        for part in first["parts"].as_array().unwrap() {
            let text = part["content"].as_str().or(part["response"].as_str());
            assert!(text.is_some_and(|t| t.chars().count() <= 301), "{part}");
        }
        let system = attr(c, "gen_ai.system_instructions").expect("the system prompt");
        assert!(!system.contains('\u{1b}'));
        if attr(c, "error.type").is_none() {
            let output = attr(c, "gen_ai.output.messages").expect("the answer");
            let output: serde_json::Value = serde_json::from_str(&output).expect("JSON");
            assert_eq!(output[0]["role"], "assistant");
            assert!(output[0]["finish_reason"].is_string());
        }
    }
    let created = named(&spans, "create_memory observations.md");
    assert!(
        created
            .iter()
            .all(|m| attr(m, "gen_ai.memory.content").is_some())
    );
}

/// The memory operations a genome's own logs say: each a child of the wake or sleep it
/// happened in, on the store (the log) it was written to.
fn memory_ops_of(spans: &[opentelemetry_proto::tonic::trace::v1::Span], stores: &[&str]) {
    let ops: Vec<_> = spans
        .iter()
        .filter(|s| attr(s, "gen_ai.memory.store.name").is_some())
        .collect();
    for store in stores {
        assert!(
            ops.iter()
                .any(|o| attr(o, "gen_ai.memory.store.name").as_deref() == Some(*store)),
            "no memory operation on {store}: {:?}",
            ops.iter().map(|o| &o.name).collect::<Vec<_>>()
        );
    }
    for op in &ops {
        let kind = attr(op, "gen_ai.operation.name").unwrap();
        assert!(["create_memory", "update_memory", "delete_memory"].contains(&kind.as_str()));
        assert!(op.name.starts_with(&kind));
        assert_eq!(attr(op, "gen_ai.memory.scope").as_deref(), Some("agent"));
        let parent = spans
            .iter()
            .find(|s| s.span_id == op.parent_span_id)
            .unwrap();
        assert!(
            parent.name.starts_with("consolidate_memory")
                || parent.name.starts_with("invoke_agent"),
            "{}",
            parent.name
        );
    }
    assert!(
        ops.iter()
            .any(|o| attr(o, "gen_ai.operation.name").as_deref() == Some("create_memory")),
        "memories are created"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_evennia_life_as_genai_traces() {
    let spans = a_life_as_traces(Evennia::default(), Capture::default()).await;
    memory_ops_of(&spans, &["journal.jsonl", "semantic.jsonl"]);
    let embeddings = named(&spans, "embeddings ");
    assert!(!embeddings.is_empty(), "its memories are embedded");
    for e in &embeddings {
        assert_eq!(
            attr(e, "gen_ai.operation.name").as_deref(),
            Some("embeddings")
        );
        assert_eq!(attr(e, "gen_ai.provider.name").as_deref(), Some("local"));
        assert!(attr(e, "gen_ai.embeddings.dimension.count").is_some());
        assert!(attr(e, "dreamwatch.embeddings.texts").is_some_and(|n| n != "0"));
        assert!(!e.parent_span_id.is_empty(), "a wake's or a sleep's");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_emergence_life_as_genai_traces() {
    let spans = a_life_as_traces(Emergence::default(), Capture::default()).await;
    memory_ops_of(&spans, &["longterm.jsonl"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_collector_leaves_the_life_unchanged() {
    let tmp = tempfile::tempdir().unwrap();
    let off = Capture::default();
    let (quiet, _) = live(&tmp.path().join("a"), Dreamer::default(), 2, None, off).await;
    let started = std::time::Instant::now();
    let (exported, said) = live(
        &tmp.path().join("a2"),
        Dreamer::default(),
        2,
        Some(&refused_base()),
        off,
    )
    .await;
    assert_eq!(quiet, exported);
    let said = said.expect("the host status says the collector is unreachable");
    assert!(
        said.starts_with("telemetry: collector unreachable"),
        "{said}"
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    let files = |d: &Path| {
        let mut names: Vec<String> = walk(d)
            .into_iter()
            .map(|p| p.strip_prefix(d).unwrap().display().to_string())
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        files(&tmp.path().join("a")),
        files(&tmp.path().join("a2")),
        "nothing written to the creature's files"
    );
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
