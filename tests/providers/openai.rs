//! The OpenAI-compatible provider against a local server speaking the chat completions
//! wire format.

use std::time::Duration;

use crate::common::http::{Reply, Server};
use crate::support::{
    KEY, assert_no_key, failed, options, options_recording_waits, request, said_hello,
};
use dreamwatch::llm::openai::OpenAiProvider;
use dreamwatch::llm::{
    ApiKey, ContentBlock, Endpoint, LlmError, Message, Provider, ProviderOptions, Role, StopReason,
    Tokens, ToolSpec,
};
use serde_json::{Value, json};

fn provider(server: &Server, stream: bool) -> OpenAiProvider {
    provider_with(server, options(stream))
}

fn provider_with(server: &Server, options: ProviderOptions) -> OpenAiProvider {
    let base = format!("{}/v1", server.base);
    let endpoint = Endpoint::new(&base, "llama3.2".into(), Some(ApiKey::new(KEY))).unwrap();
    let provider = OpenAiProvider::new(endpoint, options).unwrap();
    assert_no_key(&format!("{provider:?}"));
    provider
}

fn completion(message: Value, finish_reason: &str) -> Reply {
    Reply::json(
        200,
        json!({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1_700_000_000, "model": "llama3.2",
            "choices": [{"index": 0, "message": message, "logprobs": null, "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15,
                      "prompt_tokens_details": {"cached_tokens": 8, "audio_tokens": 0}},
        }),
    )
}

fn hello() -> Reply {
    completion(
        json!({"role": "assistant", "content": "Hello.", "refusal": null}),
        "stop",
    )
}

fn error_body(message: &str, kind: &str, code: Value) -> Value {
    json!({"error": {"message": message, "type": kind, "param": null, "code": code}})
}

#[tokio::test]
async fn plain_text_answer() {
    let server = Server::start(vec![hello()]).await;
    let provider = provider(&server, false);
    let answer = provider.complete(&request()).await.unwrap();
    assert!(said_hello(&answer));
    // The cached part of the prompt is counted apart.
    assert_eq!(
        answer.usage,
        Some(Tokens {
            input: 4,
            output: 3,
            cache_read: 8,
            cache_write: 0
        })
    );
    assert_eq!(provider.priced_as(), "openai/llama3.2");

    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path, "/v1/chat/completions");
    assert_eq!(seen[0].headers["authorization"], format!("Bearer {KEY}"));
    assert_eq!(seen[0].headers["content-type"], "application/json");
    assert_eq!(
        seen[0].body,
        json!({
            "model": "llama3.2",
            "max_tokens": 512,
            "messages": [
                {"role": "system", "content": "You are a creature."},
                {"role": "user", "content": "Wake up."},
            ],
        })
    );
}

#[tokio::test]
async fn tool_use_round_trip() {
    let answer = completion(
        json!({
            "role": "assistant",
            "content": null,
            "tool_calls": [{"id": "call_2", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}}],
        }),
        "tool_calls",
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
            ContentBlock::Text {
                text: "Let me see.".into(),
            },
            ContentBlock::ToolUse {
                id: "call_1".into(),
                name: "bash".into(),
                input: json!({"command": "pwd"}),
            },
        ],
    });
    request.messages.push(Message {
        role: Role::User,
        content: vec![
            ContentBlock::ToolResult {
                tool_use_id: "call_1".into(),
                content: "/home/creature".into(),
                is_error: false,
            },
            ContentBlock::Text {
                text: "[fatigue 1/80]".into(),
            },
        ],
    });

    let response = provider(&server, false).complete(&request).await.unwrap();
    assert_eq!(
        response.content,
        vec![ContentBlock::ToolUse {
            id: "call_2".into(),
            name: "bash".into(),
            input: json!({"command": "ls"})
        }]
    );
    assert_eq!(response.stop_reason, StopReason::ToolUse);

    let body = &server.seen()[0].body;
    assert_eq!(
        body["tools"],
        json!([{
            "type": "function",
            "function": {
                "name": "bash",
                "description": "Run a command",
                "parameters": {"type": "object", "properties": {"command": {"type": "string"}}},
            },
        }])
    );
    assert_eq!(
        body["messages"],
        json!([
            {"role": "system", "content": "You are a creature."},
            {"role": "user", "content": "Wake up."},
            {
                "role": "assistant",
                "content": "Let me see.",
                "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": "{\"command\":\"pwd\"}"}}],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "/home/creature"},
            {"role": "user", "content": "[fatigue 1/80]"},
        ])
    );
}

fn chunk(delta: Value, finish_reason: Option<&str>) -> (Option<&'static str>, String) {
    let chunk = json!({
        "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1_700_000_000, "model": "llama3.2",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    });
    (None, chunk.to_string())
}

fn streamed_answer() -> Reply {
    Reply::sse(&[
        chunk(json!({"role": "assistant", "content": ""}), None),
        chunk(json!({"content": "Je rêve "}), None),
        chunk(json!({"content": "encore."}), None),
        chunk(
            json!({"tool_calls": [{"index": 0, "id": "call_9", "type": "function", "function": {"name": "set_sleep", "arguments": ""}}]}),
            None,
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": "{\"seco"}}]}),
            None,
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": "nds\": 45}"}}]}),
            None,
        ),
        chunk(json!({}), Some("tool_calls")),
        // Asked for with `stream_options.include_usage`: a last chunk without choices.
        (
            None,
            json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1_700_000_000,
                   "model": "llama3.2", "choices": [],
                   "usage": {"prompt_tokens": 30, "completion_tokens": 9, "total_tokens": 39}})
            .to_string(),
        ),
        (None, "[DONE]".into()),
    ])
}

