//! Every OpenSeed fixture against the figures `tests/fixtures/tools/expected.py` computes
//! independently (stdlib Python, the letter of DESIGN.md section 2), checked by hand.

use std::path::{Path, PathBuf};

use chrono::Utc;
use dreamwatch::memory::creature::Creature;
use dreamwatch::memory::cycle::Cycle;
use dreamwatch::memory::time::{format_time, parse_time};
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The fixture creature of an expected-figures file: ours under tests/fixtures, the two
/// shared ones under ../shared/fixtures.
fn creature_dir(name: &str) -> PathBuf {
    let ours = root()
        .join("tests/fixtures/openseed")
        .join(name)
        .join("creature");
    if ours.is_dir() {
        ours
    } else {
        root()
            .join("../shared/fixtures/openseed")
            .join(name)
            .join("creature")
    }
}

fn check(expected_file: &Path) -> Result<(), String> {
    let name = expected_file
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".expected.json"))
        .ok_or("bad file name")?;
    let expected: Value =
        serde_json::from_slice(&std::fs::read(expected_file).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let c = Creature::open(&creature_dir(name));
    let s = c.summary(Utc::now(), &Cycle::default());
    let mut wrong = Vec::new();
    let mut eq = |what: &str, got: Value, want: &Value| {
        if &got != want {
            wrong.push(format!("{name}: {what} is {got}, expected {want}"));
        }
    };
    eq("name", s.name.clone().into(), &expected["name"]);
    eq("dreams", s.dreams.into(), &expected["dreams"]);
    eq(
        "deep sleeps",
        s.deep_sleeps.into(),
        &expected["deep_sleeps"],
    );
    eq("fatigue", s.fatigue.into(), &expected["fatigue"]["value"]);
    eq(
        "observations",
        serde_json::to_value(s.observations).unwrap_or_default(),
        &expected["observations"],
    );
    eq(
        "conversation entries",
        c.conversation().entries().into(),
        &expected["conversation"]["entries"],
    );
    eq(
        "conversation bad lines",
        c.conversation().bad_lines().into(),
        &expected["conversation"]["bad_lines"],
    );
    if let Some(cadence) = expected["deep_sleep_cadence"]["cadence"].as_u64() {
        eq("deep-sleep cadence", s.deep_every.into(), &cadence.into());
    }
    let last = c.dream_log().last();
    let want_t = expected["last_dream"]["t"]
        .as_str()
        .and_then(parse_time)
        .map(format_time);
    eq(
        "last dream time",
        last.and_then(|d| d.t).map(format_time).into(),
        &want_t.into(),
    );
    eq(
        "last dream deep",
        last.map(|d| d.deep).into(),
        &expected["last_dream"]["deep"],
    );
    eq("problems", c.problems().len().into(), &0.into());
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(wrong.join("\n"))
    }
}

