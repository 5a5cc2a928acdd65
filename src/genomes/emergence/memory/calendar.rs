//! `.self/calendar.jsonl`: the creature's calendar: events at a time and place, one-off or
//! recurring (daily, weekly, an RFC 5545 RRULE), removed by its own tool call.

use chrono::{DateTime, Utc};
use rrule::RRuleSet;

use super::lines::{LineCounts, text};
use super::recurrence::{Recurrence, occurrences};
use crate::memory::json::LineError;
use crate::memory::keyed::Keyed;
use crate::memory::time::parse_time;

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
    /// Its occurrences in `from..=to`, at most `limit`, oldest first.
    pub fn occurrences(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        limit: usize,
    ) -> Vec<DateTime<Utc>> {
        match &self.rules {
            Some(set) => occurrences(set, from, to, limit),
            None if (from..=to).contains(&self.at) && limit > 0 => vec![self.at],
            None => Vec::new(),
        }
    }

    /// Its first occurrence at or after `now` (looked for up to [`super::recurrence::MAX_STEPS`]
    /// occurrences from its start).
    pub fn next_after(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.occurrences(now, DateTime::<Utc>::MAX_UTC, 1)
            .into_iter()
            .next()
    }

    pub fn repeats(&self) -> bool {
        self.rules.is_some()
    }
}

/// One occurrence of an event.
#[derive(Debug, Clone, Copy)]
pub struct Occurrence<'a> {
    pub at: DateTime<Utc>,
    pub event: &'a CalendarEvent,
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
                "add" => {
                    let id = line.key("id")?;
                    let at = text(line, "at")
                        .and_then(|a| parse_time(&a))
                        .ok_or(LineError::Missing("at"))?;
                    let recurrence = Recurrence::parse(text(line, "recurrence").as_deref());
                    let (rules, recurrence_error) = match recurrence.rule_set(at) {
                        Ok(rules) => (rules, None),
                        Err(e) => (None, Some(e)),
                    };
                    self.added += 1;
                    let event = CalendarEvent {
                        id: id.clone(),
                        t: line.t,
                        at,
                        location: text(line, "location"),
                        description: text(line, "description").unwrap_or_default(),
                        recurrence,
                        recurrence_error,
                        rules,
                        line: line_no,
                    };
                    self.by_id.insert(id, event);
                }
                "remove" => {
                    let held = self.by_id.remove(&line.key("id")?).is_some();
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

    /// The next occurrence of any event at or after `now`.
    pub fn next_after(&self, now: DateTime<Utc>) -> Option<Occurrence<'_>> {
        self.by_id
            .iter()
            .filter_map(|event| event.next_after(now).map(|at| Occurrence { at, event }))
            .min_by_key(|o| o.at)
    }

    /// The occurrences of every event in `from..=to` by time, at most `limit` (and at most
    /// `limit` per event).
    pub fn agenda(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        limit: usize,
    ) -> Vec<Occurrence<'_>> {
        let mut all: Vec<Occurrence<'_>> = self
            .by_id
            .iter()
            .flat_map(|event| {
                event
                    .occurrences(from, to, limit)
                    .into_iter()
                    .map(move |at| Occurrence { at, event })
            })
            .collect();
        all.sort_by_key(|o| o.at);
        all.truncate(limit);
        all
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
        let next = c.next_after(at("2026-11-22T17:00:00Z")).unwrap();
        assert_eq!(
            (next.event.id.as_str(), next.at),
            ("ev1", at("2026-11-22T18:00:00Z"))
        );
        let next = c.next_after(at("2026-11-22T18:00:01Z")).unwrap();
        assert_eq!(
            (next.event.id.as_str(), next.at),
            ("ev2", at("2026-11-23T07:00:00Z"))
        );
        let agenda: Vec<(String, String)> = c
            .agenda(at("2026-11-29T00:00:00Z"), at("2026-12-01T23:59:59Z"), 10)
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
                .len(),
            3
        );
    }
}
