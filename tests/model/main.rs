//! The memory model: the on-disk parsers (never panicking), the live creature model and its
//! watcher, and the fixture creatures of every genome and era.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

pub mod support;

mod emergence;
mod evennia;
mod fixtures_eras;
mod fixtures_openseed;
mod live;
mod observations_grow;
mod parsers_never_panic;
mod watch_live;
