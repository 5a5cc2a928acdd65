//! What a dream changed, in the dreams view: seen by the watched history for a creature
//! that keeps no record (kept across a restart, what was made while nothing watched
//! said so), and read from the runner's `.sys/dream-diffs.jsonl` for one that does.

use std::path::Path;

use crate::common::ui::{Garden, append, clock, filters};
use chrono::{DateTime, Duration, Utc};
use dreamwatch::history::{DEFAULT_LIMIT, History};
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;

const W: u16 = 120;
const H: u16 = 40;

/// pip watched with its history in `store`, before the first frame.
fn open(garden: &Garden, store: &Path, now: DateTime<Utc>) -> Headless {
    let (theme, _) = Theme::load("dark", None, false);
    let settings = Settings {
        history: Some(History::new(store.to_path_buf(), DEFAULT_LIMIT)),
        ..Settings::with_theme(theme)
    };
    Headless::open(&[garden.creature("pip")], settings, now, W, H).unwrap()
}

/// [`open`], its first frame out: the watched history's first look comes after it.
fn screen(garden: &Garden, store: &Path, now: DateTime<Utc>) -> Headless {
    let mut s = open(garden, store, now);
    s.render().unwrap();
    s
}

/// pip watched (its history in `store`) while a deep sleep prunes its observations: the
/// frame that shows the sleep out, the watched history's look at it after.
fn watched_through_a_deep_sleep(garden: &Garden, store: &Path) -> Headless {
    let mut s = screen(garden, store, clock());
    deep_sleep(&garden.creature("pip"), "2026-11-22T17:49:40Z");
    s.refresh();
    s.render().unwrap();
    s
}

/// pip's folder in the watched history's `store` (the only one).
fn pip_folder(store: &Path) -> std::path::PathBuf {
    std::fs::read_dir(store)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
}

/// A deep sleep as an OpenSeed consolidator does it: the observations rewritten with
/// bash (the repeated dream headers and their lines dropped, one kept line moved under
/// a new header), then the dream line.
fn deep_sleep(pip: &Path, at: &str) {
    let obs = pip.join(".self/observations.md");
    let text = std::fs::read_to_string(&obs).unwrap();
    let kept: String = text
        .split("\n## ")
        .take(3)
        .collect::<Vec<_>>()
        .join("\n## ");
    std::fs::write(
        &obs,
        format!("{kept}\n## 2026-11-22\n[.] Pruned the notes at deep sleep\n"),
    )
    .unwrap();
    append(
        &pip.join(".self/dreams.jsonl"),
        &format!(
            "{{\"t\":\"{at}\",\"actions\":9,\"reflection\":\"Pruned.\",\"priority\":\"Keep notes short.\",\"observations\":1,\"deep\":true}}\n"
        ),
    );
}

#[test]
fn a_pruning_seen_is_shown_for_its_dream_and_after_a_restart() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let store = tempfile::tempdir().unwrap();
    let pip = garden.creature("pip");
    let mut s = watched_through_a_deep_sleep(&garden, store.path());
    s.press("2").unwrap();
    let text = s.text().unwrap();
    filters(&garden).bind(|| insta::assert_snapshot!("dream_changes_watched", text));
    assert!(text.contains("What it changed"));
    assert!(text.contains("pruned"));

    // Restarted: the history is read back, the same lines shown for that dream.
    drop(s);
    let mut again = screen(&garden, store.path(), clock() + Duration::minutes(5));
    again.press("2").unwrap();
    // Keys between two frames: the record read for the view they showed.
    again.press("x").unwrap();
    let after = again.text().unwrap();
    assert!(!after.contains("does nothing here"), "{after}");
    let changed = |t: &str| -> Vec<String> {
        t.lines()
            .skip_while(|l| !l.contains("What it changed"))
            .take(6)
            .map(|l| l[60.min(l.len())..].to_string())
            .collect()
    };
    assert_eq!(changed(&after), changed(&text));
    // Nothing of it was written into the creature.
    assert!(!pip.join(".sys").exists());
}

