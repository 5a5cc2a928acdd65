//! The orchestrator's HTTP API: each request with a timeout, the token of the creature
//! it is about (or the one for all) as a sensitive bearer header, error answers made
//! inert and scrubbed of tokens; and the event stream.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{AUTHORIZATION, HeaderValue};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::OpenSeedError;
use super::event::LiveEvent;
use super::token::Tokens;
use super::wire::{Budget, CreatureInfo, Usage};
use crate::text::sanitize::{sanitize, sanitize_line};
use crate::text::sse::SseDecoder;

/// How much of an error answer is read and kept (the rest is not read: the connection
/// is dropped).
const ERROR_READ: usize = 16 << 10;
/// The largest answer read (`/api/creatures`, `/api/usage`, a budget, 200 stored events
/// with their tool outputs); a larger one is refused, not held.
pub const MAX_BODY: usize = 16 << 20;

/// What a wake from dreamwatch gives as its reason (the creature reads it).
const WAKE_REASON: &str = "Woken by the operator (dreamwatch)";

#[derive(Clone)]
pub struct Client {
    base: reqwest::Url,
    http: reqwest::Client,
    tokens: Arc<Tokens>,
    timeout: Duration,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("base", &self.base.as_str())
            .field("tokens", &self.tokens)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client of the orchestrator at `base`; every request gives up after `timeout`
    /// (the event stream only while it is opened).
    pub fn new(base: &str, tokens: Arc<Tokens>, timeout: Duration) -> Result<Self, OpenSeedError> {
        let parsed = reqwest::Url::parse(base)
            .map_err(|e| OpenSeedError::Malformed(format!("{base} is not a URL: {e}")))?;
        let http = reqwest::Client::builder()
            .connect_timeout(timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| OpenSeedError::Unreachable {
                base: base.to_owned(),
                detail: e.to_string(),
            })?;
        Ok(Self {
            base: parsed,
            http,
            tokens,
            timeout,
        })
    }

    pub fn base(&self) -> &str {
        self.base.as_str().trim_end_matches('/')
    }

    pub async fn creatures(&self) -> Result<Vec<CreatureInfo>, OpenSeedError> {
        self.get(&["api", "creatures"], None).await
    }

    pub async fn usage(&self) -> Result<Usage, OpenSeedError> {
        self.get(&["api", "usage"], None).await
    }

    pub async fn budget(&self, creature: &str) -> Result<Budget, OpenSeedError> {
        self.get(&["api", "creatures", creature, "budget"], Some(creature))
            .await
    }

    /// The creature's last stored events (the orchestrator keeps 200 within reach).
    pub async fn recent_events(&self, creature: &str) -> Result<Vec<LiveEvent>, OpenSeedError> {
        let all: Vec<Value> = self
            .get(&["api", "creatures", creature, "events"], Some(creature))
            .await?;
        Ok(all
            .iter()
            .filter_map(|v| LiveEvent::parse(v, Some(creature)))
            .collect())
    }

    pub async fn wake(&self, creature: &str) -> Result<(), OpenSeedError> {
        self.act(creature, "wake", json!({ "reason": WAKE_REASON }))
            .await
    }

    /// Delivers a message; the orchestrator wakes the creature for it too.
    pub async fn message(&self, creature: &str, text: &str) -> Result<(), OpenSeedError> {
        self.act(creature, "message", json!({ "text": text })).await
    }

    /// Stops the creature's container.
    pub async fn stop(&self, creature: &str) -> Result<(), OpenSeedError> {
        self.act(creature, "stop", json!({})).await
    }

    pub async fn start(&self, creature: &str) -> Result<(), OpenSeedError> {
        self.act(creature, "start", json!({})).await
    }

    /// Opens the event stream (`GET /api/events`).
    pub async fn events(&self) -> Result<EventStream, OpenSeedError> {
        let request = self.request(reqwest::Method::GET, &["api", "events"], None);
        let response = tokio::time::timeout(self.timeout, request.send())
            .await
            .map_err(|_| self.timed_out())?
            .map_err(|e| self.transport(&e))?;
        let response = self.check(response).await?;
        Ok(EventStream {
            response,
            decoder: SseDecoder::default(),
            ready: VecDeque::new(),
            ended: false,
            tokens: Arc::clone(&self.tokens),
        })
    }

    fn url(&self, segments: &[&str]) -> reqwest::Url {
        let mut url = self.base.clone();
        if let Ok(mut path) = url.path_segments_mut() {
            path.pop_if_empty().extend(segments);
        }
        url
    }

