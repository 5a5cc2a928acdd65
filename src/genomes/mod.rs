//! The genomes: one folder each, holding everything of one memory system, from its files
//! on disk to its views on screen. A genome's `memory` part plugs into the memory model
//! (`memory::genome`), its `runner` part into the creature cycle, its `ui` part into the
//! observatory; the composition root's registry (`app::genomes`) is the one place that
//! lists them. ARCHITECTURE.md ("Adding a genome") walks through one.

pub mod dreamer;
pub mod emergence;
pub mod evennia;
pub mod minimal;
pub mod wonders;

use crate::memory::genome::GenomeSpec;
use crate::runner::hosting::HostedGenome;
use crate::ui::genome::GenomeViews;

/// A genome's parts, as the registry lists them.
#[derive(Debug)]
pub struct Plugin {
    /// How the memory model reads its files.
    pub memory: &'static GenomeSpec,
    /// How the observatory shows its creatures.
    pub views: &'static GenomeViews,
    /// How dreamwatch's runner hosts one (`None`: only watched).
    pub runner: Option<&'static HostedGenome>,
}
