//! Health at a glance (issue 13): a failing, stalled or runner-less creature is said so in
//! the garden, never as a plain "awake"; what arrives on a creature that is not selected
//! marks it (and rings the bell when asked) until it is selected.

use crate::common::ui::{Garden, append};
use chrono::Duration;
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::state::health::{Attention, Health};
use dreamwatch::ui::theme::Theme;

/// The garden row of `name` (its first line, in the garden pane).
fn row(text: &str, name: &str) -> String {
    text.lines()
        .map(|l| l.chars().take(30).collect::<String>())
        .find(|l| l.contains(&format!(" {name}")))
        .unwrap_or_else(|| panic!("no row for {name}: {text}"))
}

fn health(screen: &Headless, name: &str) -> Health {
    let ui = screen
        .app
        .creatures
        .values()
        .find(|u| u.name == name)
        .unwrap();
    ui.health
}

#[test]
fn awake_and_quiet_for_ten_minutes_is_stalled() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    assert!(row(&screen.text().unwrap(), "pip").contains("awake"));
    screen.tick(crate::common::ui::clock() + Duration::minutes(12));
    let text = screen.text().unwrap();
    assert!(row(&text, "pip").contains("⚠ stalled"), "{text}");
    assert_eq!(health(&screen, "pip"), Health::Stalled);
    // The filter knows the word.
    for k in ["h", "/"] {
        screen.press(k).unwrap();
    }
    screen.type_text("stalled");
    let text = screen.text().unwrap();
    assert!(text.contains("Garden 1/2 /stalled"), "{text}");
}

#[test]
fn an_error_as_the_latest_event_is_failing_and_marks_an_unselected_creature() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let (theme, _) = Theme::load("dark", None, false);
    let mut settings = Settings::with_theme(theme);
    settings.bell = true;
    let mut screen = Headless::open(
        &[garden.dir.path().to_path_buf()],
        settings,
        crate::common::ui::clock(),
        120,
        36,
    )
    .unwrap();
    // ember is selected (first by name); pip's model call fails.
    append(
        &garden.creature("pip").join(".self/events.jsonl"),
        "{\"t\":\"2026-11-22T17:49:30.000Z\",\"type\":\"creature.error\",\"error\":\"model call failed: 529 overloaded\"}\n",
    );
    screen.refresh();
    let text = screen.text().unwrap();
    assert!(row(&text, "pip").contains("✱"), "{text}");
    assert!(row(&text, "pip").contains("⚠ failing"), "{text}");
    assert_eq!(health(&screen, "pip"), Health::Failing);
    assert!(screen.app.take_bell(), "bell = true rings once");
    assert!(!screen.app.take_bell());
    // Selected, the mark goes; the health stays until something else happens.
    screen.press("]").unwrap();
    let text = screen.text().unwrap();
    assert!(!row(&text, "pip").contains("✱"), "{text}");
    append(
        &garden.creature("pip").join(".self/events.jsonl"),
        "{\"t\":\"2026-11-22T17:49:40.000Z\",\"type\":\"creature.tool_call\",\"tool\":\"bash\",\"input\":\"ls\",\"ok\":true}\n",
    );
    screen.refresh();
    assert_eq!(
        health(&screen, "pip"),
        Health::Ok,
        "a call since: no longer failing"
    );
}

#[test]
fn a_red_observation_or_a_dream_on_another_creature_marks_it_without_a_bell_by_default() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    append(
        &garden.creature("pip").join(".self/observations.md"),
        "RED 17:49 the disk is nearly full\n",
    );
    screen.refresh();
    let pip = screen
        .app
        .creatures
        .values()
        .find(|u| u.name == "pip")
        .unwrap();
    assert_eq!(pip.attention, Some(Attention::Red));
    assert!(!screen.app.take_bell(), "no bell unless asked");
    // The selected creature is never marked.
    append(
        &garden.creature("ember").join(".self/observations.md"),
        "RED 17:49 seen already\n",
    );
    screen.refresh();
    let ember = screen
        .app
        .creatures
        .values()
        .find(|u| u.name == "ember")
        .unwrap();
    assert_eq!(ember.attention, None);
}

