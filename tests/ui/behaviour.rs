//! The observatory's behaviour on the fixtures, headless: following live files, creatures
//! coming and going, commands to hosted creatures, the message box, rebinding, the mouse.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::ui::{Garden, append, copy_dir};
use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use dreamwatch::control::{ControlCommand, HostStatus};
use dreamwatch::memory::creature::Creature;
use dreamwatch::memory::cycle::Cycle;
use dreamwatch::memory::identity::BrainKind;
use dreamwatch::memory::status::Status;
use dreamwatch::memory::streams::CountGate;
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::input::keymap::{KeyNames, Keymap};
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;
use dreamwatch::ui::update::Job;
use ratatui::layout::Rect;

fn conversation_line(text: &str) -> String {
    format!("{{\"t\":\"2026-11-22T17:59:00.000Z\",\"role\":\"user\",\"content\":\"{text}\"}}\n")
}

fn press(screen: &mut Headless, keys: &[&str]) -> Vec<Job> {
    keys.iter()
        .flat_map(|k| screen.press(k).expect("key"))
        .collect()
}

/// The observatory on `garden`, hosting `creature` (its runner's word comes through
/// `on_host_status`), at a fixed clock and size.
fn hosting(garden: &Garden, creature: &std::path::Path, width: u16, height: u16) -> Headless {
    let (theme, _) = Theme::load("dark", None, false);
    Headless::open_hosting(
        &[garden.dir.path().to_path_buf()],
        BTreeMap::from([(creature.to_path_buf(), Cycle::default())]),
        Settings::with_theme(theme),
        crate::common::ui::clock(),
        width,
        height,
    )
    .unwrap()
}

#[test]
fn recall_follows_new_lines_until_scrolled_up_and_again_after_g() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let mut screen = garden.screen("dark", 120, 36);
    press(&mut screen, &["4"]);
    let log = ember.join(".self/conversation.jsonl");
    append(&log, &conversation_line("first appended line"));
    screen.refresh();
    assert!(screen.text().unwrap().contains("first appended line"));

    press(&mut screen, &["pageup", "k"]);
    append(&log, &conversation_line("second appended line"));
    screen.refresh();
    let text = screen.text().unwrap();
    assert!(!text.contains("second appended line"), "{text}");
    assert!(
        text.contains("follow"),
        "the position and how to follow: {text}"
    );

    press(&mut screen, &["G"]);
    let text = screen.text().unwrap();
    assert!(text.contains("second appended line"), "{text}");
    assert!(text.contains("following"));
}

#[test]
fn new_observations_arrive_at_the_top_newest_first() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    append(
        &garden.creature("ember").join(".self/observations.md"),
        "GRN 17:58 a fresh observation\n",
    );
    screen.refresh();
    let text = screen.text().unwrap();
    let fresh = text.find("GRN 17:58 a fresh observation").expect("shown");
    let older = text.find("RED 17:41 Analyser").expect("older shown");
    assert!(fresh < older, "{text}");
}

#[test]
fn priority_toggles_hide_and_show() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    assert!(screen.text().unwrap().contains("GRN 17:41"));
    press(&mut screen, &["e"]);
    let text = screen.text().unwrap();
    assert!(!text.contains("GRN 17:41"), "{text}");
    assert!(text.contains("GRN observations hidden"));
    assert!(text.contains("GRN✗"));
    press(&mut screen, &["e"]);
    assert!(screen.text().unwrap().contains("GRN 17:41"));
}

#[test]
fn creatures_appear_and_disappear_live() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    assert!(screen.text().unwrap().contains("Garden · 2"));
    copy_dir(&garden.creature("pip"), &garden.dir.path().join("pip-2"));
    screen.refresh();
    assert!(screen.text().unwrap().contains("Garden · 3"));
    std::fs::remove_dir_all(garden.creature("pip")).unwrap();
    std::fs::remove_dir_all(garden.dir.path().join("pip-2")).unwrap();
    screen.refresh();
    let text = screen.text().unwrap();
    assert!(text.contains("Garden · 1"), "{text}");
    assert!(text.contains("ember"));
}

