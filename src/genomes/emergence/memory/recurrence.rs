//! A calendar event's recurrence: none, daily, weekly, or an RFC 5545 RRULE, expanded by
//! the `rrule` crate from the event's time, always bounded.

use chrono::{DateTime, Utc};
use rrule::{RRule, RRuleSet, Tz, Unvalidated};

/// At most this many occurrences are generated from the start while looking for those in
/// a window (a rule far in the past, or every second, stays cheap).
pub const MAX_STEPS: usize = 100_000;

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

/// The occurrences of `set` in `from..=to`, at most `limit`, oldest first; at most
/// [`MAX_STEPS`] are generated from its start.
pub fn occurrences(
    set: &RRuleSet,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    limit: usize,
) -> Vec<DateTime<Utc>> {
    set.clone()
        .limit()
        .into_iter()
        .take(MAX_STEPS)
        .map(|d| d.with_timezone(&Utc))
        .skip_while(|d| *d < from)
        .take_while(|d| *d <= to)
        .take(limit)
        .collect()
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
}
