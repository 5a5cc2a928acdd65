//! Gardens whose creatures talk (issue 11): the Talk view of who wrote to whom, derived
//! from each creature's events (watched creatures here: no runner), the garden list's
//! mark of a creature that just wrote, and the message box sent to every creature.
//! Whole-screen snapshots on the emergence fixtures with messages added to their events
//! (TestBackend, the clock stopped, temp paths filtered).

use crate::common::ui::{Garden, append, emergence_clock, filters};
use chrono::Duration;
use dreamwatch::ui::focus::{MainView, Mode};
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::update::Job;

const W: u16 = 120;
const H: u16 = 36;

/// A garden message as the runner records it on both sides.
fn message(garden: &Garden, t: &str, from: &str, to: &str, text: &str) {
    let sent = format!(
        "{{\"t\":\"{t}\",\"type\":\"creature.message_sent\",\"to\":\"{to}\",\"text\":\"{text}\",\"delivery\":\"delivered\"}}\n"
    );
    let got = format!(
        "{{\"t\":\"{t}\",\"type\":\"creature.message\",\"from\":\"{from}\",\"source\":\"garden\",\"text\":\"{text}\"}}\n"
    );
    for (name, line) in [(from, sent), (to, got)] {
        let events = garden.creature(name).join(".sys/events.jsonl");
        std::fs::create_dir_all(events.parent().unwrap()).unwrap();
        if !events.exists() {
            std::fs::write(&events, "").unwrap();
        }
        append(&events, &line);
    }
}

/// ivy, sable and wren, who have been talking; wren selected.
fn talking() -> (Garden, Headless) {
    let garden = Garden::with_emergence();
    message(
        &garden,
        "2026-11-24T16:40:00Z",
        "ivy",
        "wren",
        "The pear tree is fruiting again.",
    );
    message(
        &garden,
        "2026-11-24T16:45:10Z",
        "wren",
        "sable",
        "Will you trade rope for pears?",
    );
    message(
        &garden,
        "2026-11-24T16:52:30Z",
        "sable",
        "wren",
        // Untrusted text: an escape sequence must stay inert.
        "Only if the rope holds \\u001b[31mthis time.",
    );
    // To a creature the garden does not have: said so.
    let events = garden.creature("wren").join(".sys/events.jsonl");
    append(
        &events,
        "{\"t\":\"2026-11-24T16:58:00Z\",\"type\":\"creature.message_sent\",\"to\":\"oak\",\"text\":\"Are you there?\",\"delivery\":\"unknown recipient\"}\n",
    );
    message(
        &garden,
        "2026-11-24T16:59:45Z",
        "wren",
        "ivy",
        "Bring the ladder at dusk.",
    );
    let mut screen = garden.screen_at("dark", W, H, emergence_clock());
    for k in ["]", "]"] {
        screen.press(k).expect("key");
    }
    (garden, screen)
}

#[test]
fn the_talk_view_shows_who_wrote_to_whom_newest_first() {
    dreamwatch::app::genomes::install();
    let (garden, mut screen) = talking();
    assert!(screen.app.views().contains(&MainView::Talk));
    screen.press("8").expect("key");
    assert_eq!(screen.app.shown_view(), MainView::Talk);
    let text = screen.text().unwrap();
    filters(&garden).bind(|| insta::assert_snapshot!("garden_talk", text));
    // The main pane's rows of messages (the garden column has `→ ivy` too).
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(" → ") && l.contains("16:"))
        .collect();
    assert_eq!(rows.len(), 5, "each message once: {text}");
    assert!(rows[0].contains("11-24 16:59:45   wren → ivy") && rows[0].contains("ladder"));
    assert!(rows[1].contains("(unknown recipient) Are you"));
    assert!(rows[4].contains("ivy → wren"), "oldest last: {rows:?}");
    assert!(!text.contains('\u{1b}'), "inert");
    // wren wrote to ivy 15 s ago: its row says so.
    let garden_column: Vec<String> = text.lines().map(|l| l.chars().take(30).collect()).collect();
    assert!(garden_column.iter().any(|l| l.contains("→ ivy")), "{text}");
    // The mark fades: a minute later the row says its last activity again.
    screen.tick(emergence_clock() + Duration::seconds(60));
    let later = screen.text().unwrap();
    assert!(!later.contains("  → ivy"), "{later}");
}

