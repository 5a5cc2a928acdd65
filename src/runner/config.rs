//! The runner's settings, all configurable: the cycle constants ([`Cycle`], DESIGN.md
//! section 3) and the runner's own limits.
//!
//! Defaults are the seed's values. A `[runner]` table in the config file overrides them
//! field by field; `profile = "openseed"` (or `--profile openseed`) starts from today's
//! OpenSeed values instead (a deep sleep every 5th dream, no pause). A genome's own
//! table (`[runner.<genome>]`) is the genome's to read ([`GenomeConfigs`]).

use chrono::TimeDelta;
use serde::{Deserialize, Serialize};

use super::genome_config::GenomeConfigs;
use super::guard::Guardrails;
use crate::memory::cycle::InvalidCycle;
pub use crate::memory::cycle::{Cycle, Profile};

/// Settings a runner cannot start with; the message names the `[runner]` key (or flag).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunnerConfigError {
    #[error("[runner] profile must be \"seed\" or \"openseed\", not {0}")]
    Profile(toml::Value),
    #[error("[runner]: unknown field `{key}`, expected one of {known}")]
    UnknownKey { key: String, known: String },
    /// A value of the wrong type (toml's words).
    #[error("[runner]: {0}")]
    Value(String),
    #[error(transparent)]
    Cycle(#[from] InvalidCycle),
    #[error("[runner] {0} must be a positive number")]
    NotPositive(&'static str),
    #[error("[runner] {0} must be zero or more")]
    Negative(&'static str),
    #[error("[runner] max_sleep_s must be at least min_sleep_s")]
    SleepRange,
    #[error("[guardrails] {0}")]
    Guardrails(&'static str),
    #[error("--speed must be a positive number")]
    Speed,
    #[error(
        "[runner] review_timeout must be a time such as \"10m\", \"90s\" or \"2h\", or \"never\", not {0:?}"
    )]
    ReviewTimeout(String),
}

/// `deny_unknown_fields` does not work through `flatten`: [`RunnerConfig::from_table`]
/// refuses unknown keys itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunnerConfig {
    /// The cycle constants; their keys sit in the `[runner]` table itself.
    #[serde(flatten)]
    pub cycle: Cycle,
    /// `set_sleep` is clamped to this range (seconds).
    pub min_sleep_s: f64,
    pub max_sleep_s: f64,
    /// Deep-sleep pruning drops GRN observations older than this (hours).
    pub grn_max_age_h: f64,
    /// A bash command is killed (with its process group) after this long (seconds).
    pub bash_timeout_s: f64,
    /// Characters of tool output given to the model; the rest is cut and marked.
    pub tool_output_cap: usize,
    /// Characters of tool output kept in a `creature.tool_call` event.
    pub event_output_cap: usize,
    /// `max_tokens` of a creature turn.
    pub max_tokens: u32,
    /// Backoff after a failed LLM call: first delay and ceiling (seconds, real time).
    pub retry_base_s: f64,
    pub retry_max_s: f64,
    /// Clock speed-up: creature durations (sleeps, pauses, intervals) pass this many times
    /// faster. Set by `--speed`, not by the config file.
    #[serde(skip)]
    pub speed: f64,
    /// The other creatures of the garden this one is hosted in (empty: alone). Set by
    /// the garden host, not by the config file.
    #[serde(skip)]
    pub garden: Vec<String>,
    /// The genomes' own settings (`[runner.<genome>]`), read by each genome's type. Set
    /// by the composition root, which hands each hosted genome its table.
    #[serde(skip)]
    pub genomes: GenomeConfigs,
    /// `--review-dreams`: a consolidation's result is held as a proposal for the operator
    /// instead of being written (see `memory::proposal`).
    pub review_dreams: bool,
    /// How long a held proposal waits before it applies itself, in real time (not sped
    /// up): `"10m"`, `"90s"`, `"2h"`, or `"never"`.
    pub review_timeout: String,
    /// `--unconfined`: the creature's commands run as the runner's user with no sandbox
    /// (see `runner::sandbox`). Only for a kernel without Landlock, and a creature trusted
    /// with everything that user can reach.
    pub unconfined_tools: bool,
    /// What puts the creature to sleep and holds it there until a person wakes it
    /// (`[guardrails]`, see `runner::guard`). Set by the composition root, per creature.
    #[serde(skip)]
    pub guardrails: Guardrails,
}

