//! User key commands, `[[commands]]` (issue 13): bound in the keymap like every other key,
//! listed in help and the hint bar, their line filled in for the selected creature and
//! asked of the runtime as a hand-over (foreground) or a background job; refused
//! read-only.

use crate::common::ui::{Garden, clock, filters};
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::input::commands::UserCommand;
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;
use dreamwatch::ui::update::{Foreground, Job, Program};

fn commands() -> Vec<UserCommand> {
    vec![
        UserCommand {
            key: "u".into(),
            description: "disk use".into(),
            command: "du -sh {dir} # {name} on {host}".into(),
            foreground: false,
        },
        UserCommand {
            key: "t".into(),
            description: "shell here".into(),
            command: "exec ${SHELL:-sh}".into(),
            foreground: true,
        },
    ]
}

fn screen(garden: &Garden, read_only: bool) -> Headless {
    let (theme, _) = Theme::load("dark", None, false);
    let mut settings = Settings::with_theme(theme);
    settings.read_only = read_only;
    let warnings = settings.keymap.add_commands(&commands());
    assert!(warnings.is_empty(), "{warnings:?}");
    Headless::open(
        &[garden.dir.path().to_path_buf()],
        settings,
        clock(),
        120,
        36,
    )
    .unwrap()
}

#[test]
fn a_background_command_is_filled_in_for_the_selected_creature() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = screen(&garden, false);
    let jobs = screen.press("u").unwrap();
    let ember = garden.creature("ember");
    assert_eq!(
        jobs,
        [Job::Background {
            line: format!("du -sh {} # ember on ''", ember.display()),
            dir: ember.clone(),
            what: "disk use".into(),
        }]
    );
    assert!(screen.text().unwrap().contains("disk use: running…"));
}

#[test]
fn a_foreground_command_is_a_hand_over() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = screen(&garden, false);
    let jobs = screen.press("t").unwrap();
    assert_eq!(
        jobs,
        [Job::Foreground(Foreground {
            program: Program::Shell("exec ${SHELL:-sh}".into()),
            dir: garden.creature("ember"),
            what: "shell here".into(),
        })]
    );
}

#[test]
fn read_only_refuses_user_commands() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = screen(&garden, true);
    assert!(screen.press("u").unwrap().is_empty());
    assert!(
        screen
            .text()
            .unwrap()
            .contains("read-only: disk use refused")
    );
}

#[test]
fn help_and_hints_list_user_commands() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = screen(&garden, false);
    let normal = screen.text().unwrap();
    let hints = normal.lines().last().unwrap();
    assert!(hints.contains("u disk use"), "{hints}");
    screen.press("?").unwrap();
    screen.press("G").unwrap();
    let help = screen.text().unwrap();
    assert!(
        help.contains("Your commands (config [[commands]])"),
        "{help}"
    );
    assert!(help.contains("shell here (with the terminal)"), "{help}");
    filters(&garden).bind(|| {
        insta::assert_snapshot!("user_commands_help", help);
    });
}
