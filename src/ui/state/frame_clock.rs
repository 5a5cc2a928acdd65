//! The clock as a frame reads it. Every read notes until when what is made of it reads
//! the same, so that an idle screen is drawn again when one of its clock texts changes
//! (`active 3d04h ago` once an hour) rather than every minute: on a machine whose memory
//! is slow to reach once still, each frame over a large garden costs a tenth of a second.

use std::cell::Cell;

use chrono::{DateTime, DurationRound, TimeDelta, Utc};

use crate::memory::status::Status;
use crate::ui::draw::fmt;

/// Until when the texts of the last frame made of the clock read the same (`None`: none
/// does, or none was read). Reset as a frame begins.
#[derive(Debug, Default)]
pub struct ShownUntil(Cell<Option<DateTime<Utc>>>);

impl ShownUntil {
    /// A frame begins: nothing of the clock read yet.
    pub fn begin(&self) {
        self.0.set(None);
    }

    pub fn get(&self) -> Option<DateTime<Utc>> {
        self.0.get()
    }

    fn note(&self, t: DateTime<Utc>) {
        self.0.set(Some(self.0.get().map_or(t, |u| u.min(t))));
    }
}

/// The time a frame shows, and where its reads are noted.
#[derive(Debug, Clone, Copy)]
pub struct FrameClock<'a> {
    at: DateTime<Utc>,
    /// `None` for a time that stands still (the time cursor's, a test's): nothing of it
    /// changes on its own.
    reads: Option<&'a ShownUntil>,
}

impl<'a> FrameClock<'a> {
    /// The clock at `at`, its reads noted in `reads`.
    pub fn live(at: DateTime<Utc>, reads: &'a ShownUntil) -> Self {
        Self {
            at,
            reads: Some(reads),
        }
    }

    /// A time that stands still.
    pub fn fixed(at: DateTime<Utc>) -> Self {
        Self { at, reads: None }
    }

    /// The time, for a text whose changes the caller does not tell: counted as reading
    /// differently on the next minute (an idle screen's frame a minute, as it was).
    pub fn at(self) -> DateTime<Utc> {
        self.at_whole(TimeDelta::minutes(1))
    }

    /// The time, for a text that reads the same until `until` (`None`: for ever).
    pub fn at_until(self, until: Option<DateTime<Utc>>) -> DateTime<Utc> {
        if let (Some(reads), Some(t)) = (self.reads, until) {
            reads.note(t);
        }
        self.at
    }

    /// The time, for a text of its day (UTC): noted until the day ends.
    pub fn at_day(self) -> DateTime<Utc> {
        self.at_whole(TimeDelta::days(1))
    }

    /// The time, for a text of its whole `unit`s (UTC): noted until the next begins.
    fn at_whole(self, unit: TimeDelta) -> DateTime<Utc> {
        let start = self.at.duration_trunc(unit).unwrap_or(self.at);
        self.at_until(Some(start + unit))
    }

    /// Whether the time is before `t`: noted, while it is, until `t` (after, it stays so).
    pub fn before(self, t: DateTime<Utc>) -> bool {
        let before = self.at < t;
        self.at_until(before.then_some(t));
        before
    }

    /// Whole seconds since `t`, for a text that reads them in `steps`: noted until that
    /// text changes.
    pub fn secs_since(self, t: DateTime<Utc>, steps: Steps) -> i64 {
        (self.at_until(Some(steps.next(t, self.at))) - t).num_seconds()
    }

    /// [`fmt::ago`], noted until its text changes.
    pub fn ago(self, t: Option<DateTime<Utc>>) -> String {
        let now = self.at_until(t.map(|t| Steps::Ago.next(t, self.at)));
        fmt::ago(t, now)
    }

    /// [`fmt::status_text`]: a countdown reads differently every second, a status without
    /// one never.
    pub fn status_text(self, status: &Status) -> String {
        let until = status
            .wakes_at()
            .filter(|t| *t > self.at)
            .map(|_| self.at + TimeDelta::seconds(1));
        fmt::status_text(status, self.at_until(until))
    }
}

