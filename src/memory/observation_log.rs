//! `observations.md` as the model keeps it: counted whole, its last items kept. The file is
//! folded line by line as it is read ([`ObservationFold`]), never held whole, so a file of
//! millions of short lines costs memory for [`RECENT_OBSERVATION_ITEMS`] items.

use std::collections::VecDeque;

use super::observations::{ObsCounts, ObsItem, Observation, Observations, parse_item};

/// Items (lines that are not blank) kept for the views: far more than a creature keeps
/// (deep sleep prunes the file); the counts cover the whole file, and search reads it all.
pub const RECENT_OBSERVATION_ITEMS: usize = 10_000;

/// The file's counts, and its last items with their line numbers.
#[derive(Debug, Default)]
pub struct ObservationLog {
    recent: Observations,
    counts: ObsCounts,
    /// Items in the whole file.
    total: usize,
}

/// An [`ObservationLog`] being read, one line at a time.
#[derive(Debug, Default)]
pub struct ObservationFold {
    recent: VecDeque<(usize, ObsItem)>,
    counts: ObsCounts,
    total: usize,
    lines: usize,
}

impl ObservationFold {
    /// Folds the file's next line (without its line end): counted, and kept while it is
    /// among the last [`RECENT_OBSERVATION_ITEMS`] items.
    pub fn push_line(&mut self, line: &str) {
        self.lines += 1;
        let Some(item) = parse_item(line) else {
            return;
        };
        self.counts.add(&item);
        self.total += 1;
        if self.recent.len() == RECENT_OBSERVATION_ITEMS {
            self.recent.pop_front();
        }
        self.recent.push_back((self.lines, item));
    }

    pub fn finish(self) -> ObservationLog {
        ObservationLog {
            recent: Observations {
                items: self.recent.into(),
            },
            counts: self.counts,
            total: self.total,
        }
    }
}

impl ObservationLog {
    /// Parses a whole text, as [`ObservationFold`] does line by line.
    #[cfg(test)]
    fn parse(text: &str) -> Self {
        let mut fold = ObservationFold::default();
        for line in text.lines() {
            fold.push_line(line);
        }
        fold.finish()
    }

    /// Items of the file before the kept ones.
    pub fn older(&self) -> usize {
        self.total - self.recent.items.len()
    }

    /// The last items of the file.
    pub fn recent(&self) -> &Observations {
        &self.recent
    }

    /// Counts over the whole file.
    pub fn counts(&self) -> ObsCounts {
        self.counts
    }

    /// The observations appended since `old` was read, or `None` when the file was
    /// rewritten (what `old` kept is not where it was), or cannot be told apart from a
    /// rewrite (more than the kept items were appended at once).
    pub fn added_since(&self, old: &ObservationLog) -> Option<Vec<Observation>> {
        if self.total < old.total {
            return None;
        }
        let old_start = old.total - old.recent.items.len();
        let new_start = self.total - self.recent.items.len();
        if old.total > 0 {
            // What both keep of the old file must be the same.
            let from = old_start.max(new_start);
            let old_part = old.recent.items.get(from.checked_sub(old_start)?..)?;
            let new_part = self
                .recent
                .items
                .get(from.checked_sub(new_start)?..old.total.checked_sub(new_start)?)?;
            if old_part.is_empty() || old_part != new_part {
                return None;
            }
        }
        Some(
            self.recent
                .items
                .get(old.total.max(new_start) - new_start..)?
                .iter()
                .filter_map(|(_, item)| match item {
                    ObsItem::Observation(o) => Some(o.clone()),
                    _ => None,
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(added: Option<Vec<Observation>>) -> Option<Vec<String>> {
        added.map(|a| a.into_iter().map(|o| o.text).collect())
    }

    #[test]
    fn small_files_are_kept_whole() {
        let text = "# Observations\n\n## 2026-03-01\nRED 10:00 a\nprose\n";
        let log = ObservationLog::parse(text);
        assert_eq!(log.recent(), &Observations::parse(text));
        assert_eq!(log.counts(), Observations::parse(text).counts());
        assert_eq!(log.older(), 0);
    }

    #[test]
    fn appends_and_rewrites_are_told_apart() {
        let old = ObservationLog::parse("## d\nRED 10:00 a\n");
        let appended = ObservationLog::parse("## d\nRED 10:00 a\nYLW 10:01 b\n");
        assert_eq!(
            texts(appended.added_since(&old)),
            Some(vec!["b".to_string()])
        );
        let rewritten = ObservationLog::parse("## d\nRED 10:00 z\nYLW 10:01 b\n");
        assert_eq!(texts(rewritten.added_since(&old)), None);
        let shorter = ObservationLog::parse("## d\n");
        assert_eq!(texts(shorter.added_since(&old)), None);
        assert_eq!(
            texts(old.added_since(&ObservationLog::default())),
            Some(vec!["a".to_string()])
        );
    }

    #[test]
    fn appends_past_the_kept_window_are_found() {
        let line = "GRN 10:00 x\n";
        let old = ObservationLog::parse(&line.repeat(RECENT_OBSERVATION_ITEMS + 5));
        let new_text = format!(
            "{}RED 10:01 new\n",
            line.repeat(RECENT_OBSERVATION_ITEMS + 5)
        );
        let new = ObservationLog::parse(&new_text);
        assert_eq!(new.recent().items.len(), RECENT_OBSERVATION_ITEMS);
        assert_eq!(new.older(), 6);
        assert_eq!(new.counts().grn, RECENT_OBSERVATION_ITEMS + 5);
        assert_eq!(texts(new.added_since(&old)), Some(vec!["new".to_string()]));
        let too_many = ObservationLog::parse(&line.repeat(3 * RECENT_OBSERVATION_ITEMS));
        assert_eq!(texts(too_many.added_since(&old)), None);
    }
}
