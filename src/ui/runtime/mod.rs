//! Running the observatory in a terminal: the terminal itself, the event loop, the clock,
//! and the jobs (runner commands, message files, searches) that actions ask for.

pub mod clipboard;
pub mod color_depth;
pub mod event_loop;
pub mod garden_memory;
pub mod handover;
pub mod hangup;
pub mod jobs;
pub mod notify;
pub mod review_edit;
pub mod startup;
pub mod terminal;
pub mod ticks;
