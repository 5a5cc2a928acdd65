//! OpenSeed's dreamer (DESIGN.md section 3): observations, dreams, priorities, rules and a
//! diary. Its files are the OpenSeed contract every creature is read by, so the memory
//! model reads them itself; the genome is the default for a creature that names none.

use crate::memory::genome::GenomeSpec;

/// The genome's name, as BIRTH.json writes it.
pub const NAME: &str = "dreamer";

/// The genome as the memory model knows it.
pub static SPEC: GenomeSpec = GenomeSpec {
    name: NAME,
    // dreamwatch's runner wrote its own name as the genome before the genome had one.
    aliases: &["dreamwatch"],
    files: &[],
    marks: &[],
    memory: None,
};

pub mod runner;
pub mod ui;

/// The genome's parts, for the registry.
pub const PLUGIN: super::Plugin = super::Plugin {
    memory: &SPEC,
    views: &ui::GENOME,
    runner: Some(&runner::HOSTED),
};