#[test]
fn hosted_creatures_get_commands_and_their_runners_word() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let mut screen = hosting(&garden, &ember, 120, 36);
    let control = |command| Job::Control {
        creature: ember.clone(),
        command,
    };
    assert_eq!(
        press(&mut screen, &["s", "p", "w"]),
        [
            control(ControlCommand::ForceSleep),
            control(ControlCommand::Pause),
            control(ControlCommand::Wake),
        ]
    );
    screen.host_status(
        &ember,
        HostStatus {
            status: Status::Paused,
            fatigue: 61,
            brain: "rehearsal (offline demo brain)".into(),
            brain_kind: BrainKind::Rehearsal,
            last_error: None,
        },
    );
    let text = screen.text().unwrap();
    assert!(text.contains("REHEARSAL"), "{text}");
    assert!(text.contains("paused"));
    assert!(text.contains("61/80"));
    assert!(
        text.contains("s sleep"),
        "the hint bar offers control: {text}"
    );
    assert_eq!(
        press(&mut screen, &["p"]),
        [control(ControlCommand::Resume)]
    );
    // The message box says where the words go: to the runner, not into the file.
    press(&mut screen, &["m"]);
    let text = screen.text().unwrap();
    assert!(
        text.contains("Message to ember: to its runner, which wakes ember"),
        "{text}"
    );
}

#[test]
fn the_message_box_sends_with_ctrl_s_and_cancels_with_esc() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    press(&mut screen, &["m"]);
    screen.type_text("keep it short");
    press(&mut screen, &["enter"]);
    screen.type_text("and kind");
    assert_eq!(
        press(&mut screen, &["ctrl-s"]),
        [Job::AppendMessage {
            creature: garden.creature("ember"),
            text: "keep it short\nand kind".into(),
        }]
    );
    press(&mut screen, &["m"]);
    screen.type_text("never mind");
    assert!(press(&mut screen, &["esc"]).is_empty());
    let text = screen.text().unwrap();
    // What was written stays as a draft (issue 14); an empty box is discarded.
    assert!(text.contains("message kept as a draft"), "{text}");
    assert!(!text.contains("never mind"));
    // An empty message is not sent.
    press(&mut screen, &["]", "m"]);
    assert!(press(&mut screen, &["ctrl-s"]).is_empty());
    assert!(press(&mut screen, &["esc"]).is_empty());
    let text = screen.text().unwrap();
    assert!(text.contains("message discarded"), "{text}");
}

#[test]
fn a_rebound_key_shows_in_the_help_and_the_hints() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let (theme, _) = Theme::load("dark", None, false);
    let mut settings = Settings::with_theme(theme);
    let mut keymap = Keymap::default();
    let patch = BTreeMap::from([("force_sleep".to_string(), KeyNames::One("z".into()))]);
    assert!(keymap.patch(&patch).is_empty());
    settings.keymap = keymap;
    let ember = garden.creature("ember");
    let mut screen = Headless::open_hosting(
        &[garden.dir.path().to_path_buf()],
        BTreeMap::from([(ember.clone(), Cycle::default())]),
        settings,
        crate::common::ui::clock(),
        120,
        40,
    )
    .unwrap();
    assert!(screen.text().unwrap().contains("z sleep"));
    assert!(press(&mut screen, &["s"]).is_empty());
    press(&mut screen, &["?"]);
    for _ in 0..40 {
        press(&mut screen, &["j"]);
    }
    let help = screen.text().unwrap();
    assert!(
        help.lines()
            .any(|l| l.contains(" z ") && l.contains("force the creature to sleep now")),
        "{help}"
    );
}

#[test]
fn the_mouse_selects_and_scrolls() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    screen.render().unwrap();
    let mouse = |kind, column, row| MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    };
    // The second creature's first row in the garden list (border, two rows of column
    // headers, then two rows each).
    screen.mouse(mouse(MouseEventKind::Down(MouseButton::Left), 5, 5));
    assert!(
        screen
            .text()
            .unwrap()
            .lines()
            .nth(1)
            .unwrap()
            .contains("pip  ")
    );
    let before = screen.text().unwrap();
    screen.mouse(mouse(MouseEventKind::ScrollDown, 60, 15));
    assert_ne!(
        screen.text().unwrap(),
        before,
        "the wheel scrolls the observations"
    );
}

