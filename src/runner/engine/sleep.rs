//! Going to sleep, and driving the genome's sleep work: its steps, its sleep ticks, the
//! creature turns and the compaction it asks for, and a wake time that may fall inside it.

use crate::llm::embed::Embeddings;
use chrono::{DateTime, Utc};
use serde_json::json;

use crate::runner::activity::Activity;
use crate::runner::genome::{Genome, IoProgress, SleepCause, SleepEnd, SleepStep};
use crate::runner::wake;

use super::output::{HeldSleep, Output};
use super::{Engine, Force, Parked, Rest, SleepWork, State, WakeSource};

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
                "forced consolidation (fatigue limit)".to_string(),
            ),
            Force::Operator => (
                wake::OPERATOR_SLEEP.to_string(),
                "forced consolidation (operator)".to_string(),
            ),
            Force::Guardrail => {
                let (detail, reason) = self
                    .hold
                    .as_ref()
                    .map(|r| (r.detail.clone(), r.reason.clone()))
                    .unwrap_or_default();
                (
                    wake::guardrail_sleep(&detail),
                    format!("forced consolidation (guardrail: {reason})"),
                )
            }
        };
        self.say_user(now, note, out);
        self.checkpoint(now, self.cfg.cycle.deep_sleep_pause_s, Some(&why), out);
        let cause = match force {
            Force::Fatigue | Force::Guardrail => SleepCause::Forced,
            Force::Operator => SleepCause::Operator,
        };
        self.start_sleep_work(now, cause, now, out);
    }

    /// The genome's schedule puts the creature to sleep.
    pub(super) fn scheduled_sleep(
        &mut self,
        now: DateTime<Utc>,
        secs: f64,
        reason: &str,
        out: &mut Vec<Output<G>>,
    ) {
        self.flush_notes(now, out);
        self.say_user(now, format!("[Time to sleep: {reason}.]"), out);
        self.checkpoint(now, secs, Some(reason), out);
        self.start_sleep_work(now, SleepCause::Scheduled(secs), now, out);
    }

    /// `started` is when the sleep began (before the work), for the wake-up message.
    pub(super) fn start_sleep_work(
        &mut self,
        now: DateTime<Utc>,
        cause: SleepCause,
        started: DateTime<Utc>,
        out: &mut Vec<Output<G>>,
    ) {
        let wake_at = self.genome.wake_time_includes_work().then(|| {
            let secs = match cause {
                SleepCause::Requested(s) | SleepCause::Scheduled(s) => s,
                SleepCause::Forced | SleepCause::Operator => self.cfg.cycle.deep_sleep_pause_s,
            };
            started + self.cfg.wall(secs)
        });
        self.state = State::SleepWork(SleepWork {
            cause,
            started,
            in_flight: false,
            tick_at: None,
            wake_at,
            timer: None,
        });
        self.arm_sleep_timer(out);
        self.stage(out);
        let step = self.with_genome(now, out, |g, cx| g.begin_sleep(cause, cx));
        self.sleep_step(now, step, out);
    }

    /// Arms one timer for the earlier of the next sleep tick and the wake time.
    fn arm_sleep_timer(&mut self, out: &mut Vec<Output<G>>) {
        let id = self.next_id + 1;
        let State::SleepWork(work) = &mut self.state else {
            return;
        };
        let at = match (work.tick_at, work.wake_at) {
            (Some(t), Some(w)) => Some(t.min(w)),
            (t, w) => t.or(w),
        };
        match at {
            Some(at) => {
                self.next_id = id;
                work.timer = Some(id);
                out.push(Output::Timer { id, at });
            }
            None => work.timer = None,
        }
    }

    /// A sleep-work timer: the wake time came (a wake, deferred while the phase is
    /// atomic), or the next tick did.
    pub(super) fn on_sleep_timer(&mut self, now: DateTime<Utc>, out: &mut Vec<Output<G>>) {
        let State::SleepWork(work) = &mut self.state else {
            return;
        };
        work.timer = None;
        if work.wake_at.is_some_and(|w| w <= now) {
            work.wake_at = None;
            if self.wake_early.is_none() {
                self.wake_during_sleep_work(now, WakeSource::Timer, out);
                if !matches!(self.state, State::SleepWork(_)) {
                    return;
                }
            }
        }
        if let State::SleepWork(work) = &mut self.state
            && work.tick_at.is_some_and(|t| t <= now)
        {
            work.tick_at = None;
            work.in_flight = false;
            self.arm_sleep_timer(out);
            self.pump(now, out);
            return;
        }
        self.arm_sleep_timer(out);
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
                if self.wake_early.is_some() && !self.genome.atomic() {
                    let end = self.with_genome(now, out, |g, cx| g.interrupt(cx));
                    return self.after_sleep(now, end, out);
                }
                self.pump(now, out);
            }
            SleepStep::NextTick => {
                if self.wake_early.is_some() && !self.genome.atomic() {
                    let end = self.with_genome(now, out, |g, cx| g.interrupt(cx));
                    return self.after_sleep(now, end, out);
                }
                // Waiting for the tick counts as in flight: `pump` does not step.
                work.in_flight = true;
                work.tick_at = Some(now + self.cfg.wall(self.genome.sleep_tick_s(&self.cfg)));
                self.arm_sleep_timer(out);
            }
            SleepStep::Turn { prompt, rounds } => {
                self.park(rounds);
                self.say_user(now, prompt, out);
                self.sleep_turn(now, out);
            }
            SleepStep::Compact { threshold } => {
                self.park(0);
                if !self.begin_compaction(now, threshold, "sleep", out) {
                    let step = self.with_genome(now, out, |g, cx| g.on_compacted(None, cx));
                    self.unpark(now, step, out);
                }
            }
            SleepStep::Done(end) => self.after_sleep(now, end, out),
        }
    }

    /// Sets the sleep work aside while the engine runs turns or a compaction for it.
    fn park(&mut self, rounds: u32) {
        if let State::SleepWork(work) = std::mem::replace(&mut self.state, State::Ready) {
            self.parked = Some(Parked {
                work,
                rounds_left: rounds,
            });
        }
    }

    /// Takes the parked sleep work back and moves it on with `step`.
    pub(super) fn unpark(&mut self, now: DateTime<Utc>, step: SleepStep, out: &mut Vec<Output<G>>) {
        if let Some(p) = self.parked.take() {
            self.state = State::SleepWork(p.work);
            self.arm_sleep_timer(out);
            self.sleep_step(now, step, out);
        }
    }

    /// One creature turn during the sleep work, offering the sleep tools; when no round
    /// is left, the turns are over.
    pub(super) fn sleep_turn(&mut self, now: DateTime<Utc>, out: &mut Vec<Output<G>>) {
        let Some(p) = &mut self.parked else {
            return;
        };
        if p.rounds_left == 0 {
            let step = self.with_genome(now, out, |g, cx| g.on_sleep_turns_over(cx));
            return self.unpark(now, step, out);
        }
        p.rounds_left -= 1;
        self.think_turn(now, true, out);
    }

    /// The operator wakes the creature during the sleep work: now between steps of a phase
    /// that is not atomic, else when the phase is over.
    pub(super) fn wake_during_sleep_work(
        &mut self,
        now: DateTime<Utc>,
        source: WakeSource,
        out: &mut Vec<Output<G>>,
    ) {
        let between_steps = matches!(&self.state,
            State::SleepWork(w) if !w.in_flight || w.tick_at.is_some());
        if between_steps && !self.genome.atomic() {
            self.wake_early = Some(source);
            let end = self.with_genome(now, out, |g, cx| g.interrupt(cx));
            return self.after_sleep(now, end, out);
        }
        if self.wake_early.is_none() {
            let reason = source.reason();
            self.wake_early = Some(source);
            self.with_genome(now, out, |g, cx| g.on_wake_deferred(&reason, cx));
        }
    }

    pub(super) fn on_genome_io(
        &mut self,
        now: DateTime<Utc>,
        done: G::Done,
        out: &mut Vec<Output<G>>,
    ) {
        let progress = self.with_genome(now, out, |g, cx| g.on_io(done, cx));
        self.on_progress(now, progress, out);
    }

    pub(super) fn on_embedded(
        &mut self,
        now: DateTime<Utc>,
        id: u64,
        result: Result<Embeddings, String>,
        out: &mut Vec<Output<G>>,
    ) {
        let progress = self.with_genome(now, out, |g, cx| g.on_embedded(id, result, cx));
        self.on_progress(now, progress, out);
    }

    pub(super) fn on_progress(
        &mut self,
        now: DateTime<Utc>,
        progress: IoProgress,
        out: &mut Vec<Output<G>>,
    ) {
        match progress {
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
        if !self.genome.trims_at_consolidation() {
            return;
        }
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

    /// The sleep work is over (or failed): held for review when it is reviewed, else
    /// [`Self::go_on`].
    fn after_sleep(&mut self, now: DateTime<Utc>, end: SleepEnd, out: &mut Vec<Output<G>>) {
        let State::SleepWork(work) = std::mem::replace(&mut self.state, State::Ready) else {
            return;
        };
        self.session_sleeps += 1;
        let deep = end.deep && end.consolidated;
        let rest_s = match work.cause {
            // The sleep work ran inside the sleep: rest what is left of it (nothing when
            // the wake time came during the work: `wake_early` holds that wake).
            _ if self.genome.wake_time_includes_work() => work
                .wake_at
                .map_or(0.0, |w| self.cfg.creature_secs(w - now).max(0.0)),
            SleepCause::Forced | SleepCause::Operator => self.cfg.cycle.deep_sleep_pause_s,
            SleepCause::Requested(s) | SleepCause::Scheduled(s) if deep => {
                s.max(self.cfg.cycle.deep_sleep_pause_s)
            }
            SleepCause::Requested(s) | SleepCause::Scheduled(s) => s,
        };
        let sleep = HeldSleep {
            deadline: None,
            deep,
            consolidated: end.consolidated,
            started: work.started,
            rest_s,
            wake: end.wake,
        };
        if std::mem::take(&mut self.staging) {
            return self.propose(now, sleep, out);
        }
        self.go_on(now, sleep, out);
    }

    /// After the sleep work (and its review): stop at `--max-dreams` or `--max-sleeps`,
    /// else rest.
    pub(super) fn go_on(&mut self, now: DateTime<Utc>, sleep: HeldSleep, out: &mut Vec<Output<G>>) {
        self.state = State::Ready;
        let dreams_done =
            sleep.consolidated && self.max_dreams.is_some_and(|m| self.session_dreams >= m);
        let sleeps_done = self.max_sleeps.is_some_and(|m| self.session_sleeps >= m);
        if dreams_done || sleeps_done {
            self.state = State::Stopped;
            out.push(Output::Exit);
            return;
        }
        let kind = if sleep.deep { Rest::Deep } else { Rest::Sleep };
        self.rest(
            now,
            kind,
            sleep.rest_s,
            sleep.started,
            sleep.consolidated,
            out,
        );
        if self.hold.is_some() {
            return self.held_asleep(now, sleep.consolidated, out);
        }
        if let Some(source) = self.wake_early.take() {
            return self.begin_wake(now, source, out);
        }
        if sleep.wake {
            self.begin_wake(now, WakeSource::Urgent("an urgent event".into()), out);
        }
    }
}
