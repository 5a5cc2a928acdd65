//! The config file, read and parsed once: the observatory gets its part (theme, polling,
//! keys), the runner and the observatory's gauges the same cycle constants (`[runner]`).
//!
//! `[fatigue]` (`warning`, `limit`) is an older spelling of `[runner]`'s
//! `fatigue_warning` and `fatigue_limit`: it sets the same constants, so the gauge and the
//! runner never disagree. Giving a value both ways, differently, is an error.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::memory::cycle::{Cycle, Profile};
use crate::openseed::{Token, Tokens};
use crate::runner::config::{RunnerConfig, RunnerConfigError};
use crate::runner::genome_config::GenomeConfigs;
use crate::ui::config::{Config as ObservatoryConfig, config_dir};

/// The config file's text as TOML, with where it came from.
#[derive(Debug, Clone, Default)]
pub struct ConfigFile {
    /// The file read; `None` when there is none (the default file does not exist).
    path: Option<PathBuf>,
    pub(super) table: toml::Table,
    /// The line of each key (`theme`, `runner.fatigue_limit`), 1-based.
    lines: HashMap<String, usize>,
}

/// `:LINE` after a file's name, when the line is known.
struct At(Option<usize>);

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(line) => write!(f, ":{line}"),
            None => Ok(()),
        }
    }
}

/// What is wrong with the config file; every message names it, and the line and key
/// when there is one.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The text is not TOML.
    #[error("{}{}: {message}", path.display(), At(*line))]
    Toml {
        path: PathBuf,
        line: Option<usize>,
        message: String,
    },
    /// One key's value (or the key itself) is wrong.
    #[error("{}{}: {key}: {message}", path.display(), At(*line))]
    Key {
        path: PathBuf,
        line: Option<usize>,
        key: String,
        message: String,
    },
    /// A `[runner]` table the runner's constants cannot be made from as a whole.
    #[error("{}{}: {source}", path.display(), At(*line))]
    Runner {
        path: PathBuf,
        line: Option<usize>,
        source: RunnerConfigError,
    },
    #[error("{}{}: [fatigue] {key} = {alias} disagrees with [runner] fatigue_{key} = {runner}: keep one", path.display(), At(*line))]
    FatigueTwice {
        path: PathBuf,
        line: Option<usize>,
        key: &'static str,
        alias: toml::Value,
        runner: toml::Value,
    },
    #[error("{}{}: fatigue.warning ({warning}) must be below fatigue.limit ({limit})", path.display(), At(*line))]
    FatigueOrder {
        path: PathBuf,
        line: Option<usize>,
        warning: u64,
        limit: u64,
    },
}

/// A part of the config: what could be used, and the problems that were left out (each
/// replaced by its default).
#[derive(Debug)]
pub struct Checked<T> {
    pub value: T,
    pub problems: Vec<ConfigError>,
}

