//! One line of a genome's module file: `{"t", "op", ...}` (DESIGN.md section 7).

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::memory::json::{LineError, parse_line};
use crate::memory::time::{format_time, parse_time};

/// A line's time, its `op`, and its other fields (read into a typed op by each file's
/// parser; an op it does not know passes through with its name).
#[derive(Debug, Clone, PartialEq)]
pub struct OpLine {
    pub t: Option<DateTime<Utc>>,
    pub op: String,
    pub fields: Map<String, Value>,
}

impl OpLine {
    /// A JSON object with a string `op`; a missing or odd `t` reads as no time.
    pub fn parse(bytes: &[u8]) -> Result<Self, LineError> {
        let Value::Object(mut fields) = parse_line::<Value>(bytes)? else {
            return Err(LineError::NotAnObject);
        };
        let op = match fields.remove("op") {
            Some(Value::String(op)) => op,
            _ => return Err(LineError::Missing("op")),
        };
        let t = fields
            .remove("t")
            .as_ref()
            .and_then(Value::as_str)
            .and_then(parse_time);
        Ok(Self { t, op, fields })
    }

    /// A string field that must be there for the op to mean anything (an id).
    pub fn key(&self, name: &'static str) -> Result<String, LineError> {
        match self.fields.get(name) {
            Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
            _ => Err(LineError::Missing(name)),
        }
    }
}

/// A record that is one op of a genome's module file: the runner writes it and the
/// memory model reads it (one type both ways, read leniently).
pub trait OpRecord: Serialize {
    /// Its `op`.
    const OP: &'static str;

    /// Its line without `t` (the runner's appender stamps the time).
    fn line(&self) -> Value {
        // A record is a struct of plain fields: it always serialises to an object.
        let mut fields = match serde_json::to_value(self) {
            Ok(Value::Object(m)) => m,
            _ => Map::new(),
        };
        fields.insert("op".into(), Value::String(Self::OP.into()));
        Value::Object(fields)
    }

    /// Its line at `t`.
    fn line_at(&self, t: DateTime<Utc>) -> Value {
        let mut line = self.line();
        if let Value::Object(fields) = &mut line {
            fields.insert("t".into(), Value::String(format_time(t)));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope() {
        let l = OpLine::parse(br#"{"t":"2026-11-22T10:00:00Z","op":"add","id":"j1"}"#).unwrap();
        assert_eq!(l.op, "add");
        assert!(l.t.is_some());
        assert_eq!(l.key("id").unwrap(), "j1");
        assert_eq!(l.key("text"), Err(LineError::Missing("text")));
        let no_time = OpLine::parse(br#"{"t":5,"op":"x"}"#).unwrap();
        assert_eq!(no_time.t, None);
        assert_eq!(
            OpLine::parse(br#"{"t":"2026-11-22T10:00:00Z"}"#),
            Err(LineError::Missing("op"))
        );
        assert_eq!(OpLine::parse(b"[1]"), Err(LineError::NotAnObject));
        assert!(OpLine::parse(b"{nope").is_err());
    }
}
