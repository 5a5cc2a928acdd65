//! Whole-screen snapshots of the observatory on the OpenSeed fixtures (TestBackend, the
//! clock stopped, temp paths filtered). Review changes with `cargo insta review`.

use crate::common::ui::{Garden, filters};

const W: u16 = 120;
const H: u16 = 36;

/// Snapshots the screen after pressing `keys` on a fresh garden.
fn shot(name: &str, keys: &[&str]) {
    let garden = Garden::new();
    let mut screen = garden.screen("dark", W, H);
    for k in keys {
        screen.press(k).expect("key");
    }
    let text = screen.text().expect("render");
    filters(&garden).bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn observations_newest_first() {
    dreamwatch::app::genomes::install();
    shot("observations", &[]);
}

#[test]
fn observations_filtered_oldest_first() {
    dreamwatch::app::genomes::install();
    shot("observations_filtered", &["e", "y", "o"]);
}

#[test]
fn observations_of_the_other_creature() {
    dreamwatch::app::genomes::install();
    shot("observations_ember", &["h", "j"]);
}

#[test]
fn dreams_timeline_and_detail() {
    dreamwatch::app::genomes::install();
    shot("dreams", &["2", "j", "j", "j"]);
}

#[test]
fn diary_markdown() {
    dreamwatch::app::genomes::install();
    shot("diary", &["3"]);
}

#[test]
fn recall_follows_the_end() {
    dreamwatch::app::genomes::install();
    shot("recall_follow", &["h", "j", "4"]);
}

#[test]
fn recall_scrolled_up_stops_following() {
    dreamwatch::app::genomes::install();
    shot("recall_scrolled", &["h", "j", "4", "pageup", "pageup", "k"]);
}

#[test]
fn recall_search_hit() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", W, H);
    for k in ["h", "j", "/"] {
        screen.press(k).expect("key");
    }
    screen.type_text("forecast");
    screen.press("enter").expect("key");
    screen.press("n").expect("key");
    let text = screen.text().expect("render");
    filters(&garden).bind(|| insta::assert_snapshot!("recall_search", text));
}

#[test]
fn events_newest_first() {
    dreamwatch::app::genomes::install();
    shot("events", &["6"]);
}

#[test]
fn help_overlay() {
    dreamwatch::app::genomes::install();
    shot("help", &["?"]);
}

#[test]
fn message_box() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", W, H);
    screen.press("m").expect("key");
    screen.type_text("Please write the weekly summary first.");
    screen.press("enter").expect("key");
    screen.type_text("Then fix weekly_mean.");
    let text = screen.text().expect("render");
    filters(&garden).bind(|| insta::assert_snapshot!("message_box", text));
}

#[test]
fn watched_creature_explains_why_it_cannot_sleep() {
    dreamwatch::app::genomes::install();
    shot("watched_sleep", &["s"]);
}

#[test]
fn narrow_terminal_reflows() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = garden.screen("dark", W, H);
    screen.render().expect("render");
    screen.resize(64, 20);
    let text = screen.text().expect("render");
    filters(&garden).bind(|| insta::assert_snapshot!("narrow", text));
}

/// One per built-in theme: the screen's text and every cell's style.
#[test]
fn every_theme() {
    dreamwatch::app::genomes::install();
    for (name, _) in dreamwatch::ui::theme::BUILT_IN {
        let garden = Garden::new();
        let mut screen = garden.screen(name, 100, 24);
        let buffer = format!("{:?}", screen.render().expect("render"));
        filters(&garden).bind(|| insta::assert_snapshot!(format!("theme_{name}"), buffer));
    }
}