    pub(super) fn request(
        &self,
        method: reqwest::Method,
        segments: &[&str],
        creature: Option<&str>,
    ) -> reqwest::RequestBuilder {
        let mut request = self.http.request(method, self.url(segments));
        if let Some(token) = self.tokens.for_creature(creature)
            && let Ok(mut value) = HeaderValue::from_str(&format!("Bearer {}", token.expose()))
        {
            value.set_sensitive(true);
            request = request.header(AUTHORIZATION, value);
        }
        request
    }

    async fn get<T: DeserializeOwned>(
        &self,
        segments: &[&str],
        creature: Option<&str>,
    ) -> Result<T, OpenSeedError> {
        self.send(reqwest::Method::GET, segments, creature, None)
            .await
    }

    /// A request (with a JSON body, if any) whose answer is JSON: read whole up to
    /// [`MAX_BODY`], else refused.
    pub(super) async fn send<T: DeserializeOwned>(
        &self,
        method: reqwest::Method,
        segments: &[&str],
        creature: Option<&str>,
        body: Option<&Value>,
    ) -> Result<T, OpenSeedError> {
        let mut request = self.request(method, segments, creature);
        if let Some(body) = body {
            request = request.json(body);
        }
        self.answer(request, &segments.join("/")).await
    }

    /// A `GET` of `segments` with a query (`limit=50`) whose answer is JSON.
    pub(super) async fn get_query<T: DeserializeOwned>(
        &self,
        segments: &[&str],
        query: &[(&str, &str)],
    ) -> Result<T, OpenSeedError> {
        let request = self
            .request(reqwest::Method::GET, segments, None)
            .query(query);
        self.answer(request, &segments.join("/")).await
    }

    /// Sends `request`; its JSON answer about `what`, read whole up to [`MAX_BODY`].
    async fn answer<T: DeserializeOwned>(
        &self,
        request: reqwest::RequestBuilder,
        what: &str,
    ) -> Result<T, OpenSeedError> {
        let request = request.timeout(self.timeout);
        let response = request.send().await.map_err(|e| self.transport(&e))?;
        let mut response = self.check(response).await?;
        if response
            .content_length()
            .is_some_and(|n| n > MAX_BODY as u64)
        {
            return Err(self.too_large(what));
        }
        let (bytes, whole) = self.read_at_most(&mut response, MAX_BODY).await?;
        if !whole {
            return Err(self.too_large(what));
        }
        serde_json::from_slice(&bytes).map_err(|e| OpenSeedError::Malformed(format!("{what}: {e}")))
    }

    /// `POST /api/creatures/:name/:action`.
    async fn act(&self, creature: &str, action: &str, body: Value) -> Result<(), OpenSeedError> {
        self.act_within(creature, action, body, self.timeout).await
    }

    /// As [`Client::act`], waiting at most `within` for the answer (the orchestrator
    /// answers a rebuild once `docker build` is done).
    pub(super) async fn act_within(
        &self,
        creature: &str,
        action: &str,
        body: Value,
        within: Duration,
    ) -> Result<(), OpenSeedError> {
        let response = self
            .request(
                reqwest::Method::POST,
                &["api", "creatures", creature, action],
                Some(creature),
            )
            .timeout(within)
            .json(&body)
            .send()
            .await
            .map_err(|e| self.transport(&e))?;
        self.check(response).await.map(drop)
    }

    /// The response when it is a success, else its error (the body inert, short, scrubbed).
    pub(super) async fn check(
        &self,
        response: reqwest::Response,
    ) -> Result<reqwest::Response, OpenSeedError> {
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        if matches!(status.as_u16(), 401 | 403) {
            return Err(OpenSeedError::Unauthorized {
                status: status.as_u16(),
            });
        }
        let mut response = response;
        let (bytes, whole) = self
            .read_at_most(&mut response, ERROR_READ)
            .await
            .unwrap_or_default();
        let mut body = self.tokens.scrub(&sanitize(&in_words(&bytes)));
        if !whole {
            body.push_str(&format!(
                " [cut: an answer of more than {} KiB, the rest not read]",
                ERROR_READ >> 10
            ));
        }
        Err(OpenSeedError::Refused {
            status: status.as_u16(),
            body,
        })
    }

