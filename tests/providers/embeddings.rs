//! The OpenAI-compatible embedder against a local server speaking the `/v1/embeddings`
//! wire format, faults included.

use std::time::Duration;

use crate::common::http::{Reply, Server, refused_base};
use crate::support::{KEY, assert_no_key, options, options_recording_waits};
use dreamwatch::llm::embed::OpenAiEmbedder;
use dreamwatch::llm::{ApiKey, Embedder, Embeddings, Endpoint, LlmError, ProviderOptions};
use serde_json::{Value, json};

fn embedder(base: &str, options: ProviderOptions) -> OpenAiEmbedder {
    let endpoint = Endpoint::new(
        &format!("{base}/v1"),
        "nomic-embed-text".into(),
        Some(ApiKey::new(KEY)),
    )
    .unwrap();
    let embedder = OpenAiEmbedder::new(endpoint, options).unwrap();
    assert_no_key(&format!("{embedder:?}"));
    embedder
}

fn texts() -> Vec<String> {
    vec!["the garden at dawn".into(), "a letter from Alice".into()]
}

/// An answer as OpenAI sends it, the items in the order given.
fn answer(items: &[(usize, Value)]) -> Reply {
    let data: Vec<Value> = items
        .iter()
        .map(|(index, embedding)| json!({"object": "embedding", "index": index, "embedding": embedding}))
        .collect();
    Reply::json(
        200,
        json!({
            "object": "list",
            "data": data,
            "model": "nomic-embed-text",
            "usage": {"prompt_tokens": 9, "total_tokens": 9},
        }),
    )
}

fn good() -> Reply {
    answer(&[(0, json!([0.25, -0.5, 1.0])), (1, json!([1.0, 0.0, 0.0]))])
}

fn is_good(embeddings: &Embeddings) -> bool {
    embeddings.dims == 3
        && embeddings.vectors == vec![vec![0.25, -0.5, 1.0], vec![1.0, 0.0, 0.0]]
        && embeddings.model == "nomic-embed-text"
}

/// Checks the error and its text, which must not hold the key.
fn failed(result: Result<Embeddings, LlmError>) -> LlmError {
    let error = result.expect_err("the call should fail");
    assert_no_key(&error.to_string());
    assert_no_key(&format!("{error:?}"));
    error
}

fn malformed_saying(error: &LlmError, why: &str) -> bool {
    matches!(error, LlmError::Malformed(text) if text.contains(why))
}

#[tokio::test]
async fn the_request_and_the_answer() {
    let server = Server::start(vec![good()]).await;
    let embedder = embedder(&server.base, options(false));
    let got = embedder.embed(&texts()).await.unwrap();
    assert!(is_good(&got), "{got:?}");
    assert_eq!(got.usage.map(|u| (u.input, u.output)), Some((9, 0)));
    assert_eq!(embedder.priced_as(), "openai/nomic-embed-text");
    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path, "/v1/embeddings");
    assert_eq!(seen[0].headers["authorization"], format!("Bearer {KEY}"));
    assert_eq!(
        seen[0].body,
        json!({"model": "nomic-embed-text", "input": ["the garden at dawn", "a letter from Alice"]})
    );
}

#[tokio::test]
async fn vectors_are_put_back_in_input_order() {
    let shuffled = answer(&[(1, json!([1.0, 0.0, 0.0])), (0, json!([0.25, -0.5, 1.0]))]);
    let server = Server::start(vec![shuffled]).await;
    let got = embedder(&server.base, options(false))
        .embed(&texts())
        .await
        .unwrap();
    assert!(is_good(&got), "{got:?}");
}

#[tokio::test]
async fn an_empty_batch_asks_nothing() {
    let server = Server::start(Vec::new()).await;
    let got = embedder(&server.base, options(false))
        .embed(&[])
        .await
        .unwrap();
    assert!(got.vectors.is_empty());
    assert!(server.seen().is_empty());
}

