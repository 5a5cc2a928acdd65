//! The Anthropic provider against a local server speaking the Messages API wire format.

use std::time::Duration;

use crate::common::http::{Reply, Server, anthropic, refused_base};
use crate::support::{
    KEY, assert_no_key, failed, options, options_recording_waits, request, said_hello,
};
use dreamwatch::llm::anthropic::AnthropicProvider;
use dreamwatch::llm::{
    ApiKey, ContentBlock, Endpoint, LlmError, Message, Provider, ProviderOptions, Role, StopReason,
    Tokens, ToolSpec,
};
use serde_json::{Value, json};

fn provider(server: &Server, stream: bool) -> AnthropicProvider {
    provider_with(server, options(stream))
}

fn provider_with(server: &Server, options: ProviderOptions) -> AnthropicProvider {
    let endpoint =
        Endpoint::new(&server.base, "claude-test".into(), Some(ApiKey::new(KEY))).unwrap();
    let provider = AnthropicProvider::new(endpoint, options).unwrap();
    assert_no_key(&format!("{provider:?}"));
    provider
}

fn message(content: Value, stop_reason: &str) -> Reply {
    Reply::json(
        200,
        anthropic::message("claude-test", content, stop_reason, (12, 4)),
    )
}

fn hello() -> Reply {
    message(json!([{"type": "text", "text": "Hello."}]), "end_turn")
}

fn error_body(kind: &str, text: &str) -> Value {
    json!({"type": "error", "error": {"type": kind, "message": text}})
}

#[tokio::test]
async fn plain_text_answer() {
    let server = Server::start(vec![hello()]).await;
    let provider = provider(&server, false);
    let answer = provider.complete(&request()).await.unwrap();
    assert!(said_hello(&answer));
    assert_eq!(
        answer.usage,
        Some(Tokens {
            input: 12,
            output: 4,
            ..Tokens::default()
        })
    );
    assert_eq!(provider.priced_as(), "anthropic/claude-test");

    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path, "/v1/messages");
    assert_eq!(seen[0].headers["x-api-key"], KEY);
    assert_eq!(seen[0].headers["anthropic-version"], "2023-06-01");
    assert_eq!(seen[0].headers["content-type"], "application/json");
    assert!(!seen[0].headers.contains_key("authorization"));
    assert_eq!(
        seen[0].body,
        json!({
            "model": "claude-test",
            "max_tokens": 512,
            "system": "You are a creature.",
            "messages": [{"role": "user", "content": [{"type": "text", "text": "Wake up."}]}],
        })
    );
}

#[tokio::test]
async fn tool_use_round_trip() {
    let answer = message(
        json!([
            {"type": "thinking", "thinking": "hmm", "signature": "x"},
            {"type": "text", "text": "Looking."},
            {"type": "tool_use", "id": "toolu_2", "name": "bash", "input": {"command": "ls"}},
        ]),
        "tool_use",
    );
    let server = Server::start(vec![answer]).await;
    let mut request = request();
    request.tools = vec![ToolSpec {
        name: "bash".into(),
        description: "Run a command".into(),
        input_schema: json!({"type": "object", "properties": {"command": {"type": "string"}}}),
    }];
    request.messages.push(Message {
        role: Role::Assistant,
        content: vec![
            ContentBlock::Text { text: "".into() },
            ContentBlock::ToolUse {
                id: "toolu_1".into(),
                name: "bash".into(),
                input: json!({"command": "pwd"}),
            },
        ],
    });
    request.messages.push(Message {
        role: Role::User,
        content: vec![ContentBlock::ToolResult {
            tool_use_id: "toolu_1".into(),
            content: "no such dir".into(),
            is_error: true,
        }],
    });

    let response = provider(&server, false).complete(&request).await.unwrap();
    assert_eq!(
        response.content,
        vec![
            ContentBlock::Text {
                text: "Looking.".into()
            },
            ContentBlock::ToolUse {
                id: "toolu_2".into(),
                name: "bash".into(),
                input: json!({"command": "ls"})
            },
        ]
    );
    assert_eq!(response.stop_reason, StopReason::ToolUse);

    let body = &server.seen()[0].body;
    assert_eq!(
        body["tools"],
        json!([{
            "name": "bash",
            "description": "Run a command",
            "input_schema": {"type": "object", "properties": {"command": {"type": "string"}}},
        }])
    );
    assert_eq!(body["system"], "You are a creature.");
    assert_eq!(
        body["messages"],
        json!([
            {"role": "user", "content": [{"type": "text", "text": "Wake up."}]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"command": "pwd"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "no such dir", "is_error": true}]},
        ])
    );
}

