//! What a demanding newcomer tripped on in the observatory (issue 14), headless: a way
//! out whatever the keys config says, the help overlay, the small words and markers.

use std::collections::BTreeMap;
use std::path::Path;

use dreamwatch::control::{ControlCommand, HostStatus};
use dreamwatch::memory::cycle::Cycle;
use dreamwatch::memory::identity::BrainKind;
use dreamwatch::memory::status::Status;

use crate::common::ui::Garden;
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::input::action::Action;
use dreamwatch::ui::input::keymap::{KeyNames, Keymap};
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;
use dreamwatch::ui::update::Job;

/// A headless screen on `garden` with the `[keys]` config `keys` applied; returns the
/// keymap's warnings too.
fn with_keys(garden: &Garden, keys: &[(&str, KeyNames)]) -> (Headless, Vec<String>) {
    let (theme, _) = Theme::load("dark", None, false);
    let mut settings = Settings::with_theme(theme);
    let patch: BTreeMap<String, KeyNames> = keys
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let warnings = settings.keymap.patch(&patch);
    let screen = Headless::open(
        &[garden.dir.path().to_path_buf()],
        settings,
        crate::common::ui::clock(),
        120,
        36,
    )
    .unwrap();
    (screen, warnings)
}

/// `quit = []` (which the sample config documents), a typo in `quit`, or Ctrl-C bound to
/// something else: Ctrl-C still quits, from the normal screen and from every prompt.
#[test]
fn ctrl_c_quits_whatever_the_keys_config_says() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let configs: [(&str, KeyNames); 4] = [
        ("quit", KeyNames::Many(Vec::new())),
        ("quit", KeyNames::One("qq".into())),
        ("quit", KeyNames::Many(vec!["x".into(), "ctlr-c".into()])),
        ("wake", KeyNames::One("ctrl-c".into())),
    ];
    for config in configs {
        for before in [&[][..], &["?"], &["m"], &["/"]] {
            let (mut screen, _) = with_keys(&garden, std::slice::from_ref(&config));
            for key in before {
                screen.press(key).unwrap();
            }
            screen.press("ctrl-c").unwrap();
            assert!(screen.app.quit, "{config:?} after {before:?}");
        }
    }
}

/// A binding with a key that cannot be read keeps the action's default keys, and says so.
#[test]
fn a_binding_that_cannot_be_parsed_keeps_its_default() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let (mut screen, warnings) = with_keys(
        &garden,
        &[("quit", KeyNames::Many(vec!["x".into(), "qq".into()]))],
    );
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("qq"), "{warnings:?}");
    assert!(warnings[0].contains("keeps"), "{warnings:?}");
    assert_eq!(screen.app.keymap.label(Action::Quit), "q/Ctrl-C");
    screen.press("x").unwrap();
    assert!(!screen.app.quit);
    screen.press("q").unwrap();
    assert!(screen.app.quit);
    // Ctrl-C given to another action stays with quit, with a warning.
    let mut keymap = Keymap::default();
    let warnings = keymap.patch(&BTreeMap::from([(
        "wake".to_string(),
        KeyNames::Many(vec!["ctrl-c".into(), "f5".into()]),
    )]));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(keymap.label(Action::Wake), "F5");
    assert_eq!(keymap.label(Action::Quit), "q/Ctrl-C");
}

/// `q` in the help overlay closes the overlay, as Esc does; it does not quit.
#[test]
fn q_and_esc_close_the_help_overlay() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    for close in ["q", "esc", "?"] {
        let mut screen = garden.screen("dark", 120, 36);
        screen.press("?").unwrap();
        assert!(screen.text().unwrap().contains("Help: keys"));
        screen.press(close).unwrap();
        assert!(!screen.app.quit, "{close} quit from the help overlay");
        let text = screen.text().unwrap();
        assert!(!text.contains("Help: keys"), "{close}: {text}");
        // Back on the normal screen, q quits.
        screen.press("q").unwrap();
        assert!(screen.app.quit, "{close}");
    }
}