#[test]
fn every_fixture_matches_its_independent_figures() {
    dreamwatch::app::genomes::install();
    let dir = root().join("tests/fixtures/openseed");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".expected.json"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "expected-figure files: {files:?}");
    let failures: Vec<String> = files.iter().filter_map(|f| check(f).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn feb20_wren_lone_surrogate_is_an_entry_shown_as_replacement() {
    dreamwatch::app::genomes::install();
    let c = Creature::open(&creature_dir("feb20-wren"));
    let lines = c.conversation().read_lines(0..c.conversation().lines());
    let shown = lines
        .iter()
        .filter_map(|(_, e)| e.as_ref().ok())
        .any(|e| format!("{:?}", e.content).contains('\u{fffd}'));
    assert!(shown, "no entry shows U+FFFD");
    assert!(lines.iter().all(|(_, e)| e.is_ok()));
    // The model wrote the diary itself (free markdown).
    assert!(!c.diary().is_empty());
}

#[test]
fn feb24_moss_stopped_during_a_nap_leaves_a_stale_sleep_file() {
    dreamwatch::app::genomes::install();
    let c = Creature::open(&creature_dir("feb24-moss"));
    let s = c.summary(Utc::now(), &Cycle::default());
    assert_eq!(s.status, dreamwatch::memory::status::Status::Stopped);
    assert!(c.iterations().back().is_some_and(|i| i.interrupted));
}

/// OpenSeed's `minimal` and `wonders` genomes, read through their plug-ins: each figure
/// against the expected-figures file `tests/fixtures/tools/expected_loop.py` made.
#[test]
fn minimal_and_wonders_are_read_by_their_own_plug_ins() {
    dreamwatch::app::genomes::install();
    let expected = |name: &str| -> Value {
        let file = root().join(format!("tests/fixtures/openseed/{name}.expected.json"));
        serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap()
    };
    let now = Utc::now();

    let lichen = Creature::open(&creature_dir("minimal-lichen"));
    let want = &expected("minimal-lichen")["loop"];
    assert_eq!(lichen.genome().name(), "minimal");
    assert!(lichen.problems().is_empty(), "{:?}", lichen.problems());
    let got = lichen.genome_memory().unwrap().figures(now);
    assert_eq!(got["cycle_count"], want["cycles"]);
    assert_eq!(got["cycles"]["ended"], want["sleeps"]["count"]);
    assert_eq!(got["cycles"]["tool_calls"], want["tool_calls"]["total"]);
    assert_eq!(got["cycles"]["failed"], want["tool_calls"]["failed"]);
    assert_eq!(
        got["cycles"]["thoughts"],
        want["events"]["by_type"]["creature.thought"]
    );
    // Stopped by SIGTERM while asleep: the last cycle ended in its sleep.
    assert_eq!(got["cycles"]["under_way"], false);

    let otter = Creature::open(&creature_dir("wonders-otter"));
    let want = &expected("wonders-otter")["loop"];
    assert_eq!(otter.genome().name(), "wonders");
    assert!(otter.problems().is_empty(), "{:?}", otter.problems());
    let got = otter.genome_memory().unwrap().figures(now);
    let sub = &want["subconscious"];
    assert_eq!(got["cycle_count"], want["cycles"]);
    assert_eq!(got["subconscious"]["steps"], sub["lines"]);
    assert_eq!(got["subconscious"]["bad_lines"], sub["bad_lines"]);
    for step in ["wonder", "search", "prepare"] {
        assert_eq!(got["subconscious"][step], sub["by_step"][step], "{step}");
    }
    assert_eq!(
        got["subconscious"]["no_hypotheses"],
        sub["wonder_no_hypotheses"]
    );
    assert_eq!(got["subconscious"]["surfaced"], sub["prepare_surfaced"]);
    assert_eq!(
        got["subconscious"]["nothing_surfaced"],
        sub["prepare_nothing"]
    );
    assert_eq!(
        got["memories_surfaced"],
        want["subconscious_events"]["count"]
    );
}

/// A BIRTH.json naming a genome nothing here knows: the creature is shown with what every
/// creature has, under the genome's own name.
#[test]
fn a_genome_nothing_knows_is_read_with_what_every_creature_has() {
    dreamwatch::app::genomes::install();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("stranger");
    std::fs::create_dir_all(dir.join(".sys")).unwrap();
    std::fs::write(
        dir.join("BIRTH.json"),
        r#"{"name":"stranger","genome":"tidepool","born":"2026-11-26T10:00:00Z"}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join(".sys/events.jsonl"),
        "{\"t\":\"2026-11-26T10:00:01Z\",\"type\":\"creature.tool_call\",\"tool\":\"bash\",\"ok\":true}\n",
    )
    .unwrap();
    let c = Creature::open(&dir);
    assert_eq!(c.genome().name(), "tidepool");
    assert!(c.genome().spec().is_none());
    assert!(c.genome_memory().is_none());
    let s = c.summary(Utc::now(), &Cycle::default());
    assert_eq!((s.name.as_str(), s.fatigue), ("stranger", 1));
}
