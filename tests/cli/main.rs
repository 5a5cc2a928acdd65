//! The command line: the real binary run on fixture creatures (`inspect`, `screenshot`,
//! config and paths, `run --adopt`), and the docs naming only files the repository has.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

// Shared with the other test binaries: `pub`, so that what this one leaves unused is
// not dead code.
#[path = "../common/mod.rs"]
pub mod common;

mod closed_pipe;
mod config;
mod demo_dir;
mod docs_paths;
mod escapes;
mod export_otel;
mod inspect;
mod paths;
mod run_adopt;
mod screenshot;
