//! End to end in tmux (issue 13): the operator's comforts on a real terminal: the editor
//! through the terminal hand-over and the screen coming back whole.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

mod tmux_support;
mod ui_support;

use tmux_support::{Pane, tmux_available};
use ui_support::Garden;

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
