//! Watching creature directories: one notify watcher over directories, events as hints
//! (batched, deduplicated, then re-stat'ed by the model), a polling fallback, and the
//! live garden that applies the hints to every creature's model.

#[cfg(target_os = "linux")]
mod dir_events;
mod live;
mod opening;
mod watcher;

pub use live::{LiveChange, LiveGarden, POLL_SLICE};
pub use watcher::{WatchBatch, WatchMode, WatchOptions, Watcher};
