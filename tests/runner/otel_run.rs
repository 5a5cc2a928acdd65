//! `dreamwatch run` with `OTEL_EXPORTER_OTLP_ENDPOINT` set: the hosted creature's model
//! requests carry a `traceparent` naming the `chat` span the collector gets, with the
//! provider, model and tokens of the call.

use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;

use crate::common::cli::{bin, stderr};
use crate::common::http::otlp::{Collector, attr, check_links, named};
use crate::common::http::{Reply, Seen, Server, anthropic};

/// A model whose creature runs one command, then sleeps and dreams.
fn answer(seen: &Seen, turns: &AtomicUsize) -> Reply {
    let awake = seen.body["tools"].as_array().is_some_and(|t| !t.is_empty());
    let turn = turns.fetch_add(1, Ordering::SeqCst) + 1;
    let content = if !awake {
        json!([{"type": "text", "text": "OBSERVATIONS:\nGRN 10:00 listed the workspace\nREFLECTION:\nQuiet.\nPRIORITY:\nRest."}])
    } else if turn == 1 {
        json!([{"type": "tool_use", "id": "t1", "name": "bash", "input": {"command": "echo hi"}}])
    } else {
        json!([{"type": "tool_use", "id": format!("t{turn}"), "name": "set_sleep", "input": {"seconds": 300}}])
    };
    let stop = if awake { "tool_use" } else { "end_turn" };
    Reply::json(200, anthropic::message("m", content, stop, (7, 3)))
}

/// Runs the creature `tracer` against `model` to its first dream, exporting to `collector`.
async fn run_tracer(model: &Server, collector: &Collector) {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("tracer");
    let mut cmd = bin(home.path());
    cmd.env("ANTHROPIC_API_KEY", "sk-ant-test")
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint())
        .env("OTEL_SERVICE_NAME", "garden-under-test")
        .args([
            "run",
            "--provider",
            "anthropic",
            "--model",
            "m",
            "--base-url",
            &model.base,
        ])
        .args(["--headless", "--max-dreams", "1", "--speed", "100000"])
        .arg(&dir);
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn model_calls_carry_their_chat_span_s_traceparent() {
    let turns = AtomicUsize::new(0);
    let model = Server::handling(move |seen| answer(seen, &turns)).await;
    let collector = Collector::start().await;
    run_tracer(&model, &collector).await;
    let spans = collector.spans();
    check_links(&spans);
    let chats = named(&spans, "chat m");
    let requests = model.seen();
    assert!(requests.len() >= 2, "{}", requests.len());
    assert_eq!(chats.len(), requests.len(), "one chat span per model call");
    for request in &requests {
        let tp = request.headers.get("traceparent").expect("a traceparent");
        let parts: Vec<&str> = tp.split('-').collect();
        assert_eq!(parts.len(), 4, "{tp}");
        assert_eq!((parts[0], parts[3]), ("00", "01"));
        let span = chats
            .iter()
            .find(|c| hex(&c.span_id) == parts[2])
            .unwrap_or_else(|| panic!("no chat span is {tp}"));
        assert_eq!(hex(&span.trace_id), parts[1]);
        assert_eq!(
            attr(span, "gen_ai.provider.name").as_deref(),
            Some("anthropic")
        );
        assert_eq!(attr(span, "gen_ai.request.model").as_deref(), Some("m"));
        assert_eq!(
            attr(span, "gen_ai.usage.input_tokens").as_deref(),
            Some("7")
        );
        assert_eq!(
            attr(span, "gen_ai.usage.output_tokens").as_deref(),
            Some("3")
        );
    }
    assert!(!named(&spans, "execute_tool bash").is_empty());
    assert!(!named(&spans, "invoke_agent tracer").is_empty());
    assert_eq!(
        collector.resource().get("service.name").map(String::as_str),
        Some("garden-under-test")
    );
    assert!(
        collector.metric_exports() >= 1,
        "the last metrics are sent at the end"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_retried_after_an_overload_says_so() {
    let (calls, turns) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let model = Server::handling(move |seen| {
        if calls.fetch_add(1, Ordering::SeqCst) == 0 {
            let busy = json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}});
            return Reply::json(529, busy);
        }
        answer(seen, &turns)
    })
    .await;
    let collector = Collector::start().await;
    run_tracer(&model, &collector).await;
    let spans = collector.spans();
    let mut chats = named(&spans, "chat m");
    chats.sort_by_key(|c| c.start_time_unix_nano);
    assert!(chats.len() >= 3, "{}", chats.len());
    let retries: Vec<Option<String>> = chats
        .iter()
        .map(|c| attr(c, "dreamwatch.retries"))
        .collect();
    assert_eq!(retries[0].as_deref(), Some("0"), "the first try");
    assert!(attr(chats[0], "error.type").is_some(), "it failed");
    assert_eq!(retries[1].as_deref(), Some("1"), "the turn tried again");
    assert!(attr(chats[1], "error.type").is_none());
    assert!(
        retries[2..].iter().all(|r| r.as_deref() == Some("0")),
        "{retries:?}"
    );
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
