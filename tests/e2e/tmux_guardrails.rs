//! End to end in tmux: a guardrail trips on a rehearsal creature (`demo --genome
//! dreamer`, its calls priced dear, a daily cost cap of $0.50): it is put to sleep, held,
//! marked in the garden and the header, its morning report in the Events view and on
//! disk; `w` wakes it.

use std::path::Path;
use std::time::Instant;

use crate::support::{DEADLINE, Pane, tmux_available};
use dreamwatch::memory::guardrail;

#[test]
fn a_cost_cap_holds_the_creature_asleep_until_w() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "[prices]\nrehearsal = { input = 1000, output = 1000 }\n\n\
         [guardrails]\ndaily_cost_usd = 0.5\n",
    )
    .unwrap();
    let garden = dir.path().join("garden");
    let args = [
        Path::new("--config"),
        &config,
        Path::new("demo"),
        Path::new("--genome"),
        Path::new("dreamer"),
        Path::new("--speed"),
        Path::new("20"),
        Path::new("--dir"),
        &garden,
    ];
    let pane = Pane::start_with(&[], &args);
    let sprout = garden.join("sprout");
    pane.wait_text("held: cost cap $0.50");
    let start = Instant::now();
    let report = loop {
        match guardrail::read(&sprout) {
            Some(r) if r.slept_at.is_some() => break r,
            _ if start.elapsed() > DEADLINE => panic!("no morning report after the sleep"),
            _ => std::thread::sleep(std::time::Duration::from_millis(50)),
        }
    };
    assert_eq!(report.rail, "cost_cap");
    assert!(report.held());
    // The header says it (in short at this width).
    pane.wait_text("⊘ held");
    // The morning report, in the Events view (`6`).
    pane.keys(&["6"]);
    pane.wait_text("phase held");
    pane.keys(&["w"]);
    let start = Instant::now();
    while guardrail::read(&sprout).is_some_and(|r| r.held()) {
        assert!(start.elapsed() < DEADLINE, "w never woke it");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    pane.wait_for("the hold gone from the screen", |s| {
        !s.contains("held: cost cap")
    });
}