#[test]
fn a_message_passing_shows_at_once_on_top() {
    dreamwatch::app::genomes::install();
    let (garden, mut screen) = talking();
    screen.press("8").expect("key");
    message(
        &garden,
        "2026-11-24T17:00:00Z",
        "ivy",
        "sable",
        "The well is dry.",
    );
    screen.refresh();
    let text = screen.text().unwrap();
    let first = text
        .lines()
        .find(|l| l.contains(" → ") && l.contains(":00"))
        .unwrap();
    assert!(
        first.contains("ivy → sable") && first.contains("The well is dry."),
        "{text}"
    );
    assert!(text.contains("6 messages"), "{text}");
}

/// The message rows on screen, from their date on (the garden column left out).
fn talk_rows(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.find("11-24 ").map(|i| l[i..].trim_end().to_string()))
        .collect()
}

#[test]
fn scrolled_down_the_rows_stay_still_as_messages_arrive_and_at_the_top_they_follow() {
    dreamwatch::app::genomes::install();
    let (garden, mut screen) = talking();
    // Older talk than a screen holds.
    for i in 0..40 {
        message(
            &garden,
            &format!("2026-11-24T15:{i:02}:00Z"),
            "ivy",
            "sable",
            &format!("Old note {i}."),
        );
    }
    screen.refresh();
    screen.press("8").expect("key");
    // It opens on the newest, following.
    let text = screen.text().unwrap();
    assert!(talk_rows(&text)[0].contains("ladder"), "{text}");
    assert!(
        text.contains("1/45 · 45 messages") && text.contains("following"),
        "{text}"
    );

    // Scrolled down, a message arriving above leaves every row where it was.
    for _ in 0..3 {
        screen.press("j").expect("key");
    }
    let before = talk_rows(&screen.text().unwrap());
    assert!(before[0].contains("Will you trade rope"), "{before:?}");
    message(
        &garden,
        "2026-11-24T17:00:00Z",
        "ivy",
        "sable",
        "The well is dry.",
    );
    screen.refresh();
    let text = screen.text().unwrap();
    assert_eq!(talk_rows(&text), before, "{text}");
    assert!(text.contains("5/46 · 46 messages"), "{text}");
    assert!(!text.contains("following"), "{text}");

    // Back at the top, it follows again: the next message is the top row.
    screen.press("g").expect("key");
    message(
        &garden,
        "2026-11-24T17:01:00Z",
        "sable",
        "ivy",
        "Then we dig.",
    );
    screen.refresh();
    let text = screen.text().unwrap();
    assert!(talk_rows(&text)[0].contains("Then we dig."), "{text}");
    assert!(text.contains("following"), "{text}");
}

#[test]
fn a_lone_creature_that_never_talked_is_offered_no_talk_view() {
    dreamwatch::app::genomes::install();
    let garden = Garden::with_emergence();
    let screen = garden.screen_at("dark", W, H, emergence_clock());
    assert!(!screen.app.views().contains(&MainView::Talk));
}

#[test]
fn the_message_box_goes_to_one_creature_or_to_all() {
    dreamwatch::app::genomes::install();
    let (garden, mut screen) = talking();
    screen.press("m").expect("key");
    assert_eq!(screen.app.mode, Mode::Message);
    let to_wren = screen.text().unwrap();
    assert!(to_wren.contains("┌ wren "), "{to_wren}");
    screen.press("tab").expect("key");
    screen.type_text("Rain tonight: bring the tools in.");
    let text = screen.text().unwrap();
    assert!(text.contains("Message to all creatures (3)"), "{text}");
    filters(&garden).bind(|| insta::assert_snapshot!("message_to_all", text));
    // Tab again: back to wren alone; and once more to all.
    screen.press("tab").expect("key");
    let text = screen.text().unwrap();
    assert!(
        text.contains("┌ wren ") && !text.contains("all creatures"),
        "{text}"
    );
    screen.press("tab").expect("key");
    let jobs = screen.press("ctrl-s").expect("key");
    let mut to: Vec<String> = jobs
        .iter()
        .filter_map(|j| match j {
            Job::AppendMessage { creature, text } => {
                assert_eq!(text, "Rain tonight: bring the tools in.");
                creature
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
            }
            _ => None,
        })
        .collect();
    to.sort();
    assert_eq!(to, ["ivy", "sable", "wren"]);
    assert_eq!(screen.app.mode, Mode::Normal);
    assert!(
        screen
            .text()
            .unwrap()
            .contains("message sent to 3 creatures")
    );
}
