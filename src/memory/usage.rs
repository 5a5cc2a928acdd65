//! `.sys/usage.jsonl`: the tokens of every model call a dreamwatch runner made for the
//! creature, one line per call, appended as each answer comes back.
//!
//! A line: `{"t", "call": "chat"|"embed", "model": "openai/gpt-4o-mini", "input",
//! "output", "cache_read", "cache_write", "estimated", "day": "2026-11-25", "totals":
//! {model: {"calls", "input", ...}}, "today": {model: {...}}}`. `totals` and `today` are
//! the running sums up to and including this call (per model, `today` over the UTC day
//! `day`), so the last line alone says everything: a reader never reads the file whole.
//! `estimated` marks counts dreamwatch made itself (about four characters a token) for a
//! brain whose answers say none (the rehearsal brain, some local servers).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use super::json::{LineError, parse_line};

/// Where the runner keeps the record, relative to the creature's root.
pub const USAGE_FILE: &str = ".sys/usage.jsonl";

/// The model the rehearsal brain's calls are recorded as (it costs nothing).
pub const REHEARSAL: &str = "rehearsal";

/// How much of the file's end is read for its last line.
pub const TAIL_WINDOW: u64 = 64 << 10;

pub fn path(root: &Path) -> PathBuf {
    root.join(USAGE_FILE)
}

/// Tokens of one call, or a sum of calls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tokens {
    /// Input tokens read at the full price.
    #[serde(default)]
    pub input: u64,
    #[serde(default)]
    pub output: u64,
    /// Input tokens read from the provider's prompt cache.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_read: u64,
    /// Input tokens written into the prompt cache (Anthropic).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_write: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Tokens {
    /// Every token, in and out.
    pub fn total(&self) -> u64 {
        self.input + self.output + self.cache_read + self.cache_write
    }

    pub fn add(&mut self, other: &Tokens) {
        self.input += other.input;
        self.output += other.output;
        self.cache_read += other.cache_read;
        self.cache_write += other.cache_write;
    }
}

/// The calls of one model, summed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ModelTotals {
    #[serde(default)]
    pub calls: u64,
    #[serde(flatten)]
    pub tokens: Tokens,
    /// Some of these counts are dreamwatch's estimates.
    #[serde(default, skip_serializing_if = "is_false")]
    pub estimated: bool,
}

impl ModelTotals {
    pub fn add(&mut self, tokens: &Tokens, estimated: bool) {
        self.calls += 1;
        self.tokens.add(tokens);
        self.estimated |= estimated;
    }
}

/// Sums per model (`provider/model`).
pub type Totals = BTreeMap<String, ModelTotals>;

/// What kind of call a line records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Call {
    Chat,
    Embed,
}

/// One line of the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UsageLine {
    #[serde(with = "super::dreams::opt_time", default)]
    pub t: Option<DateTime<Utc>>,
    pub call: Call,
    pub model: String,
    #[serde(flatten)]
    pub tokens: Tokens,
    #[serde(default, skip_serializing_if = "is_false")]
    pub estimated: bool,
    /// The UTC day `today` sums.
    pub day: NaiveDate,
    #[serde(default)]
    pub totals: Totals,
    #[serde(default)]
    pub today: Totals,
}

impl UsageLine {
    pub fn parse(line: &[u8]) -> Result<Self, LineError> {
        parse_line(line)
    }
}

/// Where to start reading `path` to see its last lines: the first line start in its last
/// [`TAIL_WINDOW`] bytes, or 0 when the file is smaller (or has no line start there).
pub fn tail_start(path: &Path) -> u64 {
    crate::tail::tail_start(path, TAIL_WINDOW, TAIL_WINDOW).unwrap_or(0)
}

/// How far from its end [`last_line`] looks for a readable line.
pub const MAX_LAST_LINE_SCAN: u64 = 4 << 20;
/// A longer line is not a usage line: skipped, never held.
pub const MAX_USAGE_LINE: usize = 1 << 20;

