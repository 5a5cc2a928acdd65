//! `.self/calendar.jsonl`: the creature's calendar: events at a time and place, one-off or
//! recurring (daily, weekly, an RFC 5545 RRULE), removed by its own tool call. Every look
//! for occurrences is bounded ([`super::recurrence`]): per event, and per look over the
//! whole calendar; what the bounds leave unknown is said, never searched for longer.

use chrono::{DateTime, Utc};
use rrule::RRuleSet;

use super::lines::LineCounts;
use super::recurrence::{Budget, Found, Recurrence, search};
use crate::memory::json::LineError;
use crate::memory::keyed::Keyed;
use crate::memory::lenient::{key, lenient_records, read, text};
use crate::memory::op_line::OpRecord;
use crate::memory::time::parse_time;

lenient_records! {
    /// `add`: an event.
    #[op = "add"]
    pub struct CalendarAdd {
        id: String,
        /// Its (first) time.
        at: String,
        location: String,
        description: String,
        /// `none`, `daily`, `weekly` or an RFC 5545 RRULE.
        recurrence: String,
    }

    /// `remove`: an event cancelled (every occurrence).
    #[op = "remove"]
    pub struct CalendarRemove {
        id: String,
    }
}

/// Events kept (the newest).
pub const KEPT_EVENTS: usize = 10_000;

/// A calendar event as it stands now.
#[derive(Debug, Clone)]
pub struct CalendarEvent {
    pub id: String,
    pub t: Option<DateTime<Utc>>,
    /// Its (first) time.
    pub at: DateTime<Utc>,
    pub location: Option<String>,
    pub description: String,
    pub recurrence: Recurrence,
    /// Why the recurrence is not a rule (the event is then a one-off at `at`).
    pub recurrence_error: Option<String>,
    rules: Option<RRuleSet>,
    pub line: u64,
}

impl CalendarEvent {
    /// Its occurrences in `from..=to`, at most `limit`, oldest first, paid for from
    /// `budget` (`None`: it was spent, the event is not searched).
    pub fn search(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        limit: usize,
        budget: &mut Budget,
    ) -> Option<Found> {
        match &self.rules {
            Some(set) => search(set, from, to, limit, budget),
            None => Some(Found {
                dates: Some(self.at)
                    .filter(|at| (from..=to).contains(at) && limit > 0)
                    .into_iter()
                    .collect(),
                bounded: false,
            }),
        }
    }

    /// Its occurrences in `from..=to`, at most `limit`, oldest first (searched within the
    /// bounds of one look).
    pub fn occurrences(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        limit: usize,
    ) -> Vec<DateTime<Utc>> {
        self.search(from, to, limit, &mut Budget::look())
            .map(|f| f.dates)
            .unwrap_or_default()
    }

    /// Its first occurrence at or after `now`, paid for from `budget`.
    pub fn next(&self, now: DateTime<Utc>, budget: &mut Budget) -> Next {
        match self.search(now, DateTime::<Utc>::MAX_UTC, 1, budget) {
            None => Next::NotSearched,
            Some(found) => match found.dates.first() {
                Some(at) => Next::At(*at),
                None if found.bounded => Next::NotWithinBound,
                None => Next::Past,
            },
        }
    }

    /// Its first occurrence at or after `now` (searched within the bounds of one look).
    pub fn next_after(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        match self.next(now, &mut Budget::look()) {
            Next::At(at) => Some(at),
            _ => None,
        }
    }

    pub fn repeats(&self) -> bool {
        self.rules.is_some()
    }
}

/// An event's next occurrence, as far as a bounded look can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    At(DateTime<Utc>),
    /// It does not occur again: a one-off in the past, or its rule has ended.
    Past,
    /// Its rule finds nothing within [`super::recurrence::MAX_PERIODS`] of its start.
    NotWithinBound,
    /// The look's budget was spent before its turn.
    NotSearched,
}

impl Next {
    /// The time, when one was found.
    pub fn at(&self) -> Option<DateTime<Utc>> {
        match self {
            Next::At(at) => Some(*at),
            _ => None,
        }
    }

    /// As a reader would say it, after the time when there is one.
    pub fn label(&self) -> &'static str {
        match self {
            Next::At(_) => "next",
            Next::Past => "past",
            Next::NotWithinBound => "its rule finds no occurrence within the search bound",
            Next::NotSearched => "not searched (this look's search budget was spent)",
        }
    }
}

/// One occurrence of an event.
#[derive(Debug, Clone, Copy)]
pub struct Occurrence<'a> {
    pub at: DateTime<Utc>,
    pub event: &'a CalendarEvent,
}

