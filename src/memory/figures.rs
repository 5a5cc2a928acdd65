//! What figures of a creature are written with (`inspect` and the genomes' figures): times
//! as JSON, and counts with their noun.

use chrono::{DateTime, Utc};
use serde_json::Value;

/// A time as `inspect --json` writes it, or `null`.
pub fn time(t: Option<DateTime<Utc>>) -> Value {
    t.map_or(Value::Null, |t| Value::String(super::time::format_time(t)))
}

/// `n` with its noun: `1 entry`, `2 entries`.
pub fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}
