//! The observatory shows the cycle each creature lives by: a hosted creature its runner's
//! constants (through the hosted handle), a watched one the configured constants and what
//! its files say.

use std::collections::BTreeMap;

use crate::common::ui::Garden;
use dreamwatch::memory::cycle::{Cycle, Profile};
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;

/// The observatory on `garden` with `watched` as the configured cycle, `ember` hosted by a
/// runner living by `hosted`; ember is selected.
fn screen(garden: &Garden, watched: Cycle, hosted: Option<Cycle>) -> Headless {
    let (theme, _) = Theme::load("dark", None, false);
    let mut settings = Settings::with_theme(theme);
    settings.cycle = watched;
    let hosting = hosted.map(|c| (garden.creature("ember"), c));
    let mut screen = Headless::open_hosting(
        &[garden.dir.path().to_path_buf()],
        BTreeMap::from_iter(hosting),
        settings,
        crate::common::ui::clock(),
        140,
        36,
    )
    .unwrap();
    assert_eq!(
        screen.app.selected_ui().map(|u| u.name.as_str()),
        Some("ember")
    );
    screen.render().unwrap();
    screen
}

/// Keeps ember's first `n` dreams: a young creature, with no deep sleep yet.
fn young_ember(garden: &Garden, n: usize) {
    let dreams = garden.creature("ember").join(".self/dreams.jsonl");
    let text = std::fs::read_to_string(&dreams).unwrap();
    let kept: String = text.lines().take(n).map(|l| format!("{l}\n")).collect();
    assert!(!kept.contains("\"deep\":true"));
    std::fs::write(&dreams, kept).unwrap();
}

/// The header's second line: the gauge and the dream counts.
fn gauge_line(screen: &mut Headless) -> String {
    let text = screen.text().unwrap();
    text.lines()
        .find(|l| l.contains("fatigue") && l.contains("dreams"))
        .unwrap_or_else(|| panic!("no header gauge line in\n{text}"))
        .to_string()
}

#[test]
fn an_openseed_runner_shows_its_deep_sleep_every_fifth_dream() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    young_ember(&garden, 3);
    let openseed = Cycle::profile(Profile::Openseed);
    let mut hosted = screen(&garden, Cycle::default(), Some(openseed));
    let line = gauge_line(&mut hosted);
    assert!(line.contains("next in 2 of 5)"), "{line}");
    let ui = hosted.app.selected_ui().unwrap();
    assert_eq!(
        (ui.summary.deep_every, ui.summary.dreams_until_deep),
        (5, 2)
    );
}

#[test]
fn a_hosted_creature_lives_by_its_runner_whatever_its_past_cadence() {
    dreamwatch::app::genomes::install();
    // pip deep-slept on its 10th and 20th dreams; its runner now sleeps deep every 5th:
    // the 25th dream is the next deep one.
    let garden = Garden::new();
    let openseed = Cycle::profile(Profile::Openseed);
    let pip = garden.creature("pip");
    let (theme, _) = Theme::load("dark", None, false);
    let screen = Headless::open_hosting(
        &[garden.dir.path().to_path_buf()],
        BTreeMap::from([(pip.clone(), openseed)]),
        Settings::with_theme(theme),
        crate::common::ui::clock(),
        140,
        36,
    )
    .unwrap();
    let ui = screen.app.creatures.get(&pip).unwrap();
    assert_eq!(ui.summary.dreams, 20);
    assert_eq!(
        (ui.summary.deep_every, ui.summary.dreams_until_deep),
        (5, 5)
    );
}

#[test]
fn a_runners_fatigue_limit_is_the_gauges() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let runner = Cycle {
        fatigue_limit: 40,
        ..Cycle::default()
    };
    let mut hosted = screen(&garden, Cycle::default(), Some(runner));
    let line = gauge_line(&mut hosted);
    assert!(line.contains("/40"), "{line}");
    assert!(!line.contains("/80"), "{line}");
}

#[test]
fn watched_creatures_show_the_configured_constants() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let configured = Cycle {
        fatigue_warning: 30,
        fatigue_limit: 40,
        ..Cycle::default()
    };
    let mut watched = screen(&garden, configured, None);
    let line = gauge_line(&mut watched);
    assert!(line.contains("/40") && line.contains("warn 30"), "{line}");
    // ember's deep sleeps on disk (its 5th and 10th dreams) say every 5th.
    let ui = watched.app.selected_ui().unwrap();
    assert_eq!((ui.summary.deep_sleeps, ui.summary.deep_every), (2, 5));
    assert!(line.contains(" of 5)"), "{line}");
}

#[test]
fn a_young_watched_creature_takes_the_configured_cadence() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    young_ember(&garden, 3);
    let mut seed = screen(&garden, Cycle::default(), None);
    assert!(gauge_line(&mut seed).contains("next in 7 of 10)"));
    let mut openseed = screen(&garden, Cycle::profile(Profile::Openseed), None);
    assert!(gauge_line(&mut openseed).contains("next in 2 of 5)"));
}
