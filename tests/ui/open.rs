//! `O`, `v` and `c` (issue 13): what the main pane selects goes to the editor or the pager
//! through the terminal hand-over, or to the clipboard; the update only asks (jobs), and
//! how a hand-over ended is said in the status line.

use crate::common::ui::Garden;
use dreamwatch::ui::update::{Foreground, HandBack, Job, Program};

fn foreground(jobs: Vec<Job>) -> Foreground {
    match jobs.as_slice() {
        [Job::Foreground(fg)] => fg.clone(),
        other => panic!("expected one hand-over, got {other:?}"),
    }
}

#[test]
fn o_and_v_hand_the_observations_file_over_at_the_top_entry() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    // The first creature (ember, by name) is selected; the main pane shows observations.
    screen.text().unwrap();
    let fg = foreground(screen.press("O").unwrap());
    let ember = garden.creature("ember");
    let Program::Editor { file, line } = &fg.program else {
        panic!("{fg:?}");
    };
    assert_eq!(file, &ember.join(".self/observations.md"));
    let line = line.expect("the top entry's line");
    let text = std::fs::read_to_string(file).unwrap();
    let shown = text.lines().nth(line - 1).unwrap();
    assert!(
        shown.contains("RED")
            || shown.contains("YLW")
            || shown.contains("GRN")
            || shown.starts_with("## "),
        "{shown}"
    );
    assert_eq!(fg.dir, ember);
    assert_eq!(fg.what, "editing observations.md");

    let fg = foreground(screen.press("v").unwrap());
    assert!(
        matches!(&fg.program, Program::Pager { file, .. } if file.ends_with("observations.md"))
    );
    assert_eq!(fg.what, "viewing observations.md");
}

#[test]
fn the_status_line_says_how_the_hand_over_ended() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    let fg = foreground(screen.press("v").unwrap());
    screen.app.on_handed_back(&fg, HandBack::Done);
    assert!(
        screen
            .text()
            .unwrap()
            .contains("back from viewing observations.md")
    );
    screen.app.on_handed_back(
        &fg,
        HandBack::NotRun("no-such-pager: No such file or directory (os error 2)".into()),
    );
    let text = screen.text().unwrap();
    assert!(
        text.contains("viewing observations.md: not run: no-such-pager: No such file"),
        "{text}"
    );
}

#[test]
fn c_copies_the_selected_entry_as_shown() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    screen.text().unwrap();
    let jobs = screen.press("c").unwrap();
    let [Job::Clipboard(text)] = jobs.as_slice() else {
        panic!("{jobs:?}");
    };
    let shown = screen.text().unwrap();
    assert!(
        shown.contains(text.lines().next().unwrap()),
        "{text:?} not on screen"
    );
}

#[test]
fn a_missing_file_is_said_and_nothing_runs() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let ember = garden.creature("ember");
    std::fs::remove_file(ember.join(".self/observations.md")).unwrap();
    let mut screen = garden.screen("dark", 120, 36);
    assert!(screen.press("O").unwrap().is_empty());
    assert!(
        screen
            .text()
            .unwrap()
            .contains("observations.md: no such file yet")
    );
}
