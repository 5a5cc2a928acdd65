//! End to end in tmux (issue 23): the `:` palette (a fuzzy name, Enter runs it), the
//! demo's speed keys and pause-all, and the loop guardrail tripping on a rehearsal
//! creature told to retry its failing command, with its morning report.

use std::path::Path;
use std::time::Instant;

use crate::common::ui::Garden;
use crate::support::{DEADLINE, Pane, tmux_available};
use dreamwatch::memory::guardrail;
use dreamwatch::runner::brain::rehearsal::STUBBORN;

#[test]
fn the_palette_jumps_to_a_creature_and_a_view_by_a_fuzzy_name() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let pane = Pane::start(&[garden.dir.path()]);
    pane.wait_text("Observations");
    pane.keys(&[":"]);
    pane.wait_text("Run an action, show a view, select a creature");
    pane.type_text("pip");
    pane.keys(&["Enter"]);
    pane.wait_for("pip selected", |s| {
        s.lines().any(|l| l.contains("││pip  ")) && !s.contains("Run an action")
    });
    pane.keys(&[":"]);
    pane.wait_text("Run an action, show a view, select a creature");
    pane.type_text("evnts");
    pane.keys(&["Enter"]);
    pane.wait_text("kind: all · newest first");
}

/// A demo's dreamer garden at `speed`, in a pane.
fn demo(garden: &Path, config: Option<&Path>, speed: &str) -> Pane {
    let speed = Path::new(speed);
    let mut args: Vec<&Path> = Vec::new();
    if let Some(config) = config {
        args.extend([Path::new("--config"), config]);
    }
    args.extend([
        Path::new("demo"),
        Path::new("--genome"),
        Path::new("dreamer"),
        Path::new("--speed"),
        speed,
        Path::new("--dir"),
        garden,
    ]);
    Pane::start_with(&[], &args)
}

#[test]
fn the_demo_speed_keys_change_the_header_and_p_pauses_all() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pane = demo(&dir.path().join("garden"), None, "60");
    pane.wait_text("demo 60x");
    pane.keys(&["+"]);
    pane.wait_text("demo 120x");
    pane.keys(&["-", "-"]);
    pane.wait_text("demo 30x");
    // Every creature hosted here paused (the runner's answer has the last word on the
    // status line), then resumed.
    pane.keys(&["P"]);
    pane.wait_text("‖ paused");
    pane.keys(&["P"]);
    pane.wait_for("the creatures resumed", |s| !s.contains("‖ paused"));
}

#[test]
fn a_loop_of_one_failing_command_holds_the_creature_with_its_report() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[guardrails]\nloop_repeats = 3\n").unwrap();
    let garden = dir.path().join("garden");
    let pane = demo(&garden, Some(&config), "20");
    pane.wait_text("REHEARSAL");
    // The selected creature is told to retry its failing command (the rehearsal brain's
    // stubborn mode): the same command fails turn after turn.
    let screen = pane.capture();
    let name = ["fern", "moss", "sprout"]
        .into_iter()
        .find(|n| screen.lines().any(|l| l.contains(&format!("││{n}  "))))
        .unwrap_or_else(|| panic!("no creature selected: {screen}"));
    pane.keys(&["m"]);
    pane.wait_text(&format!("Message to {name}"));
    pane.type_text(&format!("Please {STUBBORN}."));
    pane.keys(&["C-s"]);
    pane.wait_text("held: loop");
    let creature = garden.join(name);
    let start = Instant::now();
    let report = loop {
        match guardrail::read(&creature) {
            Some(r) if r.slept_at.is_some() => break r,
            _ if start.elapsed() > DEADLINE => panic!("no morning report after the sleep"),
            _ => std::thread::sleep(std::time::Duration::from_millis(50)),
        }
    };
    assert_eq!(report.rail, "loop");
    assert!(
        report.detail.contains("failed 3 times in a row"),
        "{report:?}"
    );
    pane.wait_text("⊘ held");
    // The morning report, in the Events view (`6`).
    pane.keys(&["6"]);
    pane.wait_text("phase held");
}
