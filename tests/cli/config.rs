//! A bad or missing `--config` as every command reports it: the file, the line and the
//! key, with the file's good settings kept.

use std::path::Path;
use std::process::Command;

use crate::common::cli::{bin, fixture, stderr};

const ONE_BAD_VALUE: &str =
    "theme = \"light\"\npoll_ms = \"fast\"\n\n[runner]\ndeep_sleep_every = 3\nfatigue_limt = 40\n";
const UNCLOSED: &str = "theme = \"light\"\n\n[runner\ndeep_sleep_every = 3\n";

/// Every command, given `home` and the config file `config`.
fn commands(home: &Path, config: &Path) -> Vec<(&'static str, Command)> {
    let mut inspect = bin(home);
    inspect.arg("inspect").arg(fixture("head-ember"));
    let mut run = bin(home);
    run.args([
        "run",
        "--provider",
        "rehearsal",
        "--headless",
        "--max-dreams",
        "1",
    ])
    .args(["--speed", "100000"])
    .arg(home.join("sprout"));
    let mut demo = bin(home);
    demo.args([
        "demo",
        "--headless",
        "--max-dreams",
        "1",
        "--speed",
        "100000",
        "--dir",
    ])
    .arg(home.join("demo"));
    let mut observe = bin(home);
    observe.arg(fixture("head-ember"));
    let mut all = vec![
        ("inspect", inspect),
        ("run", run),
        ("demo", demo),
        ("observatory", observe),
    ];
    for (_, cmd) in &mut all {
        cmd.arg("--config").arg(config);
    }
    all
}

#[test]
fn one_bad_value_is_named_with_its_line_and_key_everywhere() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("mine.toml");
    std::fs::write(&config, ONE_BAD_VALUE).unwrap();
    for (what, mut cmd) in commands(home.path(), &config) {
        let out = cmd.output().unwrap();
        let err = stderr(&out);
        let at = |line: u32| format!("{}:{line}", config.display());
        assert!(
            err.contains(&at(2)) && err.contains("poll_ms"),
            "{what}: {err}"
        );
        assert!(
            err.contains(&at(6)) && err.contains("fatigue_limt"),
            "{what}: {err}"
        );
        if what != "observatory" {
            assert!(
                out.status.success(),
                "{what}: the good settings should be used: {err}"
            );
        }
    }
}

#[test]
fn a_file_that_does_not_parse_is_named_with_its_line_everywhere() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("mine.toml");
    std::fs::write(&config, UNCLOSED).unwrap();
    for (what, mut cmd) in commands(home.path(), &config) {
        let err = stderr(&cmd.output().unwrap());
        assert!(
            err.contains(&format!("{}:3", config.display())),
            "{what}: {err}"
        );
    }
}

#[test]
fn a_missing_file_is_named_everywhere() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("missing.toml");
    for (what, mut cmd) in commands(home.path(), &config) {
        let err = stderr(&cmd.output().unwrap());
        assert!(err.contains(&config.display().to_string()), "{what}: {err}");
    }
}