    /// The body's first `limit` bytes, and whether that is all of it (when it is not,
    /// the rest is left unread and the connection dropped with the response).
    pub(super) async fn read_at_most(
        &self,
        response: &mut reqwest::Response,
        limit: usize,
    ) -> Result<(Vec<u8>, bool), OpenSeedError> {
        let mut bytes = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| self.transport(&e))? {
            let room = limit - bytes.len();
            if chunk.len() > room {
                bytes.extend_from_slice(&chunk[..room]);
                return Ok((bytes, false));
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok((bytes, true))
    }

    pub(super) fn too_large(&self, what: &str) -> OpenSeedError {
        tracing::warn!(
            "openseed: the answer to {what} is larger than {} MiB: not read",
            MAX_BODY >> 20
        );
        OpenSeedError::TooLarge {
            what: what.to_owned(),
            limit_mib: MAX_BODY >> 20,
        }
    }

    fn timed_out(&self) -> OpenSeedError {
        OpenSeedError::Timeout(self.timeout.as_secs().max(1))
    }

    pub(super) fn transport(&self, error: &reqwest::Error) -> OpenSeedError {
        if error.is_timeout() {
            return self.timed_out();
        }
        let mut detail = error.to_string();
        let mut source = std::error::Error::source(error);
        while let Some(cause) = source {
            detail = format!("{detail}: {cause}");
            source = cause.source();
        }
        OpenSeedError::Unreachable {
            base: self.base().to_owned(),
            detail: self.tokens.scrub(&sanitize_line(&detail)),
        }
    }
}

/// What an error answer says, in words: a JSON body's `error` (the orchestrator's 503
/// while degraded, `{error, dependencies}`) with the dependencies that are down and why,
/// else the text as it came (a failed start's command output keeps its lines), trimmed.
fn in_words(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let Ok(Value::Object(json)) = serde_json::from_str::<Value>(&text) else {
        return text.trim().to_owned();
    };
    let Some(error) = json.get("error").and_then(Value::as_str) else {
        return text.trim().to_owned();
    };
    let down: Vec<String> = json
        .get("dependencies")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(_, d)| d.get("status").and_then(Value::as_str) == Some("down"))
        .map(|(name, d)| match d.get("error").and_then(Value::as_str) {
            Some(why) => format!("{name} down: {}", why.trim()),
            None => format!("{name} down"),
        })
        .collect();
    if down.is_empty() {
        error.trim().to_owned()
    } else {
        format!("{} ({})", error.trim(), down.join("; "))
    }
}

/// What the event stream brings.
#[derive(Debug, Clone, PartialEq)]
pub enum Streamed {
    Event(LiveEvent),
    /// Events were dropped unread: a line or an event larger than the bounds
    /// (`text::sse`); says how many.
    Cut(usize),
}

/// The orchestrator's live events, in order.
pub struct EventStream {
    response: reqwest::Response,
    decoder: SseDecoder,
    ready: VecDeque<LiveEvent>,
    /// The orchestrator closed the stream.
    ended: bool,
    tokens: Arc<Tokens>,
}

impl EventStream {
    /// The next event (or word of events cut); `None` once the orchestrator has closed
    /// the stream. Data that is not an event is skipped.
    pub async fn next(&mut self) -> Result<Option<Streamed>, OpenSeedError> {
        loop {
            let cut = self.decoder.take_cut();
            if cut > 0 {
                return Ok(Some(Streamed::Cut(cut)));
            }
            if let Some(event) = self.ready.pop_front() {
                return Ok(Some(Streamed::Event(event)));
            }
            if self.ended {
                return Ok(None);
            }
            let chunk = self
                .response
                .chunk()
                .await
                .map_err(|e| OpenSeedError::Unreachable {
                    base: self.response.url().origin().ascii_serialization(),
                    detail: self.tokens.scrub(&sanitize_line(&e.to_string())),
                })?;
            let decoded = match chunk {
                Some(bytes) => self.decoder.push(&bytes),
                None => {
                    self.ended = true;
                    self.decoder.finish().map(|last| last.into_iter().collect())
                }
            }
            .map_err(OpenSeedError::Malformed)?;
            self.ready.extend(
                decoded
                    .iter()
                    .filter_map(|e| serde_json::from_str::<Value>(&e.data).ok())
                    .filter_map(|v| LiveEvent::parse(&v, None)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_answers_in_words() {
        let degraded = br#"{"error":"Orchestrator degraded \u2014 cannot start creatures","dependencies":{"docker":{"status":"down","lastCheck":"x","error":"Cannot connect to the Docker daemon"},"janee":{"status":"up","lastCheck":"x"}}}"#;
        assert_eq!(
            in_words(degraded),
            "Orchestrator degraded \u{2014} cannot start creatures (docker down: Cannot connect to the Docker daemon)"
        );
        assert_eq!(in_words(br#"{"error":"nope"}"#), "nope");
        assert_eq!(
            in_words(b"Command failed: docker build\nstep 1/3\n"),
            "Command failed: docker build\nstep 1/3"
        );
        assert_eq!(in_words(b"[1, 2]"), "[1, 2]");
    }
}