#[tokio::test]
async fn a_rate_limit_waits_as_long_as_retry_after_says() {
    let limited = Reply::json(
        429,
        json!({"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}}),
    )
    .header("retry-after", "1");
    let server = Server::start(vec![limited, good()]).await;
    let (options, waits) = options_recording_waits(false);
    let got = embedder(&server.base, options)
        .embed(&texts())
        .await
        .unwrap();
    assert!(is_good(&got));
    assert_eq!(server.seen().len(), 2);
    assert_eq!(*waits.lock().unwrap(), vec![Duration::from_secs(1)]);
}

#[tokio::test]
async fn a_server_error_is_retried() {
    let server = Server::start(vec![
        Reply::json(
            500,
            json!({"error": {"message": "boom", "type": "server_error"}}),
        ),
        good(),
    ])
    .await;
    let (options, waits) = options_recording_waits(false);
    let got = embedder(&server.base, options)
        .embed(&texts())
        .await
        .unwrap();
    assert!(is_good(&got));
    assert_eq!(server.seen().len(), 2);
    assert_eq!(waits.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn malformed_answers_are_retried_then_reported() {
    let server = Server::start(vec![Reply::raw_json(200, r#"{"data": [{"#), good()]).await;
    let got = embedder(&server.base, options(false))
        .embed(&texts())
        .await
        .unwrap();
    assert!(is_good(&got));

    let not_json = || Reply::raw_json(200, r#"{"data": [{"index": 0, "embedding": [NaN]}]}"#);
    let server = Server::start(vec![not_json(), not_json(), not_json()]).await;
    let error = failed(embedder(&server.base, options(false)).embed(&texts()).await);
    assert!(malformed_saying(&error, "not JSON"), "{error:?}");
    assert_eq!(server.seen().len(), 3);
}

#[tokio::test]
async fn wrong_counts_mismatched_dimensions_and_infinities_are_refused() {
    let cases = [
        (
            answer(&[(0, json!([0.25, -0.5, 1.0]))]),
            "1 embeddings for 2 texts",
        ),
        (
            answer(&[(0, json!([0.25, -0.5, 1.0])), (1, json!([1.0, 0.0]))]),
            "embedding 1 has 2 dimensions, embedding 0 has 3",
        ),
        (
            answer(&[(0, json!([0.25, -0.5, 1.0])), (1, json!([1.0, 0.0, 1e300]))]),
            "not a finite f32",
        ),
    ];
    for (reply, why) in cases {
        let mut options = options(false);
        options.retry.max_tries = 1;
        let server = Server::start(vec![reply]).await;
        let error = failed(embedder(&server.base, options).embed(&texts()).await);
        assert!(malformed_saying(&error, why), "{why}: {error:?}");
    }
}

#[tokio::test]
async fn a_refused_connection_is_a_connection_error() {
    let base = refused_base();
    let (options, waits) = options_recording_waits(false);
    let error = failed(embedder(&base, options).embed(&texts()).await);
    assert!(matches!(error, LlmError::Connection(_)), "{error:?}");
    assert_eq!(
        waits.lock().unwrap().len(),
        2,
        "retried as a transient fault"
    );
}

#[tokio::test]
async fn the_key_stays_out_of_errors_even_when_echoed() {
    let echo = json!({"error": {
        "message": format!("Incorrect API key provided: {KEY}."),
        "type": "invalid_request_error",
        "code": "invalid_api_key",
    }});
    let server = Server::start(vec![Reply::json(401, echo.clone())]).await;
    let error = failed(embedder(&server.base, options(false)).embed(&texts()).await);
    assert_eq!(
        error,
        LlmError::Auth {
            status: 401,
            body: "invalid_request_error: Incorrect API key provided: [redacted].".into(),
            variable: Some("DREAMWATCH_EMBED_API_KEY (or OPENAI_API_KEY)"),
        }
    );

    let in_a_200 = Reply::json(200, echo);
    let server = Server::start(vec![in_a_200]).await;
    failed(embedder(&server.base, options(false)).embed(&texts()).await);
}

#[tokio::test]
async fn a_local_server_gets_no_authorization_header() {
    let server = Server::start(vec![good()]).await;
    let base = format!("{}/v1", server.base);
    let endpoint = Endpoint::new(&base, "all-minilm".into(), None).unwrap();
    let embedder = OpenAiEmbedder::new(endpoint, options(false)).unwrap();
    assert!(is_good(&embedder.embed(&texts()).await.unwrap()));
    assert!(!server.seen()[0].headers.contains_key("authorization"));
    assert_eq!(embedder.label(), format!("openai/all-minilm @ {base}"));
    assert_eq!(embedder.model(), "all-minilm");
}

#[tokio::test]
async fn a_stalled_server_times_out_after_every_try() {
    let server = Server::start(vec![Reply::Stall, Reply::Stall]).await;
    let mut options = options(false);
    options.retry.max_tries = 2;
    options.timeouts.overall = Duration::from_millis(200);
    let error = failed(embedder(&server.base, options).embed(&texts()).await);
    // Each stalled try ends at the 200 ms timeout (the server would stall for 30 s).
    assert!(
        matches!(&error, LlmError::NoAnswer { url, .. } if url.ends_with("/embeddings")),
        "{error:?}"
    );
    assert_eq!(server.seen().len(), 2);
}
