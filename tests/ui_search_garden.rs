//! Search over the whole garden, headless: Tab in the search prompt widens it from the
//! selected creature to every creature, and a hit in another creature selects it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

mod ui_support;

use ui_support::{Garden, append};

const LINE: &str =
    "{\"t\":\"2026-11-22T17:59:00.000Z\",\"role\":\"user\",\"content\":\"the Quokka census\"}\n";

#[test]
fn tab_in_the_prompt_searches_every_creature_and_a_hit_selects_its_creature() {
    let garden = Garden::new();
    append(
        &garden.creature("pip").join(".self/conversation.jsonl"),
        LINE,
    );
    let mut screen = garden.screen("dark", 120, 36);
    let ember = garden.creature("ember");
    assert_eq!(screen.app.selected.as_ref(), Some(&ember));

    // The selected creature only: nothing.
    screen.press("/").unwrap();
    screen.type_text("quokka");
    screen.press("enter").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("/quokka  0 hits"), "{text}");

    // The whole garden: the prompt says so, the hit is in pip, which is selected.
    screen.press("/").unwrap();
    screen.press("tab").unwrap();
    screen.type_text("quokka");
    let text = screen.text().unwrap();
    assert!(text.contains("/quokka█  (whole garden)"), "{text}");
    screen.press("enter").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("garden /quokka  hit 1/1 in pip"), "{text}");
    assert!(text.contains("the Quokka census"), "{text}");
    assert_eq!(screen.app.selected.as_ref(), Some(&garden.creature("pip")));

    // Smart case: a capital matches case exactly.
    screen.press("/").unwrap();
    screen.type_text("QUOKKA");
    screen.press("enter").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("garden /QUOKKA  0 hits"), "{text}");
}
