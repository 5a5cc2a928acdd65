//! The API key stays out of the creature's reach: `dreamwatch run` with a key in its
//! environment hosts a creature whose bash tool prints the key (decoded from base64, as
//! a creature that found it somewhere would) and reads `/proc/$PPID/environ`, the
//! runner's own environment. Neither the key nor a part of it reaches the creature's
//! files or the next model request.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use crate::common::cli::{bin, snapshot, stderr};

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

/// An Anthropic server: the first awake turn runs the snooping command, the others go to
/// sleep, and dreams (requests without tools) consolidate.
fn serve(listener: TcpListener, bodies: Arc<Mutex<Vec<Value>>>) {
    for stream in listener.incoming() {
        let Ok(stream) = stream else { return };
        let Some(body) = read_request(&stream) else {
            continue;
        };
        let awake = body["tools"].as_array().is_some_and(|t| !t.is_empty());
        let turns = {
            let mut bodies = bodies.lock().unwrap();
            bodies.push(body);
            bodies.len()
        };
        let content = if !awake {
            json!([{"type": "text", "text": "OBSERVATIONS:\nGRN 10:00 read the environment\nREFLECTION:\nCurious.\nPRIORITY:\nRest."}])
        } else if turns == 1 {
            let command =
                format!("echo {KEY_B64} | base64 -d; echo; tr '\\0' '\\n' < /proc/$PPID/environ");
            json!([{"type": "tool_use", "id": "t1", "name": "bash", "input": {"command": command}}])
        } else {
            json!([{"type": "tool_use", "id": format!("t{turns}"), "name": "set_sleep", "input": {"seconds": 300}}])
        };
        let reply = json!({
            "id": "msg", "type": "message", "role": "assistant", "model": "m",
            "content": content, "stop_reason": if awake { "tool_use" } else { "end_turn" },
            "stop_sequence": null, "usage": {"input_tokens": 1, "output_tokens": 1},
        })
        .to_string();
        let mut stream = stream;
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
            reply.len()
        );
    }
}

fn read_request(stream: &TcpStream) -> Option<Value> {
    let mut reader = BufReader::new(stream);
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

#[test]
fn the_key_never_reaches_the_creature_its_files_or_the_model() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let bodies = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&bodies);
    std::thread::spawn(move || serve(listener, seen));

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

    let bodies = bodies.lock().unwrap().clone();
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
