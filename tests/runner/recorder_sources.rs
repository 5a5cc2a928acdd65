//! The flight recorder's other sources: the observatory's watched history (a creature
//! it does not host, rewritten while watched, across an observatory restart) and a
//! creature directory's git history. What no source knows is said, never invented.

use std::path::Path;
use std::process::Command;

use chrono::{DateTime, TimeDelta, TimeZone, Utc};

use dreamwatch::history::{DEFAULT_LIMIT, History};
use dreamwatch::recorder::blame::{self, Author};
use dreamwatch::recorder::past::Source;
use dreamwatch::recorder::{At, Sources, resolve};

use crate::common::cli::bin;

const V1: &str = "# Observations\n\n## 2026-03-01\nRED 10:00 the well is dry\n";
const V2: &str =
    "# Observations\n\n## 2026-03-01\nRED 10:00 the well is dry\nGRN 11:00 rain tomorrow\n";
const V3: &str = "# Observations\n\n## 2026-03-02\nRED 09:00 the well is full again\n";

fn at(h: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap() + TimeDelta::hours(h)
}

fn creature(root: &Path) {
    std::fs::create_dir_all(root.join(".self")).unwrap();
    std::fs::create_dir_all(root.join(".sys")).unwrap();
    std::fs::write(
        root.join("BIRTH.json"),
        r#"{"name": "wren", "genome": "dreamer"}"#,
    )
    .unwrap();
}

fn text_at(root: &Path, sources: &Sources, t: DateTime<Utc>) -> (Option<String>, Vec<String>) {
    let past = resolve(root, At::Time(t), sources, Utc::now()).unwrap();
    let text = past
        .docs
        .get(".self/observations.md")
        .and_then(|d| d.text.clone())
        .map(|b| String::from_utf8(b).unwrap());
    (text, past.unknown)
}

#[test]
fn a_watched_creature_is_replayed_across_an_observatory_restart() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("wren");
    creature(&root);
    let store = tmp.path().join("state/history");
    // The observatory watches: first look at V1, then V2 is written.
    let first = History::new(store.clone(), DEFAULT_LIMIT);
    for (text, h, look) in [(V1, 0, true), (V2, 2, false)] {
        std::fs::write(root.join(".self/observations.md"), text).unwrap();
        first
            .observe(&root, "observations.md", text, at(h), look)
            .unwrap();
    }
    drop(first);
    // It stops; V3 is written meanwhile; it starts again and sees it.
    std::fs::write(root.join(".self/observations.md"), V3).unwrap();
    let again = History::new(store.clone(), DEFAULT_LIMIT);
    again
        .observe(&root, "observations.md", V3, at(5), true)
        .unwrap();
    let sources = Sources {
        history: Some(again),
    };
    assert_eq!(text_at(&root, &sources, at(1)).0.as_deref(), Some(V1));
    assert_eq!(text_at(&root, &sources, at(3)).0.as_deref(), Some(V2));
    assert_eq!(text_at(&root, &sources, at(6)).0.as_deref(), Some(V3));
    let past = resolve(&root, At::Time(at(3)), &sources, Utc::now()).unwrap();
    assert_eq!(past.docs[".self/observations.md"].source, Source::Watched);
    // Before the observatory first looked, nothing is known: said, not invented.
    let (text, unknown) = text_at(&root, &sources, at(-1));
    assert_eq!(text, None);
    assert!(
        unknown.iter().any(|u| u.contains("observations.md")),
        "{unknown:?}"
    );
    // Blame: what was there at the first look cannot be known; the rest was seen.
    let b = blame::blame(&root, ".self/observations.md", &sources).unwrap();
    let full = b
        .lines
        .iter()
        .find(|l| l.text.contains("full again"))
        .unwrap();
    assert_eq!(full.written.author, Author::Seen);
    assert!(
        b.gone
            .iter()
            .any(|g| g.text.contains("well is dry") && g.written.author == Author::Unknown)
    );
}

fn git(root: &Path, args: &[&str], when: DateTime<Utc>) {
    let date = format!("{} +0000", when.timestamp());
    let ok = Command::new("git")
        .arg("-C")
        .arg(root)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .env("GIT_AUTHOR_DATE", &date)
        .env("GIT_COMMITTER_DATE", &date)
        .output()
        .unwrap();
    assert!(
        ok.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&ok.stderr)
    );
}

