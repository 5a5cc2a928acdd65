//! The Anthropic Messages wire format, for a model on the shared server.

use serde_json::{Value, json};

/// A Messages API answer of `model`: `content` blocks, why it stopped, and the tokens
/// it reports (input, output).
pub fn message(model: &str, content: Value, stop_reason: &str, tokens: (u64, u64)) -> Value {
    json!({
        "id": "msg_01", "type": "message", "role": "assistant", "model": model,
        "content": content, "stop_reason": stop_reason, "stop_sequence": null,
        "usage": {"input_tokens": tokens.0, "output_tokens": tokens.1},
    })
}
