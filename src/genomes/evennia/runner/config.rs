//! The evennia genome's settings (`[runner.evennia]` in the config file). Defaults are
//! seed 002's values.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::runner::config::RunnerConfig;
use crate::runner::genome_config::GenomeConfig;

/// The evennia settings of a runner's config.
pub fn of(cfg: &RunnerConfig) -> Cow<'_, EvenniaConfig> {
    cfg.genomes.get()
}

impl GenomeConfig for EvenniaConfig {
    const SECTION: &'static str = "evennia";
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EvenniaConfig {
    /// Seconds between awake ticks (one creature turn per tick).
    pub tick_awake_s: f64,
    /// Seconds between sleep ticks (one batch of sleep work per tick).
    pub tick_sleep_s: f64,
    /// Journal entries moved into semantic memory per sleep tick.
    pub consolidation_batch: usize,
    /// Journal entries scored by the model per request.
    pub scoring_batch: usize,
    /// Memories processed for links per dreaming tick.
    pub link_batch: usize,
    /// A-MEM links need at least this similarity.
    pub link_similarity: f32,
    /// Recall: first stage, relevance above this.
    pub recall_relevance: f32,
    /// Recall: second stage, source trust at least this.
    pub min_source_trust: f64,
    /// Cumulative importance that triggers a reflection.
    pub reflection_threshold: u32,
    /// Compaction while asleep at this share of the context budget.
    pub compact_sleep_threshold: f64,
    /// Emergency compaction while awake at this share.
    pub compact_emergency_threshold: f64,
    /// Context budget in characters (the model's window, roughly); 0: the cycle's
    /// `max_context_chars`.
    pub context_budget_chars: usize,
    /// After a wake, no scheduled sleep for this long (minutes).
    pub wake_cooldown_min: f64,
    /// Journal entries of this importance or less are pruned once consolidated and older
    /// than `prune_after_h`.
    pub prune_max_importance: u8,
    pub prune_after_h: f64,
    /// Working-memory conversations idle this long are cleared at sleep (minutes).
    pub stale_conversation_min: f64,
    /// Raw observations of an entity before it is consolidated.
    pub entity_consolidation_min: usize,
    /// Rounds of the pre-compaction extraction turn.
    pub extraction_rounds: u32,
    pub schedule: SleepSchedule,
}

/// Automatic sleep by time of day (UTC).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SleepSchedule {
    pub enabled: bool,
    pub sleep_start_hour: u32,
    pub sleep_duration_hours: u32,
    /// Awake ticks before the schedule may put the creature to sleep.
    pub min_awake_ticks: u64,
}

impl Default for SleepSchedule {
    fn default() -> Self {
        Self {
            enabled: false,
            sleep_start_hour: 2,
            sleep_duration_hours: 4,
            min_awake_ticks: 10,
        }
    }
}

impl Default for EvenniaConfig {
    fn default() -> Self {
        Self {
            tick_awake_s: 5.0,
            tick_sleep_s: 60.0,
            consolidation_batch: 5,
            scoring_batch: 10,
            link_batch: 5,
            link_similarity: 0.7,
            recall_relevance: 0.7,
            min_source_trust: 0.5,
            reflection_threshold: 150,
            compact_sleep_threshold: 0.70,
            compact_emergency_threshold: 0.80,
            context_budget_chars: 0,
            wake_cooldown_min: 60.0,
            prune_max_importance: 3,
            prune_after_h: 48.0,
            stale_conversation_min: 30.0,
            entity_consolidation_min: 3,
            extraction_rounds: 3,
            schedule: SleepSchedule::default(),
        }
    }
}
