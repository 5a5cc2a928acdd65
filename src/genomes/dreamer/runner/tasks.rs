//! The dreamer's requests to the brain, with their parameters as data: the rehearsal
//! brain answers them from these fields alone (`rehearsal.rs`).

use chrono::{DateTime, TimeDelta, Utc};

use super::rehearsal;
use crate::runner::activity::Activity;
use crate::runner::brain::task::GenomeRequest;

/// The consolidating mind, over the activity since the last dream.
#[derive(Debug, Clone, PartialEq)]
pub struct Consolidate {
    /// The stamp of the new observation lines.
    pub hhmm: String,
    /// The number the dream will have (1 for the first).
    pub dream_number: u64,
    pub activity: Activity,
}

/// The deep sleep's pruning of `observations.md`.
#[derive(Debug, Clone, PartialEq)]
pub struct Prune {
    /// `observations.md` as it is.
    pub observations: String,
    /// The creature's now (the wall clock: `--speed` shortens durations, not the clock).
    pub now: DateTime<Utc>,
    /// GRN lines older than this many creature hours go.
    pub grn_max_age_h: f64,
    /// Creature time passes this many times faster than the wall clock.
    pub speed: f64,
}

impl Prune {
    /// The wall-clock time before which a GRN line is older than the limit: the lines carry
    /// wall-clock times, the limit is in creature hours.
    pub fn grn_cutoff(&self) -> DateTime<Utc> {
        let ms = self.grn_max_age_h * 3_600_000.0 / self.speed;
        self.now - TimeDelta::milliseconds(ms.min(i64::MAX as f64 / 4.0) as i64)
    }

    /// The first minute a GRN line may be stamped with and stay: a line is stamped to the
    /// minute, so it is older than the limit only when its whole minute is (at `--speed
    /// 10000` the limit is 17 s of the wall clock: the lines of the minute stay).
    pub fn keep_from(&self) -> DateTime<Utc> {
        let cutoff = self.grn_cutoff();
        cutoff
            - TimeDelta::seconds(cutoff.timestamp().rem_euclid(60))
            - TimeDelta::nanoseconds(i64::from(cutoff.timestamp_subsec_nanos()))
    }

    /// The limit in wall-clock hours, as the model is told it.
    pub fn grn_max_age_wall_h(&self) -> f64 {
        (self.grn_max_age_h / self.speed * 100.0).round() / 100.0
    }
}

/// The deep sleep's choice of priorities.
#[derive(Debug, Clone, PartialEq)]
pub struct Priorities {
    /// The priorities of the recent dreams, oldest first.
    pub dream_priorities: Vec<String>,
}

impl GenomeRequest for Consolidate {
    fn purpose(&self) -> &'static str {
        "consolidate"
    }

    fn rehearse(&self) -> String {
        rehearsal::consolidate(self)
    }
}

impl GenomeRequest for Prune {
    fn purpose(&self) -> &'static str {
        "prune"
    }

    fn rehearse(&self) -> String {
        rehearsal::prune(self)
    }
}

impl GenomeRequest for Priorities {
    fn purpose(&self) -> &'static str {
        "priorities"
    }

    fn rehearse(&self) -> String {
        rehearsal::priorities(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn the_grn_cutoff_is_on_the_creatures_clock() {
        let now = Utc.with_ymd_and_hms(2026, 3, 3, 12, 0, 0).unwrap();
        let prune = |speed| Prune {
            observations: String::new(),
            now,
            grn_max_age_h: 48.0,
            speed,
        };
        assert_eq!(prune(1.0).grn_cutoff(), now - TimeDelta::hours(48));
        // At speed 60, 48 creature hours pass in 48 minutes of the wall clock.
        assert_eq!(prune(60.0).grn_cutoff(), now - TimeDelta::minutes(48));
        assert_eq!(prune(60.0).grn_max_age_wall_h(), 0.8);
        // At 10,000 the limit is 17 s: a line stamped this minute is not older than it.
        let later = Prune {
            now: now + TimeDelta::seconds(50),
            ..prune(10_000.0)
        };
        assert_eq!(later.keep_from(), now);
    }
}
