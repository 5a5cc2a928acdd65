//! The observatory on a test backend: behaviour driven through its input handler, and the
//! drawn screens checked against insta snapshots (`ui/snapshots/`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

// Shared with the other test binaries: `pub`, so that what this one leaves unused is
// not dead code.
#[path = "../common/mod.rs"]
pub mod common;

mod behaviour;
mod commands;
mod costs;
mod cycle;
mod demo_keys;
mod dream_changes;
mod emergence;
mod evennia;
mod events;
mod garden;
mod health;
mod held;
mod loading;
mod newcomer;
mod notify;
mod open;
mod openseed;
mod openseed_api_only;
mod openseed_dashboard;
mod openseed_files;
mod openseed_loop;
mod openseed_mail;
mod openseed_real;
mod palette;
mod read_only;
mod recorder;
mod remote;
mod restore;
mod review;
mod review_runner;
mod search_garden;
mod snapshots;
mod sparklines;
mod talk;
mod time_cursor;
