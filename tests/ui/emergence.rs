//! The observatory on an emergence creature: its soul, memory, diary, plans and relations
//! views (with the garden's graph), its header, search into its memory, and the other
//! genomes beside it that are offered none of them. Whole-screen snapshots on the
//! hand-made fixtures (TestBackend, the clock stopped, temp paths filtered).

use crate::common::ui::{Garden, append, emergence_clock, filters};
use dreamwatch::genomes::emergence::ui::VIEWS as EMERGENCE_VIEWS;
use dreamwatch::genomes::evennia::ui::VIEWS as EVENNIA_VIEWS;
use dreamwatch::ui::focus::MainView;
use dreamwatch::ui::headless::Headless;

const W: u16 = 120;
const H: u16 = 36;

/// The garden (ivy, sable, wren) with wren selected, `width` wide, after pressing `keys`.
fn wren(width: u16, keys: &[&str]) -> (Garden, Headless) {
    let garden = Garden::with_emergence();
    let mut screen = garden.screen_at("dark", width, H, emergence_clock());
    for k in ["]", "]"].iter().chain(keys) {
        screen.press(k).expect("key");
    }
    (garden, screen)
}

fn shot(name: &str, width: u16, keys: &[&str]) -> String {
    let (garden, mut screen) = wren(width, keys);
    let text = screen.text().expect("render");
    filters(&garden).bind(|| insta::assert_snapshot!(name, text));
    text
}

#[test]
fn soul_entries() {
    dreamwatch::app::genomes::install();
    let text = shot("emergence_soul", W, &["1"]);
    assert!(text.contains("Trust is planted slowly"), "{text}");
    assert!(
        !text.contains("Every conversation is data collection"),
        "{text}"
    );
}

#[test]
fn memory_summaries_and_archive() {
    dreamwatch::app::genomes::install();
    let text = shot("emergence_memory", W, &["2"]);
    assert!(text.contains("received ivy"), "{text}");
    shot("emergence_memory_summaries", W, &["2", "pagedown"]);
}

#[test]
fn diary_by_date() {
    dreamwatch::app::genomes::install();
    let text = shot("emergence_diary", W, &["3"]);
    assert!(text.contains("mood tender"), "{text}");
}

#[test]
fn plans_with_overdue_and_the_agenda() {
    dreamwatch::app::genomes::install();
    let text = shot("emergence_plans", W, &["5"]);
    assert!(text.contains("overdue"), "{text}");
    assert!(text.contains("meet Ivy at the well"), "{text}");
}

#[test]
fn relations_and_the_garden_graph() {
    dreamwatch::app::genomes::install();
    let text = shot("emergence_relations", 160, &["7", "j"]);
    assert!(text.contains("The garden"), "{text}");
    // Narrow: the list and the history, no graph.
    let text = shot("emergence_relations_narrow", W, &["7"]);
    assert!(!text.contains("The garden"), "{text}");
}

#[test]
fn a_search_hit_in_the_archive() {
    dreamwatch::app::genomes::install();
    let (garden, mut screen) = wren(W, &["1", "/"]);
    screen.type_text("pear tree");
    screen.press("enter").expect("key");
    screen.press("n").expect("key");
    assert_eq!(screen.app.shown_view(), EMERGENCE_VIEWS[1]);
    let text = screen.text().expect("render");
    assert!(text.contains("the pear tree needs pruning"), "{text}");
    filters(&garden).bind(|| insta::assert_snapshot!("emergence_memory_search", text));
}

/// The views follow the files: a soul entry added and a to-do completed show at once.
#[test]
fn the_views_follow_the_files() {
    dreamwatch::app::genomes::install();
    let (garden, mut screen) = wren(W, &["1"]);
    let root = garden.creature("wren");
    append(
        &root.join(".self/soul.jsonl"),
        "{\"t\":\"2026-11-24T16:50:00Z\",\"op\":\"add\",\"id\":\"s5\",\"text\":\"The well remembers\"}\n",
    );
    screen.refresh();
    assert!(screen.text().unwrap().contains("The well remembers"));
    append(
        &root.join(".self/todos.jsonl"),
        "{\"t\":\"2026-11-24T16:51:00Z\",\"op\":\"complete\",\"id\":\"td2\"}\n",
    );
    screen.refresh();
    screen.press("5").expect("key");
    let text = screen.text().unwrap();
    assert!(text.contains("✓ td2") && !text.contains("! td2"), "{text}");
}

/// Only an emergence creature is offered these views; the tab is kept across genomes.
#[test]
fn views_by_genome() {
    dreamwatch::app::genomes::install();
    let (_garden, mut screen) = wren(160, &["3"]);
    // No events file: every view but Events.
    let views: Vec<MainView> = EMERGENCE_VIEWS
        .iter()
        .copied()
        .filter(|v| *v != MainView::Events)
        .collect();
    assert_eq!(screen.app.views(), views);
    let text = screen.text().unwrap();
    assert!(
        text.contains("1 Soul │ 2 Memory │ 3 Diary │ 4 Recall │ 5 Plans │ 7 Relations"),
        "{text}"
    );
    // sable, the evennia creature: its own views, the same tab.
    screen.press("[").expect("key");
    assert_eq!(screen.app.views(), EVENNIA_VIEWS);
    assert_eq!(screen.app.shown_view(), EVENNIA_VIEWS[2]);
    for word in ["Soul", "Plans", "Relations"] {
        assert!(
            !screen.text().unwrap().contains(&format!(" {word} ")),
            "{word}"
        );
    }
}

/// The wheel over the selected agent's history scrolls it; the keys move along the list.
#[test]
fn the_wheel_scrolls_an_agent_s_history() {
    dreamwatch::app::genomes::install();
    use crossterm::event::{KeyModifiers, MouseEvent, MouseEventKind};
    // Short: the history is longer than the pane.
    let garden = Garden::with_emergence();
    let mut screen = garden.screen_at("dark", W, 20, emergence_clock());
    for k in ["]", "]", "7"] {
        screen.press(k).expect("key");
    }
    let detail = screen
        .app
        .areas()
        .detail
        .expect("the history beside the list");
    let before = screen.text().unwrap();
    assert!(before.contains("ivy · ally"), "{before}");
    for _ in 0..3 {
        screen.mouse(MouseEvent {
            kind: MouseEventKind::ScrollDown,
            column: detail.x + 2,
            row: detail.y + 2,
            modifiers: KeyModifiers::NONE,
        });
    }
    let after = screen.text().unwrap();
    assert!(!after.contains("ivy · ally"), "{after}");
    // Still ivy selected (the list did not move): scrolled back, her history's top.
    for _ in 0..3 {
        screen.mouse(MouseEvent {
            kind: MouseEventKind::ScrollUp,
            column: detail.x + 2,
            row: detail.y + 2,
            modifiers: KeyModifiers::NONE,
        });
    }
    let back = screen.text().unwrap();
    assert!(back.contains("ivy · ally"), "{back}");
}