fn streamed_answer() -> Reply {
    let events = [
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [], "stop_reason": null, "usage": {"input_tokens": 5, "cache_creation_input_tokens": 1500, "cache_read_input_tokens": 0, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "ping"}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Je rêve "}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "encore."}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_9", "name": "set_sleep", "input": {}}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": ""}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"seco"}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "nds\": 45}"}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null}, "usage": {"output_tokens": 20}}),
        json!({"type": "message_stop"}),
    ];
    let events: Vec<_> = events
        .iter()
        .map(|e| (e["type"].as_str(), e.to_string()))
        .collect();
    Reply::sse(&events)
}

#[tokio::test]
async fn streamed_text_and_tool_input() {
    let server = Server::start(vec![streamed_answer()]).await;
    let response = provider(&server, true).complete(&request()).await.unwrap();
    assert_eq!(
        response.content,
        vec![
            ContentBlock::Text {
                text: "Je rêve encore.".into()
            },
            ContentBlock::ToolUse {
                id: "toolu_9".into(),
                name: "set_sleep".into(),
                input: json!({"seconds": 45})
            },
        ]
    );
    assert_eq!(response.stop_reason, StopReason::ToolUse);
    assert_eq!(server.seen()[0].body["stream"], true);
    // The start's counts, the output's final count from `message_delta`.
    assert_eq!(
        response.usage,
        Some(Tokens {
            input: 5,
            output: 20,
            cache_read: 0,
            cache_write: 1500
        })
    );
}

#[tokio::test]
async fn errors_inside_a_stream_and_cut_streams_are_retried() {
    let overloaded = Reply::sse(&[
        (
            Some("message_start"),
            json!({"type": "message_start", "message": {"content": []}}).to_string(),
        ),
        (
            Some("error"),
            error_body("overloaded_error", "Overloaded").to_string(),
        ),
    ]);
    let cut = Reply::sse(&[(
        Some("content_block_start"),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": "Hel"}}).to_string(),
    )]);
    let server = Server::start(vec![overloaded, cut, streamed_answer()]).await;
    let response = provider(&server, true).complete(&request()).await.unwrap();
    assert_eq!(response.stop_reason, StopReason::ToolUse);
    assert_eq!(server.seen().len(), 3);
}

#[tokio::test]
async fn rate_limit_waits_as_long_as_retry_after_says() {
    let limited = Reply::json(
        429,
        error_body(
            "rate_limit_error",
            "Number of requests has exceeded your rate limit",
        ),
    )
    .header("retry-after", "1");
    let server = Server::start(vec![limited, hello()]).await;
    let (options, waits) = options_recording_waits(false);
    assert!(said_hello(
        &provider_with(&server, options)
            .complete(&request())
            .await
            .unwrap()
    ));
    assert_eq!(server.seen().len(), 2);
    assert_eq!(*waits.lock().unwrap(), vec![Duration::from_secs(1)]);
}

#[tokio::test]
async fn overloaded_and_server_errors_are_retried() {
    let server = Server::start(vec![
        Reply::json(529, error_body("overloaded_error", "Overloaded")),
        Reply::json(500, error_body("api_error", "Internal server error")),
        hello(),
    ])
    .await;
    assert!(said_hello(
        &provider(&server, false).complete(&request()).await.unwrap()
    ));
    assert_eq!(server.seen().len(), 3);
}

#[tokio::test]
async fn persistent_server_errors_come_back_after_the_last_try() {
    let busy = || Reply::json(529, error_body("overloaded_error", "Overloaded"));
    let server = Server::start(vec![busy(), busy(), busy()]).await;
    let error = failed(provider(&server, false).complete(&request()).await);
    assert_eq!(
        error,
        LlmError::Server {
            status: 529,
            body: "overloaded_error: Overloaded".into()
        }
    );
    assert_eq!(server.seen().len(), 3);
}