impl<T> Checked<T> {
    /// The value when there was no problem, else the first problem.
    #[cfg(test)]
    pub fn strict(self) -> Result<T, ConfigError> {
        match self.problems.into_iter().next() {
            None => Ok(self.value),
            Some(e) => Err(e),
        }
    }
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
                lines: key_lines(text),
            }),
            Err(e) => Err(ConfigError::Toml {
                path,
                line: e.span().map(|span| line_of(text, span.start)),
                message: e.message().trim().to_string(),
            }),
        }
    }

    pub(super) fn path(&self) -> PathBuf {
        self.path.clone().unwrap_or_else(|| PathBuf::from("config"))
    }

    /// The line of `key` in `table` (`None`: at the top).
    fn line(&self, table: Option<&str>, key: &str) -> Option<usize> {
        let full = match table {
            Some(t) => format!("{t}.{key}"),
            None => key.to_string(),
        };
        self.lines.get(&full).copied()
    }

    pub(super) fn key_problem(
        &self,
        table: Option<&str>,
        key: &str,
        message: String,
    ) -> ConfigError {
        ConfigError::Key {
            path: self.path(),
            line: self.line(table, key),
            key: match table {
                Some(t) => format!("[{t}] {key}"),
                None => key.to_string(),
            },
            message,
        }
    }

    /// The observatory's part: everything but the runner's tables. A key that is unknown
    /// or has a wrong value is left out (its default stands), with a problem.
    pub fn observatory(&self) -> Checked<ObservatoryConfig> {
        let mut rest = self.table.clone();
        rest.remove("runner");
        rest.remove("fatigue");
        rest.remove("openseed");
        rest.remove("guardrails");
        rest.remove("telemetry");
        let mut problems = Vec::new();
        let check = |table: toml::Table| {
            ObservatoryConfig::deserialize(toml::Value::Table(table))
                .map_err(|e| e.message().to_string())
        };
        for (key, value) in rest.clone() {
            if key == "keys"
                && let toml::Value::Table(bindings) = &value
            {
                for (action, binding) in bindings {
                    let mut keys = toml::Table::new();
                    keys.insert(action.clone(), binding.clone());
                    let alone =
                        toml::Table::from_iter([("keys".to_string(), toml::Value::Table(keys))]);
                    if let Err(message) = check(alone) {
                        problems.push(self.key_problem(Some("keys"), action, message));
                        if let Some(toml::Value::Table(t)) = rest.get_mut("keys") {
                            t.remove(action);
                        }
                    }
                }
                continue;
            }
            if key == "commands"
                && let toml::Value::Array(entries) = &value
            {
                // Each entry alone: a bad one is left out, the others stay.
                let mut good = Vec::new();
                for (n, entry) in entries.iter().enumerate() {
                    let alone = toml::Table::from_iter([(
                        key.clone(),
                        toml::Value::Array(vec![entry.clone()]),
                    )]);
                    match check(alone) {
                        Ok(_) => good.push(entry.clone()),
                        Err(message) => problems.push(ConfigError::Key {
                            path: self.path(),
                            line: None,
                            key: format!("[[commands]] #{}", n + 1),
                            message,
                        }),
                    }
                }
                rest.insert(key, toml::Value::Array(good));
                continue;
            }
            if let Err(message) = check(toml::Table::from_iter([(key.clone(), value)])) {
                problems.push(self.key_problem(None, &key, message));
                rest.remove(&key);
            }
        }
        let value = check(rest).unwrap_or_else(|message| {
            problems.push(ConfigError::Toml {
                path: self.path(),
                line: None,
                message,
            });
            ObservatoryConfig::default()
        });
        Checked { value, problems }
    }

    /// `[openseed]`: the orchestrator's URL and the tokens for its control routes. A
    /// table that cannot be read is left out (nothing is attached by it), with a problem.
    pub fn openseed(&self) -> Checked<OpenSeedConfig> {
        let Some(value) = self.table.get("openseed") else {
            return Checked {
                value: OpenSeedConfig::default(),
                problems: Vec::new(),
            };
        };
        match RawOpenSeed::deserialize(value.clone()) {
            Ok(raw) => Checked {
                value: OpenSeedConfig {
                    url: raw.url,
                    tokens: Tokens {
                        all: raw.token.and_then(Token::new),
                        creatures: raw
                            .tokens
                            .into_iter()
                            .filter_map(|(name, t)| Some((name, Token::new(t)?)))
                            .collect(),
                    },
                },
                problems: Vec::new(),
            },
            Err(e) => Checked {
                value: OpenSeedConfig::default(),
                problems: vec![self.key_problem(None, "openseed", e.message().to_string())],
            },
        }
    }

    /// `[telemetry]` (the OpenTelemetry export's part of the file), when written.
    pub fn telemetry(&self) -> Checked<Option<crate::telemetry::TelemetrySection>> {
        let Some(value) = self.table.get("telemetry") else {
            return Checked {
                value: None,
                problems: Vec::new(),
            };
        };
        match crate::telemetry::TelemetrySection::deserialize(value.clone()) {
            Ok(section) => Checked {
                value: Some(section),
                problems: Vec::new(),
            },
            Err(e) => Checked {
                value: None,
                problems: vec![self.key_problem(None, "telemetry", e.message().to_string())],
            },
        }
    }

    /// The runner's settings: `[runner]` (with `[fatigue]` folded in) over `profile`, or
    /// over the file's own `profile` when none is given, and each hosted genome's own
    /// table (`[runner.<genome>]`) read by the genome. A key that is unknown or has a
    /// wrong value is left out (its default stands), with a problem; when the values
    /// only disagree together, the one whose absence settles it is left out.
    pub fn runner(&self, profile: Option<Profile>) -> Checked<RunnerConfig> {
        let mut problems = Vec::new();
        let mut table = match self.table.get("runner") {
            None => toml::Table::new(),
            Some(toml::Value::Table(t)) => t.clone(),
            Some(_) => {
                problems.push(self.key_problem(None, "runner", "must be a table".into()));
                toml::Table::new()
            }
        };
        let genomes = self.genome_sections(&mut table, &mut problems);
        let alias = self.fold_fatigue(&mut table, &mut problems);
        for (key, value) in table.clone() {
            let alone = toml::Table::from_iter([(key.clone(), value)]);
            if let Err(
                e @ (RunnerConfigError::Profile(_)
                | RunnerConfigError::UnknownKey { .. }
                | RunnerConfigError::Value(_)),
            ) = RunnerConfig::from_table(&alone, profile)
            {
                problems.push(self.runner_problem(&key, &with_genome_sections(e)));
                table.remove(&key);
            }
        }
        let mut config = match RunnerConfig::from_table(&table, profile) {
            Ok(config) => config,
            Err(whole) => self.settle(&mut table, profile, whole, &mut problems),
        };
        config.genomes = genomes;
        let Cycle {
            fatigue_warning: warning,
            fatigue_limit: limit,
            ..
        } = config.cycle;
        if alias && warning >= limit {
            problems.push(ConfigError::FatigueOrder {
                path: self.path(),
                line: self.line(None, "fatigue"),
                warning,
                limit,
            });
            let defaults = RunnerConfig::profile(profile.unwrap_or_default()).cycle;
            config.cycle.fatigue_warning = defaults.fatigue_warning;
            config.cycle.fatigue_limit = defaults.fatigue_limit;
            return Checked {
                value: config,
                problems,
            };
        }
        Checked {
            value: config,
            problems,
        }
    }

    /// Takes each hosted genome's table out of `table` and has the genome read it; one it
    /// cannot read is left out (its defaults stand), with a problem.
    fn genome_sections(
        &self,
        table: &mut toml::Table,
        problems: &mut Vec<ConfigError>,
    ) -> GenomeConfigs {
        let mut configs = GenomeConfigs::default();
        for section in super::genomes::config_sections() {
            let Some(value) = table.remove(section.name) else {
                continue;
            };
            if let Err(e) = section.read(&value, &mut configs) {
                problems.push(ConfigError::Key {
                    path: self.path(),
                    line: self.line(Some("runner"), section.name),
                    key: format!("[runner.{}]", e.section),
                    message: e.message,
                });
            }
        }
        configs
    }

    /// Leaves out the first key of `table` without which the runner's settings hold
    /// together; without one, the profile's defaults stand for the whole table.
    fn settle(
        &self,
        table: &mut toml::Table,
        profile: Option<Profile>,
        whole: RunnerConfigError,
        problems: &mut Vec<ConfigError>,
    ) -> RunnerConfig {
        for key in table.keys().cloned().collect::<Vec<_>>() {
            let mut without = table.clone();
            without.remove(&key);
            if let Ok(config) = RunnerConfig::from_table(&without, profile) {
                problems.push(self.runner_problem(&key, &whole));
                *table = without;
                return config;
            }
        }
        problems.push(ConfigError::Runner {
            path: self.path(),
            line: self.line(None, "runner"),
            source: whole,
        });
        let file_profile = table
            .get("profile")
            .and_then(|v| Profile::deserialize(v.clone()).ok());
        RunnerConfig::profile(profile.or(file_profile).unwrap_or_default())
    }

    fn runner_problem(&self, key: &str, e: &RunnerConfigError) -> ConfigError {
        // `[fatigue]` keys folded into the table are found at their own line.
        let line = self.line(Some("runner"), key).or_else(|| {
            key.strip_prefix("fatigue_")
                .and_then(|k| self.line(Some("fatigue"), k))
        });
        ConfigError::Key {
            path: self.path(),
            line,
            key: format!("[runner] {key}"),
            message: e.to_string(),
        }
    }

    /// Folds `[fatigue]` into the runner's table; whether there was one. A value given
    /// both ways, differently, is a problem: the runner's stands.
    fn fold_fatigue(&self, table: &mut toml::Table, problems: &mut Vec<ConfigError>) -> bool {
        let Some(value) = self.table.get("fatigue") else {
            return false;
        };
        let alias = match FatigueAlias::deserialize(value.clone()) {
            Ok(alias) => alias,
            Err(e) => {
                problems.push(self.key_problem(
                    None,
                    "fatigue",
                    format!("[fatigue]: {}", e.message()),
                ));
                return false;
            }
        };
        for (key, value) in [("warning", alias.warning), ("limit", alias.limit)] {
            let Some(value) = value else { continue };
            let runner_key = format!("fatigue_{key}");
            match table.get(&runner_key) {
                Some(runner) if *runner != value => problems.push(ConfigError::FatigueTwice {
                    path: self.path(),
                    line: self.line(Some("fatigue"), key),
                    key,
                    alias: value,
                    runner: runner.clone(),
                }),
                _ => {
                    table.insert(runner_key, value);
                }
            }
        }
        true
    }

    /// The cycle constants of creatures this config hosts or watches.
    pub fn cycle(&self, profile: Option<Profile>) -> Checked<Cycle> {
        let Checked { value, problems } = self.runner(profile);
        Checked {
            value: value.cycle,
            problems,
        }
    }
}