#[test]
fn a_change_made_while_nothing_watched_is_said_so() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let store = tempfile::tempdir().unwrap();
    let pip = garden.creature("pip");
    drop(screen(&garden, store.path(), clock()));
    // While the observatory was closed: a deep sleep.
    deep_sleep(&pip, "2026-11-22T18:10:00Z");
    let mut s = screen(&garden, store.path(), clock() + Duration::hours(1));
    s.press("2").unwrap();
    let text = s.text().unwrap();
    assert!(text.contains("changed while nothing watched"), "{text}");
    assert!(text.contains("pruned"), "{text}");
    // An older dream, from before the history began, cannot be known.
    s.press("j").unwrap();
    let older = s.text().unwrap();
    assert!(
        older.contains("was not watching when this dream ran"),
        "{older}"
    );
}

#[test]
fn the_runner_s_record_is_shown_for_a_creature_that_keeps_one() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let store = tempfile::tempdir().unwrap();
    let pip = garden.creature("pip");
    let dreams = std::fs::read_to_string(pip.join(".self/dreams.jsonl")).unwrap();
    let n = dreams.lines().filter(|l| !l.trim().is_empty()).count();
    std::fs::create_dir_all(pip.join(".sys")).unwrap();
    std::fs::write(
        pip.join(".sys/dream-diffs.jsonl"),
        format!(
            "{{\"dream\":{n},\"t\":\"2026-11-22T17:48:17.318Z\",\"file\":\"observations.md\",\"changes\":{{\"kind\":\"observations\",\"pruned\":[{{\"text\":\"[.] Week 3 data had gaps\",\"under\":\"2026-11-22T17:40 (dream #11)\"}}],\"moved\":[{{\"text\":\"[!] WORKFLOW: Check MESSAGES.md after every wake\",\"from\":\"2026-11-22T17:37\",\"to\":\"2026-11-22T17:48\"}}]}}}}\n{{\"dream\":{n},\"file\":\"priorities.md\",\"changes\":{{\"kind\":\"lines\",\"removed\":[\"1. Fix the analyser\"],\"added\":[\"1. Write the weekly summary\"]}}}}\n"
        ),
    )
    .unwrap();
    let mut s = screen(&garden, store.path(), clock());
    s.press("2").unwrap();
    let text = s.text().unwrap();
    filters(&garden).bind(|| insta::assert_snapshot!("dream_changes_runner", text));
    assert!(text.contains("- [.] Week 3 data had gaps"), "{text}");
    assert!(
        text.contains("priorities.md rewritten: 1 line removed, 1 added"),
        "{text}"
    );
    // The dream before it was recorded by nobody: said so.
    s.press("j").unwrap();
    let older = s.text().unwrap();
    assert!(older.contains("recorded from dream #20 on"), "{older}");
}

/// The detail of a dream longer than its pane pages with PgDn/PgUp (the list keeps its
/// selection); another dream selected shows from its top.
#[test]
fn the_dream_detail_pages_and_another_dream_starts_at_its_top() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let store = tempfile::tempdir().unwrap();
    let mut s = watched_through_a_deep_sleep(&garden, store.path());
    s.press("2").unwrap();
    let top = s.text().unwrap();
    assert!(top.contains("priority Keep notes short."), "{top}");
    let selected = s.app.selected_ui().unwrap().dreams.selected();
    s.press("pagedown").unwrap();
    let paged = s.text().unwrap();
    filters(&garden).bind(|| insta::assert_snapshot!("dream_detail_scrolled", paged));
    assert!(!paged.contains("priority Keep notes short."), "{paged}");
    assert_ne!(paged, top);
    assert_eq!(s.app.selected_ui().unwrap().dreams.selected(), selected);
    // Past the end it stops; back up to the top.
    for _ in 0..20 {
        s.press("pagedown").unwrap();
    }
    let end = s.text().unwrap();
    s.press("pagedown").unwrap();
    assert_eq!(s.text().unwrap(), end);
    for _ in 0..20 {
        s.press("pageup").unwrap();
    }
    assert_eq!(s.text().unwrap(), top);
    s.press("pagedown").unwrap();
    s.press("j").unwrap();
    let other = s.text().unwrap();
    assert!(other.contains("priority "), "{other}");
}

