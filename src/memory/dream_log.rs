//! `dreams.jsonl` as the views need it: every dream counted, the recent ones kept. A
//! file of millions of lines (valid or not) costs memory for [`RECENT_DREAMS`] dreams.

use chrono::{DateTime, Utc};

use super::dreams::Dream;
use super::recent::Recent;

/// Dreams kept in memory for the views (about a year of a creature dreaming every ten
/// minutes); the counts cover every dream.
pub const RECENT_DREAMS: usize = 10_000;

/// Dreams read so far: counts over all of them, the last [`RECENT_DREAMS`] themselves.
#[derive(Debug)]
pub struct DreamLog {
    recent: Recent<Dream>,
    count: u64,
    deep: u64,
    /// 1-based numbers of the two last deep dreams (the earlier one first).
    last_deep: (Option<u64>, Option<u64>),
    /// The time of the last dream that has one.
    last_t: Option<DateTime<Utc>>,
}

impl Default for DreamLog {
    fn default() -> Self {
        Self {
            recent: Recent::new(RECENT_DREAMS),
            count: 0,
            deep: 0,
            last_deep: (None, None),
            last_t: None,
        }
    }
}

impl DreamLog {
    pub fn push(&mut self, dream: Dream) {
        self.count += 1;
        if dream.deep {
            self.deep += 1;
            self.last_deep = (self.last_deep.1, Some(self.count));
        }
        if dream.t.is_some() {
            self.last_t = dream.t;
        }
        self.recent.push(dream);
    }

    /// The last dreams, at most [`RECENT_DREAMS`], oldest first.
    pub fn recent(&self) -> &[Dream] {
        self.recent.as_slice()
    }

    /// Every dream read.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Deep sleeps among them.
    pub fn deep_count(&self) -> u64 {
        self.deep
    }

    /// 1-based numbers of the two last deep dreams, the earlier first.
    pub fn last_deep(&self) -> (Option<u64>, Option<u64>) {
        self.last_deep
    }

    pub fn last(&self) -> Option<&Dream> {
        self.recent.last()
    }

    /// The time of the last dream that has one.
    pub fn last_time(&self) -> Option<DateTime<Utc>> {
        self.last_t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dream(deep: bool) -> Dream {
        Dream {
            t: None,
            actions: 0,
            reflection: String::new(),
            priority: String::new(),
            observations: 0,
            deep,
        }
    }

    #[test]
    fn counts_cover_everything_and_memory_only_the_recent() {
        let mut log = DreamLog::default();
        for i in 0..(5 * RECENT_DREAMS as u64 + 3) {
            log.push(dream(i % 5 == 4));
        }
        assert_eq!(log.count(), 5 * RECENT_DREAMS as u64 + 3);
        assert_eq!(log.deep_count(), RECENT_DREAMS as u64);
        assert_eq!(
            log.last_deep(),
            (
                Some(5 * RECENT_DREAMS as u64 - 5),
                Some(5 * RECENT_DREAMS as u64)
            )
        );
        assert_eq!(log.recent().len(), RECENT_DREAMS);
    }
}
