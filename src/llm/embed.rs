//! Embeddings: texts to vectors, behind one trait like the chat providers.
//!
//! Two embedders: the OpenAI-compatible `POST {base}/embeddings` ([`OpenAiEmbedder`],
//! served by OpenAI, Ollama, vLLM and llama.cpp's server alike), with the chat
//! providers' retries and key handling; and a deterministic local embedding
//! ([`HashingEmbedder`]: no network, not semantic) for the rehearsal brain and for
//! providers without an embeddings endpoint. [`build_embedder`] picks the one
//! `dreamwatch run --embed-model M --embed-base-url URL` asks for.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

mod hashing;
mod openai;

pub use hashing::HashingEmbedder;
pub use openai::{DEFAULT_EMBED_MODEL, EMBED_KEY_VARIABLE, OpenAiEmbedder};

use super::config::{ProviderError, ProviderOptions};
use super::{LlmError, ProviderKind};

/// The vectors of a batch of texts, in the order of the texts.
#[derive(Debug, Clone, PartialEq)]
pub struct Embeddings {
    /// The model that made them, as the server names it.
    pub model: String,
    /// The length of every vector (0 only for an empty batch).
    pub dims: usize,
    /// One vector per text, every value finite.
    pub vectors: Vec<Vec<f32>>,
    /// The tokens the call used, when the answer says (never for the local embedding).
    pub usage: Option<super::Tokens>,
}

pub type EmbedFuture<'a> = Pin<Box<dyn Future<Output = Result<Embeddings, LlmError>> + Send + 'a>>;

/// Something that turns texts into vectors.
pub trait Embedder: Send + Sync {
    /// Short label for the operator, e.g. `openai/text-embedding-3-small` or
    /// `local hashing embedding (offline, not semantic)`.
    fn label(&self) -> String;
    /// The model name recorded with each vector (`embedding.model` in semantic.jsonl).
    fn model(&self) -> String;
    /// What its usage is priced as: `provider/model`.
    fn priced_as(&self) -> String {
        self.label()
    }
    /// The vectors of `texts`, one per text in the same order. An empty batch gives no
    /// vectors and makes no request.
    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a>;
}

/// `--embed-model` and `--embed-base-url`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EmbedSettings {
    /// Default: [`DEFAULT_EMBED_MODEL`].
    pub model: Option<String>,
    /// An OpenAI-compatible base URL with `/v1`. Default: the chat provider's OpenAI
    /// base URL (`--base-url`, else `OPENAI_BASE_URL`, else OpenAI's).
    pub base_url: Option<String>,
}

/// The embedder chosen, and a one-line warning for the operator when it is the local
/// one standing in for a provider that has no embeddings endpoint.
pub struct ChosenEmbedder {
    pub embedder: Arc<dyn Embedder>,
    pub warning: Option<String>,
}

/// The embedder for a creature whose brain is `kind` (`chat_base_url` is `--base-url`):
/// - `--embed-base-url` given: the OpenAI-compatible embedder there, whatever the brain;
/// - `openai`: the OpenAI-compatible embedder on the chat provider's base URL;
/// - `anthropic` (no embeddings endpoint): the local embedding, with a warning;
/// - `rehearsal`: the local embedding.
///
/// The key is [`EMBED_KEY_VARIABLE`] when set, else `OPENAI_API_KEY`; see
/// [`OpenAiEmbedder::from_env`]. The error is a sentence for the operator.
pub fn build_embedder(
    kind: ProviderKind,
    chat_base_url: Option<String>,
    settings: EmbedSettings,
    env: &dyn Fn(&str) -> Option<String>,
    options: ProviderOptions,
) -> Result<ChosenEmbedder, ProviderError> {
    let remote = |base_url| -> Result<ChosenEmbedder, ProviderError> {
        let embedder = OpenAiEmbedder::from_env(settings.model.clone(), base_url, env, options)
            .map_err(|e| ProviderError::Embeddings(Box::new(e)))?;
        Ok(ChosenEmbedder {
            embedder: Arc::new(embedder),
            warning: None,
        })
    };
    let local = |warning| ChosenEmbedder {
        embedder: Arc::new(HashingEmbedder::default()),
        warning,
    };
    match (kind, settings.base_url.clone()) {
        (_, Some(base_url)) => remote(Some(base_url)),
        (ProviderKind::Openai, None) => remote(chat_base_url),
        (ProviderKind::Anthropic, None) => Ok(local(Some(
            "anthropic has no embeddings endpoint: semantic memory uses the local hashing \
             embedding (offline, not semantic); give --embed-base-url (and --embed-model) \
             for an OpenAI-compatible one"
                .to_owned(),
        ))),
        (ProviderKind::Rehearsal, None) => Ok(local(None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(
        kind: ProviderKind,
        settings: EmbedSettings,
        vars: &[(&str, &str)],
    ) -> Result<ChosenEmbedder, ProviderError> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let env = move |name: &str| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        build_embedder(kind, None, settings, &env, ProviderOptions::default())
    }

    #[test]
    fn each_brain_gets_its_embedder() {
        let rehearsal = build(ProviderKind::Rehearsal, EmbedSettings::default(), &[]).unwrap();
        assert!(rehearsal.embedder.label().contains("offline, not semantic"));
        assert!(rehearsal.warning.is_none());

        let anthropic = build(ProviderKind::Anthropic, EmbedSettings::default(), &[]).unwrap();
        assert!(anthropic.embedder.label().starts_with("local hashing"));
        let warning = anthropic.warning.unwrap();
        assert!(warning.contains("--embed-base-url") && !warning.contains('\n'));

        let local = EmbedSettings {
            model: Some("nomic-embed-text".into()),
            base_url: Some("http://127.0.0.1:11434/v1".into()),
        };
        let ollama = build(ProviderKind::Anthropic, local, &[]).unwrap();
        assert_eq!(
            ollama.embedder.label(),
            "openai/nomic-embed-text @ http://127.0.0.1:11434/v1"
        );
        assert!(ollama.warning.is_none());

        let openai = build(
            ProviderKind::Openai,
            EmbedSettings::default(),
            &[("OPENAI_API_KEY", "sk-x")],
        )
        .unwrap();
        assert_eq!(openai.embedder.label(), "openai/text-embedding-3-small");
        assert_eq!(openai.embedder.model(), DEFAULT_EMBED_MODEL);
    }

    #[test]
    fn openai_s_own_api_needs_a_key() {
        let Err(error) = build(ProviderKind::Openai, EmbedSettings::default(), &[]) else {
            panic!("built without a key");
        };
        assert!(error.to_string().starts_with("embeddings: "), "{error}");
        assert!(error.to_string().contains(EMBED_KEY_VARIABLE), "{error}");
        let own_key = build(
            ProviderKind::Openai,
            EmbedSettings::default(),
            &[(EMBED_KEY_VARIABLE, "sk-embed")],
        );
        assert!(own_key.is_ok());
    }
}