#[test]
fn a_runner_that_is_gone_is_said_so() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let sys = garden.creature("pip").join(".sys");
    std::fs::create_dir_all(&sys).unwrap();
    // A runner.json whose runner holds no lock: it ran here and runs no more.
    std::fs::write(sys.join("runner.json"), r#"{"pid": 999999}"#).unwrap();
    let mut screen = garden.screen("dark", 120, 36);
    let text = screen.text().unwrap();
    assert!(row(&text, "pip").contains("runner gone"), "{text}");
    assert!(!row(&text, "pip").contains("awake"), "{text}");
}

/// The names of the creatures the clock may still change.
fn clock_bound(screen: &Headless) -> Vec<String> {
    let mut names: Vec<String> = screen
        .app
        .clock_bound()
        .iter()
        .map(|u| u.name.clone())
        .collect();
    names.sort();
    names
}

#[test]
fn a_tick_leaves_creatures_at_rest_alone_and_follows_the_others() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let t0 = crate::common::ui::clock();
    let mut screen = garden.screen("dark", 120, 36);
    // Before the first tick every creature may be one the clock changes.
    assert_eq!(clock_bound(&screen), ["ember", "pip"]);
    screen.tick(t0 + Duration::minutes(1));
    let status = |screen: &mut Headless, name: &str| {
        let row = row(&screen.text().unwrap(), name);
        ["awake", "stalled", "stopped"]
            .into_iter()
            .find(|s| row.contains(s))
            .unwrap_or_default()
            .to_string()
    };
    // Both have calls in their sparklines' two hours: those move on with the clock.
    assert_eq!(clock_bound(&screen), ["ember", "pip"]);
    assert_eq!(status(&mut screen, "ember"), "stopped");
    screen.tick(t0 + Duration::minutes(12));
    assert_eq!(status(&mut screen, "pip"), "stalled");
    screen.tick(t0 + Duration::hours(3));
    assert_eq!(status(&mut screen, "pip"), "stopped");
    // Nothing left for the clock to change: the next tick looks at no creature.
    assert_eq!(clock_bound(&screen), Vec::<String>::new());
    let version = screen.app.creatures.version();
    screen.tick(t0 + Duration::hours(3) + Duration::minutes(1));
    assert_eq!(
        screen.app.creatures.version(),
        version,
        "no creature reached"
    );
    // A creature at rest whose files say it lives again is followed again.
    append(
        &garden.creature("ember").join(".sys/events.jsonl"),
        "{\"t\":\"2026-11-22T20:51:30.000Z\",\"type\":\"creature.thought\",\"text\":\"again\"}\n",
    );
    screen.refresh();
    assert_eq!(clock_bound(&screen), ["ember"]);
    screen.tick(t0 + Duration::hours(3) + Duration::minutes(2));
    assert_eq!(status(&mut screen, "ember"), "awake");
    assert_eq!(clock_bound(&screen), ["ember"]);
    screen.tick(t0 + Duration::hours(4));
    assert_eq!(status(&mut screen, "ember"), "stopped");
}

#[test]
fn an_idle_screen_is_drawn_again_when_a_text_of_the_clock_reads_differently_and_not_before() {
    use dreamwatch::ui::runtime::ticks::next_tick;
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let t0 = crate::common::ui::clock();
    let mut screen = garden.screen("dark", 120, 36);
    // Three hours on, both creatures are at rest: only their "ago" texts move.
    let rest = t0 + Duration::hours(3);
    screen.tick(rest);
    assert_eq!(clock_bound(&screen), Vec::<String>::new());
    let before = screen.text().unwrap();
    let until = screen.app.shown_until().expect("the rows say how long ago");
    assert!(
        until > rest && until <= rest + Duration::minutes(1),
        "{until}"
    );
    let wait = next_tick(&screen.app, rest);
    assert_eq!(
        wait.as_millis(),
        (until - rest).num_milliseconds() as u128 + 5
    );
    // A tick before then draws nothing: the screen would read the same.
    screen.tick(until - Duration::seconds(1));
    assert!(!screen.app.dirty, "nothing of the screen changed");
    assert_eq!(screen.text().unwrap(), before);
    // At it, a text reads differently: drawn again.
    screen.tick(until);
    assert!(screen.app.dirty);
    assert_ne!(screen.text().unwrap(), before);
    // The frame drawn then says when its texts next change.
    let next = screen.app.shown_until().expect("still ago texts");
    assert!(next > until, "the next change is later: {next}");
}
