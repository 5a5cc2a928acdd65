//! What several test binaries share, declared `pub` in each (`#[path]` to this file) so
//! that the part a binary leaves unused is not dead code.

pub mod cli;
pub mod http;
pub mod life;
pub mod proc_io;
pub mod runner;
pub mod ui;
