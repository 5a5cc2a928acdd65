//! What every emergence file's fold counts: its lines, the bad ones, the latest time, and
//! the largest number in its ids (a writer's next id follows it).

use chrono::{DateTime, Utc};

use crate::memory::json::LineError;
use crate::memory::lenient::{Strings, lenient_records};
use crate::memory::op_line::OpLine;

lenient_records! {
    /// `archive` (long-term memories, dialogue lines): the ids self-care summarised into
    /// a summary, archived (kept, flagged).
    #[op = "archive"]
    pub struct Archive {
        ids: Strings,
        summary_id: String,
    }
}

/// The counts of one file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LineCounts {
    pub lines: u64,
    pub bad_lines: u64,
    pub last_t: Option<DateTime<Utc>>,
    /// The largest number after the prefix of an id seen (`m12` -> 12).
    pub max_number: u64,
}

impl LineCounts {
    /// Counts a line and reads its envelope, then `apply` folds it; an error from either
    /// makes it a bad line (and nothing of it is folded).
    pub fn fold(
        &mut self,
        bytes: &[u8],
        apply: impl FnOnce(&OpLine) -> Result<(), LineError>,
    ) -> Result<(), LineError> {
        self.lines += 1;
        let result = OpLine::parse(bytes).and_then(|line| {
            apply(&line)?;
            if line.t.is_some() {
                self.last_t = self.last_t.max(line.t);
            }
            if let Some(id) = line.fields.get("id").and_then(|v| v.as_str()) {
                self.max_number = self.max_number.max(id_number(id));
            }
            Ok(())
        });
        if result.is_err() {
            self.bad_lines += 1;
        }
        result
    }
}

/// The number at the end of an id (`sum12` -> 12; none -> 0).
pub fn id_number(id: &str) -> u64 {
    let digits = id.len() - id.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    id[id.len() - digits..].parse().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_bad_lines_times_and_id_numbers() {
        let mut c = LineCounts::default();
        c.fold(
            br#"{"t":"2026-11-22T10:00:00Z","op":"add","id":"m12"}"#,
            |_| Ok(()),
        )
        .unwrap();
        assert!(c.fold(b"nope", |_| Ok(())).is_err());
        assert!(
            c.fold(br#"{"t":"2026-11-23T10:00:00Z","op":"add"}"#, |_| Err(
                LineError::Missing("id")
            ))
            .is_err()
        );
        assert_eq!((c.lines, c.bad_lines), (3, 2));
        assert_eq!(c.max_number, 12);
        assert_eq!(
            c.last_t.map(|t| t.to_rfc3339()),
            Some("2026-11-22T10:00:00+00:00".into())
        );
        c.fold(br#"{"op":"add","id":"m3"}"#, |_| Ok(())).unwrap();
        assert_eq!(c.max_number, 12);
        assert_eq!(id_number("d0042"), 42);
        assert_eq!(id_number("a1b"), 0);
    }
}
