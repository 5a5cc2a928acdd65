//! Sends [`SpanRecord`]s over OTLP/HTTP protobuf with the official exporter: each made
//! the SDK's `SpanData` here, nowhere else.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::SystemTime;

use opentelemetry::trace::{
    Link, SpanContext, SpanId, SpanKind, Status, TraceFlags, TraceId, TraceState,
};
use opentelemetry::{InstrumentationScope, KeyValue};
use opentelemetry_otlp::{WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{SpanData, SpanEvents, SpanExporter, SpanLinks};

use super::client::Client;
use super::config::TelemetryConfig;
use super::health::Health;
use super::span::{Kind, SpanRecord, Value};

/// Why the export could not start.
#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    #[error("telemetry needs a tokio runtime")]
    NoRuntime,
    #[error("telemetry exporter: {0}")]
    Build(String),
}

/// The resource every span and metric carries: the file's attributes, then
/// `OTEL_RESOURCE_ATTRIBUTES` over them, and the service's name.
pub fn resource(config: &TelemetryConfig) -> Resource {
    let env = opentelemetry_sdk::resource::EnvResourceDetector::new();
    let builder = Resource::builder_empty()
        .with_attribute(KeyValue::new("service.name", "dreamwatch"))
        .with_attributes(
            config
                .resource_attributes
                .iter()
                .map(|(k, v)| KeyValue::new(k.clone(), v.clone())),
        )
        .with_detector(Box::new(env))
        .with_attribute(KeyValue::new("telemetry.sdk.language", "rust"));
    match &config.service_name {
        Some(name) => builder.with_service_name(name.clone()).build(),
        None => builder.build(),
    }
}

fn scope() -> InstrumentationScope {
    InstrumentationScope::builder("dreamwatch")
        .with_version(env!("CARGO_PKG_VERSION"))
        .build()
}

/// The OTLP span exporter.
#[derive(Debug)]
pub struct SpanSender {
    exporter: opentelemetry_otlp::SpanExporter,
    scope: InstrumentationScope,
}

impl SpanSender {
    pub fn new(
        config: &TelemetryConfig,
        client: Client,
        resource: &Resource,
    ) -> Result<Self, TelemetryError> {
        let mut exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_endpoint(config.traces_url.clone())
            .with_timeout(super::client::REQUEST_TIMEOUT)
            .with_headers(config.headers.clone().into_iter().collect())
            .with_http_client(client)
            .build()
            .map_err(|e| TelemetryError::Build(e.to_string()))?;
        exporter.set_resource(resource);
        Ok(Self {
            exporter,
            scope: scope(),
        })
    }

    /// Sends `spans` in one request.
    pub async fn send(&self, spans: &[SpanRecord]) -> Result<(), String> {
        let batch = spans.iter().map(|s| self.data(s)).collect();
        self.exporter.export(batch).await.map_err(|e| e.to_string())
    }

    fn data(&self, span: &SpanRecord) -> SpanData {
        let context = |trace, id| {
            SpanContext::new(
                TraceId::from_bytes(trace),
                SpanId::from_bytes(id),
                TraceFlags::SAMPLED,
                false,
                TraceState::default(),
            )
        };
        let mut links = SpanLinks::default();
        if let Some((trace, id)) = span.link {
            links.links.push(Link::with_context(context(trace, id)));
        }
        SpanData {
            span_context: context(span.trace, span.id),
            parent_span_id: span.parent.map_or(SpanId::INVALID, SpanId::from_bytes),
            parent_span_is_remote: false,
            span_kind: match span.kind {
                Kind::Internal => SpanKind::Internal,
                Kind::Client => SpanKind::Client,
            },
            name: Cow::Owned(span.name.clone()),
            start_time: SystemTime::from(span.start),
            end_time: SystemTime::from(span.end),
            attributes: span
                .attributes
                .iter()
                .map(|(k, v)| attribute(k, v))
                .collect(),
            dropped_attributes_count: 0,
            events: SpanEvents::default(),
            links,
            status: match &span.error {
                Some(e) => Status::error(e.clone()),
                None => Status::Unset,
            },
            instrumentation_scope: self.scope.clone(),
        }
    }
}

fn attribute(key: &'static str, value: &Value) -> KeyValue {
    match value {
        Value::Str(s) => KeyValue::new(key, s.clone()),
        Value::Int(n) => KeyValue::new(key, *n),
        Value::Float(f) => KeyValue::new(key, *f),
        Value::Bool(b) => KeyValue::new(key, *b),
    }
}

/// The client every exporter of one export shares, with its health.
pub fn client(health: &Arc<Health>) -> Result<Client, TelemetryError> {
    let runtime = tokio::runtime::Handle::try_current().map_err(|_| TelemetryError::NoRuntime)?;
    Ok(Client::new(runtime, health.clone()))
}
