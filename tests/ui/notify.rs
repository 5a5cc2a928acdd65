//! Notifications (issue 23): a creature that begins to need a person is told to the
//! terminal (the sequence written through the loop's writer, between frames) and to the
//! hook (its JSON), once per episode; nothing for what was so at the start; Ctrl-N and
//! the palette turn them off and on.

use chrono::Duration;

use crate::common::ui::{Garden, append, clock};
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::notify::Notifier;
use dreamwatch::ui::notify::config::{HookCommand, NotifyConfig, TerminalMode};
use dreamwatch::ui::runtime::notify::tell;

/// A screen on the fixture garden telling OSC 9 (outside tmux) and a hook.
fn screen(garden: &Garden) -> Headless {
    let mut screen = garden.screen("dark", 120, 36);
    let config = NotifyConfig {
        terminal: TerminalMode::Osc9,
        command: Some(HookCommand::Argv(vec!["true".into()])),
        ..NotifyConfig::default()
    };
    screen.app.set_notifier(Notifier::new(&config, |_| None));
    screen
}

/// What the loop does after a wake: look, then write between frames.
fn told(screen: &mut Headless) -> (Vec<u8>, Vec<dreamwatch::ui::notify::HookRun>) {
    screen.app.scan_needs();
    let mut out = Vec::new();
    let runs = tell(&mut screen.app, &mut out).unwrap();
    (out, runs)
}

fn fail(garden: &Garden, at: &str) {
    append(
        &garden.creature("pip").join(".self/events.jsonl"),
        &format!(
            "{{\"t\":\"{at}\",\"type\":\"creature.error\",\"error\":\"model call failed: 529 overloaded\"}}\n"
        ),
    );
}

#[test]
fn a_creature_that_begins_to_fail_is_told_once_to_the_terminal_and_the_hook() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = screen(&garden);
    let (out, runs) = told(&mut screen);
    assert!(out.is_empty() && runs.is_empty(), "nothing at the start");
    screen.tick(clock() + Duration::seconds(10));
    fail(&garden, "2026-11-22T17:50:05.000Z");
    screen.refresh();
    let (out, runs) = told(&mut screen);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "\x1b]9;dreamwatch: pip is failing: model call failed: 529 overloaded\x07"
    );
    assert_eq!(runs.len(), 1);
    let json: serde_json::Value = serde_json::from_str(&runs[0].payload.json()).unwrap();
    assert_eq!(json["kind"], "failing");
    assert_eq!(json["creature"], "pip");
    assert_eq!(json["path"], garden.creature("pip").display().to_string());
    // The same episode: told once.
    screen.tick(clock() + Duration::seconds(20));
    let (out, runs) = told(&mut screen);
    assert!(out.is_empty() && runs.is_empty());
    // Kept in the status log.
    screen.press("L").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("notify: pip is failing"), "{text}");
}

#[test]
fn what_fails_at_the_start_is_not_told() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    fail(&garden, "2026-11-22T17:49:30.000Z");
    let mut screen = screen(&garden);
    for s in [0, 10, 20] {
        screen.tick(clock() + Duration::seconds(s));
        let (out, runs) = told(&mut screen);
        assert!(out.is_empty() && runs.is_empty(), "at {s} s");
    }
}

#[test]
fn the_palette_and_ctrl_n_turn_notifications_off_and_on() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = screen(&garden);
    told(&mut screen);
    screen.press(":").unwrap();
    screen.type_text("notifications");
    screen.press("enter").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("notifications off"), "{text}");
    screen.tick(clock() + Duration::seconds(10));
    fail(&garden, "2026-11-22T17:50:05.000Z");
    screen.refresh();
    let (out, runs) = told(&mut screen);
    assert!(out.is_empty() && runs.is_empty(), "off: nothing told");
    screen.press("ctrl-n").unwrap();
    let text = screen.text().unwrap();
    assert!(
        text.contains("notifications on: told to the terminal (OSC 9) and the [notify] command"),
        "{text}"
    );
    // Still the episode that began while off: not told now.
    let (out, _) = told(&mut screen);
    assert!(out.is_empty());
}
