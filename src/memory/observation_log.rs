//! `observations.md` as the model keeps it: counted whole, its last items kept. The file is
//! folded line by line as it is read ([`ObservationFold`]), never held whole, so a file of
//! millions of short lines costs memory for [`RECENT_OBSERVATION_ITEMS`] items. Lines
//! appended to a file folded before are folded alone and added to what it was
//! ([`ObservationLog::extend`]).

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
    /// Lines in the whole file.
    lines: usize,
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
            lines: self.lines,
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

    /// Adds the lines appended to the file since it was folded, folded alone (their line
    /// numbers counted from the first appended). Returns the observations among them, or
    /// `None` when more were appended than the log keeps (the caller cannot tell them all).
    pub fn extend(&mut self, appended: ObservationFold) -> Option<Vec<Observation>> {
        let whole = appended.recent.len() == appended.total;
        let before = self.lines;
        self.counts.red += appended.counts.red;
        self.counts.ylw += appended.counts.ylw;
        self.counts.grn += appended.counts.grn;
        self.counts.other += appended.counts.other;
        self.total += appended.total;
        self.lines += appended.lines;
        let items = &mut self.recent.items;
        let added = observations_in(&appended.recent);
        items.extend(
            appended
                .recent
                .into_iter()
                .map(|(n, item)| (before + n, item)),
        );
        let over = items.len().saturating_sub(RECENT_OBSERVATION_ITEMS);
        items.drain(..over);
        whole.then_some(added)
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
        Some(observations_in(
            self.recent
                .items
                .get(old.total.max(new_start) - new_start..)?,
        ))
    }
}

/// The observations among numbered items (not the headings and prose).
fn observations_in<'a>(items: impl IntoIterator<Item = &'a (usize, ObsItem)>) -> Vec<Observation> {
    items
        .into_iter()
        .filter_map(|(_, item)| match item {
            ObsItem::Observation(o) => Some(o.clone()),
            _ => None,
        })
        .collect()
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

    fn fold(text: &str) -> ObservationFold {
        let mut fold = ObservationFold::default();
        text.lines().for_each(|line| fold.push_line(line));
        fold
    }

    /// A log extended by what was appended is the log of the whole file, and says what
    /// was added, as a read of the whole file would.
    #[test]
    fn appended_lines_folded_alone_extend_the_log_as_a_whole_read_would() {
        let head = "# Observations\n\n## 2026-03-01\nRED 10:00 a\nprose\n";
        let tail = "## 2026-03-02\nYLW 09:00 b\nGRN 09:01 c\n";
        let mut log = ObservationLog::parse(head);
        let added = log.extend(fold(tail));
        let whole = ObservationLog::parse(&format!("{head}{tail}"));
        assert_eq!(log.recent(), whole.recent());
        assert_eq!(log.counts(), whole.counts());
        assert_eq!((log.older(), log.lines), (whole.older(), whole.lines));
        let expected = whole.added_since(&ObservationLog::parse(head));
        assert_eq!(texts(added), texts(expected));
        assert_eq!(
            log.recent().items.last().map(|(n, _)| *n),
            Some(head.lines().count() + 3)
        );
    }

    /// Past the kept window, the oldest kept items make room; more appended at once than
    /// the log keeps is said.
    #[test]
    fn an_extended_log_keeps_its_window() {
        let line = "GRN 10:00 x\n";
        let mut log = ObservationLog::parse(&line.repeat(RECENT_OBSERVATION_ITEMS));
        let added = log.extend(fold("RED 10:01 new\n"));
        let whole = ObservationLog::parse(&format!(
            "{}RED 10:01 new\n",
            line.repeat(RECENT_OBSERVATION_ITEMS)
        ));
        assert_eq!(texts(added), Some(vec!["new".to_string()]));
        assert_eq!(log.recent(), whole.recent());
        assert_eq!(log.older(), 1);
        let too_many = log.extend(fold(&line.repeat(RECENT_OBSERVATION_ITEMS + 1)));
        assert_eq!(too_many.map(|a| a.len()), None);
        assert_eq!(log.counts().grn, 2 * RECENT_OBSERVATION_ITEMS + 1);
        assert_eq!(log.recent().items.len(), RECENT_OBSERVATION_ITEMS);
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