#[tokio::test]
async fn streamed_text_and_tool_arguments() {
    let server = Server::start(vec![streamed_answer()]).await;
    let response = provider(&server, true).complete(&request()).await.unwrap();
    assert_eq!(
        response.content,
        vec![
            ContentBlock::Text {
                text: "Je rêve encore.".into()
            },
            ContentBlock::ToolUse {
                id: "call_9".into(),
                name: "set_sleep".into(),
                input: json!({"seconds": 45})
            },
        ]
    );
    assert_eq!(response.stop_reason, StopReason::ToolUse);
    assert_eq!(server.seen()[0].body["stream"], true);
    assert_eq!(
        server.seen()[0].body["stream_options"],
        json!({"include_usage": true})
    );
    assert_eq!(
        response.usage,
        Some(Tokens {
            input: 30,
            output: 9,
            ..Tokens::default()
        })
    );
}

#[tokio::test]
async fn a_plain_json_answer_to_a_stream_request_is_understood() {
    let server = Server::start(vec![hello()]).await;
    assert!(said_hello(
        &provider(&server, true).complete(&request()).await.unwrap()
    ));
}

#[tokio::test]
async fn rate_limit_waits_as_long_as_retry_after_says() {
    let limited = Reply::json(
        429,
        error_body(
            "Rate limit reached for requests",
            "requests",
            json!("rate_limit_exceeded"),
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
async fn server_errors_are_retried() {
    let server = Server::start(vec![
        Reply::json(
            500,
            error_body("The server had an error", "server_error", Value::Null),
        ),
        Reply::raw_json(502, "<html>Bad gateway</html>"),
        hello(),
    ])
    .await;
    assert!(said_hello(
        &provider(&server, false).complete(&request()).await.unwrap()
    ));
    assert_eq!(server.seen().len(), 3);
}

#[tokio::test]
async fn a_stalled_server_times_out_after_every_try() {
    let server = Server::start(vec![Reply::Stall, Reply::Stall, Reply::Stall]).await;
    let mut options = options(false);
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
async fn malformed_answers_and_arguments_are_retried() {
    let bad_arguments = completion(
        json!({"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": "}}]}),
        "tool_calls",
    );
    let server = Server::start(vec![
        Reply::raw_json(200, r#"{"choices": [{"message": {"#),
        bad_arguments,
        hello(),
    ])
    .await;
    assert!(said_hello(
        &provider(&server, false).complete(&request()).await.unwrap()
    ));
    assert_eq!(server.seen().len(), 3);

    let no_choices = || Reply::json(200, json!({"id": "x", "choices": []}));
    let server = Server::start(vec![no_choices(), no_choices(), no_choices()]).await;
    let error = failed(provider(&server, false).complete(&request()).await);
    assert!(matches!(error, LlmError::Malformed(_)), "{error:?}");
}

#[tokio::test]
async fn context_too_long_is_not_retried() {
    let too_long = || {
        Reply::json(
            400,
            error_body(
                "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
                "invalid_request_error",
                json!("context_length_exceeded"),
            ),
        )
    };
    let server = Server::start(vec![too_long()]).await;
    let error = failed(provider(&server, false).complete(&request()).await);
    assert!(
        matches!(error, LlmError::ContextTooLong(ref why) if why.contains("maximum context length")),
        "{error:?}"
    );
    assert_eq!(server.seen().len(), 1);
}

#[tokio::test]
async fn llama_cpp_context_overflow_is_recognised() {
    let too_long = Reply::json(
        400,
        json!({"error": {"code": 400, "message": "request (4476 tokens) exceeds the available context size (4096 tokens)", "type": "exceed_context_size_error"}}),
    );
    let server = Server::start(vec![too_long]).await;
    let result = provider(&server, false).complete(&request()).await;
    assert!(matches!(failed(result), LlmError::ContextTooLong(_)));
    assert_eq!(server.seen().len(), 1);
}

#[tokio::test]
async fn the_key_stays_out_of_errors_even_when_echoed() {
    let echo = error_body(
        &format!("Incorrect API key provided: {KEY}."),
        "invalid_request_error",
        json!("invalid_api_key"),
    );
    let server = Server::start(vec![Reply::json(401, echo)]).await;
    let error = failed(provider(&server, false).complete(&request()).await);
    assert_eq!(
        error,
        LlmError::Auth {
            status: 401,
            body: "invalid_request_error: Incorrect API key provided: [redacted].".into(),
            variable: Some("OPENAI_API_KEY"),
        }
    );
}

#[tokio::test]
async fn a_local_server_gets_no_authorization_header() {
    let server = Server::start(vec![hello()]).await;
    let base = format!("{}/v1", server.base);
    let endpoint = Endpoint::new(&base, "llama3.2".into(), None).unwrap();
    let provider = OpenAiProvider::new(endpoint, options(false)).unwrap();
    assert!(said_hello(&provider.complete(&request()).await.unwrap()));
    assert!(!server.seen()[0].headers.contains_key("authorization"));
    assert_eq!(provider.label(), format!("openai/llama3.2 @ {base}"));
}