/// What one bounded look over the calendar found.
#[derive(Debug, Clone, Default)]
pub struct Look<T> {
    pub found: T,
    /// Events whose rule finds nothing (more) within the search bound.
    pub not_within_bound: usize,
    /// Events left unsearched when the look's budget was spent.
    pub not_searched: usize,
}

/// The calendar folded.
#[derive(Debug, Clone)]
pub struct Calendar {
    by_id: Keyed<CalendarEvent>,
    pub added: u64,
    pub removed: u64,
    pub counts: LineCounts,
}

impl Default for Calendar {
    fn default() -> Self {
        Self {
            by_id: Keyed::new(KEPT_EVENTS),
            added: 0,
            removed: 0,
            counts: LineCounts::default(),
        }
    }
}

impl Calendar {
    /// Folds line `line_no` (0-based): `add {id, at, location, description, recurrence}`,
    /// `remove {id}`; other ops pass through. An event without a readable `at` is a bad
    /// line.
    pub fn push(&mut self, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        self.counts.fold(bytes, |line| {
            match line.op.as_str() {
                CalendarAdd::OP => {
                    let add: CalendarAdd = read(&line.fields);
                    let id = key(add.id, "id")?;
                    let at = add
                        .at
                        .and_then(|a| parse_time(&a))
                        .ok_or(LineError::Missing("at"))?;
                    let recurrence = Recurrence::parse(text(add.recurrence).as_deref());
                    let (rules, recurrence_error) = match recurrence.rule_set(at) {
                        Ok(rules) => (rules, None),
                        Err(e) => (None, Some(e)),
                    };
                    self.added += 1;
                    let event = CalendarEvent {
                        id: id.clone(),
                        t: line.t,
                        at,
                        location: text(add.location),
                        description: add.description.unwrap_or_default(),
                        recurrence,
                        recurrence_error,
                        rules,
                        line: line_no,
                    };
                    self.by_id.insert(id, event);
                }
                CalendarRemove::OP => {
                    let remove: CalendarRemove = read(&line.fields);
                    let held = self.by_id.remove(&key(remove.id, "id")?).is_some();
                    self.removed += u64::from(held);
                }
                _ => {}
            }
            Ok(())
        })
    }

    /// Every event held, in the order added.
    pub fn events(&self) -> impl DoubleEndedIterator<Item = &CalendarEvent> + ExactSizeIterator {
        self.by_id.iter()
    }