impl Default for RunnerConfig {
    fn default() -> Self {
        Self {
            cycle: Cycle::default(),
            min_sleep_s: 2.0,
            max_sleep_s: 300.0,
            grn_max_age_h: 48.0,
            bash_timeout_s: 120.0,
            tool_output_cap: 8_000,
            event_output_cap: 2_000,
            max_tokens: 4_096,
            retry_base_s: 2.0,
            retry_max_s: 60.0,
            speed: 1.0,
            garden: Vec::new(),
            genomes: GenomeConfigs::default(),
            review_dreams: false,
            review_timeout: "10m".into(),
            unconfined_tools: false,
            guardrails: Guardrails::default(),
        }
    }
}

impl RunnerConfig {
    pub fn profile(profile: Profile) -> Self {
        Self {
            cycle: Cycle::profile(profile),
            ..Self::default()
        }
    }

    /// Applies a `[runner]` table: `profile` picks the base (unless `cli_profile` is given),
    /// every other key overrides one constant. Unknown keys are errors.
    pub fn from_table(
        table: &toml::Table,
        cli_profile: Option<Profile>,
    ) -> Result<Self, RunnerConfigError> {
        let file_profile = match table.get("profile") {
            None => None,
            Some(v) => Some(
                Profile::deserialize(v.clone())
                    .map_err(|_| RunnerConfigError::Profile(v.clone()))?,
            ),
        };
        let base = Self::profile(cli_profile.or(file_profile).unwrap_or_default());
        let mut merged =
            toml::Table::try_from(&base).map_err(|e| RunnerConfigError::Value(e.to_string()))?;
        for (k, v) in table {
            if k == "profile" {
                continue;
            }
            if !merged.contains_key(k) {
                let known: Vec<&str> = merged.keys().map(String::as_str).collect();
                return Err(RunnerConfigError::UnknownKey {
                    key: k.clone(),
                    known: known.join(", "),
                });
            }
            merged.insert(k.clone(), v.clone());
        }
        let cfg: Self = toml::Value::Table(merged)
            .try_into()
            .map_err(|e: toml::de::Error| RunnerConfigError::Value(e.message().to_string()))?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// Checks the values make a creature that can live.
    pub fn validate(&self) -> Result<(), RunnerConfigError> {
        self.cycle.validate()?;
        let positive = [
            ("min_sleep_s", self.min_sleep_s),
            ("bash_timeout_s", self.bash_timeout_s),
            ("retry_base_s", self.retry_base_s),
        ];
        for (name, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                return Err(RunnerConfigError::NotPositive(name));
            }
        }
        let non_negative = [
            ("grn_max_age_h", self.grn_max_age_h),
            ("max_sleep_s", self.max_sleep_s),
            ("retry_max_s", self.retry_max_s),
        ];
        for (name, v) in non_negative {
            if !(v.is_finite() && v >= 0.0) {
                return Err(RunnerConfigError::Negative(name));
            }
        }
        if self.max_sleep_s < self.min_sleep_s {
            return Err(RunnerConfigError::SleepRange);
        }
        if !(self.speed.is_finite() && self.speed > 0.0) {
            return Err(RunnerConfigError::Speed);
        }
        self.review_timeout()?;
        if let Some(why) = self.guardrails.invalid() {
            return Err(RunnerConfigError::Guardrails(why));
        }
        Ok(())
    }

    /// How long a held proposal waits before it applies itself; `None`: never.
    pub fn review_timeout(&self) -> Result<Option<TimeDelta>, RunnerConfigError> {
        parse_timeout(&self.review_timeout)
            .ok_or_else(|| RunnerConfigError::ReviewTimeout(self.review_timeout.clone()))
    }

    /// The wall-clock length of `secs` of creature time at this speed.
    pub fn wall(&self, secs: f64) -> TimeDelta {
        let ms = (secs.max(0.0) / self.speed * 1000.0).round();
        TimeDelta::milliseconds(ms.min(i64::MAX as f64 / 2.0) as i64)
    }

    /// Creature seconds for a wall-clock span, the inverse of [`Self::wall`].
    pub fn creature_secs(&self, wall: TimeDelta) -> f64 {
        wall.num_milliseconds() as f64 / 1000.0 * self.speed
    }
}

