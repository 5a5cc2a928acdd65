//! Dreams reviewed before they apply (`--review-dreams`): the sleep work of a genome that
//! names the files it writes ([`Genome::REVIEWED`]) writes them to a working copy; when it
//! is over, what it wrote is held as a proposal and the creature stays in its sleep until
//! the operator applies or rejects it, or its time runs out (`review_timeout`). Then the
//! genome is restored from the files as they are, and the sleep goes on.
//!
//! The engine holds the proposal's life (held, deciding, its deadline and timer); the
//! driver does its IO ([`ReviewIo`]) and answers the operator's review commands.

use chrono::{DateTime, Utc};

use crate::control::{Answer, ControlCommand};
use crate::runner::genome::Genome;

use super::input::Reviewed;
use super::output::{HeldSleep, Output, ReviewIo};
use super::{Engine, State};

/// A consolidation waiting for review.
#[derive(Debug)]
pub(super) struct Held {
    pub(super) sleep: HeldSleep,
    /// The driver has made the proposal (it had something to hold).
    proposed: bool,
    /// A decision is being written.
    deciding: bool,
    /// The timer of the deadline.
    pub(super) timer: Option<u64>,
}

impl<G: Genome> Engine<G> {
    /// Whether this run's sleep work is reviewed.
    fn reviews(&self) -> bool {
        self.cfg.review_dreams && !G::REVIEWED.is_empty()
    }

    /// The sleep work begins: under review, its writes go to the working copy.
    pub(super) fn stage(&mut self, out: &mut Vec<Output<G>>) {
        if self.reviews() {
            self.staging = true;
            out.push(Output::Review(ReviewIo::Stage));
        }
    }

    /// The reviewed sleep work is over: the driver holds what it wrote.
    pub(super) fn propose(
        &mut self,
        now: DateTime<Utc>,
        mut sleep: HeldSleep,
        out: &mut Vec<Output<G>>,
    ) {
        sleep.deadline = self.review_deadline(now);
        self.state = State::Held(Held {
            sleep,
            proposed: false,
            deciding: false,
            timer: None,
        });
        out.push(Output::Review(ReviewIo::Propose(sleep)));
    }

    /// A proposal found pending at start: held again, with its deadline.
    pub(super) fn hold_restored(&mut self, sleep: HeldSleep, out: &mut Vec<Output<G>>) {
        self.state = State::Held(Held {
            sleep,
            proposed: true,
            deciding: false,
            timer: None,
        });
        self.arm_review_timer(out);
    }

    fn review_deadline(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.cfg.review_timeout().ok().flatten().map(|d| now + d)
    }

    fn arm_review_timer(&mut self, out: &mut Vec<Output<G>>) {
        let id = self.next_id + 1;
        let State::Held(held) = &mut self.state else {
            return;
        };
        held.timer = held.sleep.deadline.map(|at| {
            out.push(Output::Timer { id, at });
            id
        });
        if held.timer.is_some() {
            self.next_id = id;
        }
    }

    pub(super) fn on_reviewed(
        &mut self,
        now: DateTime<Utc>,
        r: Reviewed<G::Restored>,
        out: &mut Vec<Output<G>>,
    ) {
        let State::Held(held) = &mut self.state else {
            return;
        };
        match r {
            Reviewed::Proposed { held: true } => {
                held.proposed = true;
                self.arm_review_timer(out);
            }
            Reviewed::Proposed { held: false } => {
                let sleep = held.sleep;
                self.go_on(now, sleep, out);
            }
            Reviewed::Decided { genome } => {
                let sleep = held.sleep;
                self.genome.restore(genome);
                self.go_on(now, sleep, out);
            }
            Reviewed::NotDecided => held.deciding = false,
            Reviewed::Replaced { accepted, deadline } => {
                if accepted {
                    held.sleep.deadline = deadline;
                    self.arm_review_timer(out);
                }
            }
        }
    }

    /// The deadline came: the proposal applies itself.
    pub(super) fn on_review_timer(&mut self, out: &mut Vec<Output<G>>) {
        if let State::Held(held) = &mut self.state
            && held.proposed
            && !held.deciding
        {
            held.deciding = true;
            held.timer = None;
            out.push(Output::Review(ReviewIo::Decide {
                apply: true,
                timed_out: true,
            }));
        }
    }

    /// A review command of the operator's.
    pub(super) fn on_review_command(
        &mut self,
        now: DateTime<Utc>,
        cmd: ControlCommand,
        out: &mut Vec<Output<G>>,
    ) {
        let deadline = self.review_deadline(now);
        let held = match &mut self.state {
            State::Held(h) if h.proposed && !h.deciding => h,
            _ => return out.push(Output::Answer(Answer::NoProposal)),
        };
        let io = match cmd {
            ControlCommand::ApplyProposal | ControlCommand::RejectProposal => {
                held.deciding = true;
                ReviewIo::Decide {
                    apply: cmd == ControlCommand::ApplyProposal,
                    timed_out: false,
                }
            }
            ControlCommand::ReplaceProposal { text } => ReviewIo::Replace { text, deadline },
            _ => ReviewIo::Show,
        };
        out.push(Output::Review(io));
    }
}
