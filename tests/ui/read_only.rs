//! `--read-only` (issue 13): every action that writes or acts is refused with a plain
//! word in the status line, even on a creature this observatory hosts; hints and help say so.

use std::collections::BTreeMap;

use crate::common::ui::{Garden, filters};
use dreamwatch::memory::cycle::Cycle;
use dreamwatch::ui::focus::Mode;
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;

/// A read-only observatory on the garden that hosts ember (its commands would be jobs).
fn read_only(garden: &Garden) -> Headless {
    let (theme, _) = Theme::load("dark", None, false);
    let mut settings = Settings::with_theme(theme);
    settings.read_only = true;
    Headless::open_hosting(
        &[garden.dir.path().to_path_buf()],
        BTreeMap::from([(garden.creature("ember"), Cycle::default())]),
        settings,
        crate::common::ui::clock(),
        120,
        36,
    )
    .unwrap()
}

#[test]
fn every_acting_key_is_refused_and_nothing_is_sent_or_written() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let messages = garden.creature("ember").join("MESSAGES.md");
    let before = std::fs::read(&messages).ok();
    let mut screen = read_only(&garden);
    for key in ["s", "p", "w", "m"] {
        let jobs = screen.press(key).unwrap();
        assert!(jobs.is_empty(), "{key}: {jobs:?}");
        assert_eq!(screen.app.mode, Mode::Normal, "{key} opened nothing");
        let text = screen.text().unwrap();
        assert!(text.contains("read-only:"), "{key}: {text}");
    }
    assert_eq!(
        std::fs::read(&messages).ok(),
        before,
        "MESSAGES.md untouched"
    );
    // The hint bar offers none of them; once the notice is read, the status line says why.
    screen.press("k").unwrap();
    let text = screen.text().unwrap();
    let hints = text.lines().last().unwrap();
    for hint in ["s sleep", "p pause", "w wake", "m message"] {
        assert!(!hints.contains(hint), "{hint} offered: {hints}");
    }
    assert!(text.contains("read-only · 2 creatures"), "{text}");
    // Watching and moving still work.
    screen.press("2").unwrap();
    screen.press("j").unwrap();
    assert!(screen.text().unwrap().contains("Dreams"));
}

#[test]
fn read_only_snapshots() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = read_only(&garden);
    screen.press("s").unwrap();
    let refused = screen.text().unwrap();
    screen.press("?").unwrap();
    let help = screen.text().unwrap();
    assert!(
        help.contains("Read-only: what writes or acts is refused"),
        "{help}"
    );
    filters(&garden).bind(|| {
        insta::assert_snapshot!("read_only_refused", refused);
        insta::assert_snapshot!("read_only_help", help);
    });
}