/// `"never"`, or a whole number with `s`, `m`, `h` or `d`. Hand-written: four suffixes do
/// not need a duration crate.
fn parse_timeout(text: &str) -> Option<Option<TimeDelta>> {
    let text = text.trim();
    if text == "never" {
        return Some(None);
    }
    let unit = text.chars().last()?;
    let n: i64 = text[..text.len() - unit.len_utf8()].trim().parse().ok()?;
    let secs = match unit {
        's' => 1,
        'm' => 60,
        'h' => 3600,
        'd' => 86_400,
        _ => return None,
    };
    (n >= 0)
        .then(|| TimeDelta::try_seconds(n.checked_mul(secs)?))?
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn review_timeouts_are_times_or_never() {
        let t = |s: &str| parse_timeout(s);
        assert_eq!(t("10m"), Some(Some(TimeDelta::minutes(10))));
        assert_eq!(t("90s"), Some(Some(TimeDelta::seconds(90))));
        assert_eq!(t(" 2h"), Some(Some(TimeDelta::hours(2))));
        assert_eq!(t("never"), Some(None));
        for bad in ["", "m", "10", "-1m", "ten m", "10 minutes"] {
            assert_eq!(t(bad), None, "{bad}");
        }
        let e = RunnerConfig::from_table(&table("review_timeout = \"soon\""), None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("review_timeout") && e.contains("never"), "{e}");
        let c = RunnerConfig::from_table(&table("review_dreams = true"), None).unwrap();
        assert!(c.review_dreams);
    }

    fn table(s: &str) -> toml::Table {
        s.parse().unwrap()
    }

    #[test]
    fn defaults_are_the_seeds_values() {
        let c = RunnerConfig::default().cycle;
        assert_eq!((c.fatigue_warning, c.fatigue_limit), (60, 80));
        assert_eq!(c.min_dream_interval_s, 600.0);
        assert_eq!(c.quick_nap_threshold_s, 30.0);
        assert_eq!(c.deep_sleep_every, 10);
        assert_eq!(c.deep_sleep_pause_s, 300.0);
        assert_eq!(c.keep_recent_messages, 20);
        assert_eq!(c.max_context_chars, 100_000);
        assert!(RunnerConfig::default().validate().is_ok());
    }

    #[test]
    fn openseed_profile() {
        let c = RunnerConfig::profile(Profile::Openseed).cycle;
        assert_eq!((c.deep_sleep_every, c.deep_sleep_pause_s), (5, 0.0));
        assert!(c.is_deep(5) && !c.is_deep(4));
    }

    #[test]
    fn table_overrides_field_by_field() {
        let c = RunnerConfig::from_table(
            &table("fatigue_limit = 40\nmin_dream_interval_s = 60"),
            None,
        )
        .unwrap();
        assert_eq!(c.cycle.fatigue_limit, 40);
        assert_eq!(c.cycle.min_dream_interval_s, 60.0);
        assert_eq!(c.cycle.fatigue_warning, 60);
        let c =
            RunnerConfig::from_table(&table("profile = \"openseed\"\nfatigue_limit = 90"), None)
                .unwrap();
        assert_eq!((c.cycle.deep_sleep_every, c.cycle.fatigue_limit), (5, 90));
        let c = RunnerConfig::from_table(&table("profile = \"openseed\""), Some(Profile::Seed))
            .unwrap();
        assert_eq!(c.cycle.deep_sleep_every, 10);
    }

    #[test]
    fn bad_tables_are_clear_errors() {
        let e = RunnerConfig::from_table(&table("fatigue_limt = 40"), None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("fatigue_limt"), "{e}");
        assert!(RunnerConfig::from_table(&table("profile = \"x\""), None).is_err());
        assert!(RunnerConfig::from_table(&table("deep_sleep_every = 0"), None).is_err());
        assert!(RunnerConfig::from_table(&table("fatigue_limit = \"many\""), None).is_err());
    }

    #[test]
    fn speed_scales_durations_both_ways() {
        let c = RunnerConfig {
            speed: 60.0,
            ..RunnerConfig::default()
        };
        assert_eq!(c.wall(600.0), TimeDelta::seconds(10));
        assert_eq!(c.creature_secs(TimeDelta::seconds(10)), 600.0);
        assert!(c.cycle.is_deep(10) && c.cycle.is_deep(20));
        assert!(!c.cycle.is_deep(9) && !c.cycle.is_deep(0));
    }
}