/// The observatory on `garden` hosting `creature`, and on nothing else when `alone`.
fn hosting(garden: &Garden, creature: &Path, alone: bool) -> Headless {
    let (theme, _) = Theme::load("dark", None, false);
    let path = if alone {
        creature.to_path_buf()
    } else {
        garden.dir.path().to_path_buf()
    };
    Headless::open_hosting(
        &[path],
        BTreeMap::from([(creature.to_path_buf(), Cycle::default())]),
        Settings::with_theme(theme),
        crate::common::ui::clock(),
        120,
        36,
    )
    .unwrap()
}

fn host_status(status: Status) -> HostStatus {
    HostStatus {
        status,
        fatigue: 3,
        brain: "rehearsal (offline demo brain)".into(),
        brain_kind: BrainKind::Rehearsal,
        last_error: None,
    }
}

/// `w` on an awake creature says so and sends nothing; on a sleeping one it wakes it.
#[test]
fn w_on_an_awake_creature_says_already_awake() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let mut screen = hosting(&garden, &ember, false);
    screen.host_status(&ember, host_status(Status::Awake));
    assert!(screen.press("w").unwrap().is_empty());
    let text = screen.text().unwrap();
    assert!(text.contains("ember is already awake"), "{text}");
    let until = Some(crate::common::ui::clock() + chrono::Duration::minutes(5));
    screen.host_status(&ember, host_status(Status::Asleep { until }));
    assert_eq!(
        screen.press("w").unwrap(),
        [Job::Control {
            creature: ember.clone(),
            command: ControlCommand::Wake,
        }]
    );
}

/// The help overlay, taller than the screen, says that there is more below, then above.
#[test]
fn the_help_overlay_shows_that_it_scrolls() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    screen.press("?").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("more below"), "{text}");
    assert!(!text.contains("more above"), "{text}");
    screen.press("G").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("more above"), "{text}");
    assert!(!text.contains("more below"), "{text}");
    screen.press("k").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("↑ more above · ↓ more below"), "{text}");
}

/// Esc keeps what was written as a draft: `m` shows it again; sending clears it.
#[test]
fn the_message_box_keeps_a_draft_on_esc() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    screen.press("m").unwrap();
    screen.type_text("half a thought");
    assert!(screen.press("esc").unwrap().is_empty());
    let text = screen.text().unwrap();
    assert!(!text.contains("half a thought"), "{text}");
    assert!(text.contains("kept as a draft"), "{text}");
    screen.press("m").unwrap();
    assert!(screen.text().unwrap().contains("half a thought"));
    screen.type_text(", whole");
    assert_eq!(
        screen.press("ctrl-s").unwrap(),
        [Job::AppendMessage {
            creature: garden.creature("ember"),
            text: "half a thought, whole".into(),
        }]
    );
    screen.press("m").unwrap();
    assert!(!screen.text().unwrap().contains("half a thought"));
    // A draft belongs to its creature.
    screen.type_text("for ember");
    screen.press("esc").unwrap();
    screen.press("]").unwrap();
    screen.press("m").unwrap();
    assert!(!screen.text().unwrap().contains("for ember"));
}

/// An OpenSeed creature that takes messages from its orchestrator, not MESSAGES.md, is
/// named as such in the box's title before anything is typed.
#[test]
fn the_message_box_warns_before_typing_that_openseed_will_not_read_it() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    // ember: an OpenSeed creature of the orchestrator era (a .sys/ no runner wrote).
    screen.press("m").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("ember will not read MESSAGES.md"), "{text}");
    screen.press("esc").unwrap();
    // pip, of the early era, reads it.
    screen.press("]").unwrap();
    screen.press("m").unwrap();
    let text = screen.text().unwrap();
    assert!(!text.contains("will not read"), "{text}");
    assert!(text.contains("appended to MESSAGES.md"), "{text}");
}

