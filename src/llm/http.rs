//! The HTTP side shared by the providers: one client with the configured timeouts and
//! no redirects, the auth header (marked sensitive), POSTing JSON, turning error answers and transport
//! failures into [`Fault`]s, reading an answer whole or as server-sent events, and
//! [`Api`], which sends a provider's request with its retries.

use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::time::Duration;

use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use serde_json::{Value, json};

use super::config::{Endpoint, ProviderError, ProviderOptions, Timeouts};
use super::fault;
use super::retry::{self, Fault};
use super::secret::ApiKey;
use super::{LlmError, Request, Response, ToolSpec};
use crate::text::sse::{SseDecoder, SseEvent};

/// How the key travels.
pub(crate) enum Auth {
    /// No key: local servers.
    None,
    /// `name: key` (Anthropic's `x-api-key`).
    Header(HeaderName, ApiKey),
    /// `Authorization: Bearer key` (OpenAI and compatible servers).
    Bearer(ApiKey),
}

impl Auth {
    /// A bearer key when the endpoint has one, else none (OpenAI-compatible servers).
    pub(crate) fn bearer_of(endpoint: &Endpoint) -> Self {
        endpoint
            .api_key
            .as_ref()
            .map_or(Auth::None, |key| Auth::Bearer(key.clone()))
    }
}

/// What an HTTP provider holds: its endpoint and options, the client, and the one URL
/// it POSTs to.
pub(crate) struct Api {
    pub endpoint: Endpoint,
    pub options: ProviderOptions,
    http: Http,
    url: String,
}

impl Api {
    /// `path` is added to the endpoint's base URL; `key_variable` is where the key comes
    /// from, named when the server refuses it.
    pub fn new(
        endpoint: Endpoint,
        options: ProviderOptions,
        auth: Auth,
        headers: HeaderMap,
        path: &str,
        key_variable: &'static str,
    ) -> Result<Self, ProviderError> {
        let http = Http::new(&options.timeouts, auth, headers, key_variable)?;
        let url = format!("{}{path}", endpoint.base_url);
        Ok(Self {
            endpoint,
            options,
            http,
            url,
        })
    }

    /// A provider's `Debug`: its endpoint (the key redacted) and options, nothing of
    /// the client.
    pub fn debug_as(&self, name: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(name)
            .field("endpoint", &self.endpoint)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }

    /// Completes a request body: the tools (each as `tool` maps it) when there are
    /// any, and `"stream": true` when the options ask for streaming.
    pub fn finish_body(
        &self,
        mut body: Value,
        request: &Request,
        tool: impl Fn(&ToolSpec) -> Value,
    ) -> Value {
        if !request.tools.is_empty() {
            let tools: Vec<Value> = request.tools.iter().map(tool).collect();
            body["tools"] = json!(tools);
        }
        if self.options.stream {
            body["stream"] = json!(true);
        }
        body
    }

    /// Sends `body`, trying again as the retry policy says, and reads each answer
    /// through [`exchange`] (`parse` for one JSON document, the assembler `A` for a stream).
    pub async fn complete<A: StreamAssembler>(
        &self,
        label: &str,
        body: &Value,
        parse: fn(&[u8]) -> Result<Response, Fault>,
    ) -> Result<Response, LlmError> {
        retry::run(
            &self.options.retry,
            &self.options.retry_clock,
            label,
            || {
                self.http
                    .attempt(&self.url, exchange::<A>(&self.http, &self.url, body, parse))
            },
        )
        .await
    }

    /// Sends `body` with the same retries, and reads each answer whole as one JSON
    /// document through `parse` (for calls that never stream, such as embeddings). An
    /// error object in a 200 answer is read as its status would have been.
    pub async fn post_json<T>(
        &self,
        label: &str,
        body: &Value,
        parse: impl Fn(&[u8]) -> Result<T, Fault>,
    ) -> Result<T, LlmError> {
        let parse = &parse;
        retry::run(
            &self.options.retry,
            &self.options.retry_clock,
            label,
            || {
                self.http.attempt(&self.url, async move {
                    let response = self.http.post(&self.url, body).await?;
                    parse(&read_body(response).await?)
                })
            },
        )
        .await
    }
}