#[test]
fn search_jumps_between_hits_across_views() {
    dreamwatch::app::genomes::install();
    use dreamwatch::ui::focus::MainView;
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    press(&mut screen, &["/"]);
    screen.type_text("weekly");
    press(&mut screen, &["enter"]);
    let first = screen.text().unwrap();
    let count = screen.app.search.count;
    assert!(count > 10, "{first}");
    assert!(
        first.contains(&format!("/weekly  hit 1/{count}")),
        "{first}"
    );
    let mut views = BTreeSet::new();
    for _ in 0..count {
        press(&mut screen, &["n"]);
        screen.render().unwrap();
        views.insert(format!("{:?}", screen.app.view));
    }
    let expected: BTreeSet<String> = [
        MainView::Recall,
        MainView::Observations,
        MainView::Dreams,
        MainView::Diary,
    ]
    .iter()
    .map(|v| format!("{v:?}"))
    .collect();
    assert_eq!(views, expected);
    // Around the ring: back to the first hit.
    press(&mut screen, &["n"]);
    assert!(screen.text().unwrap().contains(&format!("hit 2/{count}")));
    press(&mut screen, &["N", "N"]);
    assert!(
        screen
            .text()
            .unwrap()
            .contains(&format!("hit {count}/{count}"))
    );
}

#[test]
fn tiny_and_odd_terminal_sizes_draw_without_panicking() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    for (w, h) in [
        (0, 0),
        (1, 1),
        (5, 2),
        (20, 4),
        (40, 8),
        (69, 12),
        (70, 6),
        (90, 10),
        (300, 5),
    ] {
        screen.resize(w, h);
        for keys in [
            &["1"][..],
            &["2"],
            &["3"],
            &["4"],
            &["?"],
            &["esc", "m"],
            &["esc", "/"],
        ] {
            press(&mut screen, keys);
            screen.render().expect("render");
        }
        press(&mut screen, &["esc"]);
    }
}

/// The observatory on the creature at `root`, its large logs' counts waiting at `gate`.
fn counting_screen(root: &std::path::Path, gate: &CountGate) -> Headless {
    let (theme, _) = Theme::load("dark", None, false);
    Headless::open_counting(
        &[root.to_path_buf()],
        Settings::with_theme(theme),
        crate::common::ui::clock(),
        Rect::new(0, 0, 120, 36),
        gate.clone(),
    )
    .unwrap()
}