/// The last readable line of the file at `path` (`None` when there is none or no file),
/// read from its end: at most [`MAX_LAST_LINE_SCAN`] bytes, lines over
/// [`MAX_USAGE_LINE`] skipped. A FIFO or a device is an error, never a hang; so is a
/// file whose end holds no readable line although it is longer.
pub fn last_line(path: &Path) -> std::io::Result<Option<UsageLine>> {
    let mut last = None;
    let back = crate::tail::read_back(path, MAX_LAST_LINE_SCAN, MAX_USAGE_LINE, |line| {
        last = UsageLine::parse(line).ok();
        last.is_none()
    })?;
    if last.is_none() && !back.whole {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "no readable line in its last {} MiB{}",
                MAX_LAST_LINE_SCAN >> 20,
                if back.oversized > 0 {
                    format!(
                        " ({} line(s) over {} MiB)",
                        back.oversized,
                        MAX_USAGE_LINE >> 20
                    )
                } else {
                    String::new()
                }
            ),
        ));
    }
    Ok(last)
}

/// What the file says of a creature's usage: its last line's sums.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UsageLog {
    /// The last line read (none before the first call).
    pub last: Option<UsageLine>,
    /// Lines that could not be read.
    pub bad_lines: u64,
}

impl UsageLog {
    /// Takes in one line of the file.
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), LineError> {
        match UsageLine::parse(bytes) {
            Ok(line) => {
                self.last = Some(line);
                Ok(())
            }
            Err(e) => {
                self.bad_lines += 1;
                Err(e)
            }
        }
    }

    /// The sums per model since the creature's first recorded call.
    pub fn totals(&self) -> Option<&Totals> {
        self.last.as_ref().map(|l| &l.totals)
    }

    /// The sums per model on the UTC day of `now` (empty when nothing was recorded that day).
    pub fn today(&self, now: DateTime<Utc>) -> Totals {
        self.last
            .as_ref()
            .filter(|l| l.day >= now.date_naive())
            .map(|l| l.today.clone())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use chrono::TimeZone;

    use super::*;

    fn line(calls: u64, day: u32) -> UsageLine {
        let tokens = Tokens {
            input: 100,
            output: 10,
            ..Tokens::default()
        };
        let sums = Totals::from([(
            "openai/m".to_string(),
            ModelTotals {
                calls,
                tokens: Tokens {
                    input: 100 * calls,
                    output: 10 * calls,
                    ..Tokens::default()
                },
                estimated: false,
            },
        )]);
        UsageLine {
            t: Utc.with_ymd_and_hms(2026, 11, day, 3, 0, 0).single(),
            call: Call::Chat,
            model: "openai/m".into(),
            tokens,
            estimated: false,
            day: NaiveDate::from_ymd_opt(2026, 11, day).unwrap(),
            totals: sums.clone(),
            today: sums,
        }
    }

    #[test]
    fn a_line_round_trips_and_leaves_zero_cache_counts_out() {
        let text = serde_json::to_string(&line(1, 25)).unwrap();
        assert!(!text.contains("cache"), "{text}");
        assert!(text.contains(r#""day":"2026-11-25""#), "{text}");
        assert_eq!(UsageLine::parse(text.as_bytes()).unwrap(), line(1, 25));
    }

    #[test]
    fn the_last_line_is_read_from_the_end_of_a_large_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("usage.jsonl");
        let mut file = std::fs::File::create(&path).unwrap();
        let calls = 2000;
        for n in 1..=calls {
            writeln!(file, "{}", serde_json::to_string(&line(n, 25)).unwrap()).unwrap();
        }
        // A torn last line (a crash mid-write) is passed over.
        write!(file, "{{\"t\":\"2026-").unwrap();
        drop(file);
        assert!(std::fs::metadata(&path).unwrap().len() > TAIL_WINDOW);
        assert!(tail_start(&path) > 0);
        let last = last_line(&path).unwrap().unwrap();
        assert_eq!(last.totals["openai/m"].calls, calls);
        assert_eq!(last_line(&dir.path().join("none")).unwrap(), None);
    }

    #[test]
    fn today_is_empty_once_the_day_is_over() {
        let mut log = UsageLog::default();
        log.push(serde_json::to_string(&line(3, 24)).unwrap().as_bytes())
            .unwrap();
        assert!(log.push(b"{oops").is_err());
        assert_eq!(log.bad_lines, 1);
        let on = |d| Utc.with_ymd_and_hms(2026, 11, d, 23, 0, 0).unwrap();
        assert_eq!(log.today(on(24))["openai/m"].calls, 3);
        assert!(log.today(on(25)).is_empty());
        assert_eq!(log.totals().unwrap()["openai/m"].calls, 3);
    }
}