/// Newest first, `G` goes to the newest (the top, following new lines), `g` to the oldest.
#[test]
fn g_in_newest_first_observations_goes_to_the_newest() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    screen.press("1").unwrap();
    let newest = screen.text().unwrap();
    screen.press("pagedown").unwrap();
    screen.press("pagedown").unwrap();
    assert_ne!(screen.text().unwrap(), newest);
    screen.press("G").unwrap();
    assert_eq!(screen.text().unwrap(), newest);
    let obs = garden.creature("ember").join(".self/observations.md");
    crate::common::ui::append(&obs, "RED 17:49 the newest of all\n");
    screen.refresh();
    assert!(screen.text().unwrap().contains("the newest of all"));
    screen.press("g").unwrap();
    let text = screen.text().unwrap();
    assert!(!text.contains("the newest of all"), "{text}");
}

/// The observations pane's title says where the reader is: `top/total`.
#[test]
fn observations_show_a_position() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 36);
    screen.press("1").unwrap();
    let text = screen.text().unwrap();
    let total = screen.app.selected_ui().unwrap().obs.doc.lines.len();
    assert!(total > 30);
    assert!(text.contains(&format!(" 1/{total} ")), "{text}");
    screen.press("j").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains(&format!(" 2/{total} ")), "{text}");
}

/// An OpenSeed creature without a diary is not promised one "at deep sleep".
#[test]
fn a_diary_less_openseed_creature_is_explained() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    std::fs::remove_file(garden.creature("ember").join(".self/diary.md")).unwrap();
    let mut screen = garden.screen("dark", 120, 36);
    screen.press("3").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("writes no diary"), "{text}");
    assert!(!text.contains("written at deep sleep"), "{text}");
}

/// When dreamwatch hosts the creature it shows, the status line says "hosting".
#[test]
fn hosting_says_hosting() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let text = hosting(&garden, &ember, true).text().unwrap();
    assert!(text.contains("1 creature · hosting"), "{text}");
    assert!(!text.contains("watching"), "{text}");
    let text = hosting(&garden, &ember, false).text().unwrap();
    assert!(text.contains("hosting 1 · watching"), "{text}");
    let text = garden.screen("dark", 120, 36).text().unwrap();
    assert!(!text.contains("hosting"), "{text}");
}

/// A creature that lived two stretches three days apart, dreaming every five minutes,
/// and whose last sleep (asked for 300 s, as `--speed` records it) ended 20 s in.
fn two_lives(dir: &Path) -> std::path::PathBuf {
    use chrono::{DateTime, Duration, TimeZone, Utc};
    let root = dir.join("lark");
    std::fs::create_dir_all(root.join(".self")).unwrap();
    std::fs::create_dir_all(root.join(".sys")).unwrap();
    std::fs::write(
        root.join("BIRTH.json"),
        r#"{"name":"lark","born":"2026-11-19T10:00:00Z","model":"m"}"#,
    )
    .unwrap();
    let ts = |t: DateTime<Utc>| t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
    let (mut dreams, mut iterations, mut events) = (String::new(), String::new(), String::new());
    let mut sleep = |at: DateTime<Utc>, asked: u32, woke: Duration, dream: bool| {
        if dream {
            dreams.push_str(&format!(
                "{{\"t\":\"{}\",\"actions\":3,\"reflection\":\"r\",\"priority\":\"p\",\"observations\":1,\"deep\":false}}\n",
                ts(at)
            ));
        }
        iterations.push_str(&format!(
            "{{\"t\":\"{0}\",\"turns\":3,\"intent\":\"rest\",\"actions\":[],\"sleep_s\":{asked},\"sleep_started_at\":\"{0}\"}}\n",
            ts(at)
        ));
        events.push_str(&format!(
            "{{\"t\":\"{}\",\"type\":\"creature.sleep\",\"seconds\":{asked}}}\n{{\"t\":\"{}\",\"type\":\"creature.wake\",\"source\":\"timer\"}}\n",
            ts(at),
            ts(at + woke)
        ));
    };
    let first = Utc.with_ymd_and_hms(2026, 11, 19, 10, 5, 0).unwrap();
    for i in 0..4 {
        sleep(
            first + Duration::minutes(5 * i),
            60,
            Duration::seconds(60),
            true,
        );
    }
    let second = Utc.with_ymd_and_hms(2026, 11, 22, 17, 5, 0).unwrap();
    for i in 0..5 {
        sleep(
            second + Duration::minutes(5 * i),
            60,
            Duration::seconds(60),
            true,
        );
    }
    let last = Utc.with_ymd_and_hms(2026, 11, 22, 17, 48, 0).unwrap();
    sleep(last, 300, Duration::seconds(20), false);
    std::fs::write(root.join(".self/dreams.jsonl"), dreams).unwrap();
    std::fs::write(root.join(".sys/iterations.jsonl"), iterations).unwrap();
    std::fs::write(root.join(".sys/events.jsonl"), events).unwrap();
    root
}

