//! The observatory on OpenSeed's `minimal` and `wonders` creatures (fixtures written by
//! OpenSeed's own code at 815f9fd): each shown with the views of its own plug-in, its own
//! side panel, and nothing of the dreamer's. Whole-screen snapshots, clock stopped, temp
//! paths filtered.

use crate::common::ui::{Garden, copy_dir, filters};
use chrono::{TimeZone, Utc};
use dreamwatch::ui::headless::Headless;
use std::path::Path;

const W: u16 = 120;
const H: u16 = 32;

/// A garden of `lichen` (minimal) and `otter` (wonders), the screen on the one selected
/// after pressing `keys`.
fn garden(keys: &[&str]) -> (Garden, Headless) {
    dreamwatch::app::genomes::install();
    let dir = tempfile::tempdir().expect("temp dir");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/openseed");
    for (fixture, name) in [("minimal-lichen", "lichen"), ("wonders-otter", "otter")] {
        copy_dir(
            &fixtures.join(fixture).join("creature"),
            &dir.path().join(name),
        );
    }
    let garden = Garden { dir };
    let now = Utc.with_ymd_and_hms(2026, 11, 26, 23, 0, 0).unwrap();
    let mut screen = garden.screen_at("dark", W, H, now);
    for k in keys {
        screen.press(k).expect("key");
    }
    (garden, screen)
}

#[test]
fn a_minimal_creature_shows_its_cycles() {
    let (garden, mut screen) = garden(&["1"]);
    let text = screen.text().expect("render");
    assert!(text.contains("Cycles"), "{text}");
    assert!(text.contains(" Loop "), "{text}");
    assert!(!text.contains("Priorities & rules"), "{text}");
    assert!(!text.contains("Observations"), "{text}");
    assert!(text.contains("cycle 5"), "{text}");
    filters(&garden).bind(|| insta::assert_snapshot!("minimal_cycles", text));
}

#[test]
fn a_wonders_creature_shows_its_subconscious() {
    let (garden, mut screen) = garden(&["]", "1"]);
    let text = screen.text().expect("render");
    assert!(text.contains("Subconscious"), "{text}");
    assert!(text.contains("Surfaced memories"), "{text}");
    assert!(!text.contains("Priorities & rules"), "{text}");
    assert!(text.contains("surfaced"), "{text}");
    filters(&garden).bind(|| insta::assert_snapshot!("wonders_subconscious", text));
}

#[test]
fn their_events_view_keeps_its_key() {
    let (_garden, mut screen) = garden(&["6"]);
    let text = screen.text().expect("render");
    assert!(
        text.contains("creature.tool_call") || text.contains("tool"),
        "{text}"
    );
    assert_eq!(
        screen.app.shown_view(),
        dreamwatch::ui::focus::MainView::Events
    );
}
