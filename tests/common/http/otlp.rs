//! A stand-in OpenTelemetry collector: OTLP/HTTP protobuf on the shared server, each
//! request decoded with the official schema (`opentelemetry-proto`'s prost types).

use std::collections::{HashMap, HashSet};

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::KeyValue;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;

use super::{Reply, Server};

pub struct Collector {
    pub server: Server,
}

impl Collector {
    /// Takes every export (an empty `200`).
    pub async fn start() -> Self {
        let server = Server::handling(|_| Reply::Whole {
            status: 200,
            content_type: "application/x-protobuf",
            headers: Vec::new(),
            body: String::new(),
        })
        .await;
        Self { server }
    }

    /// The base URL to give as `OTEL_EXPORTER_OTLP_ENDPOINT`.
    pub fn endpoint(&self) -> String {
        self.server.base.clone()
    }

    /// Every trace export received, decoded.
    pub fn trace_requests(&self) -> Vec<ExportTraceServiceRequest> {
        self.server
            .seen()
            .iter()
            .filter(|s| s.path == "/v1/traces")
            .map(|s| {
                assert_eq!(
                    s.headers.get("content-type").map(String::as_str),
                    Some("application/x-protobuf")
                );
                ExportTraceServiceRequest::decode(s.raw.as_slice()).unwrap()
            })
            .collect()
    }

    /// Every span received, in the order received.
    pub fn spans(&self) -> Vec<Span> {
        self.trace_requests()
            .into_iter()
            .flat_map(|r| r.resource_spans)
            .flat_map(|r| r.scope_spans)
            .flat_map(|s| s.spans)
            .collect()
    }

    /// The resource attributes of the first export.
    pub fn resource(&self) -> HashMap<String, String> {
        self.trace_requests()
            .into_iter()
            .flat_map(|r| r.resource_spans)
            .flat_map(|r| r.resource)
            .flat_map(|r| r.attributes)
            .map(|kv| (kv.key.clone(), shown(&kv)))
            .collect()
    }

    /// How many metric exports came.
    pub fn metric_exports(&self) -> usize {
        self.server
            .seen()
            .iter()
            .filter(|s| s.path == "/v1/metrics")
            .count()
    }
}

/// An attribute's value as text.
fn shown(kv: &KeyValue) -> String {
    match kv.value.as_ref().and_then(|v| v.value.as_ref()) {
        Some(Any::StringValue(s)) => s.clone(),
        Some(Any::IntValue(n)) => n.to_string(),
        Some(Any::DoubleValue(f)) => f.to_string(),
        Some(Any::BoolValue(b)) => b.to_string(),
        other => format!("{other:?}"),
    }
}

/// Span `span`'s attribute `key`, as text.
pub fn attr(span: &Span, key: &str) -> Option<String> {
    span.attributes.iter().find(|kv| kv.key == key).map(shown)
}

/// Checks the spans hang together: unique ids, every parent received in the same trace.
pub fn check_links(spans: &[Span]) {
    let ids: HashSet<(Vec<u8>, Vec<u8>)> = spans
        .iter()
        .map(|s| (s.trace_id.clone(), s.span_id.clone()))
        .collect();
    assert_eq!(ids.len(), spans.len(), "each span sent once");
    for s in spans {
        assert_eq!(s.trace_id.len(), 16);
        assert_eq!(s.span_id.len(), 8);
        if !s.parent_span_id.is_empty() {
            assert!(
                ids.contains(&(s.trace_id.clone(), s.parent_span_id.clone())),
                "{}: its parent was not sent in its trace",
                s.name
            );
        }
    }
}

/// The spans whose name starts with `prefix`.
pub fn named<'a>(spans: &'a [Span], prefix: &str) -> Vec<&'a Span> {
    spans
        .iter()
        .filter(|s| s.name.starts_with(prefix))
        .collect()
}
