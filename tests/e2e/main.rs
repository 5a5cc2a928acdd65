//! End to end: the real binary in tmux panes, and gardens on another machine through a
//! real sshd started on 127.0.0.1. Slow and sensitive to load: `.config/nextest.toml`
//! runs them one at a time.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

// Shared with the other test binaries: `pub`, so that what this one leaves unused is
// not dead code.
#[path = "../common/mod.rs"]
pub mod common;
pub mod support;

mod hangup;
mod hostile_far;
mod idle;
mod remote_ssh;
mod tmux;
mod tmux_comforts;
mod tmux_counting;
mod tmux_guardrails;
mod tmux_notify;
mod tmux_openseed;
mod tmux_openseed_files;
mod tmux_operator;
mod tmux_recorder;
mod tmux_review;
mod tmux_time;