/// How a text of the time since an instant steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Steps {
    /// [`fmt::duration`]: `45s`, `4m`, `2h05m`, `3d04h`.
    Duration,
    /// [`fmt::coarse_duration`]: `45s`, `59m`, `23h`, `6d`.
    Coarse,
    /// One text under a minute (`just now`), then [`fmt::duration`]'s.
    Ago,
}

impl Steps {
    /// The seconds the text stays the same at `secs` since.
    fn step(self, secs: i64) -> i64 {
        match (self, secs) {
            (Self::Ago, ..60) => 60,
            (_, ..60) => 1,
            (Self::Coarse, 60..3_600) | (Self::Duration | Self::Ago, 60..86_400) => 60,
            (Self::Coarse, 3_600..86_400) | (Self::Duration | Self::Ago, _) => 3_600,
            (Self::Coarse, _) => 86_400,
        }
    }

    /// When the text of the time since `since` next reads differently after `now`; a
    /// time ahead of the clock reads as none passed.
    fn next(self, since: DateTime<Utc>, now: DateTime<Utc>) -> DateTime<Utc> {
        let secs = (now - since).num_seconds().max(0);
        let step = self.step(secs);
        since + TimeDelta::seconds((secs / step + 1) * step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn at(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + secs, 0).unwrap_or_default()
    }

    /// Of one read at `now`: what it noted, its text then, a millisecond before what
    /// it noted, and at it.
    fn read_at(
        now: DateTime<Utc>,
        read: impl Fn(FrameClock) -> String,
    ) -> Option<(DateTime<Utc>, String, String, String)> {
        let reads = ShownUntil::default();
        let text = read(FrameClock::live(now, &reads));
        let until = reads.get()?;
        let before = read(FrameClock::fixed(until - TimeDelta::milliseconds(1)));
        Some((until, text, before, read(FrameClock::fixed(until))))
    }

    proptest! {
        /// What a read notes is the first instant its text reads differently: the same
        /// text until a millisecond before, another from then.
        #[test]
        fn a_noted_time_is_when_the_text_changes(since in -200i64..400_000, now in 0i64..400_000) {
            let (since, now) = (at(since), at(now));
            let ago = read_at(now, |c| c.ago(Some(since)));
            let duration = read_at(now, |c| fmt::duration(c.secs_since(since, Steps::Duration)));
            let coarse = read_at(now, |c| fmt::coarse_duration(c.secs_since(since, Steps::Coarse)));
            prop_assert!(ago.is_some() && duration.is_some() && coarse.is_some(), "each notes a change");
            for (until, text, before, then) in [ago, duration, coarse].into_iter().flatten() {
                prop_assert!(until > now);
                prop_assert_eq!(&before, &text);
                prop_assert_ne!(&then, &text);
            }
        }
    }

    #[test]
    fn the_soonest_change_is_kept_and_a_still_time_notes_nothing() {
        let reads = ShownUntil::default();
        let live = FrameClock::live(at(10_000), &reads);
        live.ago(Some(at(0)));
        assert_eq!(reads.get(), Some(at(10_020)));
        live.ago(Some(at(9_990)));
        assert_eq!(reads.get(), Some(at(10_020)), "just now changes later");
        live.ago(None);
        live.status_text(&Status::Awake);
        assert_eq!(reads.get(), Some(at(10_020)), "no clock text");
        live.at();
        assert_eq!(
            reads.get(),
            Some(at(10_020)),
            "the next minute is not sooner"
        );
        reads.begin();
        live.at();
        let minute = at(10_000).duration_trunc(TimeDelta::minutes(1)).ok();
        assert_eq!(reads.get(), minute.map(|m| m + TimeDelta::minutes(1)));
        reads.begin();
        assert!(live.before(at(10_030)));
        assert_eq!(reads.get(), Some(at(10_030)), "true until then");
        assert!(!live.before(at(10_000)));
        assert_eq!(reads.get(), Some(at(10_030)), "false for ever");
        let still = ShownUntil::default();
        FrameClock::fixed(at(5)).ago(Some(at(0)));
        FrameClock::live(at(5), &still).at_until(None);
        assert_eq!(still.get(), None);
    }
}
