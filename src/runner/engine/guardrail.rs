//! Guardrails in the cycle: what trips one (see [`crate::runner::guard`]), the sleep it
//! forces, the hold until a person wakes the creature, and its morning report.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value, json};

use crate::memory::events::EventKind;
use crate::memory::guardrail::GUARDRAIL_EVENT;
use crate::runner::genome::{Genome, SleepCause};
use crate::runner::guard::{Seen, Trip};

use super::output::{Output, Record};
use super::{Engine, Force, State};
use crate::memory::events::{CreatureEvent, Sleep};

impl<G: Genome> Engine<G> {
    /// What the model calls cost today so far.
    pub(super) fn on_spent(&mut self, now: DateTime<Utc>, usd: f64, out: &mut Vec<Output<G>>) {
        let seen = Seen::Spent {
            usd,
            day: now.date_naive(),
        };
        if let Some(trip) = self.guard.observe(seen) {
            self.trip(now, trip, out);
        }
    }

    /// A tool call was counted: the loop and the fatigue ceiling look at it.
    pub(super) fn guard_tool(
        &mut self,
        now: DateTime<Utc>,
        command: Option<&str>,
        failed: bool,
        out: &mut Vec<Output<G>>,
    ) {
        let mut trip =
            command.and_then(|command| self.guard.observe(Seen::Command { command, failed }));
        if trip.is_none() {
            trip = self.guard.observe(Seen::Fatigue(self.fatigue));
        }
        if let Some(trip) = trip {
            self.trip(now, trip, out);
        }
    }

    /// A guardrail tripped: the report is written and the creature put to sleep (now,
    /// once the turn in flight is over, or at the end of the sleep under way).
    fn trip(&mut self, now: DateTime<Utc>, trip: Trip, out: &mut Vec<Output<G>>) {
        if self.hold.is_some() {
            return;
        }
        let report = trip.report(now, self.guard.spent());
        self.guard_event(now, "tripped", &report.reason, &report.detail, out);
        self.memory(
            now,
            "observation",
            json!({"event": "guardrail", "rail": trip.rail(), "reason": report.reason}),
            out,
        );
        out.push(Output::Record(Record::MorningReport(report.clone())));
        self.hold = Some(report);
        match &self.state {
            _ if self.parked.is_some() => {}
            State::SleepWork(_) | State::Held(_) | State::Starting | State::Stopped => {}
            State::Asleep(a) if a.dreamt => self.held_asleep(now, false, out),
            State::Asleep(a) => {
                let started = a.started;
                out.push(Output::Record(Record::RemoveSleepFile));
                let reason = self
                    .hold
                    .as_ref()
                    .map(|r| r.reason.clone())
                    .unwrap_or_default();
                let sleep = Sleep {
                    seconds: Some(self.cfg.cycle.deep_sleep_pause_s),
                    text: Some(format!("forced consolidation (guardrail: {reason})")),
                    actions: Some(0),
                };
                self.event(now, CreatureEvent::Sleep(sleep), out);
                self.start_sleep_work(now, SleepCause::Forced, started, out);
            }
            State::Backoff { .. } | State::Ticking { .. } => {
                self.force = Some(Force::Guardrail);
                self.state = State::Ready;
                self.pump(now, out);
            }
            State::Ready
            | State::Thinking { .. }
            | State::Acting(_)
            | State::Waking { .. }
            | State::Compacting(_) => {
                self.force = Some(Force::Guardrail);
                self.pump(now, out);
            }
        }
    }

    /// The sleep a guardrail forced is over: the creature stays asleep (no wake time)
    /// and its morning report is completed. A person's wake asked for meanwhile wakes it
    /// now; any other wake is dropped.
    pub(super) fn held_asleep(
        &mut self,
        now: DateTime<Utc>,
        consolidated: bool,
        out: &mut Vec<Output<G>>,
    ) {
        let Some(report) = self.hold.as_mut() else {
            return;
        };
        if report.slept_at.is_none() {
            report.slept_at = Some(now);
            report.consolidated = consolidated;
            out.push(Output::Record(Record::MorningReport(report.clone())));
        }
        if let State::Asleep(a) = &mut self.state {
            a.due = true;
        }
        let woken = matches!(self.wake_early.take(), Some(super::WakeSource::Operator));
        if woken {
            self.release(now, out);
            self.begin_wake(now, super::WakeSource::Operator, out);
        }
    }

    /// A person woke the creature: the hold ends, the report says so.
    pub(super) fn release(&mut self, now: DateTime<Utc>, out: &mut Vec<Output<G>>) {
        let Some(mut report) = self.hold.take() else {
            return;
        };
        self.guard.release();
        report.woken_at = Some(now);
        self.guard_event(now, "woken", &report.reason, "woken by a person", out);
        out.push(Output::Record(Record::MorningReport(report)));
    }

    fn guard_event(
        &self,
        now: DateTime<Utc>,
        phase: &str,
        reason: &str,
        text: &str,
        out: &mut Vec<Output<G>>,
    ) {
        let mut fields = Map::new();
        fields.insert("phase".into(), Value::from(phase));
        fields.insert("reason".into(), Value::from(reason));
        fields.insert("text".into(), Value::from(text));
        out.push(Output::Record(Record::Event {
            t: now,
            kind: EventKind::Other(GUARDRAIL_EVENT.into()),
            fields,
        }));
    }
}
