//! The Events view on the fixtures, headless: new events arriving live in either order,
//! the kind filter, scrolling through a file read back from disk.

use crate::common::ui::{Garden, append};
use dreamwatch::ui::headless::Headless;

const W: u16 = 120;
const H: u16 = 36;

fn press(screen: &mut Headless, keys: &[&str]) {
    for k in keys {
        screen.press(k).expect("key");
    }
}

/// The rows of the main pane (between the garden and the side pane), trimmed.
fn rows(screen: &mut Headless) -> Vec<String> {
    let text = screen.text().expect("render");
    text.lines()
        .filter_map(|l| {
            let cols: Vec<char> = l.chars().collect();
            let row: String = cols.get(31..89)?.iter().collect();
            let row = row.trim().to_string();
            (row.len() > 14 && row.as_bytes()[2] == b'-').then_some(row)
        })
        .collect()
}

const RETRY: &str = "{\"t\":\"2026-11-22T17:55:00.000Z\",\"type\":\"creature.error\",\"error\":\"provider overloaded \\u001b[31m\",\"phase\":\"wake\",\"retryIn\":30000,\"retries\":1}\n";

#[test]
fn new_events_arrive_on_top_newest_first_and_are_followed_oldest_first() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let events = garden.creature("ember").join(".sys/events.jsonl");
    let mut screen = garden.screen("dark", W, H);
    press(&mut screen, &["6"]);
    append(&events, RETRY);
    screen.refresh();
    let shown = rows(&mut screen);
    assert!(
        shown[0].starts_with("11-22 17:55:00 retry    [wake] provider overloaded ^[[31m"),
        "{shown:#?}"
    );

    // Oldest first, the end is followed: a new event is the last row.
    press(&mut screen, &["o"]);
    let text = screen.text().expect("render");
    assert!(text.contains("oldest first · following"), "{text}");
    append(
        &events,
        "{\"t\":\"2026-11-22T17:56:00.000Z\",\"type\":\"creature.wake\",\"reason\":\"operator woke it\",\"source\":\"operator\"}\n",
    );
    screen.refresh();
    let shown = rows(&mut screen);
    assert!(
        shown.last().unwrap().contains("operator woke it"),
        "{shown:#?}"
    );
    assert!(shown[shown.len() - 2].contains("retry"), "{shown:#?}");

    // `g` goes to the file's first event; `G` follows again.
    press(&mut screen, &["g"]);
    let shown = rows(&mut screen);
    assert!(
        shown[0].contains("spawn") || shown[0].contains("host.spawn"),
        "{shown:#?}"
    );
    let text = screen.text().expect("render");
    assert!(text.contains("line 1/289"), "{text}");
    press(&mut screen, &["G"]);
    assert!(screen.text().unwrap().contains("following"));
}

#[test]
fn the_kind_key_cycles_the_filter() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let events = garden.creature("ember").join(".sys/events.jsonl");
    append(&events, RETRY);
    let mut screen = garden.screen("dark", W, H);
    press(&mut screen, &["6", "f"]);
    let text = screen.text().expect("render");
    assert!(text.contains("kind: errors"), "{text}");
    let shown = rows(&mut screen);
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert!(shown[0].contains("retry"));

    press(&mut screen, &["f"]);
    let shown = rows(&mut screen);
    assert!(!shown.is_empty());
    assert!(
        shown.iter().all(|r| ["wake", "sleep", "boot"]
            .iter()
            .any(|k| r[15..].starts_with(k))),
        "{shown:#?}"
    );
    press(&mut screen, &["f", "f"]);
    let shown = rows(&mut screen);
    assert!(
        shown.iter().all(|r| r[15..].starts_with("tool")),
        "{shown:#?}"
    );
    // Scrolling a filtered list moves by listed rows: one down, the second tool call on top.
    let second = shown[1].clone();
    press(&mut screen, &["j"]);
    assert_eq!(rows(&mut screen)[0], second);
    press(&mut screen, &["f"]);
    let shown = rows(&mut screen);
    assert_eq!(shown.len(), 11, "{shown:#?}");
    assert!(shown.iter().all(|r| r[15..].starts_with("dream")));
    press(&mut screen, &["f"]);
    assert!(screen.text().unwrap().contains("kind: all"));
}
