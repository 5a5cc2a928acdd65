//! The emergence genome on the OpenAI-compatible provider: creature turns with tool calls
//! (many in one answer) and self-care's summarising requests go through the real wire
//! format to a server on 127.0.0.1 that answers like a model would.

use std::sync::Arc;

use chrono::{TimeDelta, TimeZone, Utc};
use serde_json::{Value, json};

use crate::common::http::Server;
use crate::common::http::openai::{answering, completion_for, usage_for};

use dreamwatch::genomes::emergence::runner::Emergence;
use dreamwatch::llm::{ProviderKind, ProviderOptions, build_provider_with};
use dreamwatch::runner::brain::Model;
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};

fn call(n: usize, name: &str, args: Value) -> Value {
    json!({"id": format!("call_{n}_{name}"), "type": "function",
           "function": {"name": name, "arguments": args.to_string()}})
}

/// Turn 1 stores 30 memories and a soul entry, turn 2 starts self-care, turn 3 keeps the
/// diary, a to-do, a recurring event and a relation, then the creature sleeps.
fn answer(_path: &str, body: &Value, turn: usize) -> Value {
    if body["tools"].as_array().is_none_or(|t| t.is_empty()) {
        let system = body["messages"][0]["content"].as_str().unwrap_or_default();
        let text = if system.contains("long-term memories") {
            "I keep the north gate; the keeper is my friend."
        } else {
            "The keeper and I talked about the gate."
        };
        return completion_for(body, json!({"role": "assistant", "content": text}));
    }
    let calls: Vec<Value> = match turn {
        1 => std::iter::once(call(
            0,
            "add_soul_entry",
            json!({"text": "I guard what I love"}),
        ))
        .chain((1..=30).map(|i| {
            call(
                i,
                "add_to_longterm_memory",
                json!({"text": format!("gate fact {i}")}),
            )
        }))
        .collect(),
        2 => vec![call(2, "self_care", json!({"focus": "the gate"}))],
        3 => vec![
            call(
                3,
                "write_diary",
                json!({"text": "Quiet at the gate", "mood": "calm", "location": "north gate"}),
            ),
            call(
                3,
                "add_todo",
                json!({"title": "Oil the hinges", "priority": "high"}),
            ),
            call(
                3,
                "add_to_calendar",
                json!({"at": "2026-03-02T09:00:00Z", "description": "patrol", "recurrence": "FREQ=DAILY;INTERVAL=2"}),
            ),
            call(
                3,
                "update_relationship",
                json!({"agent": "keeper", "relationship_type": "ally", "trust_level": 0.9}),
            ),
        ],
        _ => vec![call(turn, "set_sleep", json!({"seconds": 300}))],
    };
    completion_for(
        body,
        json!({"role": "assistant", "content": null, "tool_calls": calls}),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_emergence_life_on_the_openai_provider() {
    let server = Server::handling(answering(answer)).await;
    let base = format!("{}/v1", server.base);

    let options = ProviderOptions {
        stream: false,
        ..ProviderOptions::default()
    };
    let provider = build_provider_with(
        ProviderKind::Openai,
        Some("keeper-1".into()),
        Some(base),
        &|_: &str| None,
        options,
    )
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("keeper");
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    let mut opts = RunnerOptions::new(
        dir.clone(),
        RunnerConfig::default(),
        Arc::new(Model(Arc::from(provider))),
        "keeper-1".into(),
    );
    opts.clock = Arc::new(VirtualClock::new(start, TimeDelta::seconds(1)));
    opts.max_sleeps = Some(2);
    let report = Runner::open_genome(opts, Emergence::default())
        .unwrap()
        .run(std::future::pending())
        .await;
    assert_eq!(report.dreams_this_run, 1, "one self-care");

    let seen: Vec<(String, Value)> = server
        .seen()
        .into_iter()
        .map(|s| (s.path, s.body))
        .collect();
    let tool_names: Vec<&str> = seen[0].1["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    for t in [
        "add_soul_entry",
        "self_care",
        "add_to_calendar",
        "update_relationship",
    ] {
        assert!(tool_names.contains(&t), "{t} offered: {tool_names:?}");
    }
    let summarising = seen
        .iter()
        .find(|(_, b)| {
            b["messages"][0]["content"]
                .as_str()
                .is_some_and(|s| s.contains("consolidating its long-term memories"))
        })
        .expect("self-care asked the model");
    let user = summarising.1["messages"][1]["content"].as_str().unwrap();
    assert!(user.contains("Focus chosen by the agent: the gate"));
    assert!(user.contains("[m30] gate fact 30"));
    // The soul is in the system prompt of later turns, and never in a summarising request.
    assert!(!user.contains("I guard what I love"));
    let last_turn = seen
        .iter()
        .rev()
        .find(|(_, b)| b["tools"].is_array())
        .unwrap();
    assert!(
        last_turn.1["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains("[s1] I guard what I love")
    );

    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
    assert!(read(".self/summaries.jsonl").contains("I keep the north gate"));
    assert!(read(".self/longterm.jsonl").contains("\"op\":\"archive\""));
    assert!(read(".self/calendar.jsonl").contains("FREQ=DAILY;INTERVAL=2"));
    assert!(read(".self/relations.jsonl").contains("\"trust_level\":0.9"));
    assert!(read("BIRTH.json").contains("emergence"));

    // Every call's usage is in `.sys/usage.jsonl`, summed.
    let usage = dreamwatch::memory::usage::last_line(&dir.join(".sys/usage.jsonl"))
        .unwrap()
        .unwrap();
    let sums = usage.totals["openai/keeper-1"];
    assert_eq!(sums.calls, seen.len() as u64);
    let output: u64 = seen
        .iter()
        .map(|(_, b)| usage_for(b)["completion_tokens"].as_u64().unwrap())
        .sum();
    assert_eq!(sums.tokens.output, output);
}
