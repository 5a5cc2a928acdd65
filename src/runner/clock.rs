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
//! dropped by the driver, so it never moves time. Several drivers (a garden) share one
//! virtual clock through [`Clock::driver`]: time moves when every one of them is idle.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

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
    /// An input from outside (a message from another creature) is on its way to the
    /// driver: a virtual clock counts it busy until [`Clock::input_taken`].
    fn input_sent(&self) {}
    /// The driver took an input announced by [`Clock::input_sent`].
    fn input_taken(&self) {}
    /// The driver's run is over: it holds time back no more.
    fn done(&self) {}
    /// The clock one more driver uses: a virtual clock moves only when all of its
    /// drivers are idle.
    fn driver(self: Arc<Self>) -> Arc<dyn Clock>;
}

/// Wall-clock time and tokio timers.
#[derive(Debug, Default, Clone, Copy)]
pub struct RealClock;

impl Clock for RealClock {
    fn driver(self: Arc<Self>) -> Arc<dyn Clock> {
        self
    }

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

/// What one driver of a virtual clock said last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Driver {
    /// Has not said anything yet (the clock's own slot before it is used).
    Unused,
    Busy,
    /// Idle, waiting for its timer (its deadline).
    Idle(Option<DateTime<Utc>>),
}

/// One driver: what it said last, and the inputs on their way to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot {
    said: Driver,
    pending: usize,
}

impl Slot {
    fn new(said: Driver) -> Self {
        Self { said, pending: 0 }
    }

    fn busy(&self) -> bool {
        match self.said {
            Driver::Unused => false,
            Driver::Busy => true,
            Driver::Idle(_) => self.pending > 0,
        }
    }
}

/// Time that moves only when told: when its drivers are all idle it jumps to the earliest
/// of their timers (unless held), and each piece of work advances it by a fixed tick.
/// Hours of creature life run in milliseconds, the same way every time.
#[derive(Debug)]
pub struct VirtualClock {
    now: watch::Sender<DateTime<Utc>>,
    /// Slot 0 is the clock used directly; [`Clock::driver`] adds one per driver.
    drivers: watch::Sender<Vec<Slot>>,
    work_tick: TimeDelta,
    /// Time moves only by [`Self::advance`] and work, never by itself.
    held: bool,
}

impl VirtualClock {
    /// A clock that jumps to the drivers' earliest timer whenever they are all idle.
    pub fn new(start: DateTime<Utc>, work_tick: TimeDelta) -> Self {
        Self {
            now: watch::Sender::new(start),
            drivers: watch::Sender::new(vec![Slot::new(Driver::Unused)]),
            work_tick,
            held: false,
        }
    }

    /// A clock that the test moves: idle drivers wait for [`Self::advance`].
    pub fn held(start: DateTime<Utc>, work_tick: TimeDelta) -> Self {
        Self {
            held: true,
            ..Self::new(start, work_tick)
        }
    }

    pub fn advance(&self, by: TimeDelta) {
        self.now.send_modify(|now| *now += by);
    }

    /// Waits until every driver is idle with no timer due now: everything the last command
    /// or [`Self::advance`] set off has happened. (An idle driver wakes only for a command
    /// or its timer, so an advance that leaves the timers ahead leaves them idle.)
    pub async fn settled(&self) {
        let mut now = self.now.subscribe();
        let mut drivers = self.drivers.subscribe();
        loop {
            let t = *now.borrow_and_update();
            let settled = {
                let d = drivers.borrow_and_update();
                d.iter().any(|d| matches!(d.said, Driver::Idle(_)))
                    && d.iter().all(|d| match d.said {
                        _ if d.busy() => false,
                        Driver::Idle(timer) => timer.is_none_or(|at| at > t),
                        Driver::Unused | Driver::Busy => true,
                    })
            };
            if settled {
                return;
            }
            tokio::select! {
                r = now.changed() => if r.is_err() { return },
                r = drivers.changed() => if r.is_err() { return },
            }
        }
    }

    fn report(&self, slot: usize, said: Driver) {
        self.change(slot, |s| s.said = said);
    }

