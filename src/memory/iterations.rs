//! `iterations.jsonl` (one per sleep) and `creator-log.jsonl` (self-evaluations).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::dreams::opt_time;
use super::json::{LineError, parse_line};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Iteration {
    #[serde(default, with = "opt_time")]
    pub t: Option<DateTime<Utc>>,
    #[serde(default)]
    pub turns: u64,
    #[serde(default)]
    pub intent: String,
    #[serde(default)]
    pub actions: Vec<IterationAction>,
    #[serde(default)]
    pub sleep_s: f64,
    #[serde(default, with = "opt_time", skip_serializing_if = "Option::is_none")]
    pub sleep_started_at: Option<DateTime<Utc>>,
    /// A crash checkpoint: the session was cut short.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_count: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IterationAction {
    #[serde(default)]
    pub tool: String,
    #[serde(default)]
    pub ok: bool,
    #[serde(default)]
    pub summary: String,
    #[serde(default)]
    pub ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}

impl Iteration {
    pub fn parse(line: &[u8]) -> Result<Self, LineError> {
        parse_line(line)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CreatorLogEntry {
    #[serde(default, with = "opt_time")]
    pub t: Option<DateTime<Utc>>,
    #[serde(default)]
    pub trigger: String,
    #[serde(default)]
    pub reasoning: String,
    #[serde(default)]
    pub changed: bool,
    #[serde(default)]
    pub turns: u64,
}

impl CreatorLogEntry {
    pub fn parse(line: &[u8]) -> Result<Self, LineError> {
        parse_line(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_and_checkpoint() {
        let i = Iteration::parse(br#"{"t":"2026-11-22T17:40:57.447Z","turns":25,"intent":"x","actions":[{"tool":"bash","command":"date","ok":true,"summary":"Sun","ms":207}],"sleep_s":30,"sleep_started_at":"2026-11-22T17:40:57.447Z"}"#).unwrap();
        assert_eq!(i.actions.len(), 1);
        assert!(!i.interrupted);
        let c = Iteration::parse(br#"{"t":"2026-11-22T17:42:15.823Z","turns":0,"intent":"x","actions":[],"sleep_s":0,"interrupted":true,"action_count":3}"#).unwrap();
        assert!(c.interrupted);
        assert_eq!(c.action_count, Some(3));
    }

    #[test]
    fn creator_log() {
        let c = CreatorLogEntry::parse(br#"{"t":"2026-11-22T17:35:41.296Z","trigger":"deep_sleep","reasoning":"r","changed":false,"turns":3}"#).unwrap();
        assert_eq!(c.trigger, "deep_sleep");
    }
}
