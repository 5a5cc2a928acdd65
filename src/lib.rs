//! dreamwatch: a terminal observatory for creatures that keep their memory on disk,
//! and a runner that hosts one.
//!
//! Data flows one way: files -> [`tail`] -> [`memory`] (a model of each creature) -> [`ui`].
//! Commands flow back: keys -> actions -> [`runner`] control or file writes.

pub mod app;
pub mod control;
pub mod inspect;
pub mod llm;
pub mod logging;
pub mod memory;
pub mod runner;
pub mod search;
pub mod tail;
pub mod text;
pub mod ui;
pub mod watch;
