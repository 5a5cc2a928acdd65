//! Search over the whole garden, headless: Tab in the search prompt widens it from the
//! selected creature to every creature, and a hit in another creature selects it; the
//! list of hits (`H`) shows them all, and Enter shows one.

use crate::common::ui::{Garden, append, filters};
use dreamwatch::ui::doc::scroll::Anchor;
use dreamwatch::ui::focus::{MainView, Mode};

const LINE: &str =
    "{\"t\":\"2026-11-22T17:59:00.000Z\",\"role\":\"user\",\"content\":\"the Quokka census\"}\n";

#[test]
fn tab_in_the_prompt_searches_every_creature_and_a_hit_selects_its_creature() {
    dreamwatch::app::genomes::install();
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
    assert!(
        text.contains("/quokka█  (whole garden · literal)"),
        "{text}"
    );
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

#[test]
fn ctrl_r_in_the_prompt_searches_a_regular_expression() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    append(
        &garden.creature("pip").join(".self/conversation.jsonl"),
        LINE,
    );
    let mut screen = garden.screen("dark", 120, 36);
    screen.press("/").unwrap();
    screen.press("tab").unwrap();
    screen.press("ctrl-r").unwrap();
    screen.type_text("qu[o]k+a\\s+census");
    let text = screen.text().unwrap();
    assert!(text.contains("(whole garden · regex)"), "{text}");
    screen.press("enter").unwrap();
    let text = screen.text().unwrap();
    assert!(
        text.contains("garden regex /qu[o]k+a\\s+census  hit 1/1 in pip"),
        "{text}"
    );

    // A pattern that does not compile is said, not searched.
    screen.press("/").unwrap();
    screen.type_text("(unclosed");
    screen.press("enter").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("not a regular expression"), "{text}");
}

/// A line of pip's with control characters in it: the list shows them inert.
/// (raw, as a creature may write them: not even JSON's escapes).
const HOSTILE: &str = "{\"t\":\"2026-11-22T17:59:30.000Z\",\"role\":\"user\",\"content\":\"the lookup \u{1b}[2J\u{7} rang\"}\n";

/// A garden search for `lookup`: ember's conversation and observations, then pip's
/// conversation (with the hostile line last).
fn lookup_in_the_garden(garden: &Garden) -> dreamwatch::ui::headless::Headless {
    append(
        &garden.creature("pip").join(".self/conversation.jsonl"),
        HOSTILE,
    );
    let mut screen = garden.screen("dark", 120, 36);
    // No hits yet: the list does not open.
    screen.press("H").unwrap();
    assert_eq!(screen.app.mode, Mode::Normal);
    screen.press("/").unwrap();
    screen.press("tab").unwrap();
    screen.type_text("lookup");
    screen.press("enter").unwrap();
    assert_eq!(screen.app.search.hits.len(), 24);
    screen
}

#[test]
fn the_hits_list_shows_every_creatures_hits() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = lookup_in_the_garden(&garden);
    screen.press("H").unwrap();
    screen.press("j").unwrap();
    let text = screen.text().unwrap();
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text}"
    );
    filters(&garden).bind(|| insta::assert_snapshot!("search_hits_list", text));
}

#[test]
fn enter_in_the_hits_list_shows_the_hit_in_its_creatures_view() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = lookup_in_the_garden(&garden);
    let (pip, ember) = (garden.creature("pip"), garden.creature("ember"));

    // The last hit: pip's hostile line, in recall.
    screen.press("H").unwrap();
    screen.press("G").unwrap();
    screen.press("enter").unwrap();
    assert_eq!(screen.app.mode, Mode::Normal);
    assert_eq!(screen.app.selected.as_ref(), Some(&pip));
    assert_eq!(screen.app.view, MainView::Recall);
    let lines = std::fs::read_to_string(pip.join(".self/conversation.jsonl")).unwrap();
    let last = lines.lines().count() as u64 - 1;
    assert_eq!(
        screen.app.creatures.get(&pip).unwrap().recall.mark,
        Some(last)
    );
    let text = screen.text().unwrap();
    assert!(text.contains("garden /lookup  hit 24/24 in pip"), "{text}");

    // Reopened, the list is at the hit shown; up past pip's four other hits, the second
    // of ember's observations, at its line of observations.md.
    screen.press("H").unwrap();
    assert_eq!(screen.app.search.list.selected, 23);
    for _ in 0..5 {
        screen.press("k").unwrap();
    }
    screen.press("enter").unwrap();
    assert_eq!(screen.app.selected.as_ref(), Some(&ember));
    assert_eq!(screen.app.view, MainView::Observations);
    let hit = screen.app.search.hits[18].clone();
    assert_eq!(screen.app.search.current, Some(18));
    let ui = screen.app.creatures.get(&ember).unwrap();
    let Anchor::Line(at) = ui.obs.anchor else {
        panic!("{:?}", ui.obs.anchor);
    };
    assert_eq!(ui.obs.doc.line_nos[at], hit.line as usize + 1);
    // n goes on from there.
    screen.press("n").unwrap();
    assert_eq!(screen.app.search.current, Some(19));
    assert_eq!(screen.app.selected.as_ref(), Some(&pip));
}

#[test]
fn esc_closes_the_hits_list_and_leaves_the_hit_shown() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = lookup_in_the_garden(&garden);
    let before = (screen.app.selected.clone(), screen.app.view);
    screen.press("H").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("Hits of garden /lookup: 1/24"), "{text}");
    screen.press("j").unwrap();
    screen.press("esc").unwrap();
    assert_eq!(screen.app.mode, Mode::Normal);
    assert_eq!(screen.app.search.current, Some(0));
    assert_eq!((screen.app.selected.clone(), screen.app.view), before);
    let text = screen.text().unwrap();
    assert!(!text.contains("Hits of"), "{text}");
}

#[test]
fn h_closes_the_hits_list_again_as_esc_does() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = lookup_in_the_garden(&garden);
    let before = (screen.app.selected.clone(), screen.app.view);
    screen.press("H").unwrap();
    assert_eq!(screen.app.mode, Mode::Hits);
    screen.press("j").unwrap();
    screen.press("H").unwrap();
    assert_eq!(screen.app.mode, Mode::Normal);
    assert_eq!(screen.app.search.current, Some(0));
    assert_eq!((screen.app.selected.clone(), screen.app.view), before);
    let text = screen.text().unwrap();
    assert!(!text.contains("Hits of"), "{text}");
    // And opens it again.
    screen.press("H").unwrap();
    assert_eq!(screen.app.mode, Mode::Hits);
}
