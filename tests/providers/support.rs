//! What the provider tests share: the key that must never leak, fast options, the one
//! request they send, and checks of the answer. The server they talk to is
//! `common::http`'s scripted one.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use dreamwatch::llm::{
    ContentBlock, LlmError, Message, ProviderOptions, Request, Response, RetryClock, RetryPolicy,
    StopReason, Timeouts,
};

/// The key every test provider carries; it must show up in no error and no `Debug`.
pub const KEY: &str = "sk-test-7f3a9c1e-SECRET";

/// Panics if `text` holds the key.
pub fn assert_no_key(text: &str) {
    assert!(!text.contains(KEY), "the API key leaked into: {text}");
}

/// Fast options: three tries, backoffs recorded instead of waited (see
/// [`options_recording_waits`]), one second per try (tests of a stalled server shorten it).
pub fn options(stream: bool) -> ProviderOptions {
    options_recording_waits(stream).0
}

/// [`options`], and the backoffs the provider asked to wait, in order.
pub fn options_recording_waits(stream: bool) -> (ProviderOptions, Arc<Mutex<Vec<Duration>>>) {
    let (retry_clock, waits) = RetryClock::recorder();
    let options = ProviderOptions {
        retry_clock,
        ..options_waiting(stream)
    };
    (options, waits)
}

fn options_waiting(stream: bool) -> ProviderOptions {
    ProviderOptions {
        timeouts: Timeouts {
            connect: Duration::from_secs(1),
            overall: Duration::from_secs(1),
        },
        retry: RetryPolicy {
            max_tries: 3,
            base: Duration::from_millis(10),
            max: Duration::from_secs(2),
        },
        retry_clock: RetryClock::Real,
        stream,
    }
}

/// The request every provider test sends: a system prompt and one user line.
pub fn request() -> Request {
    Request {
        system: "You are a creature.".into(),
        messages: vec![Message::user_text("Wake up.")],
        tools: Vec::new(),
        max_tokens: 512,
    }
}

/// Whether the answer is the plain "Hello." that `hello()` replies in each format.
pub fn said_hello(response: &Response) -> bool {
    response.content
        == vec![ContentBlock::Text {
            text: "Hello.".into(),
        }]
        && response.stop_reason == StopReason::EndTurn
}

/// Checks the error and its text, which must not hold the key.
pub fn failed(result: Result<Response, LlmError>) -> LlmError {
    let error = result.expect_err("the call should fail");
    assert_no_key(&error.to_string());
    assert_no_key(&format!("{error:?}"));
    error
}