/// Refreshes `screen` until the shown creature's count (`counting`) is done.
fn wait_counted(screen: &mut Headless, counting: impl Fn(&Creature) -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while screen.app.selected_model().is_some_and(&counting) {
        assert!(
            std::time::Instant::now() < deadline,
            "the count never ended"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        screen.refresh();
    }
}

#[test]
fn a_large_dream_log_opens_at_its_last_dreams_and_numbers_them_once_counted() {
    dreamwatch::app::genomes::install();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("dreamer");
    std::fs::create_dir_all(root.join(".self")).unwrap();
    let reflection = "r".repeat(400);
    let dreams = 2_000;
    let log: String = (0..dreams)
        .map(|i| {
            format!(
                "{{\"t\":\"2026-11-22T17:00:00.000Z\",\"actions\":3,\"reflection\":\"{reflection}\",\"priority\":\"dream {}\",\"deep\":{}}}\n",
                i + 1,
                i % 10 == 9
            )
        })
        .collect();
    assert!(log.len() > 512 << 10);
    std::fs::write(root.join(".self/dreams.jsonl"), log).unwrap();
    let gate = CountGate::default();
    let held = gate.hold();
    let mut screen = counting_screen(&root, &gate);
    press(&mut screen, &["2"]);
    screen.refresh();
    let first = screen.text().unwrap();
    // Its last dreams at once, said to be numbered from them until the rest is counted.
    assert!(first.contains("counting the dreams"), "{first}");
    assert!(first.contains(&format!("dream {dreams}")), "{first}");
    assert!(!first.contains(&format!("#{dreams}")), "{first}");
    drop(held);
    wait_counted(&mut screen, |m| m.dream_log().counting());
    let text = screen.text().unwrap();
    assert!(
        text.contains(&format!("{dreams} dreams · {} deep", dreams / 10)),
        "{text}"
    );
    assert!(text.contains(&format!("#{dreams}")), "{text}");
    assert!(!text.contains("counting the dreams"), "{text}");
}

#[test]
fn a_large_log_opens_at_its_tail_and_renumbers_once_counted() {
    dreamwatch::app::genomes::install();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("big");
    std::fs::create_dir_all(root.join(".self")).unwrap();
    let filler = "x".repeat(1000);
    let mut log = String::new();
    let lines = 30_000;
    for i in 0..lines {
        log.push_str(&format!(
            "{{\"t\":\"2026-11-22T17:00:00.000Z\",\"role\":\"user\",\"content\":\"entry {} {filler}\"}}\n",
            i + 1
        ));
    }
    assert!(log.len() > 24 << 20);
    std::fs::write(root.join(".self/conversation.jsonl"), log).unwrap();
    // The count is held back until the first screen is checked: the race is the test's.
    let gate = CountGate::default();
    let held = gate.hold();
    let mut screen = counting_screen(&root, &gate);
    press(&mut screen, &["4"]);
    screen.refresh();
    let first = screen.text().unwrap();
    let counting = screen
        .app
        .selected_model()
        .is_some_and(|m| m.conversation().counting());
    assert!(counting, "the count was held back");
    // Opened at the tail: numbered from it until the head is counted.
    assert!(first.contains("counting the log"), "{first}");
    assert!(!first.contains(&format!("#{lines}")), "{first}");
    drop(held);
    wait_counted(&mut screen, |m| m.conversation().counting());
    let text = screen.text().unwrap();
    assert!(text.contains(&format!("#{lines}")), "{text}");
    assert!(text.contains(&format!("entry {lines} ")), "{text}");
    assert!(text.contains("following"), "{text}");
    // A number shown while counting (from the tail) now means another line: that line
    // shows its own entry, not the one prepared under its old number.
    // The first `#` followed by a number (the garden's `#` column header has none).
    let shown: u64 = first
        .split('#')
        .skip(1)
        .find(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .expect("a line number on the first screen");
    press(&mut screen, &["/"]);
    screen.type_text(&format!("entry {shown} x"));
    press(&mut screen, &["enter"]);
    let text = screen.text().unwrap();
    let rows: Vec<&str> = text.lines().collect();
    let header = rows
        .iter()
        .position(|r| r.contains(&format!("user  #{shown}")))
        .expect("the hit's header");
    assert!(
        rows[header + 1].contains(&format!("entry {shown} ")),
        "{text}"
    );
    press(&mut screen, &["g"]);
    let text = screen.text().unwrap();
    assert!(text.contains("#1\n") || text.contains("#1 "), "{text}");
    assert!(text.contains("entry 1 "), "{text}");
}

#[test]
fn on_a_narrow_terminal_the_side_panel_takes_the_main_place_while_focused() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 80, 24);
    let text = screen.text().unwrap();
    assert!(!text.contains("Priorities & rules"), "{text}");
    press(&mut screen, &["l"]);
    let text = screen.text().unwrap();
    assert!(text.contains("Priorities & rules"), "{text}");
    assert!(text.contains("NEVER"), "the rules: {text}");
    assert!(!text.contains("1 Observations"), "{text}");
    press(&mut screen, &["h"]);
    assert!(screen.text().unwrap().contains("1 Observations"));
}

/// A demo-sized terminal (100 columns): the header gives up the model's name and the
/// secondary counts before the time to wake and the last activity, which used to be cut
/// to `wakes in ` and `active 7m` at the edge; the garden keeps its last-activity time.
/// A failing model call is marked in the garden row and the header, and a long error never
/// pushes the model's name out of the header.
#[test]
fn a_failing_model_keeps_its_label_and_marks_the_row() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let mut screen = hosting(&garden, &ember, 100, 30);
    screen.host_status(
        &ember,
        HostStatus {
            status: Status::Awake,
            fatigue: 1,
            brain: "openai/llama3 @ http://127.0.0.1:11434/v1".into(),
            brain_kind: BrainKind::Model,
            last_error: Some(format!(
                "model call failed: connection failed: {}",
                "error sending request for url (http://127.0.0.1:11434/v1/chat/completions) "
                    .repeat(3)
            )),
        },
    );
    let text = screen.text().unwrap();
    let header = text
        .lines()
        .find(|l| l.contains("openai/llama3"))
        .unwrap_or_else(|| panic!("the model's name went: {text}"));
    assert!(header.contains("⚠"), "{header}");
    assert!(header.contains("⚠ failing"), "{header}");
    let row = |name: &str| {
        let at = text.find(&format!("● {name}")).unwrap();
        text[at..]
            .lines()
            .next()
            .unwrap()
            .split('│')
            .next()
            .unwrap()
            .to_string()
    };
    // Never a plain "awake" (issue 13): the row says it is failing.
    assert!(row("ember").contains("⚠ failing"), "{text}");
    assert!(!row("pip").contains('⚠'), "{text}");
}

