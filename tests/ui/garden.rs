//! The garden list as the operator shapes it (issue 13): typing to filter while it has the
//! focus, a number to jump, the sort cycled by a key, all said in its title and headers.

use crate::common::ui::{Garden, copy_dir, filters};
use dreamwatch::ui::focus::Mode;
use dreamwatch::ui::headless::Headless;

fn press(screen: &mut Headless, keys: &[&str]) {
    for k in keys {
        screen.press(k).expect("key");
    }
}

fn selected_name(screen: &Headless) -> String {
    screen
        .app
        .selected_ui()
        .map(|u| u.name.clone())
        .unwrap_or_default()
}

/// The garden pane's column (the left 30 columns of a 120-wide screen).
fn garden_text(text: &str) -> String {
    text.lines()
        .map(|l| l.chars().take(30).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn typing_in_the_focused_garden_filters_it_and_esc_shows_all_again() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    // `/` in the main pane searches; in the garden it filters.
    press(&mut screen, &["/"]);
    assert_eq!(screen.app.mode, Mode::Search);
    press(&mut screen, &["esc", "h", "/"]);
    assert_eq!(screen.app.mode, Mode::Filter);
    screen.type_text("pi");
    let text = screen.text().unwrap();
    let list = garden_text(&text);
    assert!(list.contains("Garden 1/2 /pi"), "{list}");
    assert!(list.contains("pip") && !list.contains("ember"), "{list}");
    assert_eq!(
        selected_name(&screen),
        "pip",
        "the selection follows the filter"
    );
    assert!(text.contains("filter garden: pi"), "the prompt: {text}");
    // Enter keeps the filter; Esc in the garden shows them all, pip still selected.
    press(&mut screen, &["enter"]);
    assert_eq!(screen.app.mode, Mode::Normal);
    let text = screen.text().unwrap();
    assert!(garden_text(&text).contains("Garden 1/2 /pi"));
    assert!(text.contains("Esc clear filter"), "the hint: {text}");
    press(&mut screen, &["esc"]);
    let list = garden_text(&screen.text().unwrap());
    assert!(
        list.contains("Garden · 2") && list.contains("ember"),
        "{list}"
    );
    assert_eq!(selected_name(&screen), "pip");
}

#[test]
fn a_status_word_filters_and_nothing_matching_says_how_back() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    press(&mut screen, &["h", "/"]);
    screen.type_text("stopped");
    let list = garden_text(&screen.text().unwrap());
    assert!(list.contains("ember") && !list.contains("pip "), "{list}");
    press(&mut screen, &["backspace"; 7]);
    screen.type_text("zzz");
    let text = screen.text().unwrap();
    assert!(text.contains("No creature matches."), "{text}");
    // Esc while typing clears the filter and closes the prompt.
    press(&mut screen, &["esc"]);
    assert_eq!(screen.app.mode, Mode::Normal);
    assert!(garden_text(&screen.text().unwrap()).contains("Garden · 2"));
}

#[test]
fn a_number_jumps_to_that_row() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    for n in [2, 10] {
        copy_dir(
            &garden.creature("pip"),
            &garden.dir.path().join(format!("c{n}")),
        );
    }
    let mut screen = garden.screen("dark", 120, 36);
    // Rows are numbered in the garden's order: c10 and c2 are named pip too, so the
    // directory tells them apart, in natural order (c2 before c10).
    press(&mut screen, &["h", "/"]);
    screen.type_text("3");
    press(&mut screen, &["enter"]);
    let selected = screen.app.selected.clone().unwrap();
    assert!(selected.ends_with("c10"), "{selected:?}");
    let list = garden_text(&screen.text().unwrap());
    assert!(
        list.contains("Garden · 4"),
        "the number is not kept: {list}"
    );
}

#[test]
fn a_key_cycles_the_sort_and_the_title_says_it() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    let order = |screen: &Headless| -> Vec<String> {
        screen
            .app
            .garden_order()
            .iter()
            .filter_map(|p| screen.app.creatures.get(p).map(|u| u.name.clone()))
            .collect()
    };
    assert_eq!(order(&screen), ["ember", "pip"]);
    // `o` orders observations in the main pane, and sorts the garden while it is focused.
    press(&mut screen, &["h", "o"]);
    let text = screen.text().unwrap();
    assert!(garden_text(&text).contains("by status"), "{text}");
    assert!(text.contains("garden sorted by status"));
    assert_eq!(order(&screen), ["pip", "ember"], "awake before stopped");
    press(&mut screen, &["o"]);
    assert_eq!(order(&screen), ["pip", "ember"], "the most recent first");
    assert!(garden_text(&screen.text().unwrap()).contains("last▾"));
    press(&mut screen, &["o", "o"]);
    assert_eq!(order(&screen), ["ember", "pip"]);
}

#[test]
fn filtered_garden_snapshots() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    press(&mut screen, &["h", "o", "/"]);
    screen.type_text("pi");
    let typing = screen.text().unwrap();
    press(&mut screen, &["enter"]);
    let kept = screen.text().unwrap();
    filters(&garden).bind(|| {
        insta::assert_snapshot!("garden_filter_typing", typing);
        insta::assert_snapshot!("garden_filtered", kept);
    });
}