/// A creature whose every file carries terminal escape sequences and control characters:
/// they show inert (`^[`), in every view, and no cell holds a control character.
#[test]
fn hostile_text_is_shown_inert() {
    dreamwatch::app::genomes::install();
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("hostile");
    let esc = "\u{1b}]2;PWNED\u{7}\u{1b}]52;c;aGk=\u{7}\u{1b}[2J\u{1b}[31m";
    let write = |rel: &str, text: String| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write(
        "BIRTH.json",
        format!(
            r#"{{"name":"evil{}","model":"m{}"}}"#,
            "\\u001b[31m", "\\u0007"
        ),
    );
    write(
        ".self/observations.md",
        format!("# Observations\n\n## 2026-11-22\n\nRED 17:40 obs {esc}end\u{8}\u{7f}\n"),
    );
    write(
        ".self/conversation.jsonl",
        format!(
            "{}\n",
            serde_json::json!({"t": "2026-11-22T17:40:00Z", "role": "user", "content": format!("recall {esc}end")})
        ),
    );
    write(
        ".self/dreams.jsonl",
        format!(
            "{}\n",
            serde_json::json!({"t": "2026-11-22T17:41:00Z", "actions": 3, "reflection": format!("dream {esc}end"), "priority": format!("prio {esc}"), "observations": 1, "deep": false})
        ),
    );
    write(".self/rules.md", format!("- NEVER: rule {esc}\n"));
    write(
        ".self/priorities.md",
        format!("# Priorities\n- first {esc}\n"),
    );
    write(
        ".self/diary.md",
        format!("## 2026-11-22T17:41 - Deep Sleep\n\ndiary {esc}end\n"),
    );
    let (theme, _) = dreamwatch::ui::theme::Theme::load("dark", None, false);
    let mut screen = dreamwatch::ui::headless::Headless::open(
        std::slice::from_ref(&root),
        dreamwatch::ui::state::Settings::with_theme(theme),
        crate::common::ui::clock(),
        W,
        24,
    )
    .expect("screen");
    let mut shots = String::new();
    for key in ["1", "2", "3", "4"] {
        screen.press(key).expect("key");
        let text = screen.text().expect("render");
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "a control character reached the screen:\n{text}"
        );
        shots.push_str(&text);
    }
    assert!(
        shots.contains("^[]2;PWNED^G^[]52;c;aGk=^G^[[2J^[[31m"),
        "{shots}"
    );
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(&regex_escape(&dir.path().display().to_string()), "[TMP]");
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!("hostile_text", shots));
}

fn regex_escape(s: &str) -> String {
    s.chars()
        .flat_map(|c| {
            let escape = "\\.+*?()|[]{}^$".contains(c).then_some('\\');
            escape.into_iter().chain([c])
        })
        .collect()
}

/// The February fixtures kept in the repository: wren's creator directive (local time),
/// prose and legacy tags; moss's free-markdown diary; finch's dreams without a diary.
#[test]
fn february_fixtures() {
    dreamwatch::app::genomes::install();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/openseed");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut creatures = Vec::new();
    for name in ["feb16-finch", "feb20-wren", "feb24-moss"] {
        let to = dir.path().join(name);
        crate::common::ui::copy_dir(&src.join(name).join("creature"), &to);
        creatures.push(to);
    }
    let now = dreamwatch::ui::screenshot::clock_after(&creatures);
    let (theme, _) = dreamwatch::ui::theme::Theme::load("dark", None, false);
    let mut screen = dreamwatch::ui::headless::Headless::open(
        &[dir.path().to_path_buf()],
        dreamwatch::ui::state::Settings::with_theme(theme),
        now,
        W,
        H,
    )
    .expect("screen");
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(&regex_escape(&dir.path().display().to_string()), "[TMP]");
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    for (name, keys) in [
        ("february_finch_dreams", &["2"][..]),
        // In the garden's order by name: finch, moss, wren.
        ("february_wren_observations", &["]", "]", "1"]),
        ("february_moss_diary", &["[", "3"]),
    ] {
        for k in keys {
            screen.press(k).expect("key");
        }
        let text = screen.text().expect("render");
        settings.bind(|| insta::assert_snapshot!(name, text));
    }
}