/// An unknown `[runner]` key's error, the hosted genomes' tables among the keys it
/// could have been.
fn with_genome_sections(e: RunnerConfigError) -> RunnerConfigError {
    match e {
        RunnerConfigError::UnknownKey { key, known } => {
            let known = std::iter::once(known)
                .chain(super::genomes::config_sections().map(|s| s.name.to_string()))
                .collect::<Vec<_>>()
                .join(", ");
            RunnerConfigError::UnknownKey { key, known }
        }
        other => other,
    }
}

/// 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .map_or(0, |before| before.matches('\n').count())
        + 1
}

/// The line of every key of the file and of its tables (`table.key`).
fn key_lines(text: &str) -> HashMap<String, usize> {
    let mut lines = HashMap::new();
    let Ok(root) = toml::de::DeTable::parse(text) else {
        return lines;
    };
    for (key, value) in root.get_ref() {
        let name = key.get_ref().to_string();
        lines.insert(name.clone(), line_of(text, key.span().start));
        if let toml::de::DeValue::Table(inner) = value.get_ref() {
            for (k, _) in inner {
                lines.insert(
                    format!("{name}.{}", k.get_ref()),
                    line_of(text, k.span().start),
                );
            }
        }
    }
    lines
}

/// `[openseed]` as written (its tokens become [`Token`]s at once: they never show).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOpenSeed {
    url: Option<String>,
    token: Option<String>,
    #[serde(default)]
    tokens: std::collections::BTreeMap<String, String>,
}