struct Http {
    client: reqwest::Client,
    overall: Duration,
    /// Sent with every request, the auth header among them.
    headers: HeaderMap,
    key: Option<ApiKey>,
    key_variable: &'static str,
}

impl fmt::Debug for Http {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.headers.keys().map(HeaderName::as_str).collect();
        f.debug_struct("Http")
            .field("overall_timeout", &self.overall)
            .field("header_names", &names)
            .finish_non_exhaustive()
    }
}

impl Http {
    pub fn new(
        timeouts: &Timeouts,
        auth: Auth,
        mut headers: HeaderMap,
        key_variable: &'static str,
    ) -> Result<Self, ProviderError> {
        let bad_key = |_| ProviderError::KeyNotAHeader;
        let key = match auth {
            Auth::None => None,
            Auth::Header(name, key) => {
                headers.insert(name, sensitive(key.expose()).map_err(bad_key)?);
                Some(key)
            }
            Auth::Bearer(key) => {
                let value = sensitive(&format!("Bearer {}", key.expose())).map_err(bad_key)?;
                headers.insert(reqwest::header::AUTHORIZATION, value);
                Some(key)
            }
        };
        // No redirects: reqwest would carry a custom auth header such as `x-api-key`
        // to whatever host a redirect names, and the APIs never redirect.
        let client = reqwest::Client::builder()
            .connect_timeout(timeouts.connect)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("dreamwatch/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| ProviderError::Client(e.to_string()))?;
        Ok(Self {
            client,
            overall: timeouts.overall,
            headers,
            key,
            key_variable,
        })
    }

    /// Runs one try (to `url`) within the overall timeout, names the key's variable in
    /// an auth error, and scrubs the key from whatever error comes out of it.
    pub async fn attempt<T>(
        &self,
        url: &str,
        work: impl Future<Output = Result<T, Fault>>,
    ) -> Result<T, Fault> {
        let result = match tokio::time::timeout(self.overall, work).await {
            Ok(result) => result,
            Err(_) => Err(LlmError::NoAnswer {
                url: shown_url(url),
                secs: self.overall.as_secs().max(1),
            }
            .into()),
        };
        result.map_err(|fault| {
            let error = fault.error.naming_key(self.key_variable);
            let error = match &self.key {
                Some(key) => key.scrub_error(error),
                None => error,
            };
            Fault { error, ..fault }
        })
    }

    /// POSTs `body` as JSON; a 2xx answer comes back to be read, anything else as a fault.
    /// The headers of [`with_headers`] go with it.
    pub async fn post(&self, url: &str, body: &Value) -> Result<reqwest::Response, Fault> {
        let mut request = self.client.post(url).headers(self.headers.clone());
        for (name, value) in EXTRA_HEADERS.try_with(Clone::clone).unwrap_or_default() {
            request = request.header(name, value);
        }
        let response = request.json(body).send().await.map_err(transport_fault)?;
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        let retry_after = retry::retry_after(response.headers(), chrono::Utc::now());
        let body = response.bytes().await.map_err(transport_fault)?;
        Err(fault::from_status(status.as_u16(), &body, retry_after))
    }
}

tokio::task_local! {
    /// Headers the caller adds to every request made within [`with_headers`].
    static EXTRA_HEADERS: Vec<(String, String)>;
}

/// Runs `work` with `headers` added to each of its requests (a trace's `traceparent`:
/// the caller says what; this module knows nothing of it).
pub async fn with_headers<F: Future>(headers: Vec<(String, String)>, work: F) -> F::Output {
    EXTRA_HEADERS.scope(headers, work).await
}

fn sensitive(value: &str) -> Result<HeaderValue, reqwest::header::InvalidHeaderValue> {
    let mut value = HeaderValue::from_str(value)?;
    value.set_sensitive(true);
    Ok(value)
}

/// A transport failure in words, the cause first: could not connect, or cut off
/// mid-answer, with the URL (credentials stripped) and the innermost cause, e.g.
/// `cannot connect to http://127.0.0.1:9/v1/messages: connection refused`.
fn transport_fault(error: reqwest::Error) -> Fault {
    let url = error
        .url()
        .map_or_else(|| "the server".to_owned(), |url| shown_url(url.as_str()));
    let cause = root_cause(&error);
    let words = if error.is_connect() {
        format!("cannot connect to {url}: {cause}")
    } else if error.is_body() || error.is_decode() {
        format!("the answer from {url} broke off: {cause}")
    } else {
        format!("the request to {url} failed: {cause}")
    };
    LlmError::Connection(fault::shorten(&words)).into()
}

/// The innermost cause of `error`, starting in lower case and without the OS error
/// number ("connection refused").
fn root_cause(error: &reqwest::Error) -> String {
    let mut cause: &dyn std::error::Error = error;
    while let Some(source) = cause.source() {
        cause = source;
    }
    let text = cause.to_string();
    let text = match text.find(" (os error") {
        Some(cut) => &text[..cut],
        None => text.as_str(),
    };
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_lowercase().chain(chars).collect()
    })
}

