//! dreamwatch: a terminal observatory for creatures that keep their memory on disk,
//! and a runner that hosts one.
//!
//! Data flows one way: files -> [`tail`] -> [`memory`] (a model of each creature) -> [`ui`].
//! Commands flow back: keys -> actions -> [`control`] (a hosted runner's channel or a
//! runner's socket) or file writes. [`app`] is the composition root: the command line,
//! the config file, and the wiring of the runner and the observatory.

pub mod app;
pub mod control;
pub mod genomes;
pub mod history;
pub mod inspect;
pub mod llm;
pub mod logging;
pub mod memory;
pub mod openseed;
pub mod recorder;
pub mod remote;
pub mod runner;
pub mod search;
pub mod tail;
pub mod telemetry;
pub mod text;
pub mod ui;
pub mod watch;
