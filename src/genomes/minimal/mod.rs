//! OpenSeed's `minimal` genome (openseed-dev/openseed 815f9fd, `genomes/minimal`): a loop
//! of cycles, each a fresh conversation that ends when the creature calls `set_sleep`.
//! It keeps no memory of its own: on disk only `.sys/cycle-count` and the events its
//! host records (tests/fixtures/openseed/GENOMES.md). Watched, not hosted.

pub mod memory;
pub mod ui;

/// The genome's parts, for the registry.
pub const PLUGIN: super::Plugin = super::Plugin {
    memory: &memory::SPEC,
    views: &ui::GENOME,
    runner: None,
};
