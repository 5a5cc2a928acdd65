//! End to end in tmux: notifications. A rehearsal creature's guardrail trips after the
//! observatory started (`demo --genome dreamer`, its calls priced dear as in
//! `tmux_guardrails`, a daily cost cap of $8.00: high enough that it trips seconds after
//! the observatory's first look, which takes what is so as it is): the OSC 9 notification, wrapped for tmux's
//! passthrough, is in what the observatory wrote to the pane (captured with `pipe-pane`),
//! and the `[notify]` hook is run with the notice as JSON on its stdin.

use std::path::Path;
use std::time::Instant;

use crate::support::{DEADLINE, Pane, tmux_available};

/// Waits until the file at `path` holds something `pred` accepts; its text then.
fn wait_file(path: &Path, what: &str, pred: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap_or_default()).into_owned();
        if pred(&text) {
            return text;
        }
        assert!(
            start.elapsed() < DEADLINE,
            "timed out waiting for {what} in {}: {text:?}",
            path.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn a_guardrail_trip_is_told_to_the_terminal_and_to_the_hook() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let hook = dir.path().join("hook.jsonl");
    let captured = dir.path().join("pane.out");
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[prices]\nrehearsal = {{ input = 1000, output = 1000 }}\n\n\
             [guardrails]\ndaily_cost_usd = 8\n\n\
             [notify]\nterminal = \"osc9\"\ncommand = [\"sh\", \"-c\", \"cat >> '{}'\"]\n",
            hook.display()
        ),
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
        Path::new("120"),
        Path::new("--dir"),
        &garden,
    ];
    let pane = Pane::start_piped(&[], &args, &captured);
    pane.wait_text("held: cost cap $8.00");
    // The hook: one line of JSON per notice.
    let lines = wait_file(&hook, "the budget notice", |t| {
        t.contains("\"kind\":\"budget\"")
    });
    let line = lines
        .lines()
        .find(|l| l.contains("\"kind\":\"budget\""))
        .unwrap();
    let json: serde_json::Value = serde_json::from_str(line).unwrap();
    assert_eq!(json["creature"], "sprout");
    assert!(json["path"].as_str().unwrap().ends_with("sprout"), "{json}");
    assert!(
        json["text"]
            .as_str()
            .unwrap()
            .starts_with("sprout is past its budget: held: cost cap $8.00"),
        "{json}"
    );
    assert!(
        json["needs"].as_str().unwrap().contains("wake it"),
        "{json}"
    );
    assert!(json["time"].as_str().unwrap().ends_with('Z'), "{json}");
    // The terminal: OSC 9 inside tmux's passthrough, each ESC doubled.
    wait_file(&captured, "the OSC 9 notification", |t| {
        t.contains(
            "\x1bPtmux;\x1b\x1b]9;dreamwatch: sprout is past its budget: held: cost cap $8.00",
        )
    });
    // Kept in the status log too.
    pane.keys(&["L"]);
    pane.wait_text("notify: sprout is past its budget");
}
