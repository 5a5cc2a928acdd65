//! Running the observatory in a terminal: the terminal itself, the event loop, the clock,
//! and the effects (runner commands, message files) that actions ask for.

pub mod color_depth;
pub mod effects;
pub mod event_loop;
pub mod startup;
pub mod terminal;
pub mod ticks;
