//! A calendar event's recurrence: none, daily, weekly, or an RFC 5545 RRULE, expanded by
//! the `rrule` crate from the event's time, always bounded.
//!
//! The `rrule` crate walks a rule from its start one period (a day for `FREQ=DAILY`, a
//! second for `FREQ=SECONDLY`) at a time, and gives up on a rule only after 100,000
//! periods without an occurrence: a rule that never occurs (`FREQ=DAILY;BYMONTH=2;
//! BYMONTHDAY=30`) costs that much at every look. So every search is bounded twice: per
//! event, at most [`MAX_PERIODS`] periods past its start are searched (a rule that finds
//! nothing within them is [`Found::bounded`]); per look over a calendar, the periods
//! searched for all its events together come out of one [`Budget`], and the events left
//! when it is spent are not searched (counted, and shown as such).

use chrono::{DateTime, TimeDelta, Utc};
use rrule::{Frequency, RRule, RRuleSet, Tz, Unvalidated};

/// Periods of its frequency (times its interval) past an event's start searched at most.
pub const MAX_PERIODS: u64 = 200_000;

/// Periods the `rrule` crate walks without an occurrence before it gives up: what a look
/// at a rule that finds nothing more costs.
const GIVE_UP_PERIODS: u64 = 100_000;

/// Periods one look over a calendar may search, all its events together (about 20
/// rules that never occur: a fraction of a second).
pub const LOOK_BUDGET: u64 = 2_000_000;

/// What a look over many events may still search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    left: u64,
    /// Events not searched: the budget was spent before their turn.
    pub not_searched: usize,
}

impl Budget {
    pub fn new(periods: u64) -> Self {
        Self {
            left: periods,
            not_searched: 0,
        }
    }

    /// The budget of one look over a calendar ([`LOOK_BUDGET`]).
    pub fn look() -> Self {
        Self::new(LOOK_BUDGET)
    }

    /// Whether an event may still be searched; counts one that may not.
    fn take_turn(&mut self) -> bool {
        let open = self.left > 0;
        self.not_searched += usize::from(!open);
        open
    }

    fn spend(&mut self, periods: u64) {
        self.left = self.left.saturating_sub(periods);
    }
}

impl Default for Budget {
    fn default() -> Self {
        Self::look()
    }
}

/// What a bounded search found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    /// The occurrences in the window, oldest first.
    pub dates: Vec<DateTime<Utc>>,
    /// The search stopped at its bound before the end of the window: the rule finds
    /// nothing (more) within [`MAX_PERIODS`] of its start.
    pub bounded: bool,
}

/// How an event repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recurrence {
    None,
    Daily,
    Weekly,
    /// An RFC 5545 RRULE value (`FREQ=MONTHLY;BYMONTHDAY=31`), as written.
    Rule(String),
}

impl Recurrence {
    /// `none` (or nothing), `daily`, `weekly`, else an RRULE (a leading `RRULE:` dropped).
    pub fn parse(s: Option<&str>) -> Self {
        let s = s.map(str::trim).unwrap_or_default();
        match s.to_ascii_lowercase().as_str() {
            "" | "none" => Recurrence::None,
            "daily" => Recurrence::Daily,
            "weekly" => Recurrence::Weekly,
            _ => {
                let rule = s
                    .get(..6)
                    .filter(|p| p.eq_ignore_ascii_case("RRULE:"))
                    .and_then(|_| s.get(6..))
                    .unwrap_or(s);
                Recurrence::Rule(rule.to_string())
            }
        }
    }

    /// As a reader would say it.
    pub fn label(&self) -> &str {
        match self {
            Recurrence::None => "once",
            Recurrence::Daily => "daily",
            Recurrence::Weekly => "weekly",
            Recurrence::Rule(rule) => rule,
        }
    }

    /// The rule set starting at `at` (`None`: it does not repeat), or why the rule is not
    /// one.
    pub fn rule_set(&self, at: DateTime<Utc>) -> Result<Option<RRuleSet>, String> {
        let text = match self {
            Recurrence::None => return Ok(None),
            Recurrence::Daily => "FREQ=DAILY",
            Recurrence::Weekly => "FREQ=WEEKLY",
            Recurrence::Rule(rule) => rule,
        };
        let rule: RRule<Unvalidated> = text.parse().map_err(|e| format!("{e}"))?;
        rule.build(at.with_timezone(&Tz::UTC))
            .map(Some)
            .map_err(|e| format!("{e}"))
    }
}

