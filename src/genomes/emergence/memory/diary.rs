//! `.self/diary.jsonl`: the creature's diary, one entry per date (a later line for the
//! same date replaces it), with its mood and where it was.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};

use super::lines::LineCounts;
use crate::memory::json::LineError;
use crate::memory::lenient::{lenient_records, read, text};
use crate::memory::op_line::OpRecord;

lenient_records! {
    /// `entry`: the diary entry of a date (a later one for the date replaces it).
    #[op = "entry"]
    pub struct DiaryLine {
        /// YYYY-MM-DD.
        date: String,
        text: String,
        /// Written `null` when none.
        #[null]
        mood: String,
        /// Written `null` when none.
        #[null]
        location: String,
    }
}

/// Dates kept (the latest); a creature writes one a day.
pub const KEPT_DATES: usize = 20_000;

/// The entry of one date.
#[derive(Debug, Clone, PartialEq)]
pub struct DiaryDay {
    pub date: NaiveDate,
    pub t: Option<DateTime<Utc>>,
    pub text: String,
    pub mood: Option<String>,
    pub location: Option<String>,
    /// How many earlier lines for this date it replaced.
    pub rewrites: u64,
    pub line: u64,
}

/// The diary folded, by date.
#[derive(Debug, Clone, Default)]
pub struct Diary {
    by_date: BTreeMap<NaiveDate, DiaryDay>,
    /// Lines that replaced an earlier entry of their date.
    pub replaced: u64,
    pub counts: LineCounts,
}

impl Diary {
    /// Folds line `line_no` (0-based): `entry {date, text, mood, location}`; other ops
    /// pass through. A date that is not YYYY-MM-DD makes a bad line.
    pub fn push(&mut self, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        self.counts.fold(bytes, |line| {
            if line.op != DiaryLine::OP {
                return Ok(());
            }
            let entry: DiaryLine = read(&line.fields);
            let date = text(entry.date)
                .and_then(|d| NaiveDate::parse_from_str(&d, "%Y-%m-%d").ok())
                .ok_or(LineError::Missing("date"))?;
            let rewrites = match self.by_date.get(&date) {
                Some(old) => {
                    self.replaced += 1;
                    old.rewrites + 1
                }
                None => 0,
            };
            self.by_date.insert(
                date,
                DiaryDay {
                    date,
                    t: line.t,
                    text: entry.text.unwrap_or_default(),
                    mood: text(entry.mood),
                    location: text(entry.location),
                    rewrites,
                    line: line_no,
                },
            );
            if self.by_date.len() > KEPT_DATES {
                self.by_date.pop_first();
            }
            Ok(())
        })
    }

    /// Every date's entry, oldest first.
    pub fn days(&self) -> impl DoubleEndedIterator<Item = &DiaryDay> + ExactSizeIterator {
        self.by_date.values()
    }

    pub fn get(&self, date: NaiveDate) -> Option<&DiaryDay> {
        self.by_date.get(&date)
    }

    pub fn len(&self) -> usize {
        self.by_date.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_date.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_entry_per_date_the_later_line_wins() {
        let mut d = Diary::default();
        let lines = [
            r#"{"t":"2026-11-23T21:00:00Z","op":"entry","date":"2026-11-23","text":"second day","mood":"tired"}"#,
            r#"{"t":"2026-11-22T21:00:00Z","op":"entry","date":"2026-11-22","text":"first","mood":"hopeful","location":"the library"}"#,
            r#"{"t":"2026-11-22T22:00:00Z","op":"entry","date":"2026-11-22","text":"first, again","location":"home"}"#,
            r#"{"op":"entry","date":"22/11/2026","text":"?"}"#,
            r#"{"op":"entry","text":"no date"}"#,
            r#"{"op":"tear_out","date":"2026-11-22"}"#,
        ];
        let results: Vec<_> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| d.push(i as u64, l.as_bytes()))
            .collect();
        assert_eq!(results[3], Err(LineError::Missing("date")));
        assert!(results[4].is_err() && results[5].is_ok());
        let days: Vec<(String, &str)> = d
            .days()
            .map(|e| (e.date.to_string(), e.text.as_str()))
            .collect();
        assert_eq!(
            days,
            [
                ("2026-11-22".to_string(), "first, again"),
                ("2026-11-23".to_string(), "second day")
            ]
        );
        let first = d
            .get(NaiveDate::from_ymd_opt(2026, 11, 22).unwrap())
            .unwrap();
        assert_eq!(
            (first.mood.as_deref(), first.location.as_deref()),
            (None, Some("home"))
        );
        assert_eq!((first.rewrites, d.replaced, d.counts.bad_lines), (1, 1, 2));
    }
}
