//! Seed 002's "Memory and Sleep" (evennia_ai): journal, semantic memory, entities,
//! reflections, sleep phases and working memory.

pub mod memory;

pub mod runner;
pub mod ui;

/// The genome's parts, for the registry.
pub const PLUGIN: super::Plugin = super::Plugin {
    memory: &memory::SPEC,
    views: &ui::GENOME,
    runner: Some(&runner::HOSTED),
};
