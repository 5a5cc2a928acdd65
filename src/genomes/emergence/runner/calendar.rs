//! Calendar events as the genome keeps them, and their agenda. Recurrences (none, daily,
//! weekly, an RFC 5545 RRULE) are the memory model's ([`Recurrence`]), expanded by the
//! `rrule` crate from the event's time and bounded, so month ends, leap days and `BYxxx`
//! parts follow the RFC: a monthly event on the 31st skips the months without one.

use chrono::{DateTime, Utc};

pub use crate::genomes::emergence::memory::recurrence::Recurrence;
use crate::genomes::emergence::memory::recurrence::{Budget, search};

/// `text` as a recurrence of an event at `at`, or why it is not one.
pub fn recurrence(text: &str, at: DateTime<Utc>) -> Result<Recurrence, String> {
    let r = Recurrence::parse(Some(text));
    r.rule_set(at)
        .map(|_| r)
        .map_err(|e| format!("not a recurrence (none, daily, weekly or an RFC 5545 RRULE): {e}"))
}

/// A calendar event.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub id: String,
    pub at: DateTime<Utc>,
    pub location: String,
    pub description: String,
    pub recurrence: Recurrence,
}

impl Event {
    /// Its occurrences from `from` to `to` (both included), `limit` at most, in order.
    pub fn occurrences(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        limit: u16,
    ) -> Vec<DateTime<Utc>> {
        self.search(from, to, limit, &mut Budget::look())
    }

    /// [`Event::occurrences`], paid for from `budget` (none once it is spent).
    pub fn search(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        limit: u16,
        budget: &mut Budget,
    ) -> Vec<DateTime<Utc>> {
        if to < from || limit == 0 {
            return Vec::new();
        }
        match self.recurrence.rule_set(self.at) {
            Ok(Some(set)) => search(&set, from, to, usize::from(limit), budget)
                .map(|found| found.dates)
                .unwrap_or_default(),
            // A rule that does not build (written by hand) is its first time only.
            Ok(None) | Err(_) => Some(self.at)
                .filter(|d| *d >= from && *d <= to)
                .into_iter()
                .collect(),
        }
    }
}

/// The occurrences of `events` after `from` up to `to` (included), soonest first, in one
/// bounded look (events past its budget are left out).
pub fn agenda<'a>(
    events: impl Iterator<Item = &'a Event>,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    limit: u16,
) -> Vec<(DateTime<Utc>, &'a Event)> {
    let mut budget = Budget::look();
    let mut all: Vec<(DateTime<Utc>, &Event)> = events
        .flat_map(|e| {
            e.search(from, to, limit, &mut budget)
                .into_iter()
                .filter(move |d| *d > from)
                .map(move |d| (d, e))
        })
        .collect();
    all.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.id.cmp(&b.1.id)));
    all.truncate(usize::from(limit));
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeDelta, TimeZone};

    fn at(y: i32, m: u32, d: u32, h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, h, 0, 0).unwrap()
    }

    fn event(at: DateTime<Utc>, recurrence: &str) -> Event {
        Event {
            id: "e1".into(),
            at,
            location: String::new(),
            description: "x".into(),
            recurrence: super::recurrence(recurrence, at).unwrap(),
        }
    }

    #[test]
    fn monthly_on_the_31st_skips_the_short_months() {
        let e = event(at(2026, 1, 31, 9), "FREQ=MONTHLY");
        let days: Vec<String> = e
            .occurrences(at(2026, 1, 1, 0), at(2026, 8, 1, 0), 20)
            .iter()
            .map(|d| d.format("%m-%d").to_string())
            .collect();
        assert_eq!(days, ["01-31", "03-31", "05-31", "07-31"]);
        // The same with the rule spelled out, RRULE: prefix and all.
        let e = event(at(2026, 1, 31, 9), "RRULE:FREQ=MONTHLY;BYMONTHDAY=31");
        assert!(
            e.occurrences(at(2026, 2, 1, 0), at(2026, 3, 30, 0), 5)
                .is_empty()
        );
    }

    #[test]
    fn weekly_and_daily_cross_month_and_year_ends() {
        let e = event(at(2026, 1, 29, 18), "weekly");
        let next = e.occurrences(at(2026, 1, 30, 0), at(2026, 2, 28, 0), 10);
        assert_eq!(next[0], at(2026, 2, 5, 18));
        assert_eq!(next.len(), 4);
        let d = event(at(2026, 12, 31, 23), "daily");
        assert_eq!(
            d.occurrences(at(2027, 1, 1, 0), at(2027, 1, 2, 0), 5),
            [at(2027, 1, 1, 23)]
        );
    }

    #[test]
    fn a_leap_day_recurs_every_four_years() {
        let e = event(at(2024, 2, 29, 12), "FREQ=YEARLY");
        let years: Vec<i32> = e
            .occurrences(at(2024, 3, 1, 0), at(2033, 1, 1, 0), 5)
            .iter()
            .map(chrono::Datelike::year)
            .collect();
        assert_eq!(years, [2028, 2032]);
    }

    #[test]
    fn bad_rules_are_refused_and_none_happens_once() {
        let t = at(2026, 3, 1, 9);
        assert!(super::recurrence("FREQ=SOMETIMES", t).is_err());
        assert!(super::recurrence("every other tuesday", t).is_err());
        let once = event(t, "none");
        assert_eq!(once.occurrences(t - TimeDelta::days(1), t, 5), [t]);
        assert!(
            once.occurrences(t + TimeDelta::seconds(1), t + TimeDelta::days(9), 5)
                .is_empty()
        );
    }

    #[test]
    fn the_agenda_is_soonest_first_after_from() {
        let a = event(at(2026, 3, 1, 9), "daily");
        let mut b = event(at(2026, 3, 1, 8), "none");
        b.id = "e2".into();
        let got = agenda(
            [&a, &b].into_iter(),
            at(2026, 3, 1, 8),
            at(2026, 3, 3, 0),
            10,
        );
        let ids: Vec<(u32, &str)> = got
            .iter()
            .map(|(d, e)| (chrono::Datelike::day(d), e.id.as_str()))
            .collect();
        // b at 08:00 is not after `from`.
        assert_eq!(ids, [(1, "e1"), (2, "e1")]);
    }
}
