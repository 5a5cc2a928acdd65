//! Tool calls per interval, kept as the logs are read: what the activity and fatigue
//! sparklines are drawn from. Intervals are fixed slices of the clock ([`INTERVAL_S`]
//! seconds from the epoch), so a series read at any time lines up with one read later.
//! Only the last [`KEPT`] intervals behind the newest call are kept: a log of any size
//! costs at most that many counts.

use std::collections::VecDeque;

use chrono::{DateTime, Utc};

use super::creature::Creature;

/// Seconds of one interval of the sparklines.
pub const INTERVAL_S: i64 = 300;
/// Intervals kept behind the newest one that holds a call (the sparklines show fewer: a
/// fatigue sum may reach back past what is shown).
pub const KEPT: i64 = 48;

/// The interval a time falls in.
pub fn interval_of(t: DateTime<Utc>) -> i64 {
    t.timestamp().div_euclid(INTERVAL_S)
}

/// Tool calls per interval, the last [`KEPT`] intervals behind the newest call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pulse {
    /// (interval, calls), oldest first, no interval twice, none empty.
    counts: VecDeque<(i64, u32)>,
}

impl Pulse {
    /// Counts `calls` tool calls made at `t` (in any order; one older than the kept
    /// intervals is not counted).
    pub fn record(&mut self, t: DateTime<Utc>, calls: u32) {
        if calls == 0 || !self.keeps(t) {
            return;
        }
        let at = interval_of(t);
        match self.counts.binary_search_by_key(&at, |(i, _)| *i) {
            Ok(k) => self.counts[k].1 = self.counts[k].1.saturating_add(calls),
            Err(k) => self.counts.insert(k, (at, calls)),
        }
        self.prune();
    }

    /// Whether a call at `t` would be kept (not older than the kept intervals).
    pub fn keeps(&self, t: DateTime<Utc>) -> bool {
        self.counts
            .back()
            .is_none_or(|(newest, _)| interval_of(t) > newest - KEPT)
    }

    /// The counts (interval, calls), oldest first.
    pub fn counts(&self) -> Vec<(i64, u32)> {
        self.counts.iter().copied().collect()
    }

    /// Counts given as [`Pulse::counts`] gives them (in any order).
    pub fn of(counts: &[(i64, u32)]) -> Self {
        let mut pulse = Pulse::default();
        pulse.absorb(Pulse {
            counts: counts.iter().copied().filter(|(_, n)| *n > 0).collect(),
        });
        pulse
    }

    /// Adds the counts of another part of the same log.
    pub fn absorb(&mut self, other: Pulse) {
        for (at, calls) in other.counts {
            match self.counts.binary_search_by_key(&at, |(i, _)| *i) {
                Ok(k) => self.counts[k].1 = self.counts[k].1.saturating_add(calls),
                Err(k) => self.counts.insert(k, (at, calls)),
            }
        }
        self.prune();
    }

    fn prune(&mut self) {
        let Some(&(newest, _)) = self.counts.back() else {
            return;
        };
        while self
            .counts
            .front()
            .is_some_and(|(i, _)| *i <= newest - KEPT)
        {
            self.counts.pop_front();
        }
    }

    /// Calls in the intervals after `after` (all when `None`) up to `until`, inclusive.
    fn sum(&self, after: Option<i64>, until: i64) -> u64 {
        self.counts
            .iter()
            .filter(|(i, _)| after.is_none_or(|a| *i > a) && *i <= until)
            .map(|(_, n)| u64::from(*n))
            .sum()
    }

    /// Calls in the intervals after `after`.
    fn after(&self, after: i64) -> u64 {
        self.counts
            .iter()
            .filter(|(i, _)| *i > after)
            .map(|(_, n)| u64::from(*n))
            .sum()
    }

    fn calls_in(&self, at: i64) -> u32 {
        self.counts
            .binary_search_by_key(&at, |(i, _)| *i)
            .map_or(0, |k| self.counts[k].1)
    }
}

/// The last `len` intervals up to the one `now` falls in, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PulseSeries {
    /// Tool calls made in each interval.
    pub calls: Vec<u32>,
    /// Fatigue (tool calls since the last dream) at the end of each interval.
    pub fatigue: Vec<u64>,
}

/// What a series is derived from: the counts, the fatigue now (exact: counted from the
/// calls after the last dream), the dream times.
pub struct PulseInput<'a> {
    pub pulse: &'a Pulse,
    pub fatigue: u64,
    /// Dream times, oldest first.
    pub dreams: &'a [DateTime<Utc>],
}