#[test]
fn a_creature_directory_with_a_git_history_is_replayed_from_its_commits() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("wren");
    creature(&root);
    git(&root, &["init", "-q"], at(0));
    for (text, h) in [(V1, 0), (V2, 2), (V3, 4)] {
        std::fs::write(root.join(".self/observations.md"), text).unwrap();
        git(&root, &["add", "-A"], at(h));
        git(&root, &["commit", "-q", "-m", "sleep"], at(h));
    }
    let none = Sources::default();
    assert_eq!(text_at(&root, &none, at(1)).0.as_deref(), Some(V1));
    assert_eq!(text_at(&root, &none, at(3)).0.as_deref(), Some(V2));
    assert_eq!(text_at(&root, &none, at(5)).0.as_deref(), Some(V3));
    let past = resolve(&root, At::Time(at(3)), &none, Utc::now()).unwrap();
    assert!(matches!(
        past.docs[".self/observations.md"].source,
        Source::Git(_)
    ));
    // Before the first commit: not known.
    assert!(!text_at(&root, &none, at(-1)).1.is_empty());
    let b = blame::blame(&root, ".self/observations.md", &none).unwrap();
    assert!(
        b.lines
            .iter()
            .all(|l| matches!(l.written.author, Author::Commit { .. })),
        "{b:#?}"
    );
    // `inspect --at` says the moment, from the commits.
    let home = tmp.path().join("home");
    let out = bin(&home)
        .env("XDG_STATE_HOME", home.join("state"))
        .args(["inspect", "--json", "--at", "2026-03-01T13:00:00Z"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = &v["creatures"][0];
    assert_eq!(c["path"], root.display().to_string());
    assert_eq!(
        (
            c["observations"]["red"].as_u64(),
            c["observations"]["grn"].as_u64()
        ),
        (Some(1), Some(1)),
        "{c}"
    );
    assert_eq!(
        c["as_of"]["docs"][".self/observations.md"]["source"]["git"]
            .as_str()
            .map(str::len),
        Some(40),
        "{c}"
    );
}

/// The runner's record is bounded: once its older half is forgotten, a dream from before
/// what it still holds is not taken from a later moment (it is found by the logs, not
/// exact), and the dreams it holds are still exact.
#[test]
fn a_record_whose_oldest_moments_were_forgotten_invents_nothing() {
    use dreamwatch::memory::moments::{After, Moment, Store};
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("wren");
    creature(&root);
    let store = Store::of_creature(&root);
    let mut events = String::new();
    let moment = |h: i64, after: After, dreams: u64, events: &str| {
        let text = format!("# Observations\n\nGRN after dream {dreams}\n");
        let hash = store.keep(text.as_bytes()).unwrap();
        store
            .append(&Moment {
                t: Some(at(h)),
                after,
                full: true,
                docs: [(".self/observations.md".to_string(), hash)].into(),
                logs: [(".sys/events.jsonl".to_string(), events.len() as u64)].into(),
                dreams: Some(dreams),
            })
            .unwrap();
    };
    moment(0, After::Start, 0, &events);
    for d in 1..=5i64 {
        let t = |m: i64| dreamwatch::memory::time::format_time(at(d) - TimeDelta::minutes(m));
        events.push_str(&format!(
            "{{\"t\":\"{}\",\"type\":\"creature.wake\"}}\n{{\"t\":\"{}\",\"type\":\"creature.sleep\"}}\n{{\"t\":\"{}\",\"type\":\"creature.dream\"}}\n",
            t(30),
            t(20),
            t(10)
        ));
        moment(d, After::Sleep, d as u64, &events);
    }
    std::fs::write(root.join(".sys/events.jsonl"), &events).unwrap();
    std::fs::write(
        root.join(".self/observations.md"),
        "# Observations\n\nGRN after dream 5\n",
    )
    .unwrap();
    store.forget_older_half().unwrap();
    let past = |n| resolve(&root, At::Dream(n), &Sources::default(), Utc::now()).unwrap();
    let kept = past(4);
    assert!(kept.exact, "{kept:?}");
    assert_eq!(
        kept.docs[".self/observations.md"].text.as_deref(),
        Some(&b"# Observations\n\nGRN after dream 4\n"[..])
    );
    let forgotten = past(1);
    assert!(!forgotten.exact, "{forgotten:?}");
    assert_eq!(forgotten.dreams, 1);
    assert_ne!(
        forgotten
            .docs
            .get(".self/observations.md")
            .and_then(|d| d.text.as_deref()),
        Some(&b"# Observations\n\nGRN after dream 3\n"[..])
    );
}
