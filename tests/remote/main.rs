//! Gardens elsewhere: the wire protocol to a far side, and the OpenSeed orchestrator's
//! client and mirror against its stand-in on the shared local server.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

// Shared with the other test binaries: `pub`, so that what this one leaves unused is
// not dead code.
#[path = "../common/mod.rs"]
pub mod common;

mod hostile;
mod idle;
mod openseed;
mod openseed_client;
mod openseed_files;
mod openseed_mail;
mod wire;
