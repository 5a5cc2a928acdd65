//! `dreamwatch export-otel` on a held OpenSeed fixture: its life as GenAI traces at a
//! stand-in collector on 127.0.0.1 (decoded with the official OTLP schema), each span
//! sent once across runs (the cursor in the state directory), what is written after
//! sent by the next run.

use std::io::Write;
use std::path::Path;

use crate::common::cli::{bin, copy_dir, stderr};
use crate::common::http::otlp::{Collector, attr, check_links, named};
use crate::common::http::refused_base;

fn moss() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/openseed/feb24-moss/creature")
}

async fn export(home: &Path, endpoint: &str, creature: &Path) -> std::process::Output {
    let mut cmd = bin(home);
    cmd.arg("export-otel")
        .arg(creature)
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint)
        .env("DREAMWATCH_EXPORT_CURSORS", home.join("cursors"))
        .env_remove("OTEL_SERVICE_NAME")
        .env_remove("OTEL_RESOURCE_ATTRIBUTES");
    tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_openseed_creature_s_life_as_genai_traces_each_span_once() {
    let home = tempfile::tempdir().unwrap();
    let creature = home.path().join("moss");
    copy_dir(&moss(), &creature);
    let before = crate::common::cli::snapshot(&creature);
    let collector = Collector::start().await;
    let out = export(home.path(), &collector.endpoint(), &creature).await;
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        before,
        crate::common::cli::snapshot(&creature),
        "nothing written to the creature"
    );
    let first = collector.spans();
    let wakes = named(&first, "invoke_agent moss");
    assert!(wakes.len() >= 10, "{}", wakes.len());
    assert_eq!(
        attr(wakes[0], "dreamwatch.wake.reason").as_deref(),
        Some("boot")
    );
    let tools = named(&first, "execute_tool bash");
    assert!(tools.len() >= 50, "{}", tools.len());
    for t in &tools {
        assert_eq!(
            attr(t, "gen_ai.operation.name").as_deref(),
            Some("execute_tool")
        );
        assert!(attr(t, "dreamwatch.tool.duration_ms").is_some());
        assert!(t.end_time_unix_nano >= t.start_time_unix_nano);
    }
    let sleeps = named(&first, "consolidate_memory moss");
    assert!(sleeps.len() >= 10, "{}", sleeps.len());
    // The fixture ends asleep: everything but the last sleep's consolidation is said.
    check_links(&first);

    // Again: nothing new, nothing sent.
    let out = export(home.path(), &collector.endpoint(), &creature).await;
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(collector.spans().len(), first.len(), "each span sent once");

    // The creature lives on (lines written out of order): only what is new is sent.
    let mut events = std::fs::OpenOptions::new()
        .append(true)
        .open(creature.join(".sys/events.jsonl"))
        .unwrap();
    writeln!(events, r#"{{"t":"2026-11-22T18:30:10.000Z","type":"creature.tool_call","tool":"bash","input":"ls","ok":true,"output":"","ms":40}}"#).unwrap();
    writeln!(events, r#"{{"t":"2026-11-22T18:29:13.000Z","type":"creature.wake","reason":"timer","source":"timer"}}"#).unwrap();
    writeln!(events, r#"{{"t":"2026-11-22T18:31:00.000Z","type":"creature.sleep","seconds":30,"text":"rest","actions":1}}"#).unwrap();
    drop(events);
    let out = export(home.path(), &collector.endpoint(), &creature).await;
    assert!(out.status.success(), "{}", stderr(&out));
    let all = collector.spans();
    let new = &all[first.len()..];
    let names: Vec<&str> = new.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.contains(&"invoke_agent moss") && names.contains(&"execute_tool bash"));
    check_links(&all);
    let wake = named(new, "invoke_agent").remove(0);
    let tool = named(new, "execute_tool").remove(0);
    assert_eq!(
        tool.parent_span_id, wake.span_id,
        "the tool is the wake's, read in time order"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_collector_fails_and_the_next_run_sends_it_all() {
    let home = tempfile::tempdir().unwrap();
    let creature = home.path().join("moss");
    copy_dir(&moss(), &creature);
    let out = export(home.path(), &refused_base(), &creature).await;
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("did not take the spans"),
        "{}",
        stderr(&out)
    );
    let collector = Collector::start().await;
    let out = export(home.path(), &collector.endpoint(), &creature).await;
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(named(&collector.spans(), "invoke_agent moss").len() >= 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_watched_history_saw_a_dream_change_is_that_sleep_s_memory_operations() {
    use chrono::{TimeZone, Utc};
    use dreamwatch::history::{DEFAULT_LIMIT, History};
    let home = tempfile::tempdir().unwrap();
    let creature = home.path().join("moss");
    copy_dir(&moss(), &creature);
    let creature = creature.canonicalize().unwrap();
    // The observatory watched moss: it saw observations.md before its first sleep, and
    // again changed during that sleep (18:19:24 to the wake at 18:20:04).
    let state = home.path().join("state");
    let history = History::new(state.join("dreamwatch/history"), DEFAULT_LIMIT);
    let file = ".self/observations.md";
    let text = std::fs::read_to_string(creature.join(file)).unwrap();
    let seen = |h, m, s| Utc.with_ymd_and_hms(2026, 11, 22, h, m, s).unwrap();
    let first = history
        .observe(&creature, "observations.md", &text, seen(18, 19, 0), true)
        .unwrap();
    assert!(first.is_none(), "the first look records nothing");
    let dreamt = format!("{text}RED 18:19 the tally double-counts site 4\n");
    let change = history
        .observe(
            &creature,
            "observations.md",
            &dreamt,
            seen(18, 19, 30),
            false,
        )
        .unwrap();
    assert!(change.is_some());

    let collector = Collector::start().await;
    let run = |home: &Path| {
        let mut cmd = bin(home);
        cmd.arg("export-otel")
            .arg(&creature)
            .env("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint())
            .env("DREAMWATCH_EXPORT_CURSORS", home.join("cursors"))
            .env("XDG_STATE_HOME", &state);
        cmd
    };
    let mut cmd = run(home.path());
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let spans = collector.spans();
    check_links(&spans);
    let created = named(&spans, "create_memory observations.md");
    assert_eq!(created.len(), 1, "the one line the dream added");
    assert_eq!(
        attr(created[0], "gen_ai.memory.type").as_deref(),
        Some("observation")
    );
    let sleep = spans
        .iter()
        .find(|s| s.span_id == created[0].parent_span_id)
        .expect("its parent");
    assert_eq!(sleep.name, "consolidate_memory moss");
    let began = seen(18, 19, 24).timestamp_nanos_opt().unwrap() as u64;
    assert!(
        (began..began + 1_000_000_000).contains(&sleep.start_time_unix_nano),
        "the sleep that began at 18:19:24"
    );

    // Again: the record is read again, and nothing is sent twice.
    let mut cmd = run(home.path());
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(collector.spans().len(), spans.len(), "each span sent once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_answer_an_early_openseed_creature_logged_is_a_chat_span_of_its_wake() {
    let home = tempfile::tempdir().unwrap();
    let creature = home.path().join("pip");
    copy_dir(&crate::common::cli::fixture("early-pip"), &creature);
    // Its answers, as a separate count of the file: those logged by its last event.
    let last_event = std::fs::read_to_string(creature.join(".self/events.jsonl"))
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["t"].as_str().map(str::to_string))
        .max()
        .unwrap();
    let answers = std::fs::read_to_string(creature.join(".self/conversation.jsonl"))
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["role"] == "assistant" && v["t"].as_str() <= Some(last_event.as_str()))
        .count();
    assert!(answers > 100, "{answers}");
    let collector = Collector::start().await;
    let out = export(home.path(), &collector.endpoint(), &creature).await;
    assert!(out.status.success(), "{}", stderr(&out));
    let spans = collector.spans();
    let chats: Vec<_> = spans.iter().filter(|s| s.name == "chat").collect();
    assert_eq!(chats.len(), answers, "one chat span per answer");
    let mut in_a_sent_wake = 0;
    for c in &chats {
        assert_eq!(attr(c, "gen_ai.operation.name").as_deref(), Some("chat"));
        assert!(
            attr(c, "gen_ai.request.model").is_none(),
            "BIRTH.json names none"
        );
        assert!(c.end_time_unix_nano >= c.start_time_unix_nano);
        if let Some(parent) = spans.iter().find(|s| s.span_id == c.parent_span_id) {
            assert!(
                parent.name.starts_with("invoke_agent pip"),
                "{}",
                parent.name
            );
            assert!(parent.start_time_unix_nano <= c.start_time_unix_nano);
            in_a_sent_wake += 1;
        }
    }
    assert!(
        in_a_sent_wake * 10 >= answers * 9,
        "{in_a_sent_wake} of {answers}: the last wake is under way"
    );
    let again = export(home.path(), &collector.endpoint(), &creature).await;
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(collector.spans().len(), spans.len(), "each span sent once");
}
