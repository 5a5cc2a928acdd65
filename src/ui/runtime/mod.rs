//! Running the observatory in a terminal: the terminal itself, the event loop, the clock,
//! and the jobs (runner commands, message files, searches) that actions ask for.

pub mod color_depth;
pub mod event_loop;
pub mod jobs;
pub mod startup;
pub mod terminal;
pub mod ticks;
