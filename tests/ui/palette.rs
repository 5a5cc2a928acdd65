//! The `:` command palette (issue 23): every action by name, user commands included,
//! fuzzy matched; a creature or a view by name; Enter runs it as its key would.

use dreamwatch::ui::focus::{MainView, Mode};
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::input::commands::UserCommand;
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;
use dreamwatch::ui::update::Job;

use crate::common::ui::Garden;

fn screen(garden: &Garden) -> Headless {
    let (theme, _) = Theme::load("dark", None, false);
    let mut settings = Settings::with_theme(theme);
    let warnings = settings.keymap.add_commands(&[UserCommand {
        key: "ctrl-g".into(),
        description: "open tig in the creature".into(),
        command: "tig".into(),
        foreground: true,
    }]);
    assert!(warnings.is_empty(), "{warnings:?}");
    Headless::open(
        &[garden.dir.path().to_path_buf()],
        settings,
        crate::common::ui::clock(),
        120,
        36,
    )
    .unwrap()
}

/// Opens the palette and types `query`.
fn palette(screen: &mut Headless, query: &str) {
    screen.press(":").unwrap();
    assert_eq!(screen.app.mode, Mode::Palette);
    screen.type_text(query);
}

#[test]
fn a_creature_a_view_and_an_action_by_name() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = screen(&garden);
    assert_eq!(screen.app.selected, Some(garden.creature("ember")));
    palette(&mut screen, "pip");
    let text = screen.text().unwrap();
    assert!(
        text.contains("Run an action, show a view, select a creature"),
        "{text}"
    );
    assert!(text.contains("pip"), "{text}");
    screen.press("enter").unwrap();
    assert_eq!(screen.app.mode, Mode::Normal);
    assert_eq!(screen.app.selected, Some(garden.creature("pip")));

    palette(&mut screen, "dreams");
    screen.press("enter").unwrap();
    assert_eq!(screen.app.shown_view(), MainView::Dreams);

    // An action as if its key were pressed: help opens.
    palette(&mut screen, "show or hide this help");
    screen.press("enter").unwrap();
    assert_eq!(screen.app.mode, Mode::Help);
    screen.press("esc").unwrap();

    // Refused in words where its key does nothing: the order of observations, in Dreams.
    palette(&mut screen, "order newest first");
    screen.press("enter").unwrap();
    let notice = screen.app.notice.clone().unwrap().text;
    assert!(notice.contains("does nothing here"), "{notice}");
}

#[test]
fn user_commands_and_suspend_are_listed_and_run() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = screen(&garden);
    palette(&mut screen, "tig");
    let text = screen.text().unwrap();
    assert!(text.contains("open tig in the creature"), "{text}");
    assert!(text.contains("Ctrl-G"), "{text}");
    let jobs = screen.press("enter").unwrap();
    assert!(matches!(jobs.as_slice(), [Job::Foreground(_)]), "{jobs:?}");

    palette(&mut screen, "suspend");
    assert_eq!(screen.press("enter").unwrap(), [Job::Suspend]);
    assert_eq!(screen.press("ctrl-z").unwrap(), [Job::Suspend]);
}

#[test]
fn keys_edit_the_query_and_esc_closes_with_nothing_run() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = screen(&garden);
    let selected = screen.app.selected.clone();
    // j, k and q are typed, not moves or a quit.
    palette(&mut screen, "jkq");
    assert!(!screen.app.quit);
    assert!(screen.text().unwrap().contains("nothing matches"));
    screen.press("enter").unwrap();
    assert_eq!(
        screen.app.mode,
        Mode::Palette,
        "nothing to run: it stays open"
    );
    screen.press("ctrl-u").unwrap();
    screen.press("down").unwrap();
    screen.press("esc").unwrap();
    assert_eq!(screen.app.mode, Mode::Normal);
    assert_eq!(screen.app.selected, selected);
}
