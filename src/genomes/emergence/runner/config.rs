//! The emergence genome's settings (`[runner.emergence]` in the config file). Defaults are
//! seed 003's values.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::runner::config::RunnerConfig;
use crate::runner::genome_config::GenomeConfig;

/// The emergence settings of a runner's config.
pub fn of(cfg: &RunnerConfig) -> Cow<'_, EmergenceConfig> {
    cfg.genomes.get()
}

impl GenomeConfig for EmergenceConfig {
    const SECTION: &'static str = "emergence";
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EmergenceConfig {
    /// Self-care is refused with fewer long-term memories than this.
    pub min_memories: usize,
    /// Memories summarised per batch.
    pub batch: usize,
    /// Tokens of material one summarising request may carry (a batch or a stretch of
    /// dialogue past it is split).
    pub token_ceiling: usize,
    /// Tokens of dialogue the creature keeps unarchived after self-care.
    pub post_summary_ceiling: usize,
    /// Dialogue lines kept unarchived after self-care.
    pub max_dialogues: usize,
    /// Seconds (creature time) a neural-link request may be accepted in.
    pub link_window_s: f64,
}

impl Default for EmergenceConfig {
    fn default() -> Self {
        Self {
            min_memories: 30,
            batch: 500,
            token_ceiling: 100_000,
            post_summary_ceiling: 50_000,
            max_dialogues: 1_000,
            link_window_s: 120.0,
        }
    }
}

/// Tokens in `text`, estimated as one per four bytes (no tokenizer is shared by every
/// provider; the estimate errs on the side of more tokens for non-ASCII text).
pub fn tokens(text: &str) -> usize {
    text.len().div_ceil(4)
}