/// The length of one period of `rule` (its frequency times its interval) in seconds, at
/// its shortest (a month of 28 days): periods are never undercounted.
fn period_s(rule: &RRule) -> i64 {
    let unit: i64 = match rule.get_freq() {
        Frequency::Yearly => 365 * 86_400,
        Frequency::Monthly => 28 * 86_400,
        Frequency::Weekly => 7 * 86_400,
        Frequency::Daily => 86_400,
        Frequency::Hourly => 3_600,
        Frequency::Minutely => 60,
        Frequency::Secondly => 1,
    };
    unit * i64::from(rule.get_interval().max(1))
}

/// The occurrences of `set` in `from..=to`, at most `limit`, oldest first, searched at
/// most [`MAX_PERIODS`] periods past its start and paid for from `budget`; `None` when
/// the budget was spent before (the event is not searched).
pub fn search(
    set: &RRuleSet,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    limit: usize,
    budget: &mut Budget,
) -> Option<Found> {
    if !budget.take_turn() {
        return None;
    }
    let rule = set.get_rrule().first();
    let period = rule.map_or(1, period_s).max(1);
    let count = rule.and_then(RRule::get_count).map(u64::from);
    let until = rule
        .and_then(RRule::get_until)
        .map(|u| u.with_timezone(&Utc));
    let start = set.get_dt_start().with_timezone(&Utc);
    let periods = |a: DateTime<Utc>, b: DateTime<Utc>| {
        u64::try_from((b - a).num_seconds() / period).unwrap_or(0)
    };
    let mut found = Found::default();
    let mut spent = 0u64;
    let mut seen = 0u64;
    let mut last = start;
    let mut dates = set.clone().limit().into_iter();
    while found.dates.len() < limit {
        let Some(d) = dates.next() else {
            // Its COUNT reached or its UNTIL passed, it ended; else the crate gave up
            // after walking its limit of periods without an occurrence.
            let ended = count.is_some_and(|c| seen >= c)
                || until.is_some_and(|u| last + TimeDelta::seconds(period) > u);
            if !ended {
                spent += GIVE_UP_PERIODS;
                found.bounded = true;
            }
            break;
        };
        let d = d.with_timezone(&Utc);
        seen += 1;
        spent += periods(last, d).min(GIVE_UP_PERIODS) + 1;
        last = d;
        if d > to {
            break;
        }
        if periods(start, d) > MAX_PERIODS {
            found.bounded = true;
            break;
        }
        if d >= from {
            found.dates.push(d);
        }
    }
    budget.spend(spent);
    Some(found)
}