/// The strip's two rows under the labels that start with `from`: labels and cells, cut
/// to the strip's own columns.
fn strip_rows(text: &str, from: &str) -> (String, String) {
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let (at, col) = rows
        .iter()
        .enumerate()
        .find_map(|(i, r)| {
            let s: String = r.iter().collect();
            s.find(from).map(|b| (i, s[..b].chars().count()))
        })
        .unwrap_or_else(|| panic!("no strip labelled {from}: {text}"));
    let cut = |r: &Vec<char>| -> String { r[col..].iter().take_while(|c| **c != '│').collect() };
    (cut(&rows[at]), cut(&rows[at + 1]))
}

/// The Dreams view of [`two_lives`], as text.
fn dreams_view_of_two_lives() -> String {
    let dir = tempfile::tempdir().unwrap();
    let root = two_lives(dir.path());
    let (theme, _) = Theme::load("dark", None, false);
    let mut screen = Headless::open(
        &[root],
        Settings::with_theme(theme),
        crate::common::ui::clock(),
        120,
        36,
    )
    .unwrap();
    screen.press("2").unwrap();
    screen.text().unwrap()
}

/// The strip ends at what really happened: a sleep asked for 300 s that ended when the
/// creature woke 20 s in is not drawn into the future.
#[test]
fn the_dreams_strip_draws_no_future() {
    dreamwatch::app::genomes::install();
    let text = dreams_view_of_two_lives();
    let (labels, _) = strip_rows(&text, "11-19 10:0");
    assert!(
        labels.trim_end().ends_with("11-22 17:48"),
        "{labels}\n{text}"
    );
}

/// Three days stopped between two stretches of life are a gap, not three days of
/// "awake": each stretch gets the room its own time needs, each dream its own cell.
#[test]
fn the_dreams_strip_shows_a_long_stop_as_a_gap() {
    dreamwatch::app::genomes::install();
    let text = dreams_view_of_two_lives();
    let (_, cells) = strip_rows(&text, "11-19 10:0");
    assert_eq!(cells.matches('●').count(), 9, "{cells}\n{text}");
    assert!(cells.contains('╌'), "{cells}");
    let gap = cells.find('╌').unwrap();
    assert!(cells[..gap].matches('●').count() == 4, "{cells}");
    assert!(
        !cells[gap..].trim_start_matches('╌').starts_with('─'),
        "{cells}"
    );
}

