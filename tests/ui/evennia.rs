//! The observatory on an evennia creature: its journal, entities and memory views, its
//! header, search into its memory, and a dreamer beside it that is offered none of them.
//! Whole-screen snapshots on the hand-written fixture (TestBackend, the clock stopped,
//! temp paths filtered).

use crate::common::ui::{Garden, append, filters};
use dreamwatch::genomes::dreamer::ui::VIEWS as DREAMER_VIEWS;
use dreamwatch::genomes::evennia::ui::VIEWS as EVENNIA_VIEWS;
use dreamwatch::ui::focus::MainView;
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::input::hints::actions;

const W: u16 = 120;
const H: u16 = 36;

/// The garden with sable selected (after pip), after pressing `keys`.
fn sable(keys: &[&str]) -> (Garden, Headless) {
    let garden = Garden::with_evennia();
    let mut screen = garden.screen("dark", W, H);
    screen.press("]").expect("key");
    for k in keys {
        screen.press(k).expect("key");
    }
    (garden, screen)
}

fn shot(name: &str, keys: &[&str]) {
    let (garden, mut screen) = sable(keys);
    let text = screen.text().expect("render");
    filters(&garden).bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn journal_with_its_gauge_and_reflection() {
    dreamwatch::app::genomes::install();
    shot("evennia_journal", &["1"]);
}

#[test]
fn journal_scrolled_to_the_reflection() {
    dreamwatch::app::genomes::install();
    shot("evennia_journal_reflection", &["1", "pagedown", "pagedown"]);
}

#[test]
fn entities_and_a_profile() {
    dreamwatch::app::genomes::install();
    shot("evennia_entities", &["2", "j", "j"]);
}

#[test]
fn memory_with_trust_and_links() {
    dreamwatch::app::genomes::install();
    shot("evennia_memory", &["3"]);
}

#[test]
fn a_search_hit_in_semantic_memory() {
    dreamwatch::app::genomes::install();
    let (garden, mut screen) = sable(&["3", "/"]);
    screen.type_text("north wing");
    screen.press("enter").expect("key");
    screen.press("n").expect("key");
    let text = screen.text().expect("render");
    assert!(text.contains("The tavern is in the north wing"), "{text}");
    filters(&garden).bind(|| insta::assert_snapshot!("evennia_memory_search", text));
}

/// The header in each mode and phase: the top rows of the screen after each line of the
/// mode file.
#[test]
fn the_header_tells_the_mode_and_phase() {
    dreamwatch::app::genomes::install();
    let garden = Garden::with_evennia();
    let mode = garden.creature("sable").join(".sys/mode.jsonl");
    let mut screen = garden.screen("dark", W, H);
    screen.press("]").expect("key");
    let mut shots = String::new();
    let mut top = |screen: &mut Headless| {
        let text = screen.text().expect("render");
        shots.extend(text.lines().take(4).map(|l| format!("{l}\n")));
    };
    top(&mut screen);
    for line in [
        r#"{"t":"2026-11-22T17:45:00.000Z","op":"phase","phase":"dreaming"}"#,
        r#"{"t":"2026-11-22T17:46:00.000Z","op":"phase","phase":"resting"}"#,
        r#"{"t":"2026-11-22T17:47:00.000Z","op":"transition","from":"sleep","to":"awake","reason":"timer","wake_at":null}"#,
        r#"{"t":"2026-11-22T17:48:00.000Z","op":"transition","from":"awake","to":"sleep","reason":"set_sleep 600s","wake_at":"2026-11-22T17:58:00.000Z"}"#,
    ] {
        append(&mode, &format!("{line}\n"));
        screen.refresh();
        top(&mut screen);
    }
    for label in [
        "asleep · compacting · wake deferred",
        "asleep · dreaming",
        "asleep · resting",
        "● awake",
        "☾ asleep · wakes in 8m",
    ] {
        assert!(shots.contains(label), "{label}:\n{shots}");
    }
    filters(&garden).bind(|| insta::assert_snapshot!("evennia_header", shots));
}

/// A dreamer is offered none of the evennia views: its tabs, keys, hints and help are the
/// dreamer's; selecting the evennia creature keeps the tab (Diary becomes Memory).
#[test]
fn a_dreamer_is_not_offered_the_evennia_views() {
    dreamwatch::app::genomes::install();
    let garden = Garden::with_evennia();
    let mut screen = garden.screen("dark", W, H);
    assert_eq!(screen.app.views(), DREAMER_VIEWS);
    for key in ["1", "2", "3"] {
        screen.press(key).expect("key");
        assert!(DREAMER_VIEWS.contains(&screen.app.shown_view()));
    }
    let text = screen.text().expect("render");
    assert!(
        text.contains("1 Observations │ 2 Dreams │ 3 Diary │ 4 Recall"),
        "{text}"
    );
    for word in ["Journal", "Entities", "Memory"] {
        assert!(!text.contains(word), "{word} offered to a dreamer:\n{text}");
    }
    let ctx = screen.app.hint_context();
    let offered: Vec<String> = actions(&screen.app.keymap, &ctx)
        .into_iter()
        .filter(|a| a.enabled && a.action.view().is_some())
        .map(|a| a.hint)
        .collect();
    assert_eq!(
        offered,
        ["observations", "dreams", "diary", "recall", "events"]
    );

    // sable: the same tab, its own views.
    screen.press("]").expect("key");
    assert_eq!(screen.app.views(), EVENNIA_VIEWS);
    assert_eq!(screen.app.shown_view(), EVENNIA_VIEWS[2]);
    let text = screen.text().expect("render");
    assert!(
        text.contains("1 Journal │ 2 Entities │ 3 Memory │ 4 Recall"),
        "{text}"
    );
    screen.press("[").expect("key");
    assert_eq!(screen.app.shown_view(), MainView::Diary);
}

/// Lines appended by the runner show up: a new journal entry on top, the gauge moves.
#[test]
fn a_new_entry_shows_live() {
    dreamwatch::app::genomes::install();
    let (garden, mut screen) = sable(&["1"]);
    append(
        &garden.creature("sable").join(".self/journal.jsonl"),
        "{\"t\":\"2026-11-22T17:46:00.000Z\",\"op\":\"add\",\"id\":\"j37\",\"text\":\"The first apple blossom opened.\",\"tags\":[\"orchard\"],\"source_type\":\"observation\",\"source_trust\":0.8,\"source_entity\":null,\"importance\":7,\"importance_method\":\"heuristic\",\"synthesis\":false}\n",
    );
    screen.refresh();
    let text = screen.text().expect("render");
    assert!(text.contains("j37"), "{text}");
    assert!(text.contains("56/150"), "{text}");
}

/// A search hit in the entities file selects the entity it is about; one in the journal
/// scrolls to the entry.
#[test]
fn search_hits_open_the_entity_or_the_entry() {
    dreamwatch::app::genomes::install();
    let (_garden, mut screen) = sable(&["/"]);
    screen.type_text("offered to teach");
    screen.press("enter").expect("key");
    assert_eq!(screen.app.shown_view(), EVENNIA_VIEWS[1]);
    let text = screen.text().expect("render");
    assert!(text.contains("ada · player"), "{text}");

    screen.press("/").expect("key");
    screen.type_text("bucket comes up");
    screen.press("enter").expect("key");
    assert_eq!(screen.app.shown_view(), EVENNIA_VIEWS[0]);
    let text = screen.text().expect("render");
    // The first entry on screen (`17:09 j31   █...`) is the hit's.
    let first_entry = text
        .lines()
        .find(|l| l.contains("   █") && l.contains("heur") || l.contains("llm "))
        .unwrap_or_default();
    assert!(first_entry.contains("17:09 j31 "), "{text}");
}

/// Escape sequences and control characters in every evennia file show inert.
#[test]
fn hostile_evennia_text_is_shown_inert() {
    dreamwatch::app::genomes::install();
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("hostile");
    let esc = "\u{1b}]2;PWNED\u{7}\u{1b}[2J\u{1b}[31m\u{9b}1m";
    let write = |rel: &str, value: serde_json::Value| {
        use std::io::Write;
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("open");
        writeln!(f, "{value}").expect("write");
    };
    std::fs::create_dir_all(&root).expect("mkdir");
    std::fs::write(
        root.join("BIRTH.json"),
        r#"{"name":"hostile","genome":"evennia"}"#,
    )
    .expect("birth");
    write(
        ".self/journal.jsonl",
        serde_json::json!({"t": "2026-11-22T17:40:00Z", "op": "add", "id": format!("j{esc}"), "text": format!("entry {esc}"), "tags": [esc], "source_type": esc, "source_entity": esc, "importance": 5, "importance_method": esc}),
    );
    write(
        ".self/semantic.jsonl",
        serde_json::json!({"t": "2026-11-22T17:40:00Z", "op": "add", "id": "m1", "text": format!("fact {esc}"), "metadata": {"source": esc, "tags": [esc]}}),
    );
    write(
        ".self/semantic.jsonl",
        serde_json::json!({"op": "link", "id": "m1", "linked_to": [{"id": esc, "score": 0.8}]}),
    );
    write(
        ".self/entities.jsonl",
        serde_json::json!({"t": "2026-11-22T17:40:00Z", "op": "observe", "entity_id": esc, "entity_type": esc, "text": esc}),
    );
    write(
        ".self/entities.jsonl",
        serde_json::json!({"op": "consolidate", "entity_id": esc, "attributes": {esc: esc}}),
    );
    write(
        ".self/entities.jsonl",
        serde_json::json!({"op": "relationship", "entity_id": esc, "favorability": 0.3, "reason": esc}),
    );
    write(
        ".self/reflections.jsonl",
        serde_json::json!({"t": "2026-11-22T17:41:00Z", "op": "reflect", "id": esc, "questions": [esc], "insights": [esc]}),
    );
    write(
        ".sys/mode.jsonl",
        serde_json::json!({"t": "2026-11-22T17:42:00Z", "op": "transition", "to": "sleep", "reason": esc}),
    );
    write(
        ".sys/mode.jsonl",
        serde_json::json!({"op": "phase", "phase": esc}),
    );
    write(
        ".sys/mode.jsonl",
        serde_json::json!({"op": "compaction", "trigger": esc, "journal_id": esc}),
    );
    std::fs::write(
        root.join(".self/working_memory.json"),
        serde_json::json!({esc: {"topic": esc, "pending_actions": [esc], "messages": [{"from": esc, "text": esc}]}}).to_string(),
    )
    .expect("working memory");
    let (theme, _) = dreamwatch::ui::theme::Theme::load("dark", None, false);
    let mut screen = Headless::open(
        std::slice::from_ref(&root),
        dreamwatch::ui::state::Settings::with_theme(theme),
        crate::common::ui::clock(),
        W,
        H,
    )
    .expect("screen");
    let mut shots = String::new();
    for key in ["1", "2", "3"] {
        screen.press(key).expect("key");
        let text = screen.text().expect("render");
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "a control character reached the screen:\n{text}"
        );
        shots.push_str(&text);
    }
    assert!(
        shots.contains("^[]2;PWNED^G^[[2J^[[31m<U+009B>1m"),
        "{shots}"
    );
}
