//! OpenSeed's `wonders` genome (openseed-dev/openseed 815f9fd, `genomes/wonders`): the
//! `minimal` loop plus a subconscious that, after each tool turn, wonders, searches the
//! creature's old thoughts and may surface one memory into the conversation. On disk:
//! `.sys/subconscious.jsonl`, `.sys/cycle-count` and the events its host records
//! (tests/fixtures/openseed/GENOMES.md). Watched, not hosted.

pub mod memory;
pub mod ui;

/// The genome's parts, for the registry.
pub const PLUGIN: super::Plugin = super::Plugin {
    memory: &memory::SPEC,
    views: &ui::GENOME,
    runner: None,
};
