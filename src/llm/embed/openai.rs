//! OpenAI-compatible embeddings: `POST {base}/embeddings` with `{"model", "input": [...]}`,
//! answered `{"data": [{"index", "embedding": [...]}], "model", "usage"}`. OpenAI,
//! Ollama, vLLM and llama.cpp's server speak it. The answer is checked whole: one vector
//! per text (put back in input order by `index`), all of one length, every value a
//! finite `f32`; anything else is a malformed answer, retried like a chat answer.

use std::fmt;

use reqwest::header::HeaderMap;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{EmbedFuture, Embedder, Embeddings};
use crate::llm::config::{Endpoint, ProviderError, ProviderOptions, non_empty};
use crate::llm::fault::{from_error_body, malformed};
use crate::llm::http::{Api, Auth};
use crate::llm::openai::DEFAULT_BASE_URL;
use crate::llm::retry::Fault;
use crate::llm::secret::ApiKey;

/// The model asked for when `--embed-model` is not given.
pub const DEFAULT_EMBED_MODEL: &str = "text-embedding-3-small";
/// The embeddings' own key; `OPENAI_API_KEY` when it is not set.
pub const EMBED_KEY_VARIABLE: &str = "DREAMWATCH_EMBED_API_KEY";

pub struct OpenAiEmbedder {
    api: Api,
}

impl fmt::Debug for OpenAiEmbedder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.api.debug_as("OpenAiEmbedder", f)
    }
}

impl OpenAiEmbedder {
    pub fn new(endpoint: Endpoint, options: ProviderOptions) -> Result<Self, ProviderError> {
        let auth = Auth::bearer_of(&endpoint);
        let api = Api::new(
            endpoint,
            options,
            auth,
            HeaderMap::new(),
            "/embeddings",
            "DREAMWATCH_EMBED_API_KEY (or OPENAI_API_KEY)",
        )?;
        Ok(Self { api })
    }

    /// From the command line and the environment: the base URL from `base_url`, else
    /// `OPENAI_BASE_URL`, else OpenAI's; the key from [`EMBED_KEY_VARIABLE`], else
    /// `OPENAI_API_KEY`, required only by OpenAI's own API; the model from `model`, else
    /// [`DEFAULT_EMBED_MODEL`] (other servers name theirs: `nomic-embed-text` on Ollama...).
    pub fn from_env(
        model: Option<String>,
        base_url: Option<String>,
        env: &dyn Fn(&str) -> Option<String>,
        options: ProviderOptions,
    ) -> Result<Self, ProviderError> {
        let base = base_url
            .or_else(|| non_empty(env, "OPENAI_BASE_URL"))
            .unwrap_or_else(|| DEFAULT_BASE_URL.to_owned());
        let official = base.trim().trim_end_matches('/') == DEFAULT_BASE_URL;
        let key = non_empty(env, EMBED_KEY_VARIABLE)
            .or_else(|| non_empty(env, "OPENAI_API_KEY"))
            .map(ApiKey::new);
        if official && key.is_none() {
            return Err(ProviderError::MissingKey {
                variable: "DREAMWATCH_EMBED_API_KEY (or OPENAI_API_KEY)",
                hint: "OpenAI's embeddings need a key; a local server given with \
                       --embed-base-url needs none",
            });
        }
        let model = model.unwrap_or_else(|| DEFAULT_EMBED_MODEL.to_owned());
        Self::new(Endpoint::new(&base, model, key)?, options)
    }
}

impl Embedder for OpenAiEmbedder {
    fn label(&self) -> String {
        self.api.endpoint.label("openai", DEFAULT_BASE_URL)
    }

    fn model(&self) -> String {
        self.api.endpoint.model.clone()
    }

    fn priced_as(&self) -> String {
        format!("openai/{}", self.api.endpoint.model)
    }

    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        Box::pin(async move {
            if texts.is_empty() {
                return Ok(Embeddings {
                    model: self.model(),
                    dims: 0,
                    vectors: Vec::new(),
                    usage: None,
                });
            }
            let body = json!({"model": self.api.endpoint.model, "input": texts});
            let label = self.label();
            let requested = self.model();
            self.api
                .post_json(&label, &body, |answer| {
                    parse_embeddings(answer, texts.len(), &requested)
                })
                .await
        })
    }
}

#[derive(Deserialize)]
struct Answer {
    data: Vec<Item>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    usage: Value,
}

#[derive(Deserialize)]
struct Item {
    /// Some servers leave it out: the position in `data` then.
    #[serde(default)]
    index: Option<usize>,
    /// An array of numbers (a base64 string, sent only when asked for, is refused).
    embedding: Value,
}

