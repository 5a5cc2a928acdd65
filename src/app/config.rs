//! The config file, read and parsed once: the observatory gets its part (theme, polling,
//! keys), the runner and the observatory's gauges the same cycle constants (`[runner]`).
//!
//! `[fatigue]` (`warning`, `limit`) is an older spelling of `[runner]`'s
//! `fatigue_warning` and `fatigue_limit`: it sets the same constants, so the gauge and the
//! runner never disagree. Giving a value both ways, differently, is an error.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::memory::cycle::{Cycle, Profile};
use crate::runner::config::{RunnerConfig, RunnerConfigError};
use crate::ui::config::{Config as ObservatoryConfig, config_dir};

/// The config file's text as TOML, with where it came from.
#[derive(Debug, Clone, Default)]
pub struct ConfigFile {
    /// The file read; `None` when there is none (the default file does not exist).
    path: Option<PathBuf>,
    table: toml::Table,
}

/// What is wrong with the config file; every message names it.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {message}", path.display())]
    Toml { path: PathBuf, message: String },
    /// A table the runner's constants cannot be made from.
    #[error("{}: {source}", path.display())]
    Runner {
        path: PathBuf,
        source: RunnerConfigError,
    },
    #[error("{}: [runner] must be a table", path.display())]
    RunnerNotATable { path: PathBuf },
    #[error("{}: [fatigue] {key} = {alias} disagrees with [runner] fatigue_{key} = {runner}: keep one", path.display())]
    FatigueTwice {
        path: PathBuf,
        key: &'static str,
        alias: toml::Value,
        runner: toml::Value,
    },
    #[error("{}: fatigue.warning ({warning}) must be below fatigue.limit ({limit})", path.display())]
    FatigueOrder {
        path: PathBuf,
        warning: u64,
        limit: u64,
    },
}

/// `[fatigue]`: where the gauge turns to warning and limit colours, which is where the
/// runner warns and forces sleep.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FatigueAlias {
    warning: Option<toml::Value>,
    limit: Option<toml::Value>,
}

