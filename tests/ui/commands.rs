//! User key commands, `[[commands]]` (issue 13): bound in the keymap like every other key,
//! listed in help and the hint bar, their line filled in for the selected creature and
//! asked of the runtime as a hand-over (foreground) or a background job; refused
//! read-only.

use crate::common::ui::{Garden, clock, filters};
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::input::commands::{Place, UserCommand, expand};
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
            key: "!".into(),
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
    let dir = ember.display().to_string();
    let place = Place {
        dir: &dir,
        name: "ember",
        host: "",
    };
    assert_eq!(
        jobs,
        [Job::Background {
            line: expand("du -sh {dir} # {name} on {host}", place).unwrap(),
            dir: ember.clone(),
            what: "disk use".into(),
        }]
    );
    let Job::Background { line, .. } = &jobs[0] else {
        unreachable!()
    };
    assert!(
        line.ends_with(
            "du -sh \"${DREAMWATCH_DIR}\" # \"${DREAMWATCH_NAME}\" on \"${DREAMWATCH_HOST}\""
        ),
        "{line}"
    );
    assert!(screen.text().unwrap().contains("disk use: running…"));
}

#[test]
fn a_foreground_command_is_a_hand_over() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = screen(&garden, false);
    let jobs = screen.press("!").unwrap();
    assert_eq!(
        jobs,
        [Job::Foreground(Foreground {
            program: Program::Shell(
                expand(
                    "exec ${SHELL:-sh}",
                    Place {
                        dir: &garden.creature("ember").display().to_string(),
                        name: "ember",
                        host: ""
                    }
                )
                .unwrap()
            ),
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

/// A creature named to break out of the operator's shell: its name and directory reach
/// the command as text, in double quotes or not, and nothing else runs (issue 26).
#[test]
fn a_hostile_name_or_directory_runs_nothing() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    std::fs::remove_dir_all(garden.creature("pip")).unwrap();
    let hostile_dir = garden.creature("$(touch pwned-dir)");
    std::fs::rename(garden.creature("ember"), &hostile_dir).unwrap();
    let birth = hostile_dir.join("BIRTH.json");
    let mut json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&birth).unwrap_or_else(|_| b"{}".to_vec())).unwrap();
    let name = "\"; touch pwned-name; \" $(touch pwned-name2) `touch pwned-name3`";
    json["name"] = name.into();
    std::fs::write(&birth, json.to_string()).unwrap();
    let (theme, _) = Theme::load("dark", None, false);
    let mut settings = Settings::with_theme(theme);
    let warnings = settings.keymap.add_commands(&[
        UserCommand {
            key: "u".into(),
            description: "quoted".into(),
            command: "printf '%s|' \"{dir}\" \"{name}\" > out".into(),
            foreground: false,
        },
        UserCommand {
            key: "f9".into(),
            description: "bare".into(),
            command: "printf '%s|' {dir} {name} >> out".into(),
            foreground: false,
        },
        UserCommand {
            key: "z".into(),
            description: "single".into(),
            command: "echo '{name}'".into(),
            foreground: false,
        },
    ]);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("single quotes"), "{warnings:?}");
    let mut screen = Headless::open(
        &[garden.dir.path().to_path_buf()],
        settings,
        clock(),
        120,
        36,
    )
    .unwrap();
    let work = tempfile::tempdir().unwrap();
    for key in ["u", "f9"] {
        let jobs = screen.press(key).unwrap();
        let [Job::Background { line, .. }] = jobs.as_slice() else {
            panic!("{jobs:?}")
        };
        let status = std::process::Command::new("sh")
            .args(["-c", line])
            .current_dir(work.path())
            .status()
            .unwrap();
        assert!(status.success());
    }
    let mut files: Vec<String> = std::fs::read_dir(work.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["out"], "nothing but the command's own file");
    let dir = hostile_dir.display().to_string();
    let out = std::fs::read_to_string(work.path().join("out")).unwrap();
    // Unquoted or inside double quotes, each value is one word, as it is.
    assert_eq!(out, format!("{dir}|{name}|{dir}|{name}|"));
    assert!(
        !garden.dir.path().join("pwned-dir").exists()
            && !std::path::Path::new("pwned-dir").exists()
    );
}