#[test]
fn the_rehearsal_mark_comes_from_the_brain_kind_not_its_label() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let mut screen = hosting(&garden, &ember, 120, 30);
    screen.host_status(
        &ember,
        HostStatus {
            status: Status::Awake,
            fatigue: 1,
            brain: "openai/rehearsal-tuned @ http://127.0.0.1:8080/v1".into(),
            brain_kind: BrainKind::Model,
            last_error: None,
        },
    );
    let text = screen.text().unwrap();
    assert!(text.contains("openai/rehearsal-tuned"), "{text}");
    assert!(!text.contains("REHEARSAL"), "{text}");
}

#[test]
fn a_narrow_header_keeps_the_time_to_wake_and_the_last_activity() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let mut screen = hosting(&garden, &ember, 100, 30);
    screen.host_status(
        &ember,
        HostStatus {
            status: Status::Asleep {
                until: Some(crate::common::ui::clock() + chrono::Duration::seconds(754)),
            },
            fatigue: 12,
            brain: "rehearsal (offline demo brain)".into(),
            brain_kind: BrainKind::Rehearsal,
            last_error: None,
        },
    );
    let text = screen.text().unwrap();
    assert!(text.contains("REHEARSAL"), "{text}");
    assert!(text.contains("asleep · wakes in 12m"), "{text}");
    assert!(text.contains("12/80"), "{text}");
    assert!(text.contains("active 7m ago"), "{text}");
    for row in text.lines() {
        assert!(!row.contains("just n│"), "a garden row cut short: {row}");
    }
}

/// A watched creature's refusal says first what cannot be done; on a narrow terminal the
/// rest is cut with `…` instead of the verb being lost at the edge.
#[test]
fn the_refusal_to_control_a_watched_creature_reads_on_a_narrow_terminal() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 80, 24);
    press(&mut screen, &["]", "s"]);
    let text = screen.text().unwrap();
    let status = text
        .lines()
        .find(|l| l.contains("cannot make"))
        .unwrap_or_else(|| panic!("no refusal shown: {text}"));
    assert!(status.starts_with("cannot make "), "{status}");
    // Cut, and where to read it whole said.
    assert!(status.trim_end().ends_with("… (L: whole)"), "{status}");
    press(&mut screen, &["L"]);
    let text = screen.text().unwrap();
    assert!(text.contains("Status log: newest first"), "{text}");
    assert!(text.contains("cannot make"), "{text}");
    press(&mut screen, &["esc"]);
    assert!(!screen.text().unwrap().contains("Status log"));
}

/// The message box writes to the creature it was opened for: when that creature's
/// directory goes while the box is open, Ctrl-S sends nothing (it used to go to whichever
/// creature the selection fell to) and says why; the text stays until Esc.
#[test]
fn a_message_is_never_sent_to_another_creature_when_its_own_is_removed() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    press(&mut screen, &["m"]);
    screen.type_text("for ember only");
    std::fs::remove_dir_all(garden.creature("ember")).unwrap();
    screen.refresh();
    assert!(press(&mut screen, &["ctrl-s"]).is_empty());
    let text = screen.text().unwrap();
    assert!(text.contains("the message was not sent"), "{text}");
    assert!(text.contains("for ember only"), "the text stays: {text}");
    assert!(press(&mut screen, &["esc"]).is_empty());
    assert!(!screen.text().unwrap().contains("for ember only"));
}

