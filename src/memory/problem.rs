//! Problems found while reading: counted and shown, never fatal.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Path relative to the creature root.
    pub file: String,
    /// 1-based line number, for line-oriented files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    pub what: String,
}

/// Problems kept per creature; beyond this they are only counted.
pub const MAX_KEPT: usize = 200;

#[derive(Debug, Clone, Default)]
pub struct Problems {
    kept: Vec<Problem>,
    dropped: u64,
}

impl Problems {
    /// Lists `problem`, or only counts it when the list is full; returns whether it was
    /// listed.
    pub fn push(&mut self, problem: Problem) -> bool {
        if self.is_full() {
            self.dropped += 1;
            false
        } else {
            self.kept.push(problem);
            true
        }
    }

    /// No more problems are listed, only counted.
    pub fn is_full(&self) -> bool {
        self.kept.len() >= MAX_KEPT
    }

    /// Counts `n` problems that are not listed.
    pub fn count_dropped(&mut self, n: u64) {
        self.dropped += n;
    }

    /// Forgets the problems of one file (it is being read again from its start).
    pub fn clear_file(&mut self, file: &str) {
        self.kept.retain(|p| p.file != file);
    }

    pub fn list(&self) -> &[Problem] {
        &self.kept
    }

    /// Problems not kept because the list was full.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(line: u64) -> Problem {
        Problem {
            file: ".self/dreams.jsonl".into(),
            line: Some(line),
            what: "bad".into(),
        }
    }

    #[test]
    fn problems_beyond_the_listed_ones_are_counted_not_stored() {
        let mut problems = Problems::default();
        for line in 0..MAX_KEPT as u64 {
            assert!(problems.push(problem(line)));
        }
        assert!(problems.is_full());
        assert!(!problems.push(problem(9999)));
        problems.count_dropped(10);
        assert_eq!(problems.list().len(), MAX_KEPT);
        assert_eq!(problems.dropped(), 11);
        assert!(problems.kept.capacity() <= 2 * MAX_KEPT);
    }
}
