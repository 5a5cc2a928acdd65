//! The journal: entries written by the creature's tools (and by reflection and
//! compaction), their importance (heuristic at once, the model's later), and the
//! cumulative importance that triggers a reflection.

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::genomes::evennia::memory::journal::{ImportanceMethod, JournalAdd, REFLECTION_SOURCE};
use crate::memory::op_line::OpRecord;

/// One journal entry as the genome keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: String,
    pub t: DateTime<Utc>,
    pub text: String,
    pub tags: Vec<String>,
    pub source_type: String,
    pub source_trust: f64,
    pub source_entity: Option<String>,
    pub importance: u8,
    /// `heuristic` or `llm`.
    pub method: &'static str,
    pub synthesis: bool,
    pub consolidated: bool,
}

impl Entry {
    /// The `add` line of `.self/journal.jsonl`.
    pub fn add_line(&self) -> Value {
        JournalAdd {
            id: Some(self.id.clone()),
            text: Some(self.text.clone()),
            tags: Some(self.tags.clone()),
            source_type: Some(self.source_type.clone()),
            source_trust: Some(self.source_trust),
            source_entity: self.source_entity.clone(),
            importance: Some(u32::from(self.importance)),
            importance_method: Some(ImportanceMethod::named(self.method)),
            synthesis: Some(self.synthesis),
        }
        .line()
    }

    /// Counted toward a reflection: not a reflection's own insight, not a summary.
    pub fn counts_toward_reflection(&self) -> bool {
        self.source_type != REFLECTION_SOURCE && !self.synthesis
    }
}

/// Words that make an entry matter more (Generative Agents' poignancy, by rule of thumb).
const WEIGHTY: [&str; 16] = [
    "important",
    "must",
    "never",
    "always",
    "learned",
    "discovered",
    "error",
    "failed",
    "danger",
    "urgent",
    "promise",
    "secret",
    "love",
    "angry",
    "decided",
    "creator",
];

/// Importance at once, 1 to 10, before the model scores the entry: a base of 3, more for
/// weighty words, direct sources and detail.
pub fn heuristic_importance(text: &str, source_type: &str) -> u8 {
    let lower = text.to_lowercase();
    let weighty = WEIGHTY.iter().filter(|w| lower.contains(*w)).count() as i32;
    let detail = (text.chars().count() / 120).min(2) as i32;
    let source = match source_type {
        "direct" => 2,
        "reflection" => 3,
        _ => 0,
    };
    (3 + weighty.min(4) + detail + source).clamp(1, 10) as u8
}

/// The importance an entry carries, clamped to 1..=10 from whatever a tool or model said.
pub fn clamp_importance(v: i64) -> u8 {
    v.clamp(1, 10) as u8
}

/// `j7: 8` lines (also `- j7 = 8`, `j7 8`): the model's scores for the ids asked.
pub fn parse_scores(answer: &str, asked: &[String]) -> Vec<(String, u8)> {
    let mut out = Vec::new();
    for line in answer.lines() {
        let cleaned: String = line
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { ' ' })
            .collect();
        let mut words = cleaned.split_whitespace();
        let (Some(id), Some(score)) = (words.next(), words.next()) else {
            continue;
        };
        if !asked.iter().any(|a| a == id) || out.iter().any(|(i, _)| i == id) {
            continue;
        }
        if let Ok(n) = score.parse::<i64>() {
            out.push((id.to_string(), clamp_importance(n)));
        }
    }
    out
}

/// Sum of the importance of the entries that count, written after `since`.
pub fn cumulative_importance(entries: &[Entry], since: Option<DateTime<Utc>>) -> u32 {
    entries
        .iter()
        .filter(|e| e.counts_toward_reflection() && since.is_none_or(|s| e.t > s))
        .map(|e| u32::from(e.importance))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn entry(id: &str, importance: u8, source_type: &str) -> Entry {
        Entry {
            id: id.into(),
            t: Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap(),
            text: "x".into(),
            tags: vec![],
            source_type: source_type.into(),
            source_trust: 0.8,
            source_entity: None,
            importance,
            method: "heuristic",
            synthesis: false,
            consolidated: false,
        }
    }

    #[test]
    fn heuristic_importance_rises_with_weight_and_source() {
        let plain = heuristic_importance("looked at the garden", "observation");
        let weighty = heuristic_importance("I learned an important secret", "observation");
        let direct = heuristic_importance("looked at the garden", "direct");
        assert_eq!(plain, 3);
        assert!(weighty > plain);
        assert_eq!(direct, 5);
        assert!(heuristic_importance(&"important must never ".repeat(40), "reflection") <= 10);
    }

    #[test]
    fn scores_are_read_for_asked_ids_only() {
        let asked = vec!["j1".to_string(), "j2".to_string()];
        let s = parse_scores("j1: 8\n- j2 = 12\nj9: 3\nj1: 2\nnoise", &asked);
        assert_eq!(s, vec![("j1".into(), 8), ("j2".into(), 10)]);
    }

    #[test]
    fn reflections_and_summaries_do_not_count() {
        let mut s = entry("j3", 9, "observation");
        s.synthesis = true;
        let entries = vec![
            entry("j1", 5, "observation"),
            entry("j2", 9, "reflection"),
            s,
        ];
        assert_eq!(cumulative_importance(&entries, None), 5);
        let later = Utc.with_ymd_and_hms(2026, 3, 1, 11, 0, 0).unwrap();
        assert_eq!(cumulative_importance(&entries, Some(later)), 0);
    }
}