/// The config file's `[openseed]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpenSeedConfig {
    /// The orchestrator to attach to (`--openseed` wins).
    pub url: Option<String>,
    /// `token` (for every request) and `[openseed.tokens]` (one per creature).
    pub tokens: Tokens,
}

/// What a command takes from the config file: the observatory's part and the cycle
/// constants. A problem is a warning, and defaults stand in for what it spoils.
pub struct Watching {
    pub observatory: ObservatoryConfig,
    pub cycle: Cycle,
    pub openseed: OpenSeedConfig,
    pub warnings: Vec<String>,
}

impl Watching {
    pub fn load(explicit: Option<&Path>, profile: Option<Profile>) -> Self {
        match ConfigFile::load(explicit) {
            Ok(file) => Self::from_file(&file, profile),
            Err(e) => Self {
                observatory: ObservatoryConfig::default(),
                cycle: Cycle::profile(profile.unwrap_or_default()),
                openseed: OpenSeedConfig::default(),
                warnings: vec![format!("{e} (using defaults)")],
            },
        }
    }

    pub fn from_file(file: &ConfigFile, profile: Option<Profile>) -> Self {
        let cycle = file.cycle(profile);
        Self::with_cycle(file, cycle.value, &cycle.problems)
    }

    /// Beside the runner's settings read from the same file: the cycle constants are
    /// theirs, and so are the problems met reading them (the file is not read again).
    pub fn beside(file: &ConfigFile, runner: &Checked<RunnerConfig>) -> Self {
        Self::with_cycle(file, runner.value.cycle, &runner.problems)
    }

