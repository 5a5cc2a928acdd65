//! The exporter's HTTP client: our reqwest client, each request run on the tokio
//! runtime the export started on (the SDK's metric reader calls from a thread of its
//! own, with no runtime), its outcome told to [`Health`].

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use opentelemetry_http::{HttpClient, HttpError};

use super::health::Health;

/// One request's time limit.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub struct Client {
    client: reqwest::Client,
    runtime: tokio::runtime::Handle,
    health: Arc<Health>,
}

impl Client {
    pub fn new(runtime: tokio::runtime::Handle, health: Arc<Health>) -> Self {
        let client = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .build()
            .unwrap_or_default();
        Self {
            client,
            runtime,
            health,
        }
    }
}

/// Why a request failed, in words.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Failed(String);

#[async_trait::async_trait]
impl HttpClient for Client {
    async fn send_bytes(&self, request: Request<Bytes>) -> Result<Response<Bytes>, HttpError> {
        let client = self.client.clone();
        let (parts, body) = request.into_parts();
        let url = parts.uri.to_string();
        let work = async move {
            let response = client
                .request(parts.method, parts.uri.to_string())
                .headers(parts.headers)
                .body(body)
                .send()
                .await?;
            let status = response.status();
            let headers = response.headers().clone();
            let body = response.bytes().await?;
            Ok::<_, reqwest::Error>((status, headers, body))
        };
        let outcome = match self.runtime.spawn(work).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(e)) => Err(Failed(format!("{url}: {}", root_cause(&e)))),
            Err(e) => Err(Failed(e.to_string())),
        };
        match outcome {
            Ok((status, headers, body)) => {
                if status.is_success() {
                    self.health.reached();
                } else {
                    self.health.failed(&format!("{url} answered {status}"));
                }
                let mut response = Response::builder().status(status);
                if let Some(h) = response.headers_mut() {
                    *h = headers;
                }
                Ok(response.body(body)?)
            }
            Err(e) => {
                self.health.failed(&e.0);
                Err(Box::new(e))
            }
        }
    }
}

/// The innermost cause of an error (`connection refused`).
fn root_cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = error;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}