/// The selected creature's directory removed: the selection moves to the creature that
/// took its place in the list (not back to the top), and the status line says what went.
#[test]
fn removing_the_selected_creature_selects_its_neighbour_and_says_so() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    copy_dir(&garden.creature("pip"), &garden.dir.path().join("zz-copy"));
    let mut screen = garden.screen("dark", 120, 36);
    assert!(screen.text().unwrap().contains("Garden · 3"));
    // ember, pip, zz-copy (a pip too, by its BIRTH.json name, sorted after by its
    // directory): select pip.
    press(&mut screen, &["]"]);
    assert!(screen.text().unwrap().contains("│pip  model unknown"));
    std::fs::remove_dir_all(garden.creature("pip")).unwrap();
    screen.refresh();
    let text = screen.text().unwrap();
    assert!(text.contains("Garden · 2"), "{text}");
    assert!(
        text.contains("pip is gone: its directory was removed"),
        "{text}"
    );
    assert_eq!(
        screen.app.selected.as_deref(),
        Some(garden.dir.path().join("zz-copy").as_path())
    );
}

/// A creature named at length (BIRTH.json is the creature's own writing) still shows its
/// status in the header: the name is cut with `…`, not the status.
#[test]
fn a_long_name_leaves_the_header_room_for_the_status() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let birth = garden.creature("ember").join("BIRTH.json");
    let long = "x".repeat(200);
    std::fs::write(&birth, format!(r#"{{"name":"{long}","model":"m"}}"#)).unwrap();
    let mut screen = garden.screen("dark", 120, 36);
    // Sorted by name it comes after pip.
    press(&mut screen, &["]"]);
    let text = screen.text().unwrap();
    // The header's first row is the screen's second (the first of the garden's headers).
    let row = text
        .lines()
        .find(|l| l.contains("xxx…"))
        .unwrap_or_else(|| panic!("{text}"));
    let header = row.split("││").nth(1).unwrap_or_else(|| panic!("{row}"));
    assert!(header.contains("xxx…  m  ○ stopped"), "{header}");
}

/// Two creatures with one BIRTH.json name (a copied creature, a reused name) are told
/// apart in the garden by their directories.
#[test]
fn creatures_sharing_a_name_show_their_directory() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    copy_dir(
        &garden.creature("ember"),
        &garden.dir.path().join("zz-copy"),
    );
    let mut screen = garden.screen("dark", 120, 36);
    let text = screen.text().unwrap();
    assert!(text.contains("│○ ember (zz-copy) "), "{text}");
    assert!(text.contains("│○ ember  "), "{text}");
    assert!(text.contains(" pip  "), "{text}");
    // Renamed while watched, then named back: the names shared follow each change.
    let birth = garden.creature("ember").join("BIRTH.json");
    let was = std::fs::read_to_string(&birth).unwrap();
    std::fs::write(&birth, was.replace("\"ember\"", "\"cinder\"")).unwrap();
    screen.changed(vec![birth.clone()]);
    let text = screen.text().unwrap();
    assert!(text.contains("│○ cinder  "), "{text}");
    assert!(!text.contains("(zz-copy)"), "{text}");
    std::fs::write(&birth, &was).unwrap();
    screen.changed(vec![birth]);
    let text = screen.text().unwrap();
    assert!(text.contains("│○ ember (zz-copy) "), "{text}");
}

/// The demo's terminal (100 columns) on a hosted creature: the hint bar keeps the keys
/// that act on it (they used to fall off the end, behind the view and filter keys).
#[test]
fn a_short_hint_bar_keeps_the_control_keys_of_a_hosted_creature() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let mut screen = hosting(&garden, &ember, 100, 30);
    let text = screen.text().unwrap();
    let hints = text.lines().last().unwrap_or_default();
    for hint in ["? help", "q quit", "s sleep", "m message", "/ search"] {
        assert!(hints.contains(hint), "{hint}: {hints}");
    }
    assert!(
        hints.find("q quit") < hints.find("s sleep"),
        "keymap order: {hints}"
    );
}

