//! The creature memory model: the on-disk contract (DESIGN.md section 2) as types, pure
//! parsers, and a live model of each creature directory.

pub mod conversation;
pub mod creature;
pub mod creature_map;
pub mod cycle;
pub mod documents;
pub mod dream_log;
pub mod dreams;
pub mod emergence;
pub mod evennia;
pub mod events;
pub mod fast_json;
pub mod garden;
pub mod genome;
pub mod identity;
pub mod inbox;
pub mod iterations;
pub mod json;
pub mod keyed;
pub mod layout;
pub mod lenient;
pub mod messages;
pub mod observation_log;
pub mod observations;
pub mod op_line;
pub mod problem;
pub mod recent;
pub mod runner_lock;
pub mod status;
pub mod streams;
pub mod summary;
pub mod time;
pub mod vectors;
pub mod whole_files;
pub mod write;
