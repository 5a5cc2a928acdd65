//! Seed 003's "Agent Memory & Cognition" (Emergence World): soul, long-term memory,
//! self-care, diary, plans and the relationship graph.

pub mod memory;

pub mod runner;
pub mod ui;

/// The genome's parts, for the registry.
pub const PLUGIN: super::Plugin = super::Plugin {
    memory: &memory::SPEC,
    views: &ui::GENOME,
    runner: Some(&runner::HOSTED),
};
