//! The operator's commands.

use chrono::{DateTime, Utc};
use serde_json::json;

use crate::control::{Answer, ControlCommand};
use crate::memory::events::{CreatureEvent, OperatorAct, Sleep};
use crate::runner::genome::{Genome, SleepCause};

use super::output::{Output, Record};
use super::{Engine, Force, State, WakeSource};

impl<G: Genome> Engine<G> {
    pub(super) fn on_control(
        &mut self,
        now: DateTime<Utc>,
        cmd: ControlCommand,
        out: &mut Vec<Output<G>>,
    ) {
        if matches!(self.state, State::Stopped | State::Starting) {
            if matches!(cmd, ControlCommand::ForceSleep | ControlCommand::Wake) {
                out.push(Output::Answer(Answer::Stopped));
            } else if cmd.is_review() {
                out.push(Output::Answer(Answer::NoProposal));
            }
            return;
        }
        if cmd.is_review() {
            return self.on_review_command(now, cmd, out);
        }
        match cmd {
            ControlCommand::Pause => {
                if !self.paused {
                    self.paused = true;
                    out.push(Output::Record(Record::Runner { paused: true }));
                    self.event(now, CreatureEvent::Pause(by_operator()), out);
                    self.memory(now, "observation", json!({"event": "paused"}), out);
                }
            }
            ControlCommand::Resume => {
                if self.paused {
                    self.paused = false;
                    out.push(Output::Record(Record::Runner { paused: false }));
                    self.event(now, CreatureEvent::Resume(by_operator()), out);
                    self.memory(now, "observation", json!({"event": "resumed"}), out);
                    self.pump(now, out);
                }
            }
            ControlCommand::ForceSleep => self.force_sleep(now, out),
            ControlCommand::Wake => match &self.state {
                State::Asleep(_) => {
                    self.release(now, out);
                    self.begin_wake(now, WakeSource::Operator, out)
                }
                State::SleepWork(_) => self.wake_during_sleep_work(now, WakeSource::Operator, out),
                // It wakes once the proposal is decided.
                State::Held(_) => {
                    if self.wake_early.is_none() {
                        self.wake_early = Some(WakeSource::Operator);
                    }
                }
                _ if self.parked.is_some() => {
                    if self.wake_early.is_none() {
                        self.wake_early = Some(WakeSource::Operator);
                    }
                }
                State::Backoff { .. } | State::Ticking { .. } => {
                    self.state = State::Ready;
                    self.pump(now, out);
                }
                _ => out.push(Output::Answer(Answer::AlreadyAwake)),
            },
            ControlCommand::Message { text } => {
                if text.trim().is_empty() {
                    return;
                }
                self.message(now, text, out);
            }
            ControlCommand::Speed { times } => self.set_speed(now, times, out),
            ControlCommand::Proposal
            | ControlCommand::ApplyProposal
            | ControlCommand::RejectProposal
            | ControlCommand::ReplaceProposal { .. } => {}
        }
    }

    /// A forced consolidation whatever the dream interval: now, or once the turn in flight
    /// is over (its own `set_sleep` gives way), or once resumed.
    fn force_sleep(&mut self, now: DateTime<Utc>, out: &mut Vec<Output<G>>) {
        let answer = match &self.state {
            _ if self.parked.is_some() => Answer::AlreadyDreaming,
            State::SleepWork(_) | State::Held(_) => Answer::AlreadyDreaming,
            State::Asleep(a) if a.dreamt => Answer::AlreadyAsleep { until: a.wake_at },
            _ if self.paused => Answer::Paused,
            State::Ready | State::Backoff { .. } | State::Ticking { .. } | State::Asleep(_) => {
                Answer::Dreaming
            }
            _ => Answer::DreamsNext,
        };
        out.push(Output::Answer(answer));
        if self.parked.is_some() {
            return;
        }
        match &self.state {
            State::Ready
            | State::Thinking { .. }
            | State::Acting(_)
            | State::Waking { .. }
            | State::Compacting(_) => {
                self.force = Some(Force::Operator);
                self.pump(now, out);
            }
            State::Backoff { .. } | State::Ticking { .. } => {
                self.force = Some(Force::Operator);
                self.state = State::Ready;
                self.pump(now, out);
            }
            // A nap or plain pause becomes a forced consolidation; a sleep that already
            // dreamt has nothing left to consolidate.
            State::Asleep(a) if !a.dreamt => {
                let started = a.started;
                out.push(Output::Record(Record::RemoveSleepFile));
                let sleep = Sleep {
                    seconds: Some(self.cfg.cycle.deep_sleep_pause_s),
                    text: Some("forced consolidation (operator)".into()),
                    actions: Some(0),
                };
                self.event(now, CreatureEvent::Sleep(sleep), out);
                self.start_sleep_work(now, SleepCause::Operator, started, out);
            }
            _ => {}
        }
    }
}

impl<G: Genome> Engine<G> {
    /// Creature time passes `times` times faster from now on: a sleep under way is woken
    /// after what it had left in creature time, at the new speed.
    fn set_speed(&mut self, now: DateTime<Utc>, times: u32, out: &mut Vec<Output<G>>) {
        let (old, new) = (self.cfg.speed, f64::from(times.max(1)));
        self.cfg.speed = new;
        let timer = self.id();
        if let State::Asleep(a) = &mut self.state
            && a.wake_at > now
        {
            let left = (a.wake_at - now).num_milliseconds() as f64 * old / new;
            a.wake_at = now + chrono::TimeDelta::milliseconds(left.round() as i64);
            a.timer = timer;
            out.push(Output::Record(Record::SleepFile { wake_at: a.wake_at }));
            out.push(Output::Timer {
                id: timer,
                at: a.wake_at,
            });
        }
    }
}

fn by_operator() -> OperatorAct {
    OperatorAct {
        source: Some("operator".into()),
    }
}
