//! `.self/reflections.jsonl`: the creature's reflections (Generative Agents), each fired
//! when the cumulative importance of new journal entries reached the threshold.

use chrono::{DateTime, Utc};

use crate::memory::json::LineError;
use crate::memory::lenient::{lenient_records, read};
use crate::memory::op_line::{OpLine, OpRecord};
use crate::memory::recent::Recent;

/// The reflection threshold when no reflection names one (the seed's).
pub const DEFAULT_THRESHOLD: u64 = 150;
/// Reflections kept for the views (the newest).
pub const KEPT_REFLECTIONS: usize = 1_000;

lenient_records! {
    /// `reflect`: the questions asked and the journal entries holding the insights.
    #[op = "reflect"]
    pub struct Reflect {
        id: String,
        questions: Vec<String>,
        /// Journal ids of the insights.
        insights: Vec<String>,
        cumulative_importance: u64,
        threshold: u64,
    }
}

/// One reflection.
#[derive(Debug, Clone, PartialEq)]
pub struct Reflection {
    pub id: String,
    pub t: Option<DateTime<Utc>>,
    pub questions: Vec<String>,
    pub insights: Vec<String>,
    pub cumulative_importance: Option<u64>,
    pub threshold: Option<u64>,
    /// 0-based line number in the file.
    pub line: u64,
}

/// The reflections folded: the newest kept, every one counted.
#[derive(Debug, Clone)]
pub struct Reflections {
    recent: Recent<Reflection>,
    pub count: u64,
    pub lines: u64,
    pub bad_lines: u64,
    /// The time of the last `reflect` line (importance counts again from there).
    pub last_reflect_t: Option<DateTime<Utc>>,
    /// The threshold of the last `reflect` line that names one.
    pub threshold: Option<u64>,
    pub last_t: Option<DateTime<Utc>>,
}

impl Default for Reflections {
    fn default() -> Self {
        Self {
            recent: Recent::new(KEPT_REFLECTIONS),
            count: 0,
            lines: 0,
            bad_lines: 0,
            last_reflect_t: None,
            threshold: None,
            last_t: None,
        }
    }
}

impl Reflections {
    /// Folds line `line_no` (0-based); ops other than `reflect` pass through.
    pub fn push(&mut self, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        self.lines += 1;
        let line = OpLine::parse(bytes).and_then(|l| {
            if l.op == Reflect::OP {
                l.key("id")?;
            }
            Ok(l)
        });
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                self.bad_lines += 1;
                return Err(e);
            }
        };
        if line.t.is_some() {
            self.last_t = self.last_t.max(line.t);
        }
        if line.op != Reflect::OP {
            return Ok(());
        }
        let r: Reflect = read(&line.fields);
        self.count += 1;
        self.last_reflect_t = line.t;
        if r.threshold.is_some() {
            self.threshold = r.threshold;
        }
        self.recent.push(Reflection {
            id: r.id.unwrap_or_default(),
            t: line.t,
            questions: r.questions.unwrap_or_default(),
            insights: r.insights.unwrap_or_default(),
            cumulative_importance: r.cumulative_importance,
            threshold: r.threshold,
            line: line_no,
        });
        Ok(())
    }

    /// The newest reflections, oldest first.
    pub fn recent(&self) -> &[Reflection] {
        self.recent.as_slice()
    }

    /// The threshold the next reflection fires at.
    pub fn threshold(&self) -> u64 {
        self.threshold.unwrap_or(DEFAULT_THRESHOLD)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reflect_lines_and_the_threshold() {
        let mut r = Reflections::default();
        assert_eq!(r.threshold(), DEFAULT_THRESHOLD);
        r.push(0, br#"{"t":"2026-11-22T10:00:00Z","op":"reflect","id":"r1","questions":["What do I know about the tavern?"],"insights":["j31","j32"],"cumulative_importance":153,"threshold":150}"#).unwrap();
        r.push(
            1,
            br#"{"t":"2026-11-22T12:00:00Z","op":"reconsider","id":"r1"}"#,
        )
        .unwrap();
        assert!(r.push(2, br#"{"op":"reflect","questions":[]}"#).is_err());
        r.push(
            3,
            br#"{"t":"2026-11-22T13:00:00Z","op":"reflect","id":"r2","threshold":120}"#,
        )
        .unwrap();
        assert_eq!((r.count, r.lines, r.bad_lines), (2, 4, 1));
        assert_eq!(r.threshold(), 120);
        let first = &r.recent()[0];
        assert_eq!(first.insights, ["j31", "j32"]);
        assert_eq!(first.cumulative_importance, Some(153));
        assert_eq!(
            r.last_reflect_t.map(|t| t.to_rfc3339()),
            Some("2026-11-22T13:00:00+00:00".into())
        );
    }
}
