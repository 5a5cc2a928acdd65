//! A creature held asleep by a guardrail: the header says so and names the key that wakes
//! it as the keymap binds it.

use std::collections::BTreeMap;

use crate::common::ui::{Garden, clock};
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::input::keymap::{KeyNames, Keymap};
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;

const REPORT: &str = r#"{"rail":"loop","reason":"loop: `make` failed 3 times","tripped_at":"2026-11-22T17:40:00Z","slept_at":"2026-11-22T17:41:00Z","consolidated":true}"#;

fn header(screen: &mut Headless) -> String {
    let text = screen.text().expect("render");
    text.lines()
        .find(|l| l.contains("⊘"))
        .unwrap_or_else(|| panic!("no hold in the header: {text}"))
        .to_string()
}

#[test]
fn the_hold_names_the_wake_key_as_bound() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let ember = garden.creature("ember");
    std::fs::write(ember.join(".sys/guardrail.json"), REPORT).unwrap();

    let mut screen = garden.screen("dark", 160, 36);
    let line = header(&mut screen);
    assert!(
        line.contains("⊘ held: loop: `make` failed 3 times · w wakes it"),
        "{line}"
    );

    let (theme, _) = Theme::load("dark", None, false);
    let mut settings = Settings::with_theme(theme);
    let mut keymap = Keymap::default();
    let patch = BTreeMap::from([("wake".to_string(), KeyNames::One("z".into()))]);
    assert!(keymap.patch(&patch).is_empty());
    settings.keymap = keymap;
    let mut screen = Headless::open(
        &[garden.dir.path().to_path_buf()],
        settings,
        clock(),
        160,
        36,
    )
    .unwrap();
    let line = header(&mut screen);
    assert!(line.contains("· z wakes it"), "{line}");
    assert!(!line.contains("w wakes it"), "{line}");
}
