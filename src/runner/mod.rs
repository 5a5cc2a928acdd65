//! The embedded creature runner: the dreamer cycle as a pure state machine ([`fsm`]) plus a
//! driver ([`driver`]) that performs its effects with an injectable clock ([`clock`]).
//!
//! Hosting a creature in-process: build [`driver::RunnerOptions`], [`driver::Runner::open`]
//! it, hand [`driver::Runner::hosted`] to the observatory, and spawn [`driver::Runner::run`].
//! A headless runner serves the same commands on a Unix socket ([`socket`]).

pub mod activity;
pub mod adoption;
pub mod clock;
pub mod config;
pub mod consolidation;
pub mod deep_sleep;
pub mod disk;
pub mod driver;
pub mod fsm;
pub mod progress;
pub mod prompt;
pub mod restore;
pub mod socket;
pub mod tools;
pub mod wake;
