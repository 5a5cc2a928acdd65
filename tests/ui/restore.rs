//! Restore: a line a dream pruned, picked in the dreams view (`x`), put back into a hosted
//! creature's observations after a confirmation (`R` twice); refused read-only, refused
//! for a creature only watched.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::common::ui::{Garden, clock, filters};
use dreamwatch::memory::cycle::Cycle;
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::runtime::jobs::Jobs;
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;
use dreamwatch::ui::update::Job;

const PRUNED: &str = "[.] Week 3 data had gaps";

/// The runner's record: the newest dream pruned one line.
fn record_pruning(pip: &Path) {
    let dreams = std::fs::read_to_string(pip.join(".self/dreams.jsonl")).unwrap();
    let n = dreams.lines().filter(|l| !l.trim().is_empty()).count();
    std::fs::create_dir_all(pip.join(".sys")).unwrap();
    std::fs::write(
        pip.join(".sys/dream-diffs.jsonl"),
        format!(
            "{{\"dream\":{n},\"file\":\"observations.md\",\"changes\":{{\"kind\":\"observations\",\"pruned\":[{{\"text\":\"{PRUNED}\",\"under\":\"2026-11-22T17:40 (dream #11)\"}}]}}}}\n"
        ),
    )
    .unwrap();
}

fn open(garden: &Garden, hosted: bool, read_only: bool) -> Headless {
    let (theme, _) = Theme::load("dark", None, false);
    let hosting = if hosted {
        BTreeMap::from([(garden.creature("pip"), Cycle::default())])
    } else {
        BTreeMap::new()
    };
    Headless::open_hosting(
        &[garden.creature("pip")],
        hosting,
        Settings {
            read_only,
            ..Settings::with_theme(theme)
        },
        clock(),
        120,
        40,
    )
    .unwrap()
}

fn notice(s: &Headless) -> String {
    s.app
        .notice
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

#[test]
fn a_pruned_line_is_restored_after_a_confirmation() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let pip = garden.creature("pip");
    record_pruning(&pip);
    let mut s = open(&garden, true, false);
    s.press("2").unwrap();
    // Nothing picked yet.
    assert!(s.press("R").unwrap().is_empty());
    assert!(
        notice(&s).contains("pick a pruned line first (x)"),
        "{}",
        notice(&s)
    );
    s.press("x").unwrap();
    assert!(s.press("R").unwrap().is_empty(), "asked first");
    assert!(notice(&s).contains("R again writes it"), "{}", notice(&s));
    let text = s.text().unwrap();
    filters(&garden).bind(|| insta::assert_snapshot!("restore_asked", text));
    // Another key cancels the question; another dream drops the pick.
    s.press("j").unwrap();
    s.press("k").unwrap();
    assert!(s.press("R").unwrap().is_empty());
    assert!(
        notice(&s).contains("pick a pruned line first"),
        "{}",
        notice(&s)
    );
    s.press("x").unwrap();
    assert!(s.press("R").unwrap().is_empty());
    let jobs = s.press("R").unwrap();
    assert_eq!(
        jobs,
        [Job::Restore {
            creature: pip.clone(),
            line: PRUNED.into()
        }]
    );
    let before = std::fs::read_to_string(pip.join(".self/observations.md")).unwrap();
    let (outcomes, _) = tokio::sync::mpsc::unbounded_channel();
    let mut performer = Jobs::new(HashMap::new(), outcomes);
    for job in jobs {
        performer.perform(&mut s.app, job);
    }
    let after = std::fs::read_to_string(pip.join(".self/observations.md")).unwrap();
    // Appended under today's header: nothing before it changed.
    assert!(after.starts_with(&before));
    let added = &after[before.len()..];
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    assert!(added.contains(&format!("## {today}")), "{added}");
    let last = added.lines().last().unwrap();
    assert!(
        last.starts_with("GRN ")
            && last.ends_with("Week 3 data had gaps (restored by the operator)"),
        "{last}"
    );
    assert!(notice(&s).starts_with("restored: GRN"), "{}", notice(&s));
}

#[test]
fn read_only_refuses_a_restore() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    record_pruning(&garden.creature("pip"));
    let mut s = open(&garden, true, true);
    s.press("2").unwrap();
    s.press("x").unwrap();
    assert!(s.press("R").unwrap().is_empty());
    assert!(
        notice(&s).starts_with("read-only: restore refused"),
        "{}",
        notice(&s)
    );
    let text = s.text().unwrap();
    filters(&garden).bind(|| insta::assert_snapshot!("restore_read_only", text));
}

#[test]
fn a_watched_creature_is_not_written_into() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let pip = garden.creature("pip");
    record_pruning(&pip);
    let mut s = open(&garden, false, false);
    s.press("2").unwrap();
    s.press("x").unwrap();
    assert!(s.press("R").unwrap().is_empty());
    assert!(s.press("R").unwrap().is_empty());
    assert!(notice(&s).contains("only watched"), "{}", notice(&s));
}
