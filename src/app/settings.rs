//! `run` and `demo`: the config file and the command line resolved once, in one place,
//! into the runner's settings and the observatory's.

use super::config::{ConfigFile, Watching};
use super::guardrails::GardenGuardrails;
use crate::memory::cycle::Profile;
use crate::runner::config::{RunnerConfig, RunnerConfigError};
use crate::telemetry::TelemetryConfig;

/// What the command line says over the config file's runner settings.
#[derive(Debug, Clone, Copy, Default)]
pub struct Flags {
    /// `--profile`: wins over the file's.
    pub profile: Option<Profile>,
    /// `--speed`.
    pub speed: f64,
    /// `--review-dreams`: on when either says so.
    pub review_dreams: bool,
    /// `--unconfined`: on when either says so.
    pub unconfined: bool,
}

/// Every module's settings for a hosting command.
pub struct Settings {
    /// Each creature's runner starts from these (its genome's rehearsal may change them).
    pub runner: RunnerConfig,
    pub watching: Watching,
    /// The OpenTelemetry export (`None`: off).
    pub telemetry: Option<TelemetryConfig>,
    /// `[guardrails]`: each creature's are the garden's with its own over them.
    pub guardrails: GardenGuardrails,
}

impl Settings {
    /// The file's settings with the command line's over them, checked once as a whole.
    pub fn resolve(file: &ConfigFile, flags: Flags) -> Result<Self, RunnerConfigError> {
        let read = file.runner(flags.profile);
        let mut watching = Watching::beside(file, &read);
        let mut runner = read.value;
        runner.speed = flags.speed;
        runner.review_dreams |= flags.review_dreams;
        runner.unconfined_tools |= flags.unconfined;
        runner.validate()?;
        let telemetry = telemetry(file, &mut watching.warnings);
        let guardrails = file.guardrails();
        watching.warnings.extend(
            guardrails
                .problems
                .iter()
                .map(|e| format!("{e} (those guardrails are off)")),
        );
        Ok(Self {
            runner,
            watching,
            telemetry,
            guardrails: guardrails.value,
        })
    }
}

/// The export's settings: the environment over `[telemetry]`. A problem is a warning,
/// and the export is off then.
pub fn telemetry(file: &ConfigFile, warnings: &mut Vec<String>) -> Option<TelemetryConfig> {
    let section = file.telemetry();
    warnings.extend(
        section
            .problems
            .iter()
            .map(|e| format!("{e} (telemetry is off)")),
    );
    match TelemetryConfig::resolve(section.value.as_ref(), |name| std::env::var(name).ok()) {
        Ok(config) => config,
        Err(e) => {
            warnings.push(format!("{e} (telemetry is off)"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn file(text: &str) -> ConfigFile {
        ConfigFile::parse(PathBuf::from("test.toml"), text).unwrap()
    }

    #[test]
    fn the_command_line_goes_over_the_file_once() {
        let f = file(
            "[runner]\nprofile = \"openseed\"\nfatigue_limit = 50\n[runner.evennia]\ntick_awake_s = 2.0\n",
        );
        let flags = Flags {
            speed: 60.0,
            review_dreams: true,
            ..Flags::default()
        };
        let s = Settings::resolve(&f, flags).unwrap();
        assert_eq!(s.runner.speed, 60.0);
        assert!(s.runner.review_dreams && !s.runner.unconfined_tools);
        assert_eq!(s.runner.cycle.deep_sleep_every, 5);
        assert_eq!(s.watching.cycle, s.runner.cycle, "one reading for both");
        assert!(
            s.runner.genomes != Default::default(),
            "the genome's table is read"
        );
        let seed = Settings::resolve(
            &f,
            Flags {
                profile: Some(Profile::Seed),
                speed: 1.0,
                ..Flags::default()
            },
        )
        .unwrap();
        assert_eq!(seed.runner.cycle.deep_sleep_every, 10);
        assert_eq!(seed.runner.cycle.fatigue_limit, 50);
        let e = Settings::resolve(&f, Flags::default())
            .err()
            .map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("--speed must be a positive number"));
    }

    #[test]
    fn a_bad_genome_table_is_a_warning_naming_it_and_its_defaults_stand() {
        let f = file("[runner]\nfatigue_limit = 70\n\n[runner.emergence]\nmin_memoriez = 3\n");
        let s = Settings::resolve(
            &f,
            Flags {
                speed: 1.0,
                ..Flags::default()
            },
        )
        .unwrap();
        assert_eq!(s.runner.cycle.fatigue_limit, 70);
        assert_eq!(s.runner.genomes, Default::default());
        assert_eq!(s.watching.warnings.len(), 1, "{:?}", s.watching.warnings);
        assert!(
            s.watching.warnings[0]
                .starts_with("test.toml:4: [runner.emergence]: unknown field `min_memoriez`"),
            "{:?}",
            s.watching.warnings
        );
    }
}