    pub fn get(&self, id: &str) -> Option<&CalendarEvent> {
        self.by_id.get(id)
    }

    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// The next occurrence of any event at or after `now`, in one bounded look.
    pub fn next_after(&self, now: DateTime<Utc>) -> Look<Option<Occurrence<'_>>> {
        let mut look: Look<Option<Occurrence<'_>>> = Look::default();
        let mut budget = Budget::look();
        for event in self.by_id.iter() {
            match event.next(now, &mut budget) {
                Next::At(at) => {
                    if look.found.is_none_or(|o: Occurrence<'_>| at < o.at) {
                        look.found = Some(Occurrence { at, event });
                    }
                }
                Next::Past => {}
                Next::NotWithinBound => look.not_within_bound += 1,
                Next::NotSearched => {}
            }
        }
        look.not_searched = budget.not_searched;
        look
    }

    /// Every event held, in the order added, with its next occurrence at or after `now`,
    /// in one bounded look.
    pub fn with_next(&self, now: DateTime<Utc>) -> Vec<(&CalendarEvent, Next)> {
        let mut budget = Budget::look();
        self.by_id
            .iter()
            .map(|event| (event, event.next(now, &mut budget)))
            .collect()
    }

    /// The occurrences of every event in `from..=to` by time, at most `limit` (and at most
    /// `limit` per event), in one bounded look.
    pub fn agenda(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        limit: usize,
    ) -> Look<Vec<Occurrence<'_>>> {
        let mut look: Look<Vec<Occurrence<'_>>> = Look::default();
        let mut budget = Budget::look();
        for event in self.by_id.iter() {
            let Some(found) = event.search(from, to, limit, &mut budget) else {
                continue;
            };
            // Nothing in the window and the bound reached: unknown, not empty.
            look.not_within_bound += usize::from(found.bounded && found.dates.is_empty());
            look.found
                .extend(found.dates.into_iter().map(|at| Occurrence { at, event }));
        }
        look.not_searched = budget.not_searched;
        look.found.sort_by_key(|o| o.at);
        look.found.truncate(limit);
        look
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        parse_time(s).unwrap()
    }

    fn calendar() -> Calendar {
        let mut c = Calendar::default();
        let lines = [
            r#"{"t":"2026-11-22T10:00:00Z","op":"add","id":"ev1","at":"2026-11-22T18:00:00Z","location":"the square","description":"meet Ada","recurrence":"none"}"#,
            r#"{"t":"2026-11-22T10:01:00Z","op":"add","id":"ev2","at":"2026-11-22T07:00:00Z","description":"morning walk","recurrence":"daily"}"#,
            r#"{"t":"2026-11-22T10:02:00Z","op":"add","id":"ev3","at":"2026-11-30T12:00:00Z","description":"month's end","recurrence":"FREQ=MONTHLY;BYMONTHDAY=-1"}"#,
            r#"{"t":"2026-11-22T10:03:00Z","op":"add","id":"ev4","at":"2026-11-23T12:00:00Z","description":"odd","recurrence":"whenever"}"#,
            r#"{"t":"2026-11-22T10:04:00Z","op":"add","id":"ev5","at":"2026-11-24T12:00:00Z","description":"cancelled"}"#,
            r#"{"t":"2026-11-22T10:05:00Z","op":"remove","id":"ev5"}"#,
            r#"{"op":"add","id":"ev6","at":"tomorrow"}"#,
        ];
        for (i, l) in lines.iter().enumerate() {
            let _ = c.push(i as u64, l.as_bytes());
        }
        c
    }

    #[test]
    fn events_removed_and_bad_times() {
        let c = calendar();
        assert_eq!(
            (c.len(), c.added, c.removed, c.counts.bad_lines),
            (4, 5, 1, 1)
        );
        let odd = c.get("ev4").unwrap();
        assert!(odd.recurrence_error.is_some() && !odd.repeats());
        assert!(c.get("ev2").unwrap().repeats());
    }

    #[test]
    fn the_next_event_and_the_agenda() {
        let c = calendar();
        let next = c.next_after(at("2026-11-22T17:00:00Z")).found.unwrap();
        assert_eq!(
            (next.event.id.as_str(), next.at),
            ("ev1", at("2026-11-22T18:00:00Z"))
        );
        let next = c.next_after(at("2026-11-22T18:00:01Z")).found.unwrap();
        assert_eq!(
            (next.event.id.as_str(), next.at),
            ("ev2", at("2026-11-23T07:00:00Z"))
        );
        let agenda: Vec<(String, String)> = c
            .agenda(at("2026-11-29T00:00:00Z"), at("2026-12-01T23:59:59Z"), 10)
            .found
            .into_iter()
            .map(|o| (o.event.id.clone(), o.at.format("%m-%d %H:%M").to_string()))
            .collect();
        let expected = [
            ("ev2", "11-29 07:00"),
            ("ev2", "11-30 07:00"),
            ("ev3", "11-30 12:00"),
            ("ev2", "12-01 07:00"),
        ];
        assert_eq!(
            agenda,
            expected.map(|(a, b)| (a.to_string(), b.to_string()))
        );
        assert_eq!(
            c.agenda(at("2026-11-22T00:00:00Z"), at("2026-12-31T00:00:00Z"), 3)
                .found
                .len(),
            3
        );
    }

    #[test]
    fn thousands_of_rules_that_never_occur_cost_one_bounded_look() {
        let mut c = calendar();
        // With the four events held, as many as a calendar keeps.
        for i in 0..(KEPT_EVENTS as u64 - 4) {
            let line = format!(
                r#"{{"op":"add","id":"never{i}","at":"2026-11-22T06:00:00Z","recurrence":"FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"}}"#
            );
            c.push(100 + i, line.as_bytes()).unwrap();
        }
        let now = at("2026-11-24T00:00:00Z");
        let started = std::time::Instant::now();
        let next = c.next_after(now);
        let agenda = c.agenda(now, at("2026-12-01T00:00:00Z"), 10);
        let listed = c.with_next(now);
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
        // The events before them are found; of the rest a few are searched (and found
        // to occur nowhere within the bound), the others said to be not searched.
        assert_eq!(next.found.map(|o| o.event.id.as_str()), Some("ev2"));
        assert!(next.not_within_bound >= 1 && next.not_searched > 9_000);
        assert_eq!(c.len(), KEPT_EVENTS);
        assert_eq!(next.not_within_bound + next.not_searched, KEPT_EVENTS - 4);
        assert!(agenda.found.iter().any(|o| o.event.id == "ev3"));
        assert_eq!(
            agenda.not_within_bound + agenda.not_searched,
            KEPT_EVENTS - 4
        );
        let said: Vec<Next> = listed.iter().map(|(_, n)| *n).collect();
        assert_eq!(said[0], Next::Past);
        assert!(said.contains(&Next::NotWithinBound));
        assert_eq!(said.last(), Some(&Next::NotSearched));
    }
}
