//! Going to sleep, and driving the genome's sleep work.

use chrono::{DateTime, Utc};
use serde_json::json;

use crate::runner::activity::Activity;
use crate::runner::genome::{Genome, IoProgress, SleepCause, SleepEnd, SleepStep};
use crate::runner::wake;

use super::output::Output;
use super::{Engine, Force, Rest, SleepWork, State, WakeSource};

impl<G: Genome> Engine<G> {
    /// `set_sleep` was called: a nap, a plain pause, or a sleep with the genome's work.
    pub(super) fn begin_sleep(&mut self, now: DateTime<Utc>, secs: f64, out: &mut Vec<Output<G>>) {
        self.checkpoint(now, secs, None, out);
        if secs < self.cfg.cycle.quick_nap_threshold_s {
            self.rest(now, Rest::Nap, secs, now, false, out);
        } else if self.genome.sleep_due(now, secs, &self.cfg) {
            self.start_sleep_work(now, SleepCause::Requested(secs), now, out);
        } else {
            self.rest(now, Rest::Sleep, secs, now, false, out);
        }
    }

    /// Sleep work whatever the creature wants: the fatigue limit, or the operator.
    pub(super) fn forced_sleep(
        &mut self,
        now: DateTime<Utc>,
        force: Force,
        out: &mut Vec<Output<G>>,
    ) {
        self.flush_notes(now, out);
        let (note, why) = match force {
            Force::Fatigue => (
                wake::exhausted(self.fatigue),
                "forced consolidation (fatigue limit)",
            ),
            Force::Operator => (
                wake::OPERATOR_SLEEP.to_string(),
                "forced consolidation (operator)",
            ),
        };
        self.say_user(now, note, out);
        self.checkpoint(now, self.cfg.cycle.deep_sleep_pause_s, Some(why), out);
        let cause = match force {
            Force::Fatigue => SleepCause::Forced,
            Force::Operator => SleepCause::Operator,
        };
        self.start_sleep_work(now, cause, now, out);
    }

    /// `started` is when the sleep began (before the work), for the wake-up message.
    pub(super) fn start_sleep_work(
        &mut self,
        now: DateTime<Utc>,
        cause: SleepCause,
        started: DateTime<Utc>,
        out: &mut Vec<Output<G>>,
    ) {
        self.state = State::SleepWork(SleepWork {
            cause,
            started,
            in_flight: false,
        });
        let step = self.with_genome(now, out, |g, cx| g.begin_sleep(cause, cx));
        self.sleep_step(now, step, out);
    }

    /// Moves the sleep work on after a genome call.
    pub(super) fn sleep_step(
        &mut self,
        now: DateTime<Utc>,
        step: SleepStep,
        out: &mut Vec<Output<G>>,
    ) {
        let State::SleepWork(work) = &mut self.state else {
            return;
        };
        match step {
            SleepStep::Unchanged => {}
            SleepStep::Waiting => work.in_flight = true,
            SleepStep::Ready => {
                work.in_flight = false;
                if self.wake_early && !self.genome.atomic() {
                    let end = self.with_genome(now, out, |g, cx| g.interrupt(cx));
                    return self.after_sleep(now, end, out);
                }
                self.pump(now, out);
            }
            SleepStep::Done(end) => self.after_sleep(now, end, out),
        }
    }

    /// The operator wakes the creature during the sleep work: now between steps of a phase
    /// that is not atomic, else when the phase is over.
    pub(super) fn wake_during_sleep_work(&mut self, now: DateTime<Utc>, out: &mut Vec<Output<G>>) {
        let between_steps = matches!(&self.state, State::SleepWork(w) if !w.in_flight);
        if between_steps && !self.genome.atomic() {
            self.wake_early = true;
            let end = self.with_genome(now, out, |g, cx| g.interrupt(cx));
            return self.after_sleep(now, end, out);
        }
        if !self.wake_early {
            self.wake_early = true;
            self.with_genome(now, out, |g, cx| g.on_wake_deferred(cx));
        }
    }

    pub(super) fn on_genome_io(
        &mut self,
        now: DateTime<Utc>,
        done: G::Done,
        out: &mut Vec<Output<G>>,
    ) {
        match self.with_genome(now, out, |g, cx| g.on_io(done, cx)) {
            IoProgress::Nothing => {}
            IoProgress::Tool(outcome) => self.on_genome_tool(now, outcome, out),
            IoProgress::Sleep(step) => self.sleep_step(now, step, out),
        }
    }

    /// The genome consolidated: fatigue and activity start over, the context is trimmed.
    pub(super) fn on_consolidated(&mut self, now: DateTime<Utc>, out: &mut Vec<Output<G>>) {
        self.session_dreams += 1;
        self.fatigue = 0;
        self.warned = false;
        self.activity = Activity::default();
        let dropped = self.ctx.trim(self.cfg.cycle.keep_recent_messages);
        if dropped > 0 {
            self.memory(
                now,
                "observation",
                json!({"event": "trim", "dropped": dropped, "kept": self.ctx.len()}),
                out,
            );
        }
    }

    /// The sleep work is over (or failed): stop at `--max-dreams`, else pause.
    fn after_sleep(&mut self, now: DateTime<Utc>, end: SleepEnd, out: &mut Vec<Output<G>>) {
        let State::SleepWork(work) = std::mem::replace(&mut self.state, State::Ready) else {
            return;
        };
        if end.consolidated && self.max_dreams.is_some_and(|m| self.session_dreams >= m) {
            self.state = State::Stopped;
            out.push(Output::Exit);
            return;
        }
        let deep = end.deep && end.consolidated;
        let pause = match work.cause {
            SleepCause::Forced | SleepCause::Operator => self.cfg.cycle.deep_sleep_pause_s,
            SleepCause::Requested(s) if deep => s.max(self.cfg.cycle.deep_sleep_pause_s),
            SleepCause::Requested(s) => s,
        };
        let kind = if deep { Rest::Deep } else { Rest::Sleep };
        self.rest(now, kind, pause, work.started, end.consolidated, out);
        if std::mem::take(&mut self.wake_early) {
            self.begin_wake(now, WakeSource::Operator, out);
        }
    }
}
