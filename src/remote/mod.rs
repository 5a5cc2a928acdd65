//! Gardens on other machines. The far side (`dreamwatch inspect --follow --wire`, in
//! `inspect`) reports each creature's files as [`wire`] lines: a first snapshot, then
//! each change ([`follow`], [`files`]); the near side ([`connect`]) reaches it through
//! the system's ssh client ([`target`]), writes what it reports into a copy of the far
//! garden ([`mirror`]) that the local watcher and memory model read like any creature,
//! and passes requests (a runner command, a message) the other way on the same
//! connection.

pub mod connect;
pub mod files;
pub mod follow;
pub mod head_cache;
pub mod lines;
pub mod mirror;
pub mod mux;
pub mod place;
pub mod target;
pub mod wire;

pub use connect::{Answered, Ask, Limits, Remote, Update, connect, connect_with};
pub use target::{Transport, is_ssh};
