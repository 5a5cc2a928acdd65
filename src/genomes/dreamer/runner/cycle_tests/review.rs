//! Dreams reviewed before they apply: the proposal's life in the engine (held, applied,
//! rejected, edited, timed out, never, restart with one pending), no IO. The harness
//! plays the driver, answering `Output::Review` with `Input::Reviewed`.

use chrono::{TimeDelta, Utc};

use super::H;
use crate::control::{Answer, ControlCommand};
use crate::genomes::dreamer::runner::DreamerRestored;
use crate::memory::status::Status;
use crate::runner::config::RunnerConfig;
use crate::runner::engine::input::{self, Input, Reviewed};
use crate::runner::engine::output::{HeldSleep, Output, ReviewIo};

fn review(timeout: &str) -> RunnerConfig {
    RunnerConfig {
        review_dreams: true,
        review_timeout: timeout.into(),
        ..RunnerConfig::default()
    }
}

impl H {
    fn review_io(&self) -> Vec<ReviewIo> {
        self.out
            .iter()
            .filter_map(|o| match o {
                Output::Review(io) => Some(io.clone()),
                _ => None,
            })
            .collect()
    }

    /// Two actions, a sleep of 300 s, and its dream played through: held.
    fn dream_held(cfg: RunnerConfig, max_dreams: Option<u64>) -> (Self, HeldSleep) {
        let mut h = Self::start_with(
            cfg,
            max_dreams,
            input::Restored {
                fresh: true,
                purpose: "grow".into(),
                ..Default::default()
            },
        );
        h.bash(2);
        h.set_sleep(300.0);
        assert!(
            h.all
                .iter()
                .any(|o| matches!(o, Output::Review(ReviewIo::Stage))),
            "the sleep work writes to the working copy"
        );
        h.dream();
        let [ReviewIo::Propose(sleep)] = h.review_io()[..] else {
            panic!("a proposal is asked for: {:?}", h.out);
        };
        assert_eq!(h.fsm.status(), Status::Dreaming);
        assert_eq!(h.fsm.awaited_timer(), None, "no wake before it is decided");
        (h, sleep)
    }

    fn held(&mut self) {
        self.send(Input::Reviewed(Reviewed::Proposed { held: true }));
    }

    fn decided(&mut self, dreams: u64) {
        self.send(Input::Reviewed(Reviewed::Decided {
            genome: DreamerRestored {
                dreams,
                ..Default::default()
            },
        }));
    }
}

#[test]
fn a_dream_is_held_until_applied_then_the_creature_sleeps_on() {
    let (mut h, sleep) = H::dream_held(review("10m"), None);
    assert_eq!(sleep.deadline, Some(h.now + TimeDelta::minutes(10)));
    assert!(sleep.consolidated && !sleep.deep);
    assert_eq!(sleep.rest_s, 300.0);
    h.held();
    assert_eq!(h.timer().map(|(_, at)| at), sleep.deadline);
    assert_eq!(h.fsm.status(), Status::Dreaming);
    h.control(ControlCommand::Proposal);
    assert_eq!(h.review_io(), [ReviewIo::Show]);
    h.control(ControlCommand::ApplyProposal);
    assert_eq!(
        h.review_io(),
        [ReviewIo::Decide {
            apply: true,
            timed_out: false
        }]
    );
    // A second decision while the first is written: nothing pending.
    h.control(ControlCommand::RejectProposal);
    assert_eq!(h.answer(), Some(Answer::NoProposal));
    h.decided(1);
    assert_eq!(h.fsm.dreams(), 1, "the genome reads the files as applied");
    assert!(matches!(h.fsm.status(), Status::Asleep { .. }));
    let (_, wake_at) = h.timer().unwrap();
    assert_eq!(wake_at, h.now + TimeDelta::seconds(300));
    h.wake();
    assert_eq!(h.fsm.status(), Status::Awake);
}

#[test]
fn a_rejected_dream_leaves_the_genome_as_the_files_are_and_the_creature_wakes() {
    let (mut h, _) = H::dream_held(review("10m"), None);
    h.held();
    h.control(ControlCommand::RejectProposal);
    assert_eq!(
        h.review_io(),
        [ReviewIo::Decide {
            apply: false,
            timed_out: false
        }]
    );
    h.decided(0);
    assert_eq!(h.fsm.dreams(), 0);
    h.wake();
    assert_eq!(h.fsm.status(), Status::Awake);
    assert!(h.llm().is_some(), "it thinks again");
}