/// A creature whose conversation spans two days, with long prose in a message and in a
/// tool's output.
fn two_days(dir: &Path) -> std::path::PathBuf {
    let root = dir.join("owl");
    std::fs::create_dir_all(root.join(".self")).unwrap();
    let prose = "the quick brown fox jumps over the lazy dog again and again until the whole \
                 field is trampled flat and nobody remembers which way the fox first went";
    let result = serde_json::json!([{"type": "tool_result", "tool_use_id": "c1",
        "content": serde_json::json!({"stdout": prose, "stderr": "", "exitCode": 0}).to_string()}]);
    let lines = [
        serde_json::json!({"t": "2026-11-21T23:58:00.000Z", "role": "user", "content": "late at night"}),
        serde_json::json!({"t": "2026-11-21T23:59:00.000Z", "role": "assistant", "content": prose}),
        serde_json::json!({"t": "2026-11-22T00:01:00.000Z", "role": "user", "content": result}),
        serde_json::json!({"t": "2026-11-22T00:02:00.000Z", "role": "assistant", "content": "morning"}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(root.join(".self/conversation.jsonl"), text).unwrap();
    root
}

/// Recall says where a day begins, and long prose (a message, a tool's output) wraps
/// between words.
#[test]
fn recall_shows_days_and_wraps_between_words() {
    dreamwatch::app::genomes::install();
    let dir = tempfile::tempdir().unwrap();
    let root = two_days(dir.path());
    let (theme, _) = Theme::load("dark", None, false);
    let mut screen = Headless::open(
        &[root],
        Settings::with_theme(theme),
        crate::common::ui::clock(),
        100,
        40,
    )
    .unwrap();
    screen.press("4").unwrap();
    let text = screen.text().unwrap();
    let row = |needle: &str| {
        text.lines()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no {needle}: {text}"))
    };
    assert!(row("2026-11-21") < row("late at night"), "{text}");
    assert!(row("late at night") < row("2026-11-22"), "{text}");
    assert!(row("2026-11-22") < row("morning"), "{text}");
    assert_eq!(text.matches("2026-11-2").count(), 2, "{text}");
    // Every row of prose ends with a whole word: no word is cut across rows.
    let words: std::collections::BTreeSet<&str> =
        "the quick brown fox jumps over lazy dog again and until whole field is trampled flat nobody remembers which way first went"
            .split(' ')
            .collect();
    for l in text
        .lines()
        .filter(|l| l.contains("fox") || l.contains("trampled"))
    {
        let inner = l.trim_matches(|c: char| c == '│' || c.is_whitespace());
        let last = inner.split_whitespace().last().unwrap_or_default();
        assert!(words.contains(last), "cut: {last:?} in {l}");
    }
}

/// `q` while a creature is hosted here asks first (its runner ends with the observatory):
/// `q` again quits, another key keeps it running; Ctrl-C quits at once.
#[test]
fn q_asks_before_it_stops_a_hosted_creature() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let mut screen = hosting(&garden, &ember, true);
    screen.press("q").unwrap();
    assert!(!screen.app.quit);
    let text = screen.text().unwrap();
    assert!(
        text.contains("ember lives here: q again stops hosting"),
        "{text}"
    );
    screen.press("j").unwrap();
    screen.press("q").unwrap();
    assert!(!screen.app.quit, "another key took the question back");
    screen.press("q").unwrap();
    assert!(screen.app.quit);

    let mut screen = hosting(&garden, &ember, true);
    screen.press("ctrl-c").unwrap();
    assert!(screen.app.quit);
    // Watching only, q quits at once.
    let mut screen = garden.screen("dark", 120, 36);
    screen.press("q").unwrap();
    assert!(screen.app.quit);
}

/// A large garden's "loading N/M" never hides a warning that was up first, is not kept
/// in the status log, and is gone when loading ends.
#[test]
fn loading_progress_leaves_a_warning_up_and_the_log_alone() {
    let garden = Garden::new();
    let mut screen = garden.screen("dark", 120, 30);
    assert!(screen.app.popups.log.is_empty());
    screen.app.set_loading(Some((16, 40)));
    assert_eq!(
        screen.app.notice.as_ref().map(|n| n.text.as_str()),
        Some("loading 16/40")
    );
    screen.app.set_loading(Some((24, 40)));
    assert_eq!(
        screen.app.notice.as_ref().map(|n| n.text.as_str()),
        Some("loading 24/40")
    );
    screen.app.set_loading(None);
    assert_eq!(screen.app.notice, None);
    assert!(screen.app.popups.log.is_empty(), "progress is not logged");

    screen.app.set_notice("config: unknown key `colour`", true);
    screen.app.set_loading(Some((16, 40)));
    screen.app.set_loading(None);
    let notice = screen.app.notice.as_ref().map(|n| n.text.as_str());
    assert_eq!(notice, Some("config: unknown key `colour`"));
}
