//! `.sys/subconscious.jsonl`, as `genomes/wonders/src/subconscious.ts` writes it at
//! 815f9fd: `{"t", "step", ...}` with step `wonder {wonders: [{wonder, query}], result?}`,
//! `search {queries, hits: [{query, wonder, matchCount, matches}], missedQueries}`,
//! `prepare {candidateCount, surfaced: string | null}`, `skip {reason}`. Unknown steps
//! pass through.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::memory::json::{LineError, parse_line};
use crate::memory::recent::Recent;

/// Steps kept in memory (the newest); all are counted.
const KEPT: usize = 500;

/// One search hit: the thoughts a query found.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Hit {
    #[serde(default)]
    pub query: String,
    #[serde(default)]
    pub wonder: String,
    #[serde(default, rename = "matchCount")]
    pub match_count: u64,
    #[serde(default)]
    pub matches: Vec<String>,
}

/// A hypothesis and the query it searches with.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Wonder {
    #[serde(default)]
    pub wonder: String,
    #[serde(default)]
    pub query: String,
}

/// One line of the file.
#[derive(Debug, Clone, PartialEq)]
pub enum SubconsciousStep {
    Wonder {
        wonders: Vec<Wonder>,
    },
    Search {
        hits: Vec<Hit>,
        missed: Vec<String>,
    },
    Prepare {
        candidates: u64,
        surfaced: Option<String>,
    },
    Skip {
        reason: String,
    },
    Other(String),
}

#[derive(Debug, Deserialize)]
struct Line {
    #[serde(default)]
    t: Option<String>,
    #[serde(default)]
    step: String,
    #[serde(default)]
    wonders: Vec<Wonder>,
    #[serde(default)]
    hits: Vec<Hit>,
    #[serde(default, rename = "missedQueries")]
    missed_queries: Vec<String>,
    #[serde(default, rename = "candidateCount")]
    candidate_count: u64,
    #[serde(default)]
    surfaced: Option<String>,
    #[serde(default)]
    reason: Option<String>,
}

/// The subconscious, folded.
#[derive(Debug, Clone)]
pub struct Subconscious {
    /// The newest steps, with their time and line number.
    pub kept: Recent<(Option<DateTime<Utc>>, u64, SubconsciousStep)>,
    pub steps: u64,
    pub wonders: u64,
    /// Wonder steps whose answer held no hypotheses.
    pub no_hypotheses: u64,
    pub searches: u64,
    pub searches_with_hits: u64,
    pub prepares: u64,
    /// Prepare steps that surfaced a memory, and that surfaced nothing.
    pub surfaced: u64,
    pub nothing: u64,
    pub skips: u64,
    pub bad_lines: u64,
    pub last_t: Option<DateTime<Utc>>,
}

impl Default for Subconscious {
    fn default() -> Self {
        Self {
            kept: Recent::new(KEPT),
            steps: 0,
            wonders: 0,
            no_hypotheses: 0,
            searches: 0,
            searches_with_hits: 0,
            prepares: 0,
            surfaced: 0,
            nothing: 0,
            skips: 0,
            bad_lines: 0,
            last_t: None,
        }
    }
}

impl Subconscious {
    /// Folds line `line_no` (0-based).
    pub fn push(&mut self, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        let line: Line = match parse_line(bytes) {
            Ok(line) => line,
            Err(e) => {
                self.bad_lines += 1;
                return Err(e);
            }
        };
        let t = line.t.as_deref().and_then(crate::memory::time::parse_time);
        self.last_t = self.last_t.max(t);
        self.steps += 1;
        let step = match line.step.as_str() {
            "wonder" => {
                self.wonders += 1;
                self.no_hypotheses += u64::from(line.wonders.is_empty());
                SubconsciousStep::Wonder {
                    wonders: line.wonders,
                }
            }
            "search" => {
                self.searches += 1;
                self.searches_with_hits += u64::from(!line.hits.is_empty());
                SubconsciousStep::Search {
                    hits: line.hits,
                    missed: line.missed_queries,
                }
            }
            "prepare" => {
                self.prepares += 1;
                let surfaced = line.surfaced.filter(|s| !s.trim().is_empty());
                self.surfaced += u64::from(surfaced.is_some());
                self.nothing += u64::from(surfaced.is_none());
                SubconsciousStep::Prepare {
                    candidates: line.candidate_count,
                    surfaced,
                }
            }
            "skip" => {
                self.skips += 1;
                SubconsciousStep::Skip {
                    reason: line.reason.unwrap_or_default(),
                }
            }
            other => SubconsciousStep::Other(other.to_string()),
        };
        self.kept.push((t, line_no, step));
        Ok(())
    }

    /// What `inspect --json` gives of it.
    pub fn figures(&self) -> Value {
        json!({"subconscious": {
            "steps": self.steps,
            "wonder": self.wonders,
            "no_hypotheses": self.no_hypotheses,
            "search": self.searches,
            "search_with_hits": self.searches_with_hits,
            "prepare": self.prepares,
            "surfaced": self.surfaced,
            "nothing_surfaced": self.nothing,
            "skip": self.skips,
            "bad_lines": self.bad_lines,
        }})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_is_counted_and_a_bad_line_is_one() {
        let mut s = Subconscious::default();
        let lines = [
            r#"{"t":"2026-11-26T22:53:48.793Z","step":"wonder","wonders":[{"wonder":"I wonder","query":"load"}]}"#,
            r#"{"t":"2026-11-26T22:53:48.800Z","step":"wonder","wonders":[],"result":"no_hypotheses"}"#,
            r#"{"t":"2026-11-26T22:53:48.837Z","step":"search","queries":["load"],"hits":[{"query":"load","wonder":"I wonder","matchCount":1,"matches":["a thought"]}],"missedQueries":[]}"#,
            r#"{"t":"2026-11-26T22:53:49.000Z","step":"prepare","candidateCount":1,"surfaced":"a memory"}"#,
            r#"{"t":"2026-11-26T22:53:50.000Z","step":"prepare","candidateCount":1,"surfaced":null}"#,
            r#"{"t":"2026-11-26T22:53:51.000Z","step":"skip","reason":"no_past_events"}"#,
            r#"{"t":"2026-11-26T22:53:52.000Z","step":"dream"}"#,
        ];
        for (i, line) in lines.iter().enumerate() {
            s.push(i as u64, line.as_bytes()).unwrap();
        }
        assert!(s.push(7, b"{not json").is_err());
        assert_eq!(
            (
                s.steps,
                s.wonders,
                s.no_hypotheses,
                s.searches,
                s.searches_with_hits
            ),
            (7, 2, 1, 1, 1)
        );
        assert_eq!(
            (s.prepares, s.surfaced, s.nothing, s.skips, s.bad_lines),
            (2, 1, 1, 1, 1)
        );
        assert_eq!(s.kept.as_slice().len(), 7);
        assert!(matches!(
            &s.kept.as_slice()[2].2,
            SubconsciousStep::Search { hits, .. } if hits[0].match_count == 1
        ));
    }
}