/// Notices that name a key name the one bound now: with Cancel rebound from Esc to
/// Ctrl-G, the message box's notices say Ctrl-G.
#[test]
fn notices_name_the_keys_of_the_live_keymap() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let (theme, _) = Theme::load("dark", None, false);
    let mut settings = Settings::with_theme(theme);
    let patch = BTreeMap::from([("cancel".to_string(), KeyNames::One("ctrl-g".into()))]);
    assert!(settings.keymap.patch(&patch).is_empty());
    let mut screen = Headless::open(
        &[garden.dir.path().to_path_buf()],
        settings,
        crate::common::ui::clock(),
        120,
        36,
    )
    .unwrap();
    press(&mut screen, &["m", "ctrl-s"]);
    let text = screen.text().unwrap();
    assert!(
        text.contains("the message is empty: write something, or Ctrl-G to cancel"),
        "{text}"
    );
    assert!(!text.contains("Esc"), "{text}");
    screen.type_text("for ember only");
    std::fs::remove_dir_all(garden.creature("ember")).unwrap();
    screen.refresh();
    let text = screen.text().unwrap();
    assert!(
        text.contains("the message cannot be sent, Ctrl-G closes the box"),
        "{text}"
    );
    press(&mut screen, &["ctrl-s"]);
    let text = screen.text().unwrap();
    assert!(
        text.contains("the message was not sent, Ctrl-G closes the box"),
        "{text}"
    );
    press(&mut screen, &["ctrl-g"]);
    assert!(!screen.text().unwrap().contains("for ember only"));
}

/// A notice stays until a key is pressed after it has been on screen, as the event loop
/// does it: keys arriving in one burst do not wipe a notice nobody saw.
#[test]
fn a_notice_goes_with_the_first_key_after_it_was_shown() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    press(&mut screen, &["e", "o"]);
    assert!(screen.text().unwrap().contains("GRN observations hidden"));
    press(&mut screen, &["o"]);
    assert!(!screen.text().unwrap().contains("GRN observations hidden"));
}

/// A tick re-derives every creature's status from what the model last read: it neither
/// stats the control socket nor looks the runner's process up. A hint in `.sys/` or a
/// rescan does. (The runner and its socket go here behind the watcher's back: a tick that
/// looked would see it.)
#[test]
fn a_tick_with_nothing_changed_reads_nothing() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let pip = garden.creature("pip");
    std::fs::create_dir_all(pip.join(".sys")).unwrap();
    // A stand-in runner: holds the creature's lock (fd 9) until it is killed.
    let mut runner = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"exec 9>"$1"; flock -x 9; echo locked; exec sleep 60"#)
        .arg("sh")
        .arg(dreamwatch::memory::runner_lock::path(&pip))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut locked = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(runner.stdout.take().unwrap()),
        &mut locked,
    )
    .unwrap();
    assert_eq!(locked, "locked\n");
    std::fs::write(
        pip.join(".sys/runner.json"),
        format!("{{\"pid\": {}}}", runner.id()),
    )
    .unwrap();
    std::fs::write(pip.join(".sys/control.sock"), "").unwrap();
    let mut screen = garden.screen("dark", 120, 36);
    press(&mut screen, &["]"]);
    let text = screen.text().unwrap();
    assert!(text.contains("│pip  model unknown  ● awake"), "{text}");
    assert!(
        text.contains("s sleep"),
        "a live runner takes commands: {text}"
    );

    runner.kill().unwrap();
    runner.wait().unwrap();
    std::fs::remove_file(pip.join(".sys/control.sock")).unwrap();
    screen.tick(crate::common::ui::clock() + chrono::Duration::seconds(1));
    let text = screen.text().unwrap();
    assert!(
        text.contains("│pip  model unknown  ● awake"),
        "the tick looked: {text}"
    );
    assert!(text.contains("s sleep"), "the tick looked: {text}");

    screen.refresh();
    let text = screen.text().unwrap();
    assert!(text.contains("│pip  model unknown  ○ stopped"), "{text}");
    assert!(!text.contains("s sleep"), "{text}");
}

#[test]
fn the_creature_keys_go_round_the_garden() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    let selected = |screen: &Headless| {
        screen
            .app
            .selected_ui()
            .map(|ui| ui.name.clone())
            .unwrap_or_default()
    };
    assert_eq!(selected(&screen), "ember");
    press(&mut screen, &["["]);
    assert_eq!(selected(&screen), "pip", "back from the first: the last");
    press(&mut screen, &["]"]);
    assert_eq!(selected(&screen), "ember", "on from the last: the first");
}

#[test]
fn a_key_that_does_nothing_here_says_so() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 140, 36);
    press(&mut screen, &["2", "r"]);
    let text = screen.text().unwrap();
    assert!(
        text.contains("r (RED) does nothing here: it works in the Observations view"),
        "{text}"
    );
    press(&mut screen, &["Z"]);
    let text = screen.text().unwrap();
    assert!(
        text.contains("Z is not a key here: ? lists the keys"),
        "{text}"
    );
}