impl PulseInput<'_> {
    /// The series of the `len` intervals ending with `now`'s.
    ///
    /// Fatigue after the last dream is exact: the fatigue now less the calls of the later
    /// intervals. Between two older dreams it is the sum of the calls of the intervals
    /// after the earlier dream's (the calls of a dream's own interval count before it).
    pub fn series(&self, now: DateTime<Utc>, len: usize) -> PulseSeries {
        let last = interval_of(now);
        let first = last - len as i64 + 1;
        let dreams: Vec<i64> = self.dreams.iter().map(|t| interval_of(*t)).collect();
        let last_dream = dreams.iter().copied().max();
        let calls = (first..=last).map(|i| self.pulse.calls_in(i)).collect();
        let fatigue = (first..=last)
            .map(|i| {
                let governing = dreams.iter().copied().filter(|d| *d <= i).max();
                match (governing, last_dream) {
                    // No dream yet, or the last one: what is not spent later.
                    (None, None) => self.fatigue.saturating_sub(self.pulse.after(i)),
                    (Some(d), Some(l)) if d == l => {
                        self.fatigue.saturating_sub(self.pulse.after(i))
                    }
                    (governing, _) => self.pulse.sum(governing, i),
                }
            })
            .collect();
        PulseSeries { calls, fatigue }
    }
}

