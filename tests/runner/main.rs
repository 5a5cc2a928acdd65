//! The runner: a creature's cycle hosted in process or by the real binary, on the
//! rehearsal brain or a model on the shared local server.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

// Shared with the other test binaries: `pub`, so that what this one leaves unused is
// not dead code.
#[path = "../common/mod.rs"]
pub mod common;

mod confine;
mod control;
mod crash;
mod disk_full;
mod dream_diffs;
mod emergence;
mod emergence_garden;
mod emergence_openai;
mod evennia;
mod evennia_openai;
mod garden;
mod guardrails;
mod hostile_files;
mod inbox;
mod key;
mod life;
mod liveness;
mod otel;
mod otel_run;
mod recorder;
mod recorder_sources;
mod refused_key;
mod review;
mod roundtrip;
mod secrets;
mod tools;