#[test]
fn the_help_ends_with_a_legend_of_the_garden_list() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 140, 48);
    press(&mut screen, &["?", "G"]);
    let text = screen.text().unwrap();
    assert!(text.contains("The garden list"), "{text}");
    assert!(text.contains("● awake"), "{text}");
    assert!(text.contains("✱ news while it was not selected"), "{text}");
    assert!(
        text.contains("fatigue: the bar and number: fatigue"),
        "{text}"
    );
    assert!(
        text.contains("evennia: the bar and number: importance"),
        "{text}"
    );
    assert!(text.contains("wonders: ⟳ the cycle it is in"), "{text}");
}

#[test]
fn a_click_on_a_dream_selects_it() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    press(&mut screen, &["2"]);
    let ember = garden.creature("ember");
    let dreams = |screen: &Headless| {
        let ui = screen.app.creatures.get(&ember).unwrap();
        (ui.dreams.len(), ui.dreams.selected())
    };
    let (n, selected) = dreams(&screen);
    assert_eq!(selected, Some(n - 1), "the newest is selected at first");
    // The list is in the main view, newest first: its third row is the third newest.
    let main = screen.app.areas().main_view;
    screen.mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: main.x + 2,
        row: main.y + 2,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(dreams(&screen).1, Some(n - 3));
}

#[test]
fn enter_shows_the_top_event_whole_and_esc_closes_it() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let ember = garden.creature("ember");
    append(
        &ember.join(".sys/events.jsonl"),
        "{\"t\":\"2026-11-22T17:59:30.000Z\",\"type\":\"creature.error\",\"error\":\"model call failed: cannot connect to http://127.0.0.1:9/v1/messages: connection refused, a long way past the edge of any pane on this screen\",\"retryIn\":30000}\n",
    );
    let mut screen = garden.screen("dark", 100, 30);
    press(&mut screen, &["6", "enter"]);
    let text = screen.text().unwrap();
    assert!(text.contains("creature.error · line"), "{text}");
    assert!(
        text.contains("connection refused, a long way past the edge"),
        "{text}"
    );
    assert!(text.contains("retryIn: 30000"), "{text}");
    press(&mut screen, &["esc"]);
    assert!(!screen.text().unwrap().contains("retryIn: 30000"));
}

#[test]
fn a_locale_that_is_not_utf8_gets_the_screen_in_ascii() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let (theme, _) = Theme::load("dark", None, false);
    let mut settings = Settings::with_theme(theme);
    settings.ascii = true;
    let mut screen = Headless::open(
        &[garden.dir.path().to_path_buf()],
        settings,
        crate::common::ui::clock(),
        120,
        36,
    )
    .unwrap();
    let text = screen.text().unwrap();
    assert!(text.is_ascii(), "{text}");
    assert!(text.starts_with("+ Garden . 2 "), "{text}");
    assert!(
        text.contains("* ember") || text.contains("o ember"),
        "{text}"
    );
}

#[test]
fn a_click_on_an_event_shows_that_event_whole() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let ember = garden.creature("ember");
    append(
        &ember.join(".sys/events.jsonl"),
        concat!(
            "{\"t\":\"2026-11-22T17:59:30.000Z\",\"type\":\"creature.error\",\"error\":\"the older failure, clicked\",\"retryIn\":11111}\n",
            "{\"t\":\"2026-11-22T17:59:40.000Z\",\"type\":\"creature.error\",\"error\":\"the newer failure, on top\",\"retryIn\":22222}\n",
        ),
    );
    let mut screen = garden.screen("dark", 100, 30);
    press(&mut screen, &["6"]);
    let text = screen.text().unwrap();
    let row = text
        .lines()
        .position(|l| l.contains("the older failure, clicked"))
        .unwrap_or_else(|| panic!("the older event is on screen: {text}"));
    let main = screen.app.areas().main_view;
    screen.mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: main.x + 4,
        row: u16::try_from(row).unwrap(),
        modifiers: KeyModifiers::NONE,
    });
    let text = screen.text().unwrap();
    assert!(text.contains("retryIn: 11111"), "{text}");
    assert!(!text.contains("retryIn: 22222"), "{text}");
}
