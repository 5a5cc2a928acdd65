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
    // As many dreams as their wrapped reflections leave room for.
    assert!(shown.len() > 1, "{shown:#?}");
    assert!(shown.iter().all(|r| r[15..].starts_with("dream")));
    press(&mut screen, &["f"]);
    assert!(screen.text().unwrap().contains("kind: all"));
}

const LONG: &str = "{\"t\":\"2026-11-22T17:55:00.000Z\",\"type\":\"creature.error\",\"error\":\"model call failed: cannot connect to http://127.0.0.1:9/v1/messages: connection refused, said in full whatever the width of the pane\",\"retryIn\":30000,\"retries\":2}\n";

/// A long error reads whole over several rows (issue 23): its URL, its cause and its next
/// try; `j` and `k` move by events, and Enter shows the event on top.
#[test]
fn a_long_error_wraps_whole_and_the_keys_move_by_events() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    append(&garden.creature("ember").join(".sys/events.jsonl"), LONG);
    let mut screen = garden.screen("dark", W, H);
    press(&mut screen, &["6"]);
    let text = screen.text().expect("render");
    for words in [
        "http://127.0.0.1:9/v1/messages:",
        "connection refused,",
        "whatever the width",
        "retry in 30s",
    ] {
        assert!(text.contains(words), "{words}: {text}");
    }
    // The next event starts on the row after the error's last.
    let at = |text: &str, needle: &str| text.lines().position(|l| l.contains(needle));
    let end = at(&text, "retry in 30s").unwrap();
    let next = text.lines().nth(end + 1).unwrap_or_default();
    assert!(next.contains("11-22 17:42:15"), "{next}\n{text}");

    press(&mut screen, &["j", "enter"]);
    let detail = screen.text().unwrap();
    assert!(!detail.contains("creature.error · line"), "{detail}");
    press(&mut screen, &["esc", "k", "enter"]);
    let detail = screen.text().unwrap();
    assert!(detail.contains("creature.error · line 288"), "{detail}");
}

/// The header says why a hosted creature is failing, in words, and when its runner
/// tries again.
#[test]
fn the_header_says_the_last_error_in_words_with_the_next_try() {
    use dreamwatch::control::HostStatus;
    use dreamwatch::memory::identity::BrainKind;
    use dreamwatch::memory::status::Status;

    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let ember = garden.creature("ember");
    append(
        &ember.join(".sys/events.jsonl"),
        "{\"t\":\"2026-11-22T17:49:50.000Z\",\"type\":\"creature.error\",\"error\":\"model call failed: cannot connect to http://127.0.0.1:9/v1/messages: connection refused\",\"retryIn\":30000,\"retries\":1}\n",
    );
    let (theme, _) = dreamwatch::ui::theme::Theme::load("dark", None, false);
    let mut screen = Headless::open_hosting(
        &[garden.dir.path().to_path_buf()],
        std::collections::BTreeMap::from([(ember.clone(), Default::default())]),
        dreamwatch::ui::state::Settings::with_theme(theme),
        crate::common::ui::clock(),
        160,
        36,
    )
    .unwrap();
    screen.host_status(
        &ember,
        HostStatus {
            status: Status::Awake,
            fatigue: 1,
            brain: "anthropic/m".into(),
            brain_kind: BrainKind::Model,
            last_error: Some(
                "model call failed: cannot connect to http://127.0.0.1:9/v1/messages: connection refused".into(),
            ),
        },
    );
    let text = screen.text().unwrap();
    let header = text
        .lines()
        .find(|l| l.contains("ember  "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        header.contains(
            "⚠ failing: connection refused at http://127.0.0.1:9/v1/messages · retry in 20s"
        ),
        "{header}"
    );
}
