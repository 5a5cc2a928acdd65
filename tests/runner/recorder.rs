//! The flight recorder on hosted rehearsal lives: the memory `--at dream:N` is the memory
//! as it was right after dream N (a copy taken then), for every dream of a 12-dream life
//! of each hosted genome; blame names the dream that wrote a consolidation's lines and
//! the operator for a line it restored; a fork resumes with its fork point's memory and
//! lives on.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use chrono::{TimeDelta, TimeZone, Utc};

use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::genomes::emergence::runner::Emergence;
use dreamwatch::genomes::evennia::runner::Evennia;
use dreamwatch::recorder::blame::{self, Author};
use dreamwatch::recorder::entries;
use dreamwatch::recorder::{At, Sources, materialize, resolve};
use dreamwatch::runner::brain::rehearsal::{self, Rehearsal};
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};
use dreamwatch::runner::genome::Genome;

use crate::common::cli::bin;
use crate::common::runner::SimulatedShell;

const DREAMS: usize = 12;

/// Every file of a creature's `.self` with its bytes.
type Memory = BTreeMap<String, Vec<u8>>;

/// Every file of `dir/.self` with its bytes.
fn memory(dir: &Path) -> Memory {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir.join(".self")).unwrap().flatten() {
        if entry.file_type().unwrap().is_file() {
            let name = entry.file_name().to_string_lossy().into_owned();
            out.insert(name, std::fs::read(entry.path()).unwrap());
        }
    }
    out
}

/// Dreams so far, as the files say: `creature.dream` events (the dreamer's, emergence's
/// self-cares) and evennia's dreaming phases.
fn dreams_so_far(dir: &Path) -> usize {
    let count = |file: &str, what: &str| {
        std::fs::read_to_string(dir.join(file))
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains(what))
            .count()
    };
    count(".sys/events.jsonl", "\"creature.dream\"")
        + count(".sys/mode.jsonl", "\"phase\":\"dreaming\"")
}

/// A life of `DREAMS` dreams, and a copy of the memory taken right after each: as the
/// next wake begins (nothing writes memory while the creature rests), the last at the end.
async fn live<G: Genome>(genome: G, dir: &Path) -> Vec<Memory> {
    std::fs::create_dir_all(dir).unwrap();
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    let clock = Arc::new(VirtualClock::new(start, TimeDelta::seconds(2)));
    let mut opts = RunnerOptions::new(
        dir.to_path_buf(),
        RunnerConfig::default(),
        Arc::new(Rehearsal::new()),
        rehearsal::MODEL.into(),
    );
    opts.clock = clock;
    opts.tools = Arc::new(SimulatedShell::default());
    opts.max_dreams = Some(DREAMS as u64);
    // (dreams seen, copies taken)
    let seen: Arc<Mutex<(usize, Vec<Memory>)>> = Arc::default();
    let (progress_seen, root) = (seen.clone(), dir.to_path_buf());
    opts.progress = Some(Box::new(move |line: &str| {
        let mut s = progress_seen.lock().unwrap();
        let what = line.split_once("  ").map_or("", |(_, what)| what);
        if what.starts_with("wake ") {
            s.0 = dreams_so_far(&root);
        }
        if what.starts_with("wake ") && s.1.len() < s.0 {
            let copy = memory(&root);
            s.1.push(copy);
        }
    }));
    Runner::open_genome(opts, genome)
        .unwrap()
        .run(std::future::pending())
        .await;
    let mut s = seen.lock().unwrap();
    assert_eq!(dreams_so_far(dir), DREAMS, "dreams of the life");
    if s.1.len() < DREAMS {
        s.1.push(memory(dir));
    }
    std::mem::take(&mut s.1)
}

