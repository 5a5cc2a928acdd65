//! The constants of the creature cycle (DESIGN.md section 3), defined once.
//!
//! The runner embeds a [`Cycle`] in its config (the `[runner]` table's keys are its fields)
//! and the observatory derives status, fatigue and cadence from the same values. A
//! [`Profile`] names a starting point: the seed's values (the default) or today's OpenSeed.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Where the cycle constants start from before a config file overrides them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// The seed's constants (DESIGN.md section 3).
    #[default]
    Seed,
    /// OpenSeed since February 2026: deep sleep every 5th dream, without the pause.
    Openseed,
}

/// The creature cycle's constants. Durations are creature seconds (a `--speed` run passes
/// them faster on the wall clock; the runner converts).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cycle {
    /// Tool calls since the last dream before a system message says to wrap up.
    pub fatigue_warning: u64,
    /// Tool calls before consolidation is forced.
    pub fatigue_limit: u64,
    /// A sleep consolidates only if the last dream is at least this old (seconds).
    pub min_dream_interval_s: f64,
    /// Sleeps shorter than this are plain pauses (seconds).
    pub quick_nap_threshold_s: f64,
    /// Every Nth dream is a deep sleep.
    pub deep_sleep_every: u64,
    /// Pause of a deep sleep and after a forced consolidation (seconds).
    pub deep_sleep_pause_s: f64,
    /// Messages kept in context after a trim.
    pub keep_recent_messages: usize,
    /// Emergency trim threshold, in characters of context.
    pub max_context_chars: usize,
}

/// A cycle a creature cannot live by; the message names the `[runner]` key.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("[runner] {0}")]
pub struct InvalidCycle(&'static str);

impl Default for Cycle {
    /// The seed's values.
    fn default() -> Self {
        Self {
            fatigue_warning: 60,
            fatigue_limit: 80,
            min_dream_interval_s: 600.0,
            quick_nap_threshold_s: 30.0,
            deep_sleep_every: 10,
            deep_sleep_pause_s: 300.0,
            keep_recent_messages: 20,
            max_context_chars: 100_000,
        }
    }
}

impl Cycle {
    pub fn profile(profile: Profile) -> Self {
        match profile {
            Profile::Seed => Self::default(),
            Profile::Openseed => Self {
                deep_sleep_every: 5,
                deep_sleep_pause_s: 0.0,
                ..Self::default()
            },
        }
    }

    /// Whether the dream numbered `dream_number` (1 for the first) is a deep sleep.
    pub fn is_deep(&self, dream_number: u64) -> bool {
        dream_number > 0 && dream_number.is_multiple_of(self.deep_sleep_every)
    }

    /// Checks the values make a creature that can live.
    pub fn validate(&self) -> Result<(), InvalidCycle> {
        let non_negative = [
            (
                self.min_dream_interval_s,
                "min_dream_interval_s must be zero or more",
            ),
            (
                self.quick_nap_threshold_s,
                "quick_nap_threshold_s must be zero or more",
            ),
            (
                self.deep_sleep_pause_s,
                "deep_sleep_pause_s must be zero or more",
            ),
        ];
        if let Some((_, why)) = non_negative
            .into_iter()
            .find(|(v, _)| !(v.is_finite() && *v >= 0.0))
        {
            return Err(InvalidCycle(why));
        }
        if self.fatigue_limit == 0 || self.deep_sleep_every == 0 {
            return Err(InvalidCycle(
                "fatigue_limit and deep_sleep_every must be at least 1",
            ));
        }
        if self.keep_recent_messages < 2 {
            return Err(InvalidCycle("keep_recent_messages must be at least 2"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_the_seed_profile_with_the_seeds_values() {
        let c = Cycle::default();
        assert_eq!(c, Cycle::profile(Profile::Seed));
        assert_eq!(Profile::default(), Profile::Seed);
        assert_eq!((c.fatigue_warning, c.fatigue_limit), (60, 80));
        assert_eq!(c.min_dream_interval_s, 600.0);
        assert_eq!(c.quick_nap_threshold_s, 30.0);
        assert_eq!((c.deep_sleep_every, c.deep_sleep_pause_s), (10, 300.0));
        assert_eq!((c.keep_recent_messages, c.max_context_chars), (20, 100_000));
        assert!(c.validate().is_ok());
    }

    #[test]
    fn openseed_deep_sleeps_every_fifth_dream_without_the_pause() {
        let c = Cycle::profile(Profile::Openseed);
        assert_eq!((c.deep_sleep_every, c.deep_sleep_pause_s), (5, 0.0));
        assert_eq!(
            Cycle {
                deep_sleep_every: 10,
                deep_sleep_pause_s: 300.0,
                ..c
            },
            Cycle::default()
        );
        assert!(c.is_deep(5) && c.is_deep(10) && !c.is_deep(4) && !c.is_deep(0));
        assert!(c.validate().is_ok());
    }

    #[test]
    fn deep_sleep_falls_on_every_nth_dream_never_the_zeroth() {
        let c = Cycle::default();
        let deep: Vec<u64> = (0..=30).filter(|&n| c.is_deep(n)).collect();
        assert_eq!(deep, [10, 20, 30]);
    }

    #[test]
    fn profiles_read_and_write_as_lowercase_names() {
        let p: Profile = serde_json::from_str("\"openseed\"").unwrap();
        assert_eq!(p, Profile::Openseed);
        assert_eq!(serde_json::to_string(&Profile::Seed).unwrap(), "\"seed\"");
        assert!(serde_json::from_str::<Profile>("\"OpenSeed!\"").is_err());
    }

    #[test]
    fn missing_keys_keep_the_seeds_values() {
        let c: Cycle = serde_json::from_str(r#"{"fatigue_limit": 40}"#).unwrap();
        assert_eq!(
            c,
            Cycle {
                fatigue_limit: 40,
                ..Cycle::default()
            }
        );
    }

    #[test]
    fn a_cycle_that_cannot_live_is_refused_naming_the_key() {
        let bad = [
            Cycle {
                fatigue_limit: 0,
                ..Cycle::default()
            },
            Cycle {
                deep_sleep_every: 0,
                ..Cycle::default()
            },
            Cycle {
                keep_recent_messages: 1,
                ..Cycle::default()
            },
            Cycle {
                min_dream_interval_s: -1.0,
                ..Cycle::default()
            },
            Cycle {
                deep_sleep_pause_s: f64::NAN,
                ..Cycle::default()
            },
        ];
        let keys = [
            "fatigue_limit",
            "deep_sleep_every",
            "keep_recent_messages",
            "min_dream_interval_s",
            "deep_sleep_pause_s",
        ];
        for (c, key) in bad.iter().zip(keys) {
            let e = c.validate().unwrap_err().to_string();
            assert!(e.starts_with("[runner] ") && e.contains(key), "{e}");
        }
    }
}
