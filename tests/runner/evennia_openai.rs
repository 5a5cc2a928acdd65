//! The evennia genome on the OpenAI-compatible provider: every request of a life (creature
//! turns with tool calls, the sleep work's scoring, fact extraction, summaries, and the
//! `/v1/embeddings` calls) goes through the real wire format to a server on 127.0.0.1 that
//! answers like a model would.

use std::sync::Arc;

use chrono::{TimeDelta, TimeZone, Utc};
use serde_json::{Value, json};

use crate::common::http::Server;
use crate::common::http::openai::{answering, completion_for, usage_for};

use dreamwatch::genomes::evennia::runner::Evennia;
use dreamwatch::llm::embed::EmbedSettings;
use dreamwatch::llm::{ProviderKind, ProviderOptions, build_embedder, build_provider_with};
use dreamwatch::runner::brain::Model;
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};

/// A model's answer to a chat request: tool calls for creature turns (a journal entry,
/// then sleep), plain text for the sleep work, picked by what the request asks.
fn chat_answer(body: &Value, turn: usize) -> Value {
    let message = if body["tools"].as_array().is_some_and(|t| !t.is_empty()) {
        let (name, args) = if turn.is_multiple_of(2) {
            (
                "add_journal_entry",
                json!({"text": format!("Met the keeper at the gate on turn {turn} — the keeper guards the north gate")}),
            )
        } else {
            ("set_sleep", json!({"seconds": 300}))
        };
        json!({"role": "assistant", "content": null, "tool_calls": [{
            "id": format!("call_{turn}"), "type": "function",
            "function": {"name": name, "arguments": args.to_string()}}]})
    } else {
        let system = body["messages"][0]["content"].as_str().unwrap_or_default();
        let user = body["messages"][1]["content"].as_str().unwrap_or_default();
        let text = if system.contains("Rate the importance") {
            user.lines()
                .filter_map(|l| l.split_once(':').map(|(id, _)| format!("{id}: 7")))
                .collect::<Vec<_>>()
                .join("\n")
        } else if system.contains("Extract only objective facts") {
            "- The keeper guards the north gate.".to_string()
        } else {
            "A summary.".to_string()
        };
        json!({"role": "assistant", "content": text})
    };
    completion_for(body, message)
}

fn embeddings_answer(body: &Value) -> Value {
    let inputs = body["input"].as_array().cloned().unwrap_or_default();
    let data: Vec<Value> = inputs
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let len = text.as_str().unwrap_or_default().len() as f32;
            json!({"object": "embedding", "index": i,
                   "embedding": [1.0, len.sin(), len.cos(), 0.5]})
        })
        .collect();
    json!({"object": "list", "model": "embed-1", "data": data,
           "usage": {"prompt_tokens": inputs.len(), "total_tokens": inputs.len()}})
}

/// The model's answer: embeddings, or a chat completion.
fn answer(path: &str, body: &Value, turn: usize) -> Value {
    if path.ends_with("/embeddings") {
        embeddings_answer(body)
    } else {
        chat_answer(body, turn)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_evennia_life_on_the_openai_provider() {
    let server = Server::handling(answering(answer)).await;
    let base = format!("{}/v1", server.base);

    let env = |_: &str| None;
    let options = ProviderOptions {
        stream: false,
        ..ProviderOptions::default()
    };
    let provider = build_provider_with(
        ProviderKind::Openai,
        Some("keeper-1".into()),
        Some(base.clone()),
        &env,
        options.clone(),
    )
    .unwrap();
    let embedder = build_embedder(
        ProviderKind::Openai,
        Some(base),
        EmbedSettings {
            model: Some("embed-1".into()),
            base_url: None,
        },
        &env,
        options,
    )
    .unwrap()
    .embedder;

    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("keeper");
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    let mut opts = RunnerOptions::new(
        dir.clone(),
        RunnerConfig::default(),
        Arc::new(Model(Arc::from(provider))),
        "keeper-1".into(),
    );
    opts.embedder = embedder;
    opts.clock = Arc::new(VirtualClock::new(start, TimeDelta::seconds(1)));
    opts.max_sleeps = Some(2);
    let report = Runner::open_genome(opts, Evennia::default())
        .unwrap()
        .run(std::future::pending())
        .await;
    assert_eq!(report.dreams_this_run, 2);

    let seen: Vec<(String, Value)> = server
        .seen()
        .into_iter()
        .map(|s| (s.path, s.body))
        .collect();
    let paths: Vec<&str> = seen.iter().map(|(p, _)| p.as_str()).collect();
    assert!(paths.contains(&"/v1/chat/completions"));
    assert!(paths.contains(&"/v1/embeddings"), "{paths:?}");
    let tool_names: Vec<&str> = seen[0].1["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert!(tool_names.contains(&"add_journal_entry") && tool_names.contains(&"recall_memories"));
    let extraction = seen
        .iter()
        .find(|(_, b)| {
            b["messages"][0]["content"]
                .as_str()
                .is_some_and(|s| s.contains("NEVER extract"))
        })
        .expect("the persona-protection prompt went to the model");
    assert!(
        extraction.1["messages"][1]["content"]
            .as_str()
            .unwrap()
            .contains("keeper")
    );

    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
    let semantic = read(".self/semantic.jsonl");
    assert!(semantic.contains("The keeper guards the north gate."));
    assert!(semantic.contains("\"model\":\"embed-1\""), "{semantic}");
    assert!(read(".self/journal.jsonl").contains("\"importance_method\":\"llm\""));
    assert!(read("BIRTH.json").contains("evennia"));

    // `.sys/usage.jsonl` sums exactly what the server said each call used.
    let usage = dreamwatch::memory::usage::last_line(&dir.join(".sys/usage.jsonl"))
        .unwrap()
        .expect("usage was recorded");
    let chats: Vec<&Value> = seen
        .iter()
        .filter(|(p, _)| p.ends_with("/chat/completions"))
        .map(|(_, b)| b)
        .collect();
    let served = |f: &dyn Fn(&Value) -> u64| chats.iter().map(|b| f(&usage_for(b))).sum::<u64>();
    let chat = usage.totals["openai/keeper-1"];
    assert_eq!(chat.calls, chats.len() as u64);
    assert!(!chat.estimated);
    let prompt = |u: &Value| u["prompt_tokens"].as_u64().unwrap();
    let cached = |u: &Value| {
        u["prompt_tokens_details"]["cached_tokens"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(chat.tokens.cache_read, served(&cached));
    assert_eq!(chat.tokens.input, served(&|u| prompt(u) - cached(u)));
    assert_eq!(
        chat.tokens.output,
        served(&|u| u["completion_tokens"].as_u64().unwrap())
    );
    let texts: u64 = seen
        .iter()
        .filter(|(p, _)| p.ends_with("/embeddings"))
        .map(|(_, b)| b["input"].as_array().map_or(0, Vec::len) as u64)
        .sum();
    let embed = usage.totals["openai/embed-1"];
    assert_eq!((embed.tokens.input, embed.tokens.output), (texts, 0));
    let lines = read(".sys/usage.jsonl").lines().count() as u64;
    assert_eq!(lines, chat.calls + embed.calls, "one line per call");
}
