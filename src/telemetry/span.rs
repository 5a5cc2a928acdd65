//! A span as the creature's life makes it: plain data, no OpenTelemetry type, so the
//! translation from files and events is pure and tested without an exporter. Ids are
//! derived from the creature and what the span is (a wake's start, a tool call's time),
//! so the same life read twice makes the same spans.

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use crate::text::hex;

/// A 16-byte trace id.
pub type TraceId = [u8; 16];
/// An 8-byte span id.
pub type SpanId = [u8; 8];

/// An attribute's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Str(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Str(s)
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Self {
        Value::Int(n)
    }
}

impl From<u64> for Value {
    fn from(n: u64) -> Self {
        Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<f64> for Value {
    fn from(n: f64) -> Self {
        Value::Float(n)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

/// Whom a span is for: the agent's client side (a model call) or the agent itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Internal,
    Client,
}

/// One finished span.
#[derive(Debug, Clone, PartialEq)]
pub struct SpanRecord {
    pub trace: TraceId,
    pub id: SpanId,
    pub parent: Option<SpanId>,
    /// Another trace this span follows from (a sleep's consolidation: the wake before it).
    pub link: Option<(TraceId, SpanId)>,
    pub name: String,
    pub kind: Kind,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    pub attributes: Vec<(&'static str, Value)>,
    /// The error's description when the operation failed (status Error).
    pub error: Option<String>,
}

impl SpanRecord {
    /// The value of attribute `key`, if set.
    pub fn attribute(&self, key: &str) -> Option<&Value> {
        self.attributes
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }
}

fn digest(parts: &[&str]) -> [u8; 32] {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update(part.as_bytes());
        hash.update([0u8]);
    }
    hash.finalize().into()
}

/// The trace id of what `key` names for agent `agent` (never all zeros: invalid in OTLP).
pub fn trace_id(agent: &str, key: &str) -> TraceId {
    let d = digest(&[agent, key]);
    let mut id = [0u8; 16];
    id.copy_from_slice(&d[..16]);
    id[15] |= 1;
    id
}

/// The span id of `key` within trace `trace` (never all zeros).
pub fn span_id(trace: &TraceId, key: &str) -> SpanId {
    let d = digest(&[&hex(trace), key]);
    let mut id = [0u8; 8];
    id.copy_from_slice(&d[..8]);
    id[7] |= 1;
    id
}

/// The W3C `traceparent` header of a sampled span.
pub fn traceparent(trace: &TraceId, span: &SpanId) -> String {
    format!("00-{}-{}-01", hex(trace), hex(span))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_distinct_and_never_zero() {
        let a = trace_id("pip", "wake 1");
        assert_eq!(a, trace_id("pip", "wake 1"));
        assert_ne!(a, trace_id("pip", "wake 2"));
        assert_ne!(a, [0; 16]);
        assert_ne!(span_id(&a, "x"), span_id(&a, "y"));
        let tp = traceparent(&a, &span_id(&a, "x"));
        assert_eq!(tp.len(), 55);
        assert!(tp.starts_with("00-") && tp.ends_with("-01"));
    }
}
