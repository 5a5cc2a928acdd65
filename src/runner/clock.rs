//! The driver's injectable clock.
//!
//! The state machine never reads a clock: the driver passes `now` with every event and waits
//! for the one timer the engine awaits on a [`Clock`]. `--speed` does not warp the clock
//! itself (files keep real timestamps, so the observatory's "wakes in 5 s" stays true); it
//! shortens the creature's durations instead (see [`super::config::RunnerConfig::wall`]).
//!
//! A [`VirtualClock`] moves only when the driver is idle (nothing in flight but its timer),
//! as tokio's paused time does: then it jumps to the timer's deadline, or, when held, waits
//! for the test to [`VirtualClock::advance`] it. A timer the engine no longer awaits is
//! dropped by the driver, so it never moves time.

use std::future::Future;
use std::pin::Pin;

use chrono::{DateTime, TimeDelta, Utc};
use tokio::sync::watch;

pub type ClockFuture<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

pub trait Clock: Send + Sync {
    fn now(&self) -> DateTime<Utc>;
    /// Completes at `at` (at once when `at` has passed).
    fn sleep_until(&self, at: DateTime<Utc>) -> ClockFuture<'_>;
    /// Called after each LLM call and tool run: lets time pass on a virtual clock.
    fn work_done(&self) {}
    /// The driver has nothing in flight and waits for `timer` (its deadline) or a command.
    fn idle(&self, _timer: Option<DateTime<Utc>>) {}
    /// The driver has work again.
    fn busy(&self) {}
}

/// Wall-clock time and tokio timers.
#[derive(Debug, Default, Clone, Copy)]
pub struct RealClock;

impl Clock for RealClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }

    fn sleep_until(&self, at: DateTime<Utc>) -> ClockFuture<'_> {
        Box::pin(async move {
            // Re-checked after each wait: the wall clock may have been set back meanwhile.
            loop {
                let left = at - Utc::now();
                match left.to_std() {
                    Ok(d) if !d.is_zero() => tokio::time::sleep(d).await,
                    _ => return,
                }
            }
        })
    }
}

/// The driver said it was idle, waiting for `timer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Idle {
    timer: Option<DateTime<Utc>>,
}

/// Time that moves only when told: when the driver is idle it jumps to the driver's timer
/// (unless held), and each piece of work advances it by a fixed tick. Hours of creature
/// life run in milliseconds, the same way every time.
#[derive(Debug)]
pub struct VirtualClock {
    now: watch::Sender<DateTime<Utc>>,
    idle: watch::Sender<Option<Idle>>,
    work_tick: TimeDelta,
    /// Time moves only by [`Self::advance`] and work, never by itself.
    held: bool,
}

impl VirtualClock {
    /// A clock that jumps to the driver's timer whenever the driver is idle.
    pub fn new(start: DateTime<Utc>, work_tick: TimeDelta) -> Self {
        Self {
            now: watch::Sender::new(start),
            idle: watch::Sender::new(None),
            work_tick,
            held: false,
        }
    }

    /// A clock that the test moves: an idle driver waits for [`Self::advance`].
    pub fn held(start: DateTime<Utc>, work_tick: TimeDelta) -> Self {
        Self {
            held: true,
            ..Self::new(start, work_tick)
        }
    }

    pub fn advance(&self, by: TimeDelta) {
        self.now.send_modify(|now| *now += by);
    }

    /// Waits until the driver is idle with no timer due now: everything the last command
    /// or [`Self::advance`] set off has happened. (An idle driver wakes only for a command
    /// or its timer, so an advance that leaves the timer ahead leaves it idle.)
    pub async fn settled(&self) {
        let mut now = self.now.subscribe();
        let mut idle = self.idle.subscribe();
        loop {
            let t = *now.borrow_and_update();
            let settled = idle
                .borrow_and_update()
                .is_some_and(|i| i.timer.is_none_or(|at| at > t));
            if settled {
                return;
            }
            tokio::select! {
                r = now.changed() => if r.is_err() { return },
                r = idle.changed() => if r.is_err() { return },
            }
        }
    }
}

impl Clock for VirtualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.now.borrow()
    }

    fn sleep_until(&self, at: DateTime<Utc>) -> ClockFuture<'_> {
        let mut now = self.now.subscribe();
        Box::pin(async move {
            while *now.borrow_and_update() < at {
                if now.changed().await.is_err() {
                    return;
                }
            }
        })
    }

    fn work_done(&self) {
        self.advance(self.work_tick);
    }

    fn idle(&self, timer: Option<DateTime<Utc>>) {
        if !self.held
            && let Some(at) = timer
        {
            self.now.send_if_modified(|now| {
                let later = at > *now;
                if later {
                    *now = at;
                }
                later
            });
        }
        self.idle.send_replace(Some(Idle { timer }));
    }

    fn busy(&self) {
        self.idle.send_replace(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn start() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap()
    }

    /// Scheduling a timer moves nothing: only an idle driver does.
    #[tokio::test]
    async fn virtual_time_moves_only_when_the_driver_is_idle() {
        let c = VirtualClock::new(start(), TimeDelta::seconds(2));
        let at = start() + TimeDelta::hours(3);
        let timer = c.sleep_until(at);
        assert_eq!(c.now(), start(), "a timer alone does not move time");
        c.work_done();
        assert_eq!(c.now(), start() + TimeDelta::seconds(2));
        c.idle(Some(at));
        timer.await;
        assert_eq!(c.now(), at);
        c.idle(Some(start()));
        assert_eq!(c.now(), at, "never goes back");
        c.idle(None);
        assert_eq!(c.now(), at, "no timer, no jump");
    }

    #[tokio::test]
    async fn a_held_clock_moves_by_advance_and_settles_when_nothing_is_due() {
        let c = VirtualClock::held(start(), TimeDelta::seconds(2));
        let at = start() + TimeDelta::seconds(30);
        c.idle(Some(at));
        assert_eq!(c.now(), start(), "held: idle does not jump");
        c.settled().await;
        c.advance(TimeDelta::seconds(30));
        c.sleep_until(at).await;
        // Idle was reported before the advance that made the timer due: not settled.
        let settled = c.settled();
        tokio::pin!(settled);
        assert!(futures_poll_once(settled.as_mut()).await.is_none());
        c.busy();
        c.idle(None);
        settled.await;
    }

    async fn futures_poll_once<F: Future + Unpin>(f: F) -> Option<F::Output> {
        tokio::select! {
            biased;
            v = f => Some(v),
            () = std::future::ready(()) => None,
        }
    }

    #[tokio::test]
    async fn real_clock_waits_until_the_deadline() {
        let c = RealClock;
        let at = c.now() + TimeDelta::milliseconds(30);
        c.sleep_until(at).await;
        assert!(c.now() >= at);
    }
}