impl ConfigFile {
    /// Reads `explicit`, or the default file when it exists (no file is an empty config).
    pub fn load(explicit: Option<&Path>) -> Result<Self, ConfigError> {
        let path = match explicit {
            Some(p) => p.to_path_buf(),
            None => match config_dir() {
                Some(dir) => dir.join("config.toml"),
                None => return Ok(Self::default()),
            },
        };
        match std::fs::read_to_string(&path) {
            Ok(text) => Self::parse(path, &text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && explicit.is_none() => {
                Ok(Self::default())
            }
            Err(source) => Err(ConfigError::Read { path, source }),
        }
    }

    /// The text of the file at `path`.
    pub fn parse(path: PathBuf, text: &str) -> Result<Self, ConfigError> {
        match text.parse::<toml::Table>() {
            Ok(table) => Ok(Self {
                path: Some(path),
                table,
            }),
            Err(e) => Err(ConfigError::Toml {
                path,
                message: e.message().to_string(),
            }),
        }
    }

    fn path(&self) -> PathBuf {
        self.path.clone().unwrap_or_else(|| PathBuf::from("config"))
    }

    /// The observatory's part: everything but the runner's tables. Unknown keys are errors.
    pub fn observatory(&self) -> Result<ObservatoryConfig, ConfigError> {
        let mut rest = self.table.clone();
        rest.remove("runner");
        rest.remove("fatigue");
        ObservatoryConfig::deserialize(toml::Value::Table(rest)).map_err(|e| ConfigError::Toml {
            path: self.path(),
            message: e.message().to_string(),
        })
    }

    /// The runner's settings: `[runner]` (with `[fatigue]` folded in) over `profile`, or
    /// over the file's own `profile` when none is given.
    pub fn runner(&self, profile: Option<Profile>) -> Result<RunnerConfig, ConfigError> {
        let mut table = match self.table.get("runner") {
            None => toml::Table::new(),
            Some(toml::Value::Table(t)) => t.clone(),
            Some(_) => return Err(ConfigError::RunnerNotATable { path: self.path() }),
        };
        let alias = self.fatigue_alias()?;
        if let Some(alias) = &alias {
            for (key, value) in [("warning", &alias.warning), ("limit", &alias.limit)] {
                let Some(value) = value else { continue };
                let runner_key = format!("fatigue_{key}");
                match table.get(&runner_key) {
                    Some(runner) if runner != value => {
                        return Err(ConfigError::FatigueTwice {
                            path: self.path(),
                            key,
                            alias: value.clone(),
                            runner: runner.clone(),
                        });
                    }
                    _ => {
                        table.insert(runner_key, value.clone());
                    }
                }
            }
        }
        let config =
            RunnerConfig::from_table(&table, profile).map_err(|source| ConfigError::Runner {
                path: self.path(),
                source,
            })?;
        let Cycle {
            fatigue_warning: warning,
            fatigue_limit: limit,
            ..
        } = config.cycle;
        if alias.is_some() && warning >= limit {
            return Err(ConfigError::FatigueOrder {
                path: self.path(),
                warning,
                limit,
            });
        }
        Ok(config)
    }

    /// The cycle constants of creatures this config hosts or watches.
    pub fn cycle(&self, profile: Option<Profile>) -> Result<Cycle, ConfigError> {
        self.runner(profile).map(|r| r.cycle)
    }

    fn fatigue_alias(&self) -> Result<Option<FatigueAlias>, ConfigError> {
        let Some(value) = self.table.get("fatigue") else {
            return Ok(None);
        };
        FatigueAlias::deserialize(value.clone())
            .map(Some)
            .map_err(|e| ConfigError::Toml {
                path: self.path(),
                message: format!("[fatigue]: {}", e.message()),
            })
    }
}

/// What a command that only watches takes from the config file: the observatory's part
/// and the cycle constants. A problem is a warning, and defaults stand in for what it
/// spoils.
pub struct Watching {
    pub observatory: ObservatoryConfig,
    pub cycle: Cycle,
    pub warnings: Vec<String>,
}

impl Watching {
    pub fn load(explicit: Option<&Path>, profile: Option<Profile>) -> Self {
        match ConfigFile::load(explicit) {
            Ok(file) => Self::from_file(&file, profile),
            Err(e) => Self {
                observatory: ObservatoryConfig::default(),
                cycle: Cycle::profile(profile.unwrap_or_default()),
                warnings: vec![format!("{e} (using defaults)")],
            },
        }
    }