#[tokio::test]
async fn a_stalled_server_times_out_after_every_try() {
    let server = Server::start(vec![Reply::Stall, Reply::Stall, Reply::Stall]).await;
    let mut options = options(true);
    options.timeouts.overall = Duration::from_millis(200);
    let result = provider_with(&server, options).complete(&request()).await;
    // Each stalled try ends at the 200 ms timeout (the server would stall for 30 s).
    let error = failed(result);
    assert!(
        matches!(&error, LlmError::NoAnswer { url, secs: 1 } if url.starts_with(&server.base)),
        "{error:?}"
    );
    assert_eq!(server.seen().len(), 3);
}

#[tokio::test]
async fn malformed_answers_are_retried() {
    let server = Server::start(vec![
        Reply::raw_json(200, r#"{"id": "msg_01", "content": [{"type": "te"#),
        message(json!("not a list"), "end_turn"),
        hello(),
    ])
    .await;
    assert!(said_hello(
        &provider(&server, false).complete(&request()).await.unwrap()
    ));
    assert_eq!(server.seen().len(), 3);

    let server = Server::start(vec![
        Reply::raw_json(200, "{"),
        Reply::raw_json(200, "{"),
        Reply::raw_json(200, "{"),
    ])
    .await;
    assert!(matches!(
        failed(provider(&server, false).complete(&request()).await),
        LlmError::Malformed(_)
    ));
}

#[tokio::test]
async fn context_too_long_is_not_retried() {
    let too_long = || {
        Reply::json(
            400,
            error_body(
                "invalid_request_error",
                "prompt is too long: 215000 tokens > 200000 maximum",
            ),
        )
    };
    let server = Server::start(vec![too_long()]).await;
    let provider = provider(&server, false);
    let error = failed(provider.complete(&request()).await);
    assert!(
        matches!(error, LlmError::ContextTooLong(ref why) if why.contains("prompt is too long")),
        "{error:?}"
    );
    assert_eq!(server.seen().len(), 1);
}

#[tokio::test]
async fn the_key_stays_out_of_errors_even_when_echoed() {
    let echo = error_body("authentication_error", &format!("invalid x-api-key {KEY}"));
    let server = Server::start(vec![Reply::json(401, echo)]).await;
    let error = failed(provider(&server, false).complete(&request()).await);
    assert_eq!(
        error,
        LlmError::Auth {
            status: 401,
            body: "authentication_error: invalid x-api-key [redacted]".into(),
            variable: Some("ANTHROPIC_API_KEY"),
        }
    );
    assert_eq!(
        error.to_string(),
        "the model refused the key (401): check ANTHROPIC_API_KEY \
         (authentication_error: invalid x-api-key [redacted])"
    );
    // A refused key is not tried again.
    assert_eq!(server.seen().len(), 1);
}

#[tokio::test]
async fn no_server_is_a_connection_error() {
    let base = refused_base();
    let endpoint = Endpoint::new(&base, "claude-test".into(), Some(ApiKey::new(KEY))).unwrap();
    let provider = AnthropicProvider::new(endpoint, options(false)).unwrap();
    let error = failed(provider.complete(&request()).await);
    let LlmError::Connection(why) = error else {
        panic!("not a connection error: {error:?}");
    };
    // In words, the cause first, with the URL tried.
    assert_eq!(
        why,
        format!("cannot connect to {base}/v1/messages: connection refused")
    );
}

#[tokio::test]
async fn labels_name_the_model_and_a_custom_server() {
    let server = Server::start(Vec::new()).await;
    assert_eq!(
        provider(&server, false).label(),
        format!("anthropic/claude-test @ {}", server.base)
    );
}

#[tokio::test]
async fn redirects_are_not_followed_with_the_key() {
    let redirect = Reply::json(307, json!({})).header("location", "http://127.0.0.1:9/elsewhere");
    let server = Server::start(vec![redirect]).await;
    let error = failed(provider(&server, false).complete(&request()).await);
    assert!(
        matches!(error, LlmError::Rejected { status: 307, .. }),
        "{error:?}"
    );
    assert_eq!(server.seen().len(), 1);
}