impl Creature {
    /// The activity and fatigue of the `len` intervals ending with `now`'s, from the
    /// events file where there is one, else from the conversation (as fatigue is).
    pub fn pulse(&self, now: DateTime<Utc>, len: usize) -> PulseSeries {
        let first = interval_of(now) - len as i64 + 1;
        // The dreams of the intervals shown, and the last one before them.
        let mut dreams = Vec::new();
        for t in self.dreams().iter().rev().filter_map(|d| d.t) {
            dreams.push(t);
            if interval_of(t) < first {
                break;
            }
        }
        dreams.reverse();
        let pulse = if self.events().exists() {
            &self.events().pulse
        } else {
            &self.conversation().pulse
        };
        PulseInput {
            pulse,
            fatigue: self.fatigue(),
            dreams: &dreams,
        }
        .series(now, len)
    }
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, TimeZone};

    use super::*;

    fn at(h: u32, m: u32, s: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, h, m, s).unwrap()
    }

    fn pulse(calls: &[DateTime<Utc>]) -> Pulse {
        let mut p = Pulse::default();
        for t in calls {
            p.record(*t, 1);
        }
        p
    }

    #[test]
    fn calls_fall_in_their_intervals_up_to_now() {
        let p = pulse(&[at(10, 0, 1), at(10, 4, 59), at(10, 5, 0), at(10, 14, 0)]);
        let s = PulseInput {
            pulse: &p,
            fatigue: 4,
            dreams: &[],
        }
        .series(at(10, 16, 0), 5);
        // 09:55, 10:00, 10:05, 10:10, 10:15.
        assert_eq!(s.calls, [0, 2, 1, 1, 0]);
        assert_eq!(s.fatigue, [0, 2, 3, 4, 4]);
    }

    #[test]
    fn an_empty_log_is_a_flat_series() {
        let s = PulseInput {
            pulse: &Pulse::default(),
            fatigue: 0,
            dreams: &[],
        }
        .series(at(10, 0, 0), 3);
        assert_eq!(s.calls, [0, 0, 0]);
        assert_eq!(s.fatigue, [0, 0, 0]);
        assert_eq!(
            PulseInput {
                pulse: &Pulse::default(),
                fatigue: 0,
                dreams: &[]
            }
            .series(at(10, 0, 0), 0),
            PulseSeries::default()
        );
    }

    #[test]
    fn a_dream_resets_fatigue_and_the_calls_after_it_count_again() {
        // Three calls, a dream at 10:12, two calls after it in its own interval, one later.
        let calls = [
            at(10, 1, 0),
            at(10, 6, 0),
            at(10, 11, 0),
            at(10, 13, 0),
            at(10, 14, 0),
            at(10, 21, 0),
        ];
        let p = pulse(&calls);
        let dreams = [at(10, 12, 0)];
        // The model's fatigue: the three calls after the dream.
        let s = PulseInput {
            pulse: &p,
            fatigue: 3,
            dreams: &dreams,
        }
        .series(at(10, 24, 0), 5);
        assert_eq!(s.calls, [1, 1, 3, 0, 1]);
        // Before the dream the sum since the log began; at the end of the dream's interval
        // exactly the two calls after it.
        assert_eq!(s.fatigue, [1, 2, 2, 2, 3]);
    }

    #[test]
    fn older_dreams_reset_the_sum_at_their_interval() {
        let p = pulse(&[
            at(10, 1, 0),
            at(10, 6, 0),
            at(10, 11, 0),
            at(10, 16, 0),
            at(10, 21, 0),
        ]);
        let dreams = [at(10, 8, 0), at(10, 18, 0)];
        let s = PulseInput {
            pulse: &p,
            fatigue: 1,
            dreams: &dreams,
        }
        .series(at(10, 21, 0), 5);
        assert_eq!(s.calls, [1, 1, 1, 1, 1]);
        // The 10:05 interval holds a dream: its call counts before it (0 after).
        assert_eq!(s.fatigue, [1, 0, 1, 0, 1]);
    }

    #[test]
    fn a_clock_far_ahead_shows_no_calls_and_the_fatigue_kept() {
        let p = pulse(&[at(10, 1, 0), at(10, 2, 0)]);
        let s = PulseInput {
            pulse: &p,
            fatigue: 2,
            dreams: &[],
        }
        .series(at(10, 0, 0) + Duration::days(3), 4);
        assert_eq!(s.calls, [0, 0, 0, 0]);
        assert_eq!(s.fatigue, [2, 2, 2, 2]);
    }

    #[test]
    fn a_clock_behind_the_logs_leaves_the_later_calls_out() {
        let p = pulse(&[at(10, 1, 0), at(10, 11, 0), at(10, 12, 0)]);
        let s = PulseInput {
            pulse: &p,
            fatigue: 3,
            dreams: &[],
        }
        .series(at(10, 6, 0), 3);
        assert_eq!(s.calls, [0, 1, 0]);
        assert_eq!(s.fatigue, [0, 1, 1]);
    }

    #[test]
    fn only_the_kept_intervals_are_counted_whatever_the_order() {
        let mut p = Pulse::default();
        let start = at(0, 0, 0);
        for k in 0..(KEPT * 3) {
            p.record(start + Duration::seconds(k * INTERVAL_S), 2);
        }
        assert_eq!(p.counts.len(), KEPT as usize);
        // A call older than what is kept is not counted; one inside is, in its place.
        let newest = start + Duration::seconds((KEPT * 3 - 1) * INTERVAL_S);
        p.record(start, 5);
        p.record(newest - Duration::seconds(INTERVAL_S), 1);
        assert_eq!(p.counts.len(), KEPT as usize);
        assert_eq!(p.calls_in(interval_of(start)), 0);
        assert_eq!(p.calls_in(interval_of(newest) - 1), 3);
        // Absorbing a later part moves the window on.
        let mut later = Pulse::default();
        later.record(newest + Duration::seconds(INTERVAL_S), 1);
        later.record(newest, 4);
        p.absorb(later);
        assert_eq!(p.counts.len(), KEPT as usize);
        assert_eq!(p.calls_in(interval_of(newest)), 6);
    }

    /// A creature's files: tool call events and a dream read from disk, then a live
    /// append; a creature without an events file counts its conversation's calls.
    #[test]
    fn a_creature_folds_its_logs_into_the_series_as_lines_arrive() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join(".self")).unwrap();
        std::fs::create_dir_all(root.join(".sys")).unwrap();
        let call = |m: u32| {
            format!(
                "{{\"t\":\"2026-11-22T10:{m:02}:00Z\",\"type\":\"creature.tool_call\",\"tool\":\"bash\"}}\n"
            )
        };
        let events: String = [1, 2, 6, 11, 13].into_iter().map(call).collect();
        std::fs::write(root.join(".sys/events.jsonl"), events).unwrap();
        let dream = r#"{"t":"2026-11-22T10:12:00Z","actions":4,"reflection":"r","priority":"p","observations":0,"deep":false}"#;
        std::fs::write(root.join(".self/dreams.jsonl"), format!("{dream}\n")).unwrap();
        let mut c = Creature::open(root);
        let s = c.pulse(at(10, 14, 0), 3);
        assert_eq!(s.calls, [2, 1, 2]);
        assert_eq!(s.fatigue, [2, 3, 1], "the dream at 10:12 rests it");
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(root.join(".sys/events.jsonl"))
            .unwrap();
        std::io::Write::write_all(&mut f, call(16).as_bytes()).unwrap();
        c.refresh();
        let s = c.pulse(at(10, 16, 0), 3);
        assert_eq!(s.calls, [1, 2, 1]);
        assert_eq!(s.fatigue, [3, 1, 2]);

        let bare = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(bare.path().join(".self")).unwrap();
        let line = |m: u32, blocks: &str| {
            format!(
                "{{\"t\":\"2026-11-22T10:{m:02}:00Z\",\"role\":\"assistant\",\"content\":[{blocks}]}}\n"
            )
        };
        let tool = r#"{"type":"tool_use","id":"a","name":"bash","input":{}}"#;
        let text = r#"{"type":"text","text":"thinking"}"#;
        let conversation = [
            line(1, tool),
            line(2, text),
            line(7, &format!("{tool},{tool}")),
        ]
        .concat();
        std::fs::write(bare.path().join(".self/conversation.jsonl"), conversation).unwrap();
        let c = Creature::open(bare.path());
        let s = c.pulse(at(10, 8, 0), 2);
        assert_eq!(s.calls, [1, 2]);
        assert_eq!(s.fatigue, [1, 3]);
    }

    #[test]
    fn intervals_before_the_epoch_are_whole() {
        let t = Utc.with_ymd_and_hms(1969, 12, 31, 23, 59, 59).unwrap();
        assert_eq!(interval_of(t), -1);
    }
}