/// The occurrences of `set` in `from..=to`, at most `limit`, oldest first (one event's
/// [`search`], with a look's budget of its own).
pub fn occurrences(
    set: &RRuleSet,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    limit: usize,
) -> Vec<DateTime<Utc>> {
    search(set, from, to, limit, &mut Budget::look())
        .map(|f| f.dates)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::time::parse_time;

    fn at(s: &str) -> DateTime<Utc> {
        parse_time(s).unwrap()
    }

    fn expand(rule: &str, start: &str, from: &str, to: &str) -> Vec<String> {
        let set = Recurrence::parse(Some(rule))
            .rule_set(at(start))
            .unwrap()
            .unwrap();
        occurrences(&set, at(from), at(to), 50)
            .into_iter()
            .map(|d| d.format("%Y-%m-%d %H:%M").to_string())
            .collect()
    }

    #[test]
    fn words_and_rules() {
        assert_eq!(Recurrence::parse(None), Recurrence::None);
        assert_eq!(Recurrence::parse(Some("None")), Recurrence::None);
        assert_eq!(Recurrence::parse(Some("Daily")), Recurrence::Daily);
        assert_eq!(
            Recurrence::parse(Some("rrule:FREQ=MONTHLY")),
            Recurrence::Rule("FREQ=MONTHLY".into())
        );
        assert!(
            Recurrence::parse(Some("every full moon"))
                .rule_set(at("2026-11-22T10:00:00Z"))
                .is_err()
        );
        assert_eq!(
            Recurrence::None.rule_set(at("2026-11-22T10:00:00Z")),
            Ok(None)
        );
    }

    #[test]
    fn daily_weekly_and_across_month_ends() {
        assert_eq!(
            expand(
                "daily",
                "2026-11-29T18:00:00Z",
                "2026-11-30T00:00:00Z",
                "2026-12-02T18:00:00Z"
            ),
            ["2026-11-30 18:00", "2026-12-01 18:00", "2026-12-02 18:00"]
        );
        assert_eq!(
            expand(
                "weekly",
                "2026-11-24T09:00:00Z",
                "2026-11-24T09:00:00Z",
                "2026-12-09T00:00:00Z"
            ),
            ["2026-11-24 09:00", "2026-12-01 09:00", "2026-12-08 09:00"]
        );
        // The 31st: months without one have no occurrence (RFC 5545).
        assert_eq!(
            expand(
                "FREQ=MONTHLY;BYMONTHDAY=31",
                "2026-10-31T12:00:00Z",
                "2026-10-01T00:00:00Z",
                "2027-04-01T00:00:00Z"
            ),
            [
                "2026-10-31 12:00",
                "2026-12-31 12:00",
                "2027-01-31 12:00",
                "2027-03-31 12:00"
            ]
        );
        // The last day of each month, February of a leap year included.
        assert_eq!(
            expand(
                "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=4",
                "2028-01-31T08:00:00Z",
                "2028-01-01T00:00:00Z",
                "2029-01-01T00:00:00Z"
            ),
            [
                "2028-01-31 08:00",
                "2028-02-29 08:00",
                "2028-03-31 08:00",
                "2028-04-30 08:00"
            ]
        );
    }

    #[test]
    fn expansion_is_bounded() {
        // Every second since a year ago: the window is past what may be generated.
        let set = Recurrence::parse(Some("FREQ=SECONDLY"))
            .rule_set(at("2025-11-22T00:00:00Z"))
            .unwrap()
            .unwrap();
        assert!(
            occurrences(
                &set,
                at("2026-11-22T00:00:00Z"),
                at("2026-11-23T00:00:00Z"),
                10
            )
            .is_empty()
        );
        let near = occurrences(
            &set,
            at("2025-11-22T00:00:10Z"),
            at("2026-11-23T00:00:00Z"),
            3,
        );
        assert_eq!(near.len(), 3);
    }

    #[test]
    fn a_rule_that_never_occurs_is_bounded_and_a_look_has_a_budget() {
        let never = Recurrence::parse(Some("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"))
            .rule_set(at("2026-11-22T00:00:00Z"))
            .unwrap()
            .unwrap();
        let now = at("2026-11-23T00:00:00Z");
        let found = search(
            &never,
            now,
            DateTime::<Utc>::MAX_UTC,
            1,
            &mut Budget::look(),
        );
        assert_eq!(
            found,
            Some(Found {
                dates: Vec::new(),
                bounded: true
            })
        );
        // One look over a thousand of them searches a few and counts the rest.
        let started = std::time::Instant::now();
        let mut budget = Budget::look();
        let searched = (0..1000)
            .filter(|_| search(&never, now, DateTime::<Utc>::MAX_UTC, 1, &mut budget).is_some())
            .count();
        assert!((1..=25).contains(&searched), "{searched}");
        assert_eq!(budget.not_searched, 1000 - searched);
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
        // A rule that ended is over, not bounded; an hourly rule from long ago is bounded.
        let ended = Recurrence::parse(Some("FREQ=DAILY;COUNT=3"))
            .rule_set(at("2026-01-01T00:00:00Z"))
            .unwrap()
            .unwrap();
        let found = search(
            &ended,
            now,
            DateTime::<Utc>::MAX_UTC,
            1,
            &mut Budget::look(),
        );
        assert_eq!(found, Some(Found::default()));
        let hourly = Recurrence::parse(Some("FREQ=HOURLY"))
            .rule_set(at("1990-01-01T00:00:00Z"))
            .unwrap()
            .unwrap();
        let found = search(
            &hourly,
            now,
            DateTime::<Utc>::MAX_UTC,
            1,
            &mut Budget::look(),
        );
        assert!(found.is_some_and(|f| f.bounded && f.dates.is_empty()));
    }
}
