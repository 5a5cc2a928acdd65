//! The time cursor: a dreamer's life stepped through by dream, its views drawn as they
//! were (the header saying so, the life's strip with the cursor on it), Esc back to now
//! with what changed meanwhile; an evennia creature's journal as it was, through its
//! plug-in. Whole-screen snapshots (TestBackend, the clock stopped, temp paths filtered).

use crate::common::life;
use crate::common::ui::{Garden, clock, filters};
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;

const W: u16 = 120;
const H: u16 = 32;

/// A garden of one hand-written dreamer, `sprout`, that lived five dreams.
fn sprout() -> (Garden, Headless) {
    dreamwatch::app::genomes::install();
    let garden = Garden {
        dir: tempfile::tempdir().unwrap(),
    };
    life::dreamer(&garden.creature("sprout"), "sprout", 5);
    let (theme, _) = Theme::load("dark", None, false);
    let screen = Headless::open(
        &[garden.dir.path().to_path_buf()],
        Settings::with_theme(theme),
        clock(),
        W,
        H,
    )
    .unwrap();
    (garden, screen)
}

#[test]
fn t_enters_at_the_last_dream_and_steps_back_by_dream() {
    let (garden, mut screen) = sprout();
    screen.press("t").unwrap();
    let text = screen.text().unwrap();
    assert!(
        text.contains("as of dream 5 · 11-22 12:06 · Esc: now"),
        "{text}"
    );
    assert!(text.contains(&life::observation(5)), "{text}");
    screen.press("{").unwrap();
    screen.press("{").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("as of dream 3"), "{text}");
    assert!(text.contains(&life::observation(3)), "{text}");
    assert!(!text.contains(&life::observation(4)), "{text}");
    filters(&garden).bind(|| insta::assert_snapshot!("time_cursor_dream_3", text));
}

#[test]
fn the_dreams_view_shows_the_dreams_so_far() {
    let (garden, mut screen) = sprout();
    for key in ["t", "{", "2"] {
        screen.press(key).unwrap();
    }
    let text = screen.text().unwrap();
    assert!(text.contains("Dream 4"), "{text}");
    assert!(!text.contains("Dream 5"), "{text}");
    filters(&garden).bind(|| insta::assert_snapshot!("time_cursor_dreams_view", text));
}

#[test]
fn steps_by_wake_event_and_red_and_a_jump() {
    let (_garden, mut screen) = sprout();
    screen.press("t").unwrap();
    // Dreams 2 and 5 added a RED observation.
    screen.press("(").unwrap();
    assert!(screen.text().unwrap().contains("as of dream 2 ·"));
    screen.press(")").unwrap();
    assert!(screen.text().unwrap().contains("as of dream 5 ·"));
    screen.press("<").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("as of wake 5 · 11-22 12:00"), "{text}");
    assert!(!text.contains(&life::observation(5)), "{text}");
    screen.press(".").unwrap();
    assert!(screen.text().unwrap().contains("12:01:00"));
    screen.press(";").unwrap();
    screen.type_text("1");
    screen.press("enter").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("as of dream 1 ·"), "{text}");
    assert!(text.contains(&life::observation(1)), "{text}");
    assert!(!text.contains(&life::observation(2)), "{text}");
}

#[test]
fn esc_comes_back_to_now_with_what_changed_meanwhile() {
    let (garden, mut screen) = sprout();
    screen.press("t").unwrap();
    screen.press("{").unwrap();
    crate::common::ui::append(
        &garden.creature("sprout").join(".self/observations.md"),
        "YLW 12:31 written while the operator looked back\n",
    );
    screen.refresh();
    let text = screen.text().unwrap();
    assert!(!text.contains("while the operator looked back"), "{text}");
    screen.press("esc").unwrap();
    let text = screen.text().unwrap();
    assert!(!text.contains("as of dream"), "{text}");
    assert!(text.contains("while the operator looked back"), "{text}");
}

#[test]
fn play_moves_the_cursor_by_the_life_s_time() {
    let (_garden, mut screen) = sprout();
    screen.press("t").unwrap();
    screen.press(";").unwrap();
    screen.type_text("wake:2");
    screen.press("enter").unwrap();
    for _ in 0..5 {
        screen.press("'").unwrap();
    }
    screen.press("space").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("▶ 32x"), "{text}");
    // The first tick starts the play; two minutes at 32x later, an hour of life is past.
    let t0 = clock();
    screen.tick(t0);
    screen.tick(t0 + chrono::TimeDelta::minutes(2));
    let text = screen.text().unwrap();
    assert!(text.contains("as of dream 3 and after"), "{text}");
}

#[test]
fn an_evennia_journal_as_it_was() {
    dreamwatch::app::genomes::install();
    let garden = Garden::with_evennia();
    let mut screen = garden.screen("dark", W, H);
    for key in ["]", "t", ",", ",", "1"] {
        screen.press(key).unwrap();
    }
    let text = screen.text().unwrap();
    assert!(text.contains("11-22 16:56:05"), "{text}");
    filters(&garden).bind(|| insta::assert_snapshot!("time_cursor_evennia_journal", text));
}

/// A move's past is built off the UI thread: the cursor stands at the new moment at once
/// (the header says so, with "…" while it builds), the last past built is drawn
/// meanwhile, and moves made during a build are merged: only the newest is built next.
#[test]
fn a_move_builds_off_the_ui_thread_the_newest_winning() {
    let (_garden, mut screen) = sprout();
    screen.press("t").unwrap();
    screen.hold_builds();
    for _ in 0..3 {
        screen.press("{").unwrap();
    }
    let text = screen.text().unwrap();
    assert!(text.contains("as of dream 2 · 11-22"), "{text}");
    assert!(text.contains(" …"), "{text}");
    // Dream 5's memory is still drawn.
    assert!(text.contains(&life::observation(5)), "{text}");
    // The first move's build, then the newest's: the one between is never built.
    assert_eq!(screen.finish_builds(), 2);
    let text = screen.text().unwrap();
    assert!(text.contains("as of dream 2 · 11-22"), "{text}");
    assert!(!text.contains(" …"), "{text}");
    assert!(text.contains(&life::observation(2)), "{text}");
    assert!(!text.contains(&life::observation(3)), "{text}");
}

/// An answer for a cursor left meanwhile is dropped: now stays shown.
#[test]
fn a_build_answered_after_esc_is_dropped() {
    let (_garden, mut screen) = sprout();
    screen.press("t").unwrap();
    screen.hold_builds();
    screen.press("{").unwrap();
    screen.press("esc").unwrap();
    assert_eq!(screen.finish_builds(), 1);
    let text = screen.text().unwrap();
    assert!(!text.contains("as of dream"), "{text}");
}

/// A search reads the files as they are now: its hit is shown now, the cursor left and
/// the status line saying so.
#[test]
fn a_search_hit_comes_back_to_now_and_says_so() {
    let (_garden, mut screen) = sprout();
    for key in ["t", "{", "{", "/"] {
        screen.press(key).unwrap();
    }
    screen.type_text("what dream 5 kept");
    screen.press("enter").unwrap();
    let text = screen.text().unwrap();
    assert!(!text.contains("as of dream"), "{text}");
    assert!(
        text.contains("back to now: a search reads the files as they are now"),
        "{text}"
    );
    assert!(text.contains(&life::observation(5)), "{text}");
}
