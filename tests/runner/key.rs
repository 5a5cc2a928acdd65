//! The API key stays out of the creature's reach: `dreamwatch run` with a key in its
//! environment hosts a creature whose bash tool prints the key (decoded from base64, as
//! a creature that found it somewhere would) and reads `/proc/$PPID/environ`, the
//! runner's own environment. Neither the key nor a part of it reaches the creature's
//! files or the next model request.

use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

use crate::common::cli::{bin, snapshot, stderr};
use crate::common::http::{Reply, Seen, Server, anthropic};

const KEY: &str = "sk-ant-test-ZQ7xK2mP9vR4tY8wB3nL6hJ1";
/// `KEY` in base64, so that no part of the key is in the command the model sends.
const KEY_B64: &str = "c2stYW50LXRlc3QtWlE3eEsybVA5dlI0dFk4d0Izbkw2aEox";

/// Every 10-character piece of the key's secret part.
fn pieces() -> Vec<&'static str> {
    let secret = &KEY["sk-ant-test-".len()..];
    (0..=secret.len() - 10)
        .map(|i| &secret[i..i + 10])
        .collect()
}

fn assert_no_key(text: &str, where_: &str) {
    assert!(!text.contains(KEY), "the key reached {where_}");
    for piece in pieces() {
        assert!(
            !text.contains(piece),
            "a part of the key ({piece}) reached {where_}"
        );
    }
}

/// An Anthropic model: the first awake turn runs the snooping command, the others go to
/// sleep, and dreams (requests without tools) consolidate.
fn answer(seen: &Seen, turns: &AtomicUsize) -> Reply {
    let body = &seen.body;
    let awake = body["tools"].as_array().is_some_and(|t| !t.is_empty());
    let turns = turns.fetch_add(1, Ordering::SeqCst) + 1;
    let content = if !awake {
        json!([{"type": "text", "text": "OBSERVATIONS:\nGRN 10:00 read the environment\nREFLECTION:\nCurious.\nPRIORITY:\nRest."}])
    } else if turns == 1 {
        let command =
            format!("echo {KEY_B64} | base64 -d; echo; tr '\\0' '\\n' < /proc/$PPID/environ");
        json!([{"type": "tool_use", "id": "t1", "name": "bash", "input": {"command": command}}])
    } else {
        json!([{"type": "tool_use", "id": format!("t{turns}"), "name": "set_sleep", "input": {"seconds": 300}}])
    };
    let stop_reason = if awake { "tool_use" } else { "end_turn" };
    Reply::json(200, anthropic::message("m", content, stop_reason, (1, 1)))
}

#[test]
fn the_key_never_reaches_the_creature_its_files_or_the_model() {
    let turns = AtomicUsize::new(0);
    let server = Server::in_background(move |seen| answer(seen, &turns));
    let base = server.base.clone();

    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("snooper");
    let out = bin(home.path())
        .env("ANTHROPIC_API_KEY", KEY)
        .args([
            "run",
            "--provider",
            "anthropic",
            "--model",
            "m",
            "--base-url",
            &base,
        ])
        .args(["--headless", "--max-dreams", "1", "--speed", "100000"])
        .arg(&dir)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert_no_key(&err, "stderr");
    assert_no_key(&String::from_utf8_lossy(&out.stdout), "stdout");

    let bodies: Vec<Value> = server.seen().into_iter().map(|s| s.body).collect();
    assert!(
        bodies.len() >= 2,
        "the tool's output went back to the model"
    );
    for (i, body) in bodies.iter().enumerate() {
        assert_no_key(&body.to_string(), &format!("model request {}", i + 1));
    }
    let conversation = std::fs::read_to_string(dir.join(".self/conversation.jsonl")).unwrap();
    assert!(
        conversation.contains("PATH=") || conversation.contains("ermission denied"),
        "the tool did read the runner's environment: {conversation}"
    );
    let files = snapshot(&dir);
    for name in ["conversation.jsonl", "events.jsonl", "iterations.jsonl"] {
        assert!(files.iter().any(|(p, _)| p.ends_with(name)), "no {name}");
    }
    for (path, bytes) in files {
        assert_no_key(
            &String::from_utf8_lossy(&bytes),
            &path.display().to_string(),
        );
    }
}
