//! The OpenAI wire format, for a model on the shared server: chat completions (a
//! handler answering like a model would, turn by turn) and their token usage.

use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

use super::{Reply, Seen};

/// Answers `(path, body, turn)`, `turn` counting the requests that offered tools.
pub type Answer = fn(&str, &Value, usize) -> Value;

/// A handler for [`super::Server::handling`]: each request answered 200 with the JSON
/// `answer` makes of it.
pub fn answering(answer: Answer) -> impl Fn(&Seen) -> Reply + Send + Sync + 'static {
    let turns = AtomicUsize::new(0);
    move |seen| {
        let turn = if seen.body["tools"].as_array().is_some_and(|t| !t.is_empty()) {
            turns.fetch_add(1, Ordering::SeqCst) + 1
        } else {
            turns.load(Ordering::SeqCst)
        };
        Reply::json(200, answer(&seen.path, &seen.body, turn))
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
