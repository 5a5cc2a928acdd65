//! End to end in tmux: the flight recorder in the observatory. A rehearsal creature lives
//! three dreams (`run --provider rehearsal --headless`) and a fork of it from dream 2
//! lives on; the observatory over both blames the newest observation (`b`: "dream N")
//! and compares the two (`C`, Enter: the drift after each dream both dreamt).

use std::path::Path;
use std::process::Command;

use crate::support::{Pane, tmux_available};

/// `dreamwatch run ARGS` to its end, with an empty home.
fn run(home: &Path, args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_dreamwatch"))
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .arg("run")
        .args(args)
        .args([
            "--provider",
            "rehearsal",
            "--headless",
            "--speed",
            "100000",
            "--unconfined",
        ])
        .output()
        .expect("dreamwatch run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn blame_and_compare_a_rehearsal_creature_and_its_fork() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (garden, home) = (dir.path().join("garden"), dir.path().join("home"));
    let sprout = garden.join("sprout");
    let sprig = garden.join("sprig");
    let s = sprout.display().to_string();
    run(&home, &[&s, "--max-dreams", "3"]);
    let from = format!("{s}@dream:2");
    run(
        &home,
        &[
            &sprig.display().to_string(),
            "--fork",
            &from,
            "--max-dreams",
            "2",
        ],
    );
    let pane = Pane::start(&[&garden]);
    pane.wait_text("sprout");
    // The garden by name: sprig, then sprout.
    pane.keys(&["]"]);
    pane.wait_for("sprout selected", |s| {
        s.contains("sprout") && s.contains("Observations")
    });
    pane.keys(&["b"]);
    let screen = pane.wait_for("the blame", |s| {
        s.contains("Blame · sprout") && s.contains("written")
    });
    assert!(
        screen
            .lines()
            .any(|l| l.contains("written") && l.contains("dream ")),
        "{screen}"
    );
    pane.keys(&["Enter"]);
    pane.wait_text("1) # Observations");
    pane.keys(&["Escape"]);
    pane.wait_for("the blame closed", |s| !s.contains("Blame ·"));
    pane.keys(&["C"]);
    pane.wait_text("Compare sprout with");
    pane.keys(&["Enter"]);
    let screen = pane.wait_for("the drift", |s| s.contains("dream 1: 0"));
    assert!(screen.contains("Compare · sprout and sprig"), "{screen}");
    assert!(screen.contains("dream 2: 0"), "{screen}");
    pane.keys(&["Escape"]);
    pane.wait_for("the compare view closed", |s| !s.contains("Compare ·"));
    pane.keys(&["q"]);
    pane.wait_text("EXITED 0");
}