/// `url` as it may be shown: without user, password, query or fragment, which may
/// carry credentials.
fn shown_url(url: &str) -> String {
    let Ok(mut url) = reqwest::Url::parse(url) else {
        return "the server".to_owned();
    };
    // Only URLs that cannot be a base refuse these, and such a URL is never sent.
    let _ = url.set_username("");
    let _ = url.set_password(None);
    url.set_query(None);
    url.set_fragment(None);
    url.to_string()
}

/// Whether the server answered with an event stream (rather than one JSON document).
fn is_event_stream(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("text/event-stream"))
}

/// The whole body of an answer.
async fn read_body(response: reqwest::Response) -> Result<Vec<u8>, Fault> {
    Ok(response.bytes().await.map_err(transport_fault)?.to_vec())
}

/// Builds one answer from the events of a streamed response (each wire format has one).
pub(crate) trait StreamAssembler: Default {
    fn event(&mut self, event: &SseEvent) -> Result<(), Fault>;
    fn is_done(&self) -> bool;
    fn finish(self) -> Result<Response, Fault>;
}

/// Sends `body` and reads the answer: one JSON document through `parse`, or an event
/// stream through the format's assembler `A`.
async fn exchange<A: StreamAssembler>(
    http: &Http,
    url: &str,
    body: &Value,
    parse: fn(&[u8]) -> Result<Response, Fault>,
) -> Result<Response, Fault> {
    let response = http.post(url, body).await?;
    if !is_event_stream(&response) {
        return parse(&read_body(response).await?);
    }
    let mut events = EventStream::new(response);
    let mut answer = A::default();
    while !answer.is_done() {
        let Some(event) = events.next().await? else {
            break;
        };
        answer.event(&event)?;
    }
    answer.finish()
}

/// The events of a streamed answer, one at a time.
struct EventStream {
    response: reqwest::Response,
    decoder: SseDecoder,
    ready: VecDeque<SseEvent>,
    ended: bool,
}

impl EventStream {
    pub fn new(response: reqwest::Response) -> Self {
        Self {
            response,
            decoder: SseDecoder::default(),
            ready: VecDeque::new(),
            ended: false,
        }
    }

    /// The next event, or `None` once the server has closed the stream.
    pub async fn next(&mut self) -> Result<Option<SseEvent>, Fault> {
        loop {
            if let Some(event) = self.ready.pop_front() {
                return Ok(Some(event));
            }
            if self.ended {
                return Ok(None);
            }
            let decoded = match self.response.chunk().await.map_err(transport_fault)? {
                Some(bytes) => self.decoder.push(&bytes),
                None => {
                    self.ended = true;
                    self.decoder.finish().map(|last| last.into_iter().collect())
                }
            };
            self.ready.extend(decoded.map_err(LlmError::Malformed)?);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_urls_carry_no_credentials() {
        assert_eq!(
            shown_url("http://user:sk-secret@127.0.0.1:9/v1/messages?key=sk-secret#x"),
            "http://127.0.0.1:9/v1/messages"
        );
        assert_eq!(shown_url("not a url"), "the server");
    }

    #[test]
    fn a_stalled_try_says_where_and_how_long() {
        let error = LlmError::NoAnswer {
            url: shown_url("https://api.anthropic.com/v1/messages"),
            secs: 600,
        };
        assert_eq!(
            error.to_string(),
            "no answer from https://api.anthropic.com/v1/messages within 600s"
        );
    }
}