    pub fn from_file(file: &ConfigFile, profile: Option<Profile>) -> Self {
        let mut warnings = Vec::new();
        let observatory = file.observatory().unwrap_or_else(|e| {
            warnings.push(format!("{e} (using defaults)"));
            ObservatoryConfig::default()
        });
        let cycle = file.cycle(profile).unwrap_or_else(|e| {
            warnings.push(format!("{e} (using the default cycle constants)"));
            Cycle::profile(profile.unwrap_or_default())
        });
        Self {
            observatory,
            cycle,
            warnings,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::input::keymap::Keymap;

    const SAMPLE: &str = include_str!("../../config.sample.toml");

    fn config(text: &str) -> ConfigFile {
        ConfigFile::parse(PathBuf::from("test.toml"), text).unwrap()
    }

    #[test]
    fn the_sample_loads_cleanly_and_binds_what_it_names() {
        let config = config(SAMPLE).observatory().unwrap();
        assert_eq!(config.theme.as_deref(), Some("dark"));
        assert!(!config.keys.is_empty());
        let mut keymap = Keymap::default();
        let warnings = keymap.patch(&config.keys);
        assert!(warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn the_shipped_sample_config_loads_with_the_seed_values() {
        let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("config.sample.toml");
        let cfg = ConfigFile::load(Some(&sample))
            .unwrap()
            .runner(None)
            .unwrap();
        assert_eq!(cfg, RunnerConfig::profile(Profile::Seed));
    }

    #[test]
    fn empty_and_bad_files() {
        assert_eq!(
            config("").observatory().unwrap(),
            ObservatoryConfig::default()
        );
        assert!(config("colour = 1").observatory().is_err());
        assert!(
            config("[fatigue]\nwarning = 90\nlimit = 80")
                .cycle(None)
                .is_err()
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.toml");
        std::fs::write(&path, "theme = 3").unwrap();
        let watching = Watching::load(Some(&path), None);
        assert_eq!(watching.observatory, ObservatoryConfig::default());
        assert_eq!(watching.warnings.len(), 1);
        let missing = dir.path().join("missing.toml");
        assert_eq!(Watching::load(Some(&missing), None).warnings.len(), 1);
    }

    #[test]
    fn load_reads_the_runner_table() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("config.toml");
        std::fs::write(&p, "theme = \"dark\"\n[runner]\ndeep_sleep_every = 3\n").unwrap();
        let file = ConfigFile::load(Some(&p)).unwrap();
        assert_eq!(file.runner(None).unwrap().cycle.deep_sleep_every, 3);
        assert!(ConfigFile::load(Some(&dir.path().join("missing.toml"))).is_err());
    }

    #[test]
    fn every_message_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("mine.toml");
        for text in [
            "theme = ",
            "[runner]\nfatigue_limt = 40",
            "runner = 3",
            "[fatigue]\nwarning = 90",
            "[fatigue]\nlimit = 50\n[runner]\nfatigue_limit = 40",
        ] {
            std::fs::write(&p, text).unwrap();
            let e = ConfigFile::load(Some(&p))
                .and_then(|f| f.runner(None))
                .unwrap_err()
                .to_string();
            assert!(e.contains("mine.toml"), "{text:?}: {e}");
        }
        let e = ConfigFile::load(Some(&dir.path().join("gone.toml")))
            .unwrap_err()
            .to_string();
        assert!(e.contains("gone.toml"), "{e}");
    }

    #[test]
    fn fatigue_is_an_alias_of_the_runners_fatigue_constants() {
        let c = config("[fatigue]\nwarning = 30\nlimit = 40")
            .cycle(None)
            .unwrap();
        assert_eq!((c.fatigue_warning, c.fatigue_limit), (30, 40));
        // Said both ways alike is fine; one side alone fills in the other.
        let c = config("[fatigue]\nlimit = 70\n[runner]\nfatigue_limit = 70\nfatigue_warning = 50")
            .cycle(None)
            .unwrap();
        assert_eq!((c.fatigue_warning, c.fatigue_limit), (50, 70));
        let e = config("[fatigue]\nlimit = 70\n[runner]\nfatigue_limit = 40")
            .cycle(None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("keep one"), "{e}");
        assert!(config("[fatigue]\nlimt = 70").cycle(None).is_err());
        // Without [fatigue], the runner's constants are taken as they are.
        let c = config("[runner]\nfatigue_limit = 40").cycle(None).unwrap();
        assert_eq!((c.fatigue_warning, c.fatigue_limit), (60, 40));
    }

    #[test]
    fn the_profile_given_wins_over_the_files() {
        let file = config("[runner]\nprofile = \"openseed\"");
        assert_eq!(file.cycle(None).unwrap().deep_sleep_every, 5);
        assert_eq!(
            file.cycle(Some(Profile::Seed)).unwrap().deep_sleep_every,
            10
        );
        assert_eq!(
            config("").cycle(Some(Profile::Openseed)).unwrap(),
            Cycle::profile(Profile::Openseed)
        );
    }

    #[test]
    fn a_watching_command_keeps_what_is_good() {
        let file = config("theme = \"light\"\n[runner]\ndeep_sleep_every = 0");
        let watching = Watching::from_file(&file, None);
        assert_eq!(watching.observatory.theme.as_deref(), Some("light"));
        assert_eq!(watching.cycle, Cycle::default());
        assert_eq!(watching.warnings.len(), 1);
    }
}
