//! Where a provider sends its requests, and how patiently.

use std::time::Duration;

use reqwest::Url;

use super::retry::{RetryClock, RetryPolicy};
use super::secret::ApiKey;

/// Why a provider could not be set up: a sentence for the operator, never the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderError {
    #[error("invalid base URL {url:?}: {reason}")]
    InvalidBaseUrl { url: String, reason: String },
    #[error("base URL {0:?} must start with http:// or https://")]
    NotHttp(String),
    #[error("the model name is empty")]
    EmptyModel,
    /// The official API needs a key: `variable` is not set; `hint` says what else to do.
    #[error("{variable} is not set ({hint})")]
    MissingKey {
        variable: &'static str,
        hint: &'static str,
    },
    /// A server other than the official one has no default model.
    #[error("--model is required with the server at {0}")]
    ModelRequired(String),
    #[error("the API key holds characters an HTTP header cannot carry")]
    KeyNotAHeader,
    #[error("cannot set up the HTTP client: {0}")]
    Client(String),
    #[error("the rehearsal brain is built by the runner, not by build_provider")]
    Rehearsal,
    /// The embedder could not be set up (`--embed-model`, `--embed-base-url`).
    #[error("embeddings: {0}")]
    Embeddings(Box<ProviderError>),
}

/// How long one try may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// To open the TCP (and TLS) connection.
    pub connect: Duration,
    /// For one whole try: connect, send, and read the full (or fully streamed) answer.
    pub overall: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Self {
            connect: Duration::from_secs(10),
            overall: Duration::from_secs(600),
        }
    }
}

/// Behaviour shared by the HTTP providers.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderOptions {
    pub timeouts: Timeouts,
    pub retry: RetryPolicy,
    /// How retries wait (the real clock outside tests).
    pub retry_clock: RetryClock,
    /// Ask for a streamed answer (server-sent events). The answer is still returned whole;
    /// streaming keeps long generations alive through proxies and is what the APIs
    /// recommend for large `max_tokens`. A server that answers with plain JSON anyway is
    /// understood too.
    pub stream: bool,
}

impl Default for ProviderOptions {
    fn default() -> Self {
        Self {
            timeouts: Timeouts::default(),
            retry: RetryPolicy::default(),
            retry_clock: RetryClock::Real,
            stream: true,
        }
    }
}

/// A server, a model on it, and the key (if the server wants one). `Debug` is safe:
/// [`ApiKey`] redacts itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Endpoint {
    /// Base URL without a trailing slash, as the provider's official SDKs take it.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<ApiKey>,
}

impl Endpoint {
    /// Checks the base URL (http or https) and drops a trailing slash.
    pub fn new(
        base_url: &str,
        model: String,
        api_key: Option<ApiKey>,
    ) -> Result<Self, ProviderError> {
        let trimmed = base_url.trim().trim_end_matches('/');
        let url = Url::parse(trimmed).map_err(|e| ProviderError::InvalidBaseUrl {
            url: trimmed.to_owned(),
            reason: e.to_string(),
        })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(ProviderError::NotHttp(trimmed.to_owned()));
        }
        if model.trim().is_empty() {
            return Err(ProviderError::EmptyModel);
        }
        Ok(Self {
            base_url: trimmed.to_owned(),
            model,
            api_key,
        })
    }

    /// `name/model`, plus ` @ base` when the base is not `default_base`. Credentials
    /// written into the URL are left out.
    pub(crate) fn label(&self, name: &str, default_base: &str) -> String {
        if self.base_url == default_base {
            return format!("{name}/{}", self.model);
        }
        let shown = match Url::parse(&self.base_url) {
            Ok(mut url) if !url.username().is_empty() || url.password().is_some() => {
                // Both setters only fail for URLs that cannot have credentials at all.
                let _ = url.set_username("");
                let _ = url.set_password(None);
                url.as_str().trim_end_matches('/').to_owned()
            }
            _ => self.base_url.clone(),
        };
        format!("{name}/{} @ {shown}", self.model)
    }
}

/// The value of an environment variable, ignoring unset and blank ones.
pub(crate) fn non_empty(env: &dyn Fn(&str) -> Option<String>, name: &str) -> Option<String> {
    env(name)
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_shows_a_custom_base_without_credentials() {
        let endpoint =
            Endpoint::new("http://user:pw@127.0.0.1:8080/v1/", "m".into(), None).unwrap();
        assert_eq!(
            endpoint.label("openai", "https://api.openai.com/v1"),
            "openai/m @ http://127.0.0.1:8080/v1"
        );
        let official = Endpoint::new("https://api.openai.com/v1", "gpt".into(), None).unwrap();
        assert_eq!(
            official.label("openai", "https://api.openai.com/v1"),
            "openai/gpt"
        );
    }

    #[test]
    fn bad_base_urls_are_refused() {
        assert!(Endpoint::new("ftp://x", "m".into(), None).is_err());
        assert!(Endpoint::new("not a url", "m".into(), None).is_err());
        assert!(Endpoint::new("http://x", " ".into(), None).is_err());
    }
}
