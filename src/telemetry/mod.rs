//! OpenTelemetry export: a creature's life as GenAI spans and metrics (the semantic
//! conventions' `invoke_agent`, `chat`, `execute_tool` and memory operations), sent over
//! OTLP/HTTP with the official crates, for creatures the runner hosts
//! ([`CreatureTelemetry`]) and, from their files, for creatures only watched
//! ([`files`]: `dreamwatch export-otel`).
//!
//! The translation ([`life`]) is pure and knows no OpenTelemetry type; [`sender`] makes
//! its spans the SDK's and sends them; [`exporter`] queues them (bounded, never making
//! the creature wait) and retries with backoff. Off unless configured ([`config`]).

pub mod answers;
pub mod call;
pub mod client;
pub mod config;
pub mod content;
pub mod creature;
pub mod diffs;
pub mod exporter;
pub mod files;
pub mod genome_logs;
pub mod health;
pub mod life;
pub mod meters;
pub mod semconv;
pub mod sender;
pub mod span;

pub use config::{TelemetryConfig, TelemetryConfigError, TelemetrySection};
pub use creature::CreatureTelemetry;
pub use exporter::{Exporter, Sink};
pub use sender::TelemetryError;