/// `--at dream:N` equals the copy taken right after dream N, for every N.
fn every_dream_as_it_was(dir: &Path, copies: &[Memory]) {
    assert_eq!(copies.len(), DREAMS);
    let out = tempfile::tempdir().unwrap();
    for (i, copy) in copies.iter().enumerate() {
        let n = i as u64 + 1;
        let past = resolve(dir, At::Dream(n), &Sources::default(), Utc::now()).unwrap();
        assert!(past.exact, "dream {n}: {past:?}");
        assert!(past.unknown.is_empty(), "dream {n}: {:?}", past.unknown);
        assert_eq!(past.dreams, i + 1);
        let then = out.path().join(format!("d{n}"));
        materialize(dir, &past, &then).unwrap();
        let got = memory(&then);
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            copy.keys().collect::<Vec<_>>(),
            "dream {n}: files"
        );
        for (name, bytes) in copy {
            assert!(
                &got[name] == bytes,
                "dream {n}: {name} differs:\n--- then\n{}\n--- replayed\n{}",
                String::from_utf8_lossy(bytes),
                String::from_utf8_lossy(&got[name])
            );
        }
    }
    // Every wake, the first of the run too, is exact: the runner's moment at its event.
    let wakes = dreamwatch::recorder::index::TimeIndex::build(dir)
        .unwrap()
        .wakes
        .len();
    assert!(wakes >= DREAMS - 1, "{wakes} wakes");
    for n in 1..=wakes as u64 {
        let past = resolve(dir, At::Wake(n), &Sources::default(), Utc::now()).unwrap();
        assert!(past.exact, "wake {n}: {past:?}");
        assert_eq!(past.wakes, n as usize, "wake {n}");
    }
    // A moment not lived yet is refused, said.
    let err = resolve(
        dir,
        At::Dream(DREAMS as u64 + 1),
        &Sources::default(),
        Utc::now(),
    );
    assert!(err.unwrap_err().to_string().contains("has lived 12"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dreamer_life_replays_dream_by_dream() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    let copies = live(Dreamer::default(), &dir).await;
    every_dream_as_it_was(&dir, &copies);
    // The command line says the same: the summary as of dream 5, and its export.
    let home = tmp.path().join("home");
    let run = |args: &[&str]| {
        let out = bin(&home)
            .env("XDG_STATE_HOME", home.join("state"))
            .args(args)
            .arg(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let v: serde_json::Value =
        serde_json::from_str(&run(&["inspect", "--json", "--at", "dream:5"])).unwrap();
    let c = &v["creatures"][0];
    assert_eq!(c["dreams"], 5, "{c}");
    assert_eq!(c["as_of"]["exact"], true, "{c}");
    assert_eq!(c["as_of"]["at"], "dream:5", "{c}");
    let text = run(&["inspect", "--at", "dream:5"]);
    assert!(text.contains("as of         dream:5"), "{text}");
    assert!(!text.contains("dreamwatch-at-"), "{text}");
    let md = run(&["export", "--at", "dream:5", "--format", "md"]);
    let observations = String::from_utf8_lossy(&copies[4]["observations.md"]).into_owned();
    assert!(md.contains(observations.lines().last().unwrap()), "{md}");
    assert!(md.contains("### Dream 5"), "{md}");
    assert!(!md.contains("### Dream 6"), "{md}");
    let json: serde_json::Value =
        serde_json::from_str(&run(&["export", "--at", "dream:5", "--format", "json"])).unwrap();
    assert_eq!(json["files"][".self/observations.md"], observations);
    let out = bin(&home)
        .env("XDG_STATE_HOME", home.join("state"))
        .arg("blame")
        .arg(&dir)
        .arg("observations.md")
        .output()
        .unwrap();
    let blame = String::from_utf8(out.stdout).unwrap();
    assert!(
        blame.contains("dream 1 ") && blame.contains("dream 11"),
        "{blame}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_evennia_life_replays_dream_by_dream() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("ember");
    let copies = live(Evennia::default(), &dir).await;
    every_dream_as_it_was(&dir, &copies);
    // Semantic memories are written by the sleeps' work: blamed on the dream when the
    // sleep consolidated one, else on the sleep (the runner's moment at its start tells
    // it from the wake before it), never on nobody.
    let b = entries::blame_log(&dir, ".self/semantic.jsonl").unwrap();
    assert!(!b.entries.is_empty());
    assert!(
        b.entries
            .iter()
            .all(|e| !matches!(e.written.author, Author::Unknown)),
        "{b:#?}"
    );
    assert!(
        b.entries
            .iter()
            .any(|e| matches!(e.written.author, Author::Dream { .. })),
        "{b:#?}"
    );
    // What a sleep's work wrote (between a sleep event and the next wake) is blamed on
    // that sleep, never on a wake.
    let events = std::fs::read_to_string(dir.join(".sys/events.jsonl")).unwrap();
    let marks: Vec<(chrono::DateTime<Utc>, bool)> = events
        .lines()
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            let t = dreamwatch::memory::time::parse_time(v["t"].as_str()?)?;
            match v["type"].as_str()? {
                "creature.sleep" => Some((t, true)),
                "creature.wake" => Some((t, false)),
                _ => None,
            }
        })
        .collect();
    let asleep = |t: chrono::DateTime<Utc>| {
        marks.iter().rev().find(|m| m.0 < t).is_some_and(|m| m.1)
            && marks.iter().find(|m| m.0 > t).is_none_or(|m| !m.1)
    };
    let in_sleep: Vec<_> = b
        .entries
        .iter()
        .filter(|e| e.written.t.is_some_and(asleep))
        .collect();
    assert!(!in_sleep.is_empty(), "{b:#?}");
    for e in in_sleep {
        assert!(
            matches!(e.written.author, Author::Dream { .. } | Author::Sleep),
            "{e:#?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_emergence_life_replays_dream_by_dream() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fern");
    let copies = live(Emergence::default(), &dir).await;
    every_dream_as_it_was(&dir, &copies);
    // Soul and long-term entries are written by the wakes' tool calls: blamed on them.
    for file in [".self/soul.jsonl", ".self/longterm.jsonl"] {
        let b = entries::blame_log(&dir, file).unwrap();
        assert!(!b.entries.is_empty(), "{file}");
        assert!(
            b.entries
                .iter()
                .all(|e| !matches!(e.written.author, Author::Unknown)),
            "{file}: {b:#?}"
        );
        assert!(
            b.entries
                .iter()
                .any(|e| matches!(e.written.author, Author::Wake { .. })),
            "{file}: {b:#?}"
        );
    }
}

/// A dreamer life of two dreams, an operator's restore between two lives, then two more
/// dreams: blame names each consolidation's dream, and the operator for the restored line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blame_names_the_dream_and_the_operator() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    std::fs::create_dir_all(&dir).unwrap();
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    for life in 0..2 {
        let mut opts = RunnerOptions::new(
            dir.clone(),
            RunnerConfig::default(),
            Arc::new(Rehearsal::new()),
            rehearsal::MODEL.into(),
        );
        opts.clock = Arc::new(VirtualClock::new(
            start + TimeDelta::hours(6 * life),
            TimeDelta::seconds(2),
        ));
        opts.tools = Arc::new(SimulatedShell::default());
        opts.max_dreams = Some(2);
        Runner::open_genome(opts, Dreamer::default())
            .unwrap()
            .run(std::future::pending())
            .await;
        if life == 0 {
            // As the observatory's restore writes it.
            let line =
                dreamwatch::memory::dream_diff::restored_line("RED 10:00 the well is dry", "12:00");
            let paths = dreamwatch::memory::write::SeedPaths::new(&dir);
            dreamwatch::memory::write::append_observations(&paths, "2026-03-01", &[line]).unwrap();
        }
    }
    let b = blame::blame(&dir, ".self/observations.md", &Sources::default()).unwrap();
    let restored: Vec<_> = b
        .lines
        .iter()
        .filter(|l| l.text.contains("the well is dry"))
        .collect();
    assert_eq!(restored.len(), 1, "{b:#?}");
    assert_eq!(restored[0].written.author, Author::Restore);
    let mut dreams: Vec<u64> = b
        .lines
        .iter()
        .filter_map(|l| match l.written.author {
            Author::Dream { dream, .. } => Some(dream),
            _ => None,
        })
        .collect();
    dreams.sort();
    dreams.dedup();
    assert_eq!(dreams, [1, 2, 3, 4], "{b:#?}");
    // Each line blamed on dream N is in the file right after dream N, not before it.
    for l in &b.lines {
        if let Author::Dream { dream, .. } = l.written.author {
            let text_at = |n: u64| {
                let past = resolve(&dir, At::Dream(n), &Sources::default(), Utc::now()).unwrap();
                String::from_utf8(past.docs[".self/observations.md"].text.clone().unwrap()).unwrap()
            };
            let count = |text: String| text.lines().filter(|t| *t == l.text).count();
            assert!(count(text_at(dream)) > 0, "{l:?}");
            if dream > 1 {
                assert!(count(text_at(dream)) > count(text_at(dream - 1)), "{l:?}");
            }
        }
    }
    let mut text = Vec::new();
    blame::write_text(&mut text, &b).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(text.contains("operator (restore)"), "{text}");
    assert!(text.contains("dream 3"), "{text}");
}

/// `run NEW --fork PATH@dream:2`: the fork starts from the memory right after dream 2
/// (the parent only read), records its parent and fork point, and lives on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fork_resumes_from_its_fork_point_and_lives_on() {
    let tmp = tempfile::tempdir().unwrap();
    let parent = tmp.path().join("sprout");
    let copies = {
        std::fs::create_dir_all(&parent).unwrap();
        let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
        let mut opts = RunnerOptions::new(
            parent.clone(),
            RunnerConfig::default(),
            Arc::new(Rehearsal::new()),
            rehearsal::MODEL.into(),
        );
        opts.clock = Arc::new(VirtualClock::new(start, TimeDelta::seconds(2)));
        opts.tools = Arc::new(SimulatedShell::default());
        opts.max_dreams = Some(4);
        Runner::open_genome(opts, Dreamer::default())
            .unwrap()
            .run(std::future::pending())
            .await;
        crate::common::cli::snapshot(&parent)
    };
    let fork = tmp.path().join("sprig");
    let home = tmp.path().join("home");
    let state = home.join(".local/state");
    let out = bin(&home)
        .env("XDG_STATE_HOME", &state)
        .args(["run"])
        .arg(&fork)
        .arg("--fork")
        .arg(format!("{}@dream:2", parent.display()))
        .args([
            "--provider",
            "rehearsal",
            "--headless",
            "--max-dreams",
            "2",
            "--speed",
            "100000",
            "--unconfined",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The parent is only read.
    assert!(
        crate::common::cli::snapshot(&parent) == copies,
        "the parent changed"
    );
    let birth: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fork.join("BIRTH.json")).unwrap()).unwrap();
    assert_eq!(birth["fork"]["at"], "dream:2", "{birth}");
    assert_eq!(birth["fork"]["dreams"], 2, "{birth}");
    assert_eq!(birth["genome"], "dreamer");
    assert_eq!(birth["created_by"], "dreamwatch");
    assert!(birth["fork"]["from"].as_str().unwrap().ends_with("sprout"));
    // It lived on: two dreams of its own after the parent's two.
    let dreams = std::fs::read_to_string(fork.join(".self/dreams.jsonl")).unwrap();
    assert_eq!(dreams.lines().filter(|l| !l.trim().is_empty()).count(), 4);
    // Its first two dreams are the parent's, as they were.
    let parent_dreams = std::fs::read_to_string(parent.join(".self/dreams.jsonl")).unwrap();
    let first_two: Vec<&str> = parent_dreams.lines().take(2).collect();
    assert_eq!(dreams.lines().take(2).collect::<Vec<_>>(), first_two);
    // What it knew at its fork point it still knows: the observations right after the
    // parent's dream 2 begin its own.
    let past = resolve(&parent, At::Dream(2), &Sources::default(), Utc::now()).unwrap();
    let then = String::from_utf8(past.docs[".self/observations.md"].text.clone().unwrap()).unwrap();
    let now = std::fs::read_to_string(fork.join(".self/observations.md")).unwrap();
    assert!(
        now.starts_with(then.trim_end()),
        "then:\n{then}\nnow:\n{now}"
    );
    // `dreamwatch diff`: the two drifted apart only after dream 2.
    let out = bin(&home)
        .env("XDG_STATE_HOME", &state)
        .arg("diff")
        .arg(&parent)
        .arg(&fork)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let diff: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let drift = diff["drift"].as_array().unwrap();
    assert_eq!(drift.len(), 4, "{diff}");
    assert_eq!(drift[0]["files"][".self/observations.md"], 0, "{diff}");
    assert_eq!(drift[1]["files"][".self/observations.md"], 0, "{diff}");
    assert!(
        drift.iter().all(|d| d["partial"] == false),
        "the runner's record knows every dream: {diff}"
    );
    // Side by side, as `diff -y` prints it, in 160 columns (not a terminal).
    let out = bin(&home)
        .env("XDG_STATE_HOME", &state)
        .arg("diff")
        .arg(&parent)
        .arg(&fork)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("drift (lines only one has"), "{text}");
    assert!(text.lines().any(|l| l.contains(" > ")), "{text}");
    assert!(
        text.lines()
            .all(|l| unicode_width::UnicodeWidthStr::width(l) <= 160),
        "{text}"
    );
    let _: PathBuf = fork;
}

/// Two watched copies of a creature nobody recorded before: what either was after each of
/// its dreams is not known, so the drift says so ("?") rather than counting 0 lines apart.
#[test]
fn the_drift_of_creatures_never_recorded_is_not_known_not_zero() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let state = home.join(".local/state");
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/openseed/feb16-finch/creature");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    crate::common::cli::copy_dir(&fixture, &a);
    crate::common::cli::copy_dir(&fixture, &b);
    let diff = |json: bool| {
        let mut cmd = bin(&home);
        cmd.env("XDG_STATE_HOME", &state)
            .arg("diff")
            .arg(&a)
            .arg(&b);
        if json {
            cmd.arg("--json");
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let json: serde_json::Value = serde_json::from_str(&diff(true)).unwrap();
    let drift = json["drift"].as_array().unwrap();
    assert_eq!(drift.len(), 12, "{json}");
    assert!(drift.iter().all(|d| d["partial"] == true), "{json}");
    let text = diff(false);
    assert!(text.contains("?  not known then"), "{text}");
}
