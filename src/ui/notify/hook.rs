//! What the `[notify]` command hook is given (the notice as JSON on its stdin, and a few
//! variables for a shell line), and its rate limit: at most so many runs per creature and
//! kind in any minute; notices over it are dropped, counted, and their count goes in the
//! next JSON of that creature and kind. No token, key or configured secret is in it: only
//! the creature's name, path and what the observatory says of it.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;

use chrono::{DateTime, Duration, SecondsFormat, Utc};
use serde::Serialize;

use super::need::{Need, Notice};
use crate::text::sanitize::{inert_json, sanitize_line};

/// The most characters of a notice's text in the JSON.
pub const TEXT_MAX: usize = 1000;

/// The JSON on the hook's stdin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Payload {
    /// `failing`, `stalled`, `review`, `budget` or `message`.
    pub kind: &'static str,
    pub creature: String,
    pub path: PathBuf,
    /// RFC 3339, UTC.
    pub time: String,
    pub text: String,
    /// What a person is asked to do.
    pub needs: &'static str,
    /// Notices of this creature and kind dropped by the rate limit since the last run.
    pub dropped: u64,
}

impl Payload {
    pub fn of(notice: &Notice, dropped: u64) -> Self {
        let text = sanitize_line(&notice.text);
        let text = match text.char_indices().nth(TEXT_MAX) {
            Some((cut, _)) => format!("{}…", &text[..cut]),
            None => text,
        };
        Self {
            kind: notice.need.as_str(),
            creature: sanitize_line(&notice.name),
            path: notice.path.clone(),
            time: notice.at.to_rfc3339_opts(SecondsFormat::Secs, true),
            text,
            needs: notice.need.asks(),
            dropped,
        }
    }

    /// One line of JSON (inert: a terminal that shows it obeys nothing in it).
    pub fn json(&self) -> String {
        inert_json(&serde_json::to_string(self).unwrap_or_default())
    }

    /// The variables a shell line may use instead of reading the JSON.
    pub fn env(&self) -> [(&'static str, String); 3] {
        [
            ("DREAMWATCH_KIND", self.kind.to_string()),
            ("DREAMWATCH_CREATURE", self.creature.clone()),
            ("DREAMWATCH_TEXT", self.text.clone()),
        ]
    }
}

/// What the limiter says of a notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Run the hook; so many of this creature and kind were dropped before it.
    Run { dropped: u64 },
    /// Over the limit: dropped. `first`: the first drop since the hook last ran for
    /// any notice (said once on the status line).
    Dropped { first: bool },
}

/// At most `per_minute` runs per creature and kind in any 60 seconds.
#[derive(Debug)]
pub struct RateLimit {
    per_minute: u32,
    runs: HashMap<(PathBuf, Need), VecDeque<DateTime<Utc>>>,
    dropped: HashMap<(PathBuf, Need), u64>,
    said: bool,
}

impl RateLimit {
    pub fn new(per_minute: u32) -> Self {
        Self {
            per_minute,
            runs: HashMap::new(),
            dropped: HashMap::new(),
            said: false,
        }
    }

    pub fn per_minute(&self) -> u32 {
        self.per_minute
    }

    /// Whether `notice` may run the hook now.
    pub fn admit(&mut self, notice: &Notice) -> Verdict {
        let key = (notice.path.clone(), notice.need);
        let runs = self.runs.entry(key.clone()).or_default();
        while runs
            .front()
            .is_some_and(|t| notice.at - *t >= Duration::minutes(1))
        {
            runs.pop_front();
        }
        if runs.len() >= self.per_minute as usize {
            *self.dropped.entry(key).or_default() += 1;
            let first = !self.said;
            self.said = true;
            return Verdict::Dropped { first };
        }
        runs.push_back(notice.at);
        self.said = false;
        Verdict::Run {
            dropped: self.dropped.remove(&key).unwrap_or(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice(need: Need, s: i64) -> Notice {
        Notice {
            need,
            path: PathBuf::from("/g/sprout"),
            name: "sprout".into(),
            at: DateTime::from_timestamp(1_800_000_000 + s, 0).unwrap(),
            text: "sprout wrote to you: \x1b[2Jhi".into(),
        }
    }

    #[test]
    fn at_most_n_a_minute_per_creature_and_kind_and_the_dropped_are_counted() {
        let mut limit = RateLimit::new(2);
        assert_eq!(
            limit.admit(&notice(Need::Message, 0)),
            Verdict::Run { dropped: 0 }
        );
        assert_eq!(
            limit.admit(&notice(Need::Message, 1)),
            Verdict::Run { dropped: 0 }
        );
        assert_eq!(
            limit.admit(&notice(Need::Message, 2)),
            Verdict::Dropped { first: true }
        );
        assert_eq!(
            limit.admit(&notice(Need::Message, 3)),
            Verdict::Dropped { first: false }
        );
        // Another kind has its own count.
        assert_eq!(
            limit.admit(&notice(Need::Failing, 4)),
            Verdict::Run { dropped: 0 }
        );
        // A minute after the first run, one more may go, with the count of the dropped.
        assert_eq!(
            limit.admit(&notice(Need::Message, 60)),
            Verdict::Run { dropped: 2 }
        );
        assert_eq!(
            limit.admit(&notice(Need::Message, 60)),
            Verdict::Dropped { first: true }
        );
    }

    #[test]
    fn the_json_says_the_notice_inert_and_nothing_else() {
        let p = Payload::of(&notice(Need::Message, 0), 3);
        let json = p.json();
        let back: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back["kind"], "message");
        assert_eq!(back["creature"], "sprout");
        assert_eq!(back["path"], "/g/sprout");
        assert_eq!(back["time"], "2027-01-15T08:00:00Z");
        assert_eq!(back["text"], "sprout wrote to you: ^[[2Jhi");
        assert_eq!(back["dropped"], 3);
        assert!(back["needs"].as_str().is_some_and(|s| !s.is_empty()));
        assert_eq!(back.as_object().unwrap().len(), 7);
        assert!(!json.contains('\x1b'));
    }
}