/// In the past (the time cursor), the Dreams view of a watched creature has the changes
/// the watched history saw by then, as the live one has.
#[test]
fn the_past_s_dreams_view_has_the_changes_seen_by_then() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let store = tempfile::tempdir().unwrap();
    let mut s = watched_through_a_deep_sleep(&garden, store.path());
    for key in ["t", "2"] {
        s.press(key).unwrap();
    }
    let text = s.text().unwrap();
    assert!(text.contains("as of dream"), "{text}");
    assert!(text.contains("What it changed"), "{text}");
    assert!(text.contains("pruned"), "{text}");
}

/// The first frame waits for nothing of the watched history: nothing of a creature
/// watched for the first time is written, and what an earlier run kept is not read, until
/// it is out; the frame after it has the history.
#[test]
fn the_first_frame_is_drawn_before_the_watched_history_is_read() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let store = tempfile::tempdir().unwrap();
    let pip = garden.creature("pip");
    let folders = || std::fs::read_dir(store.path()).map_or(0, |d| d.count());
    let mut s = open(&garden, store.path(), clock());
    assert_eq!(folders(), 0, "the store written before the first frame");
    s.render().unwrap();
    assert_eq!(folders(), 1, "no first look after the first frame");
    drop(s);

    // A deep sleep while nothing watched: the next run's first frame shows no change
    // (the history not read yet), the frame after it the change.
    deep_sleep(&pip, "2026-11-22T18:10:00Z");
    let mut s = open(&garden, store.path(), clock() + Duration::hours(1));
    s.press("2").unwrap();
    let first = s.text().unwrap();
    assert!(!first.contains("changed while nothing watched"), "{first}");
    let next = s.text().unwrap();
    assert!(next.contains("changed while nothing watched"), "{next}");
}

/// A change is on screen before the watched history looks at it (a look reads, compares
/// and keeps the whole file: milliseconds at every append to a large observations.md):
/// the frame that shows it first, the look right after it.
#[test]
fn a_change_is_drawn_before_the_watched_history_looks_at_it() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let store = tempfile::tempdir().unwrap();
    let mut s = screen(&garden, store.path(), clock());
    let folder = pip_folder(store.path());
    let recorded = || std::fs::read_to_string(folder.join("changes.jsonl")).unwrap_or_default();
    assert!(!recorded().contains("A hawk over the garden"));
    let obs = garden.creature("pip").join(".self/observations.md");
    append(&obs, "[!] A hawk over the garden\n");
    s.changed(vec![obs]);
    assert!(
        !recorded().contains("A hawk over the garden"),
        "looked at before the frame that shows it"
    );
    let text = s.text().unwrap();
    assert!(text.contains("A hawk over the garden"), "{text}");
    assert!(
        recorded().contains("A hawk over the garden"),
        "not looked at after the frame: {}",
        recorded()
    );
}

/// The record of changes is read when the Dreams view is first shown, not at start (a
/// garden watched for months holds megabytes of them): one that cannot be read is said
/// and dropped then.
#[test]
fn the_record_of_changes_is_read_when_the_dreams_view_is_shown() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let store = tempfile::tempdir().unwrap();
    drop(watched_through_a_deep_sleep(&garden, store.path()));
    let folder = pip_folder(store.path());
    let changes = folder.join("changes.jsonl");
    let kept = std::fs::read_to_string(&changes).unwrap();
    assert!(kept.contains("pruned"), "{kept}");
    std::fs::write(&changes, format!("{kept}{{\"half a line\n")).unwrap();

    // Its first frame, and the frame after its first look.
    let mut s = screen(&garden, store.path(), clock() + Duration::minutes(5));
    let text = s.text().unwrap();
    assert!(!text.contains("could not be read"), "read at start: {text}");
    assert!(folder.exists());
    s.press("2").unwrap();
    let dreams = s.text().unwrap();
    assert!(dreams.contains("could not be read"), "{dreams}");
    assert!(!folder.exists(), "an unreadable record is dropped");
}
