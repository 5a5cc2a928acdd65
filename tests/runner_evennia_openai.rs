//! The evennia genome on the OpenAI-compatible provider: every request of a life (creature
//! turns with tool calls, the sleep work's scoring, fact extraction, summaries, and the
//! `/v1/embeddings` calls) goes through the real wire format to a server on 127.0.0.1 that
//! answers like a model would.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

use std::sync::{Arc, Mutex};

use chrono::{TimeDelta, TimeZone, Utc};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use dreamwatch::llm::embed::EmbedSettings;
use dreamwatch::llm::{ProviderKind, ProviderOptions, build_embedder, build_provider_with};
use dreamwatch::runner::brain::Model;
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};
use dreamwatch::runner::genome::evennia::Evennia;

/// What the server saw: (path, body).
type Seen = Arc<Mutex<Vec<(String, Value)>>>;

async fn read_request(socket: &mut TcpStream) -> Option<(String, Value)> {
    let mut buf = Vec::new();
    let mut piece = [0u8; 8192];
    let head_end = loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break end;
        }
        let n = socket.read(&mut piece).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&piece[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_lowercase();
    let path = head.lines().next()?.split(' ').nth(1)?.to_string();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length {
        let n = socket.read(&mut piece).await.ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&piece[..n]);
    }
    Some((path, serde_json::from_slice(&body).unwrap_or(Value::Null)))
}

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
    let finish = if message["tool_calls"].is_array() {
        "tool_calls"
    } else {
        "stop"
    };
    json!({"id": "chatcmpl-1", "object": "chat.completion", "model": "keeper-1",
           "choices": [{"index": 0, "message": message, "finish_reason": finish}],
           "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
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
           "usage": {"prompt_tokens": 1, "total_tokens": 1}})
}

async fn serve(listener: TcpListener, seen: Seen) {
    let turns = Arc::new(Mutex::new(0usize));
    while let Ok((mut socket, _)) = listener.accept().await {
        let (seen, turns) = (seen.clone(), turns.clone());
        tokio::spawn(async move {
            let Some((path, body)) = read_request(&mut socket).await else {
                return;
            };
            let answer = if path.ends_with("/embeddings") {
                embeddings_answer(&body)
            } else {
                let turn = {
                    let mut t = turns.lock().unwrap();
                    if body["tools"].as_array().is_some_and(|t| !t.is_empty()) {
                        *t += 1;
                    }
                    *t
                };
                chat_answer(&body, turn)
            };
            seen.lock().unwrap().push((path, body));
            let text = answer.to_string();
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                text.len()
            );
            let _ = socket.write_all(head.as_bytes()).await;
            let _ = socket.write_all(text.as_bytes()).await;
            let _ = socket.shutdown().await;
        });
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_evennia_life_on_the_openai_provider() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/v1", listener.local_addr().unwrap());
    let seen: Seen = Arc::default();
    tokio::spawn(serve(listener, seen.clone()));

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

    let seen = seen.lock().unwrap().clone();
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
}
