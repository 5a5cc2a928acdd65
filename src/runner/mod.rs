//! The embedded creature runner: the creature cycle as a pure state machine ([`engine`]),
//! the memory system it hosts behind a seam ([`genome`]; the dreamer today), and a driver
//! ([`driver`]) that performs the engine's outputs with an injectable clock ([`clock`]).
//!
//! Hosting a creature in-process: build [`driver::RunnerOptions`], [`driver::Runner::open`]
//! it, hand [`driver::Runner::hosted`] to the observatory, and spawn [`driver::Runner::run`].
//! A headless runner serves the same commands on a Unix socket ([`socket`]).

pub mod activity;
pub mod adoption;
pub mod brain;
pub mod clock;
pub mod config;
pub mod disk;
pub mod driver;
pub mod engine;
pub mod garden;
pub mod genome;
pub mod genome_config;
pub mod guard;
pub mod hosting;
pub mod mail;
pub mod open;
pub mod progress;
pub mod prompt;
pub mod restore;
pub mod review;
pub mod sandbox;
pub mod socket;
pub mod telemetry;
pub mod tools;
pub mod usage;
pub mod wake;