/// The vectors of an answer to `count` texts, in input order.
fn parse_embeddings(body: &[u8], count: usize, requested: &str) -> Result<Embeddings, Fault> {
    let json: Value = serde_json::from_slice(body)
        .map_err(|e| malformed(format!("the embeddings answer is not JSON: {e}")))?;
    if json.get("error").is_some_and(|error| !error.is_null()) {
        return Err(from_error_body(body));
    }
    let answer: Answer = serde_json::from_value(json)
        .map_err(|e| malformed(format!("the answer is not a list of embeddings: {e}")))?;
    if answer.data.len() != count {
        return Err(malformed(format!(
            "{} embeddings for {count} texts",
            answer.data.len()
        )));
    }
    let mut slots: Vec<Option<Vec<f32>>> = vec![None; count];
    for (position, item) in answer.data.into_iter().enumerate() {
        let index = item.index.unwrap_or(position);
        let vector = numbers(index, item.embedding)?;
        match slots.get_mut(index) {
            Some(slot @ None) => *slot = Some(vector),
            Some(Some(_)) => return Err(malformed(format!("embedding {index} comes twice"))),
            None => {
                return Err(malformed(format!(
                    "embedding index {index} is out of range for {count} texts"
                )));
            }
        }
    }
    // Every slot is filled: `count` distinct indices below `count`.
    let vectors: Vec<Vec<f32>> = slots.into_iter().flatten().collect();
    let dims = vectors.first().map_or(0, Vec::len);
    if dims == 0 {
        return Err(malformed("the embeddings are empty".into()));
    }
    if let Some(odd) = vectors.iter().position(|v| v.len() != dims) {
        return Err(malformed(format!(
            "embedding {odd} has {} dimensions, embedding 0 has {dims}",
            vectors[odd].len()
        )));
    }
    Ok(Embeddings {
        model: answer
            .model
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| requested.to_owned()),
        dims,
        vectors,
        usage: crate::llm::usage::FromWire::from_openai(&answer.usage),
    })
}

/// An embedding's values as finite `f32`s.
fn numbers(index: usize, embedding: Value) -> Result<Vec<f32>, Fault> {
    let Value::Array(values) = embedding else {
        return Err(malformed(format!(
            "embedding {index} is not an array of numbers"
        )));
    };
    values
        .iter()
        .map(|value| {
            let number = value.as_f64().ok_or_else(|| {
                malformed(format!("embedding {index} holds a non-number: {value}"))
            })?;
            // Narrowing is the point: vectors are stored and compared as f32.
            let narrow = number as f32;
            if narrow.is_finite() {
                Ok(narrow)
            } else {
                Err(malformed(format!(
                    "embedding {index} holds {number}, which is not a finite f32"
                )))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::LlmError;

    fn parse(body: &Value, count: usize) -> Result<Embeddings, LlmError> {
        parse_embeddings(body.to_string().as_bytes(), count, "asked").map_err(|f| f.error)
    }

    #[test]
    fn vectors_come_back_in_input_order() {
        let body = json!({"data": [
            {"object": "embedding", "index": 1, "embedding": [0.0, 1.0]},
            {"object": "embedding", "index": 0, "embedding": [1.0, 0.5]},
        ], "model": "m"});
        let got = parse(&body, 2).unwrap();
        assert_eq!(got.vectors, vec![vec![1.0, 0.5], vec![0.0, 1.0]]);
        assert_eq!((got.model.as_str(), got.dims), ("m", 2));
    }

    #[test]
    fn positions_stand_in_for_missing_indices_and_the_model_for_a_missing_name() {
        let body = json!({"data": [{"embedding": [1.0]}, {"embedding": [2.0]}]});
        let got = parse(&body, 2).unwrap();
        assert_eq!(got.vectors, vec![vec![1.0], vec![2.0]]);
        assert_eq!(got.model, "asked");
    }

    #[test]
    fn bad_answers_are_malformed() {
        let cases = [
            (
                json!({"data": [{"index": 0, "embedding": [1.0]}]}),
                "1 embeddings for 2",
            ),
            (
                json!({"data": [{"index": 0, "embedding": [1.0]}, {"index": 0, "embedding": [1.0]}]}),
                "comes twice",
            ),
            (
                json!({"data": [{"index": 0, "embedding": [1.0]}, {"index": 5, "embedding": [1.0]}]}),
                "out of range",
            ),
            (
                json!({"data": [{"index": 0, "embedding": [1.0]}, {"index": 1, "embedding": [1.0, 2.0]}]}),
                "embedding 1 has 2 dimensions",
            ),
            (
                json!({"data": [{"index": 0, "embedding": [1e39]}, {"index": 1, "embedding": [1.0]}]}),
                "not a finite f32",
            ),
            (
                json!({"data": [{"index": 0, "embedding": "AAAA"}, {"index": 1, "embedding": [1.0]}]}),
                "not an array of numbers",
            ),
            (
                json!({"data": [{"index": 0, "embedding": []}, {"index": 1, "embedding": []}]}),
                "empty",
            ),
        ];
        for (body, why) in cases {
            let error = parse(&body, 2).unwrap_err();
            assert!(
                matches!(&error, LlmError::Malformed(text) if text.contains(why)),
                "{body}: {error:?}"
            );
        }
    }

    #[test]
    fn an_error_in_a_200_answer_is_read_as_its_status() {
        let body =
            json!({"error": {"message": "model not found", "type": "invalid_request_error"}});
        assert!(matches!(
            parse(&body, 1).unwrap_err(),
            LlmError::Rejected { status: 400, .. }
        ));
    }
}
