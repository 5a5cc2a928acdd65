//! End to end in tmux (issue 13): the operator's comforts on a real terminal: the editor
//! through the terminal hand-over and the screen coming back whole, user commands,
//! `--read-only`, the bell.

use std::path::Path;

use crate::common::ui::{Garden, append};
use crate::support::{Pane, tmux_available};

/// A config file in `dir` with `text`; returns its path.
fn config(dir: &Path, text: &str) -> std::path::PathBuf {
    let path = dir.join("config.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// A script for `$EDITOR` that writes its arguments into `record`, appends an observation
/// to the file it was given (the watcher sees it while the editor has the terminal), and
/// returns.
fn recording_editor(dir: &std::path::Path, record: &std::path::Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join("editor.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" > {}\n\
             printf 'RED 17:59 written while the editor had the terminal\\n' >> \"$1\"\n",
            record.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

#[test]
fn o_hands_the_terminal_to_the_editor_and_the_screen_comes_back() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let tools = tempfile::tempdir().unwrap();
    let record = tools.path().join("args");
    let editor = recording_editor(tools.path(), &record);
    let pane = Pane::start_with(&[("EDITOR", &editor)], &[&ember]);
    pane.wait_text("Observations");
    pane.keys(&["O"]);
    let screen = pane.wait_text("back from editing observations.md");
    // The editor had the file, at the top entry's line.
    let args = std::fs::read_to_string(&record).unwrap();
    let args: Vec<&str> = args.lines().collect();
    assert_eq!(args.len(), 1, "{args:?}");
    assert!(args[0].ends_with("ember/.self/observations.md"), "{args:?}");
    // The whole screen is drawn again, and the terminal is taken back as it was.
    assert!(screen.contains("Priorities & rules"), "{screen}");
    assert_eq!(pane.display("#{alternate_on}"), "1");
    assert_eq!(pane.display("#{mouse_any_flag}"), "1");
    // What changed while the editor had the terminal was not lost.
    pane.wait_text("written while the editor had the terminal");
    // Keys are read again.
    pane.keys(&["?"]);
    pane.wait_text("Help");
}

#[test]
fn a_missing_editor_is_said_and_the_observatory_stays() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let missing = std::path::Path::new("/nonexistent/editor");
    let pane = Pane::start_with(&[("EDITOR", missing)], &[&ember]);
    pane.wait_text("Observations");
    pane.keys(&["O"]);
    let screen = pane.wait_text("not run: /nonexistent/editor");
    assert!(screen.contains("Priorities & rules"), "{screen}");
    assert_eq!(pane.display("#{alternate_on}"), "1");
}

#[test]
fn a_background_command_says_its_last_line_in_the_status_line() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let tools = tempfile::tempdir().unwrap();
    let config = config(
        tools.path(),
        "[[commands]]\nkey = \"u\"\ndescription = \"count\"\n\
         command = \"echo working; echo {name} has $(wc -l < {dir}/.self/observations.md) lines\"\n",
    );
    let lines = std::fs::read_to_string(ember.join(".self/observations.md"))
        .unwrap()
        .lines()
        .count();
    let pane = Pane::start(&[Path::new("--config"), &config, &ember]);
    pane.wait_text("Observations");
    // Listed in the hint bar like every other key.
    pane.wait_text("u count");
    pane.keys(&["u"]);
    pane.wait_text(&format!("count: ember has {lines} lines"));
}

#[test]
fn read_only_refuses_sleep_and_message_on_screen() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let messages = ember.join("MESSAGES.md");
    let before = std::fs::read(&messages).ok();
    let pane = Pane::start(&[Path::new("--read-only"), &ember]);
    pane.wait_text("Observations");
    pane.keys(&["s"]);
    pane.wait_text("read-only: sleep refused");
    pane.keys(&["m"]);
    let screen = pane.wait_text("read-only: message refused");
    // No message box opened, nothing written.
    assert!(!screen.contains("Ctrl-S"), "{screen}");
    assert_eq!(std::fs::read(&messages).ok(), before);
}

#[test]
fn a_red_observation_on_another_creature_rings_the_bell() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let tools = tempfile::tempdir().unwrap();
    let config = config(tools.path(), "bell = true\n");
    let pane = Pane::start(&[Path::new("--config"), &config, garden.dir.path()]);
    pane.wait_text("Observations");
    // ember (first by name) is selected; nothing has rung yet.
    assert_eq!(pane.display("#{window_bell_flag}"), "0");
    append(
        &garden.creature("pip").join(".self/observations.md"),
        "RED 17:59 the disk is almost full\n",
    );
    // tmux marks a window that rang while no client watched it.
    pane.wait_display("#{window_bell_flag}", "1");
    pane.wait_text("✱");
}

#[test]
fn without_bell_set_nothing_rings() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let pane = Pane::start(&[garden.dir.path()]);
    pane.wait_text("Observations");
    append(
        &garden.creature("pip").join(".self/observations.md"),
        "RED 17:59 the disk is almost full\n",
    );
    // The attention mark shows; the bell stays silent.
    pane.wait_text("✱");
    assert_eq!(pane.display("#{window_bell_flag}"), "0");
}