#[test]
fn an_edit_is_held_again_with_a_new_countdown() {
    let (mut h, sleep) = H::dream_held(review("10m"), None);
    h.held();
    let (old, _) = h.timer().unwrap();
    h.now += TimeDelta::minutes(4);
    h.control(ControlCommand::ReplaceProposal { text: "x".into() });
    let deadline = Some(h.now + TimeDelta::minutes(10));
    assert_eq!(
        h.review_io(),
        [ReviewIo::Replace {
            text: "x".into(),
            deadline
        }]
    );
    // Refused: the old countdown stands.
    h.send(Input::Reviewed(Reviewed::Replaced {
        accepted: false,
        deadline,
    }));
    assert_eq!(h.fsm.awaited_timer(), Some(old));
    h.send(Input::Reviewed(Reviewed::Replaced {
        accepted: true,
        deadline,
    }));
    let (new, at) = h.timer().unwrap();
    assert_ne!(new, old);
    assert_eq!(Some(at), deadline);
    assert!(Some(at) > sleep.deadline);
    // The old timer is outdated.
    h.send(Input::Timer { id: old });
    assert!(h.review_io().is_empty());
    h.control(ControlCommand::ApplyProposal);
    assert!(matches!(
        h.review_io()[..],
        [ReviewIo::Decide { apply: true, .. }]
    ));
}

#[test]
fn a_proposal_left_alone_applies_itself_when_its_time_runs_out() {
    let (mut h, sleep) = H::dream_held(review("90s"), None);
    h.held();
    h.fire();
    assert_eq!(Some(h.now), sleep.deadline);
    assert_eq!(
        h.review_io(),
        [ReviewIo::Decide {
            apply: true,
            timed_out: true
        }]
    );
    h.decided(1);
    assert!(matches!(h.fsm.status(), Status::Asleep { .. }));
}

#[test]
fn never_waits_for_the_operator() {
    let (mut h, sleep) = H::dream_held(review("never"), None);
    assert_eq!(sleep.deadline, None);
    h.held();
    assert_eq!(h.fsm.awaited_timer(), None);
    assert_eq!(h.timer(), None);
    h.now += TimeDelta::days(3);
    h.control(ControlCommand::ApplyProposal);
    assert!(matches!(
        h.review_io()[..],
        [ReviewIo::Decide {
            apply: true,
            timed_out: false
        }]
    ));
}

#[test]
fn a_sleep_work_that_wrote_nothing_goes_on_at_once() {
    let (mut h, _) = H::dream_held(review("10m"), None);
    h.send(Input::Reviewed(Reviewed::Proposed { held: false }));
    assert!(matches!(h.fsm.status(), Status::Asleep { .. }));
    h.control(ControlCommand::ApplyProposal);
    assert_eq!(h.answer(), Some(Answer::NoProposal));
}

#[test]
fn a_restart_with_a_pending_proposal_holds_it_with_its_deadline() {
    let deadline = Utc::now() + TimeDelta::hours(1);
    let sleep = HeldSleep {
        deadline: Some(deadline),
        deep: true,
        consolidated: true,
        started: Utc::now(),
        rest_s: 300.0,
        wake: false,
    };
    let mut h = H::start(
        review("10m"),
        input::Restored {
            purpose: "grow".into(),
            held: Some(sleep),
            ..Default::default()
        },
    );
    assert_eq!(h.fsm.status(), Status::Dreaming);
    assert_eq!(h.timer().map(|(_, at)| at), Some(deadline));
    assert!(h.llm().is_none(), "no turn before it is decided");
    h.control(ControlCommand::RejectProposal);
    assert!(matches!(
        h.review_io()[..],
        [ReviewIo::Decide { apply: false, .. }]
    ));
    h.decided(0);
    assert!(matches!(h.fsm.status(), Status::DeepSleep { .. }));
}

#[test]
fn the_run_ends_at_max_dreams_only_once_the_dream_is_decided() {
    let (mut h, _) = H::dream_held(review("10m"), Some(1));
    assert!(!h.out.iter().any(|o| matches!(o, Output::Exit)));
    h.held();
    assert!(!h.out.iter().any(|o| matches!(o, Output::Exit)));
    h.control(ControlCommand::ApplyProposal);
    h.decided(1);
    assert!(h.out.iter().any(|o| matches!(o, Output::Exit)));
}

#[test]
fn a_wake_asked_while_held_comes_right_after_the_decision() {
    let (mut h, _) = H::dream_held(review("10m"), None);
    h.held();
    h.control(ControlCommand::Wake);
    assert_eq!(h.fsm.status(), Status::Dreaming);
    h.control(ControlCommand::ForceSleep);
    assert_eq!(h.answer(), Some(Answer::AlreadyDreaming));
    h.control(ControlCommand::ApplyProposal);
    h.decided(1);
    h.gather(None);
    assert_eq!(h.fsm.status(), Status::Awake);
}

#[test]
fn without_review_or_without_a_proposal_nothing_is_held() {
    let mut h = H::fresh();
    h.control(ControlCommand::ApplyProposal);
    assert_eq!(h.answer(), Some(Answer::NoProposal));
    h.bash(2);
    h.set_sleep(300.0);
    h.dream();
    assert!(!h.all.iter().any(|o| matches!(o, Output::Review(_))));
    assert!(matches!(h.fsm.status(), Status::Asleep { .. }));
}
