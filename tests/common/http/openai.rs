//! A model on 127.0.0.1 for the OpenAI-wire tests: reads each HTTP request, keeps what it
//! saw, and answers with what the test's `answer` makes of it.

use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the server saw: (path, body).
pub type Seen = Arc<Mutex<Vec<(String, Value)>>>;

pub async fn read_request(socket: &mut TcpStream) -> Option<(String, Value)> {
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

/// Answers `(path, body, turn)`, `turn` counting the requests that offered tools.
pub type Answer = fn(&str, &Value, usize) -> Value;

/// Serves every connection until the test ends.
pub async fn serve(listener: TcpListener, seen: Seen, answer: Answer) {
    let turns = Arc::new(Mutex::new(0usize));
    while let Ok((mut socket, _)) = listener.accept().await {
        let (seen, turns) = (seen.clone(), turns.clone());
        tokio::spawn(async move {
            let Some((path, body)) = read_request(&mut socket).await else {
                return;
            };
            let turn = {
                let mut t = turns.lock().unwrap();
                if body["tools"].as_array().is_some_and(|t| !t.is_empty()) {
                    *t += 1;
                }
                *t
            };
            let text = answer(&path, &body, turn).to_string();
            seen.lock().unwrap().push((path, body));
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

/// The `usage` the server reports for a request, as OpenAI does (the part of the prompt
/// served from its cache inside `prompt_tokens`): made from the request, so that a test can
/// sum what was served from what the server saw.
pub fn usage_for(body: &Value) -> Value {
    let prompt = body.to_string().len() as u64 / 4;
    let completion = 7 + body["messages"].as_array().map_or(0, Vec::len) as u64;
    serde_json::json!({"prompt_tokens": prompt, "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "prompt_tokens_details": {"cached_tokens": prompt / 2}})
}

/// A chat completion carrying `message`, with the usage [`usage_for`] says of `body`.
pub fn completion_for(body: &Value, message: Value) -> Value {
    let mut answer = completion(message);
    answer["usage"] = usage_for(body);
    answer
}

/// A chat completion carrying `message`.
pub fn completion(message: Value) -> Value {
    let finish = if message["tool_calls"].is_array() {
        "tool_calls"
    } else {
        "stop"
    };
    serde_json::json!({"id": "chatcmpl-1", "object": "chat.completion", "model": "keeper-1",
           "choices": [{"index": 0, "message": message, "finish_reason": finish}],
           "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
}