    /// Changes a driver's slot; when no driver is busy then, an unheld clock jumps to the
    /// earliest timer.
    fn change(&self, slot: usize, f: impl FnOnce(&mut Slot)) {
        let mut jump = None;
        self.drivers.send_modify(|d| {
            if let Some(s) = d.get_mut(slot) {
                f(s);
            }
            if !self.held && d.iter().all(|s| !s.busy()) {
                jump = d
                    .iter()
                    .filter_map(|s| match s.said {
                        Driver::Idle(t) => t,
                        _ => None,
                    })
                    .min();
            }
        });
        if let Some(at) = jump {
            self.now.send_if_modified(|now| {
                let later = at > *now;
                if later {
                    *now = at;
                }
                later
            });
        }
    }

    fn sleep_until_at(&self, at: DateTime<Utc>) -> ClockFuture<'_> {
        let mut now = self.now.subscribe();
        Box::pin(async move {
            while *now.borrow_and_update() < at {
                if now.changed().await.is_err() {
                    return;
                }
            }
        })
    }

    fn add_driver(self: Arc<Self>) -> Arc<dyn Clock> {
        let mut slot = 0;
        self.drivers.send_modify(|d| {
            slot = d.len();
            d.push(Slot::new(Driver::Busy));
        });
        Arc::new(DriverClock { clock: self, slot })
    }
}

impl Clock for VirtualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.now.borrow()
    }

    fn sleep_until(&self, at: DateTime<Utc>) -> ClockFuture<'_> {
        self.sleep_until_at(at)
    }

    fn work_done(&self) {
        self.advance(self.work_tick);
    }

    fn idle(&self, timer: Option<DateTime<Utc>>) {
        self.report(0, Driver::Idle(timer));
    }

    fn busy(&self) {
        self.report(0, Driver::Busy);
    }

    fn input_sent(&self) {
        self.change(0, |s| s.pending += 1);
    }

    fn input_taken(&self) {
        self.change(0, |s| s.pending = s.pending.saturating_sub(1));
    }

    fn driver(self: Arc<Self>) -> Arc<dyn Clock> {
        self.add_driver()
    }
}

/// One driver's view of a shared [`VirtualClock`]; dropped with its driver, which then
/// no longer holds time back.
#[derive(Debug)]
struct DriverClock {
    clock: Arc<VirtualClock>,
    slot: usize,
}

impl Drop for DriverClock {
    fn drop(&mut self) {
        self.done();
    }
}

impl Clock for DriverClock {
    fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    fn sleep_until(&self, at: DateTime<Utc>) -> ClockFuture<'_> {
        self.clock.sleep_until_at(at)
    }

    fn work_done(&self) {
        self.clock.work_done();
    }

    fn idle(&self, timer: Option<DateTime<Utc>>) {
        self.clock.report(self.slot, Driver::Idle(timer));
    }

    fn busy(&self) {
        self.clock.report(self.slot, Driver::Busy);
    }

    fn input_sent(&self) {
        self.clock.change(self.slot, |s| s.pending += 1);
    }

    fn input_taken(&self) {
        self.clock
            .change(self.slot, |s| s.pending = s.pending.saturating_sub(1));
    }

    fn done(&self) {
        self.clock
            .change(self.slot, |s| *s = Slot::new(Driver::Unused));
    }

    fn driver(self: Arc<Self>) -> Arc<dyn Clock> {
        self.clock.clone().add_driver()
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

    /// Two drivers share the clock: it jumps only when both are idle, to the earlier timer,
    /// and settles only when both are.
    #[tokio::test]
    async fn a_shared_clock_waits_for_every_driver() {
        let c = Arc::new(VirtualClock::new(start(), TimeDelta::seconds(2)));
        let (a, b) = (c.clone().driver(), c.clone().driver());
        let (soon, late) = (start() + TimeDelta::hours(1), start() + TimeDelta::hours(2));
        a.idle(Some(late));
        assert_eq!(c.now(), start(), "b is busy: no jump");
        b.idle(Some(soon));
        assert_eq!(c.now(), soon, "both idle: the earlier timer");
        b.busy();
        let held = Arc::new(VirtualClock::held(start(), TimeDelta::seconds(2)));
        let (a, b) = (held.clone().driver(), held.clone().driver());
        a.idle(None);
        let settled = held.settled();
        tokio::pin!(settled);
        assert!(
            futures_poll_once(settled.as_mut()).await.is_none(),
            "b is busy"
        );
        b.idle(Some(late));
        settled.await;
        // A driver done (its runner ended) or gone holds nothing back.
        b.busy();
        b.done();
        held.settled().await;
        b.busy();
        drop(b);
        held.settled().await;
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
