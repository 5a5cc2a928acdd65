//! The metrics: `gen_ai.client.token.usage` and `gen_ai.client.operation.duration` of
//! the conventions, and each creature's fatigue, dreams and cost. The SDK's periodic
//! reader sends them over OTLP/HTTP from a thread of its own.

use opentelemetry::KeyValue;
use opentelemetry::metrics::{Counter, Gauge, Histogram, MeterProvider as _};
use opentelemetry_otlp::{WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::{PeriodicReader, SdkMeterProvider};

use super::call::{Called, ModelCall};
use super::client::Client;
use super::config::TelemetryConfig;
use super::semconv as sc;
use super::sender::TelemetryError;

/// The instruments, shared by every creature of one export.
#[derive(Debug, Clone)]
pub struct Meters {
    tokens: Histogram<u64>,
    duration: Histogram<f64>,
    fatigue: Gauge<u64>,
    dreams: Counter<u64>,
    cost: Counter<f64>,
}

impl Meters {
    pub fn start(
        config: &TelemetryConfig,
        client: Client,
        resource: Resource,
    ) -> Result<(Self, SdkMeterProvider), TelemetryError> {
        let exporter = opentelemetry_otlp::MetricExporter::builder()
            .with_http()
            .with_endpoint(config.metrics_url.clone())
            .with_timeout(super::client::REQUEST_TIMEOUT)
            .with_headers(config.headers.clone().into_iter().collect())
            .with_http_client(client)
            .build()
            .map_err(|e| TelemetryError::Build(e.to_string()))?;
        let reader = PeriodicReader::builder(exporter)
            .with_interval(config.metrics_interval)
            .build();
        let provider = SdkMeterProvider::builder()
            .with_resource(resource)
            .with_reader(reader)
            .build();
        Ok((Self::of(&provider), provider))
    }

    /// The instruments of `provider`.
    pub fn of(provider: &SdkMeterProvider) -> Self {
        let meter = provider.meter("dreamwatch");
        Self {
            tokens: meter
                .u64_histogram(sc::TOKEN_USAGE)
                .with_unit("{token}")
                .with_description("Tokens used by a model call")
                .build(),
            duration: meter
                .f64_histogram(sc::OPERATION_DURATION)
                .with_unit("s")
                .with_description("How long a model call or a tool took")
                .build(),
            fatigue: meter
                .u64_gauge(sc::FATIGUE)
                .with_unit("{action}")
                .with_description("Actions since the creature's last consolidation")
                .build(),
            dreams: meter
                .u64_counter(sc::DREAMS)
                .with_unit("{dream}")
                .with_description("Dreams the creature had")
                .build(),
            cost: meter
                .f64_counter(sc::COST_METRIC)
                .with_unit("USD")
                .with_description("What the creature's model calls cost")
                .build(),
        }
    }

    /// A model call that took `seconds`: its tokens by type, its duration and cost.
    pub fn call(&self, agent: &str, call: &ModelCall, seconds: f64) {
        let input = call.tokens.map(|t| t.input + t.cache_read + t.cache_write);
        let output = call
            .tokens
            .filter(|_| matches!(call.what, Called::Chat { .. }))
            .map(|t| t.output);
        let (model, cost) = (call.model.as_str(), call.cost);
        let error = call.error.as_ref().map(|(kind, _)| kind.as_str());
        let mut attributes = vec![
            KeyValue::new(sc::OPERATION, call.operation()),
            KeyValue::new(sc::REQUEST_MODEL, model.to_string()),
            KeyValue::new(sc::AGENT_NAME, agent.to_string()),
        ];
        for (kind, n) in [("input", input), ("output", output)] {
            if let Some(n) = n {
                let mut a = attributes.clone();
                a.push(KeyValue::new(sc::TOKEN_TYPE, kind));
                self.tokens.record(n, &a);
            }
        }
        if let Some(cost) = cost {
            self.cost
                .add(cost, &[KeyValue::new(sc::AGENT_NAME, agent.to_string())]);
        }
        if let Some(e) = error {
            attributes.push(KeyValue::new(sc::ERROR_TYPE, e.to_string()));
        }
        self.duration.record(seconds, &attributes);
    }

    /// A tool ran for `seconds`.
    pub fn tool(&self, agent: &str, tool: &str, seconds: f64) {
        self.duration.record(
            seconds,
            &[
                KeyValue::new(sc::OPERATION, sc::EXECUTE_TOOL),
                KeyValue::new(sc::TOOL_NAME, tool.to_string()),
                KeyValue::new(sc::AGENT_NAME, agent.to_string()),
            ],
        );
    }

    pub fn fatigue(&self, agent: &str, fatigue: u64) {
        self.fatigue
            .record(fatigue, &[KeyValue::new(sc::AGENT_NAME, agent.to_string())]);
    }

    pub fn dream(&self, agent: &str) {
        self.dreams
            .add(1, &[KeyValue::new(sc::AGENT_NAME, agent.to_string())]);
    }
}
