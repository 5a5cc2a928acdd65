//! `.self/dreams.jsonl`: one line per dream (consolidation).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::json::{LineError, parse_line};
use super::time::parse_time;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dream {
    #[serde(default, with = "opt_time")]
    pub t: Option<DateTime<Utc>>,
    /// Actions (tool calls) since the previous dream.
    #[serde(default)]
    pub actions: u64,
    #[serde(default)]
    pub reflection: String,
    #[serde(default)]
    pub priority: String,
    /// Tag lines in the consolidation answer.
    #[serde(default)]
    pub observations: u64,
    #[serde(default)]
    pub deep: bool,
}

impl Dream {
    pub fn parse(line: &[u8]) -> Result<Self, LineError> {
        parse_line(line)
    }
}

/// Serde for optional ISO times that tolerates any string (unparseable means `None`).
pub mod opt_time {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(t: &Option<DateTime<Utc>>, s: S) -> Result<S::Ok, S::Error> {
        match t {
            Some(t) => s.serialize_str(&super::super::time::format_time(*t)),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<DateTime<Utc>>, D::Error> {
        let v = Option::<serde_json::Value>::deserialize(d)?;
        Ok(v.as_ref().and_then(|v| v.as_str()).and_then(parse_time))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_dream() {
        let d = Dream::parse(br#"{"t":"2026-11-22T17:32:34.803Z","actions":5,"reflection":"r\nWhen I wake: x","priority":"p","observations":4,"deep":false}"#).unwrap();
        assert_eq!(d.actions, 5);
        assert_eq!(d.observations, 4);
        assert!(!d.deep);
        assert!(d.t.is_some());
    }

    #[test]
    fn missing_fields_default_and_unknown_pass() {
        let d = Dream::parse(br#"{"t":"bad","deep":true,"extra":1}"#).unwrap();
        assert!(d.deep);
        assert_eq!(d.t, None);
        assert!(Dream::parse(b"[1,2]").is_err());
    }
}