    fn with_cycle(file: &ConfigFile, cycle: Cycle, cycle_problems: &[ConfigError]) -> Self {
        let observatory = file.observatory();
        let openseed = file.openseed();
        let warnings = observatory
            .problems
            .iter()
            .chain(cycle_problems)
            .chain(&openseed.problems)
            .map(|e| format!("{e} (using the default)"))
            .collect();
        Self {
            observatory: observatory.value,
            cycle,
            openseed: openseed.value,
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
        let config = config(SAMPLE).observatory().strict().unwrap();
        assert_eq!(config.theme.as_deref(), Some("dark"));
        assert!(!config.keys.is_empty());
        let mut keymap = Keymap::default();
        let warnings = keymap.patch(&config.keys);
        assert!(warnings.is_empty(), "{warnings:?}");
        let warnings = keymap.add_commands(&config.commands);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(keymap.user_actions().count(), config.commands.len());
        assert!(config.commands.len() >= 2);
    }

    #[test]
    fn the_runners_and_the_exports_tables_are_no_unknown_keys_to_the_observatory() {
        let file = config(
            "[telemetry]\nendpoint = \"http://127.0.0.1:4318\"\n[guardrails]\nloop_repeats = 3\n",
        );
        let said: Vec<String> = file
            .observatory()
            .problems
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(said.is_empty(), "{said:?}");
    }

    #[test]
    fn a_bad_command_entry_is_left_out_and_the_others_stay() {
        let file = config(
            "[[commands]]\nkey = \"u\"\ndescription = \"du\"\ncommand = \"du -sh {dir}\"\n\n[[commands]]\nkey = \"t\"\ncommand = \"no description\"\n",
        );
        let observatory = file.observatory();
        assert_eq!(observatory.value.commands.len(), 1);
        assert_eq!(observatory.value.commands[0].description, "du");
        let said: Vec<String> = observatory
            .problems
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].starts_with("test.toml: [[commands]] #2: missing field `description`"),
            "{said:?}"
        );
    }

    #[test]
    fn prices_in_the_config_go_over_the_built_in_table() {
        let config = config(SAMPLE).observatory().strict().unwrap();
        let prices = crate::llm::prices::Prices::builtin().with(&config.prices);
        assert_eq!(prices.get("openai/llama3.2").map(|p| p.input), Some(0.0));
        assert!(prices.get("openai/gpt-4o-mini").is_some());
        let bad = self::config(
            "[prices]
\"a/b\" = { input = -1, output = 0 }\n",
        )
        .observatory();
        assert_eq!(bad.problems.len(), 1, "{:?}", bad.problems);
        assert!(bad.value.prices.is_empty());
    }

    #[test]
    fn the_shipped_sample_config_loads_with_the_seed_values() {
        let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("config.sample.toml");
        let cfg = ConfigFile::load(Some(&sample))
            .unwrap()
            .runner(None)
            .strict()
            .unwrap();
        assert_eq!(cfg, RunnerConfig::profile(Profile::Seed));
    }

    #[test]
    fn empty_and_bad_files() {
        assert_eq!(
            config("").observatory().strict().unwrap(),
            ObservatoryConfig::default()
        );
        assert!(config("colour = 1").observatory().strict().is_err());
        assert!(
            config("[fatigue]\nwarning = 90\nlimit = 80")
                .cycle(None)
                .strict()
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
        assert_eq!(
            file.runner(None).strict().unwrap().cycle.deep_sleep_every,
            3
        );
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
                .and_then(|f| f.runner(None).strict())
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
            .strict()
            .unwrap();
        assert_eq!((c.fatigue_warning, c.fatigue_limit), (30, 40));
        // Said both ways alike is fine; one side alone fills in the other.
        let c = config("[fatigue]\nlimit = 70\n[runner]\nfatigue_limit = 70\nfatigue_warning = 50")
            .cycle(None)
            .strict()
            .unwrap();
        assert_eq!((c.fatigue_warning, c.fatigue_limit), (50, 70));
        let e = config("[fatigue]\nlimit = 70\n[runner]\nfatigue_limit = 40")
            .cycle(None)
            .strict()
            .unwrap_err()
            .to_string();
        assert!(e.contains("keep one"), "{e}");
        assert!(config("[fatigue]\nlimt = 70").cycle(None).strict().is_err());
        // Without [fatigue], the runner's constants are taken as they are.
        let c = config("[runner]\nfatigue_limit = 40")
            .cycle(None)
            .strict()
            .unwrap();
        assert_eq!((c.fatigue_warning, c.fatigue_limit), (60, 40));
    }

    #[test]
    fn the_profile_given_wins_over_the_files() {
        let file = config("[runner]\nprofile = \"openseed\"");
        assert_eq!(file.cycle(None).strict().unwrap().deep_sleep_every, 5);
        assert_eq!(
            file.cycle(Some(Profile::Seed))
                .strict()
                .unwrap()
                .deep_sleep_every,
            10
        );
        assert_eq!(
            config("").cycle(Some(Profile::Openseed)).strict().unwrap(),
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

    #[test]
    fn problems_name_the_line_and_the_key_and_the_good_settings_stay() {
        let file = config(
            "theme = \"light\"\npoll_ms = \"fast\"\n[keys]\nquit = 3\nhelp = \"?\"\n\n[runner]\ndeep_sleep_every = 3\nfatigue_limt = 40\nquick_nap_threshold_s = \"x\"\n",
        );
        let observatory = file.observatory();
        assert_eq!(observatory.value.theme.as_deref(), Some("light"));
        assert_eq!(observatory.value.poll_ms, None);
        assert_eq!(
            observatory.value.keys.len(),
            1,
            "help is kept, quit left out"
        );
        let said: Vec<String> = observatory
            .problems
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(
            said.iter().any(|e| e.starts_with("test.toml:2: poll_ms:")),
            "{said:?}"
        );
        assert!(
            said.iter()
                .any(|e| e.starts_with("test.toml:4: [keys] quit:")),
            "{said:?}"
        );
        let runner = file.runner(None);
        assert_eq!(runner.value.cycle.deep_sleep_every, 3);
        let said: Vec<String> = runner.problems.iter().map(ToString::to_string).collect();
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(
            said[0].starts_with("test.toml:9: [runner] fatigue_limt:"),
            "{said:?}"
        );
        assert!(
            said[0].contains("fatigue_limit") && said[0].contains("evennia"),
            "the genomes' tables are among the keys: {said:?}"
        );
        assert!(
            said[1].starts_with("test.toml:10: [runner] quick_nap_threshold_s:"),
            "{said:?}"
        );
    }

    #[test]
    fn values_that_disagree_leave_out_the_one_that_settles_it() {
        let file = config("[runner]\ndeep_sleep_every = 4\nmin_sleep_s = 200\nmax_sleep_s = 100\n");
        let runner = file.runner(None);
        assert_eq!(runner.value.cycle.deep_sleep_every, 4);
        assert_eq!(runner.value.min_sleep_s, 200.0);
        assert_eq!(
            runner.value.max_sleep_s,
            RunnerConfig::default().max_sleep_s
        );
        let said = runner.problems[0].to_string();
        assert!(
            said.starts_with("test.toml:4: [runner] max_sleep_s:"),
            "{said}"
        );
    }

    #[test]
    fn a_file_that_is_not_toml_is_named_with_its_line() {
        let e = ConfigFile::parse(PathBuf::from("c.toml"), "theme = \"x\"\n\n[runner\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("c.toml:3: "), "{e}");
    }

    #[test]
    fn the_openseed_table_gives_the_url_and_tokens_that_never_show() {
        let file = config(
            "theme = \"dark\"\n[openseed]\nurl = \"http://127.0.0.1:7770\"\ntoken = \"all-s3cret\"\n[openseed.tokens]\nfinch = \"finch-s3cret\"\n",
        );
        assert!(file.observatory().problems.is_empty());
        let openseed = file.openseed().strict().unwrap();
        assert_eq!(openseed.url.as_deref(), Some("http://127.0.0.1:7770"));
        assert!(openseed.tokens.all.is_some());
        assert!(openseed.tokens.creatures.contains_key("finch"));
        assert!(!format!("{openseed:?}").contains("s3cret"));
        let bad = config("[openseed]\nport = 3\n").openseed();
        assert_eq!(bad.value, OpenSeedConfig::default());
        assert!(
            bad.problems[0].to_string().contains("openseed"),
            "{:?}",
            bad.problems
        );
    }
}
