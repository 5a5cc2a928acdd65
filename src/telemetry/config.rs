//! What the export is configured by: the standard OpenTelemetry variables
//! (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`,
//! `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT`, `_PROTOCOL`, `_HEADERS`, `OTEL_SERVICE_NAME`,
//! `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_SDK_DISABLED`) over the config file's
//! `[telemetry]`. Off unless one of them names an endpoint (or the file says
//! `enabled = true`: the collector's default, `http://localhost:4318`).

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Deserialize;

use super::content::{Capture, DEFAULT_CAP};

/// The collector's default OTLP/HTTP address.
pub const DEFAULT_ENDPOINT: &str = "http://localhost:4318";
/// How many spans wait for the collector at most; more are dropped (and counted).
pub const DEFAULT_QUEUE: usize = 4096;

/// `[telemetry]` as written in the config file.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TelemetrySection {
    pub enabled: Option<bool>,
    /// The OTLP/HTTP base address (`/v1/traces` and `/v1/metrics` are added).
    pub endpoint: Option<String>,
    /// `http/protobuf` (the only one spoken).
    pub protocol: Option<String>,
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    pub service_name: Option<String>,
    #[serde(default)]
    pub resource_attributes: BTreeMap<String, String>,
    /// Put the creature's text (tool commands and output, memory lines) in spans.
    pub capture_content: Option<bool>,
    /// The most characters of one captured text.
    pub content_cap: Option<usize>,
    /// The most spans waiting for the collector.
    pub queue: Option<usize>,
    /// Seconds between metric exports.
    pub metrics_interval_s: Option<f64>,
}

/// The export's settings, resolved once.
#[derive(Debug, Clone, PartialEq)]
pub struct TelemetryConfig {
    /// Where spans go (the full URL).
    pub traces_url: String,
    /// Where metrics go (the full URL).
    pub metrics_url: String,
    /// The file's headers (the crate adds `OTEL_EXPORTER_OTLP_HEADERS`' over them).
    pub headers: BTreeMap<String, String>,
    /// `None`: `OTEL_SERVICE_NAME`, else `service.name` of `OTEL_RESOURCE_ATTRIBUTES`,
    /// else `dreamwatch`.
    pub service_name: Option<String>,
    /// The file's resource attributes (`OTEL_RESOURCE_ATTRIBUTES` go over them).
    pub resource_attributes: BTreeMap<String, String>,
    pub capture: Capture,
    pub queue: usize,
    pub metrics_interval: Duration,
}

/// Why the export cannot be configured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TelemetryConfigError {
    #[error("OTLP protocol {0:?} is not spoken: use http/protobuf")]
    Protocol(String),
    #[error("[telemetry] {0} must be a positive number")]
    NotPositive(&'static str),
}

/// `base` with `path` after it, one slash between.
fn joined(base: &str, path: &str) -> String {
    format!("{}/{path}", base.trim_end_matches('/'))
}

impl TelemetryConfig {
    /// The settings from the environment (`env`: a variable's value) over `section`;
    /// `None` when the export is off.
    pub fn resolve(
        section: Option<&TelemetrySection>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<Self>, TelemetryConfigError> {
        let env = |name: &str| env(name).filter(|v| !v.trim().is_empty());
        let default = TelemetrySection::default();
        let section = section.unwrap_or(&default);
        if env("OTEL_SDK_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true"))
            || section.enabled == Some(false)
        {
            return Ok(None);
        }
        let base = env("OTEL_EXPORTER_OTLP_ENDPOINT").or_else(|| section.endpoint.clone());
        let traces = env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
        if base.is_none() && traces.is_none() && section.enabled != Some(true) {
            return Ok(None);
        }
        let protocol = env("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
            .or_else(|| env("OTEL_EXPORTER_OTLP_PROTOCOL"))
            .or_else(|| section.protocol.clone());
        if let Some(p) = protocol.filter(|p| p.trim() != "http/protobuf") {
            return Err(TelemetryConfigError::Protocol(p));
        }
        let base = base.unwrap_or_else(|| DEFAULT_ENDPOINT.to_string());
        let metrics = env("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT");
        if section.queue == Some(0) {
            return Err(TelemetryConfigError::NotPositive("queue"));
        }
        let interval = section.metrics_interval_s.unwrap_or(60.0);
        if !(interval > 0.0 && interval.is_finite()) {
            return Err(TelemetryConfigError::NotPositive("metrics_interval_s"));
        }
        Ok(Some(Self {
            traces_url: traces.unwrap_or_else(|| joined(&base, "v1/traces")),
            metrics_url: metrics.unwrap_or_else(|| joined(&base, "v1/metrics")),
            headers: section.headers.clone(),
            service_name: env("OTEL_SERVICE_NAME").or_else(|| section.service_name.clone()),
            resource_attributes: section.resource_attributes.clone(),
            capture: Capture {
                on: section.capture_content.unwrap_or(false),
                cap: section.content_cap.unwrap_or(DEFAULT_CAP),
            },
            queue: section.queue.unwrap_or(DEFAULT_QUEUE),
            metrics_interval: Duration::from_secs_f64(interval),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn off_unless_an_endpoint_is_named() {
        assert_eq!(TelemetryConfig::resolve(None, env(&[])), Ok(None));
        let on = TelemetrySection {
            enabled: Some(true),
            ..TelemetrySection::default()
        };
        let c = TelemetryConfig::resolve(Some(&on), env(&[]))
            .unwrap()
            .unwrap();
        assert_eq!(c.traces_url, "http://localhost:4318/v1/traces");
        assert!(!c.capture.on, "content is off by default");
        let disabled = env(&[
            ("OTEL_SDK_DISABLED", "true"),
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://x"),
        ]);
        assert_eq!(TelemetryConfig::resolve(Some(&on), disabled), Ok(None));
    }

    #[test]
    fn the_environment_goes_over_the_file() {
        let file = TelemetrySection {
            endpoint: Some("http://file:4318/".into()),
            service_name: Some("garden".into()),
            ..TelemetrySection::default()
        };
        let c = TelemetryConfig::resolve(Some(&file), env(&[]))
            .unwrap()
            .unwrap();
        assert_eq!(c.traces_url, "http://file:4318/v1/traces");
        assert_eq!(c.metrics_url, "http://file:4318/v1/metrics");
        assert_eq!(c.service_name.as_deref(), Some("garden"));
        let vars = [
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://env:4318"),
            ("OTEL_SERVICE_NAME", "fleet"),
        ];
        let c = TelemetryConfig::resolve(Some(&file), env(&vars))
            .unwrap()
            .unwrap();
        assert_eq!(c.traces_url, "http://env:4318/v1/traces");
        assert_eq!(c.service_name.as_deref(), Some("fleet"));
        let grpc = [
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://e"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
        ];
        assert_eq!(
            TelemetryConfig::resolve(None, env(&grpc)),
            Err(TelemetryConfigError::Protocol("grpc".into()))
        );
    }
}
