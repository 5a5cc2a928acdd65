//! A rehearsal garden of two emergence creatures for six sleeps each, on a held virtual
//! clock, across midnight: every mechanism of the genome, the ones that need another
//! creature included (messages, relations that change, a neural link), read back from
//! the files both runners wrote.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use chrono::{TimeDelta, TimeZone, Utc};
use serde_json::Value;

use dreamwatch::genomes::emergence::runner::Emergence;
use dreamwatch::runner::brain::rehearsal::{self, Rehearsal};
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};
use dreamwatch::runner::garden::Garden;

fn lines(dir: &Path, file: &str) -> Vec<Value> {
    std::fs::read_to_string(dir.join(file))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn ops<'a>(v: &'a [Value], op: &str) -> Vec<&'a Value> {
    v.iter().filter(|l| l["op"] == op).collect()
}

fn open(
    dir: &Path,
    mate: &str,
    clock: &Arc<VirtualClock>,
    garden: &Arc<Garden>,
) -> Runner<Emergence> {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("MESSAGES.md"),
        "# Messages\n\nWelcome to the garden.\n",
    )
    .unwrap();
    let config = RunnerConfig {
        garden: vec![mate.to_string()],
        ..RunnerConfig::default()
    };
    let mut opts = RunnerOptions::new(
        dir.to_path_buf(),
        config,
        Arc::new(Rehearsal::new()),
        rehearsal::MODEL.into(),
    );
    opts.clock = clock.clone();
    opts.postbox = Some(garden.clone());
    opts.max_sleeps = Some(6);
    let runner = Runner::open_genome(opts, Emergence::default()).unwrap();
    garden.admit(&runner);
    runner
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_garden_of_two_exercises_every_mechanism_in_six_sleeps() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs: [PathBuf; 2] = [tmp.path().join("ash"), tmp.path().join("birch")];
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 23, 50, 0).unwrap();
    let clock = Arc::new(VirtualClock::held(start, TimeDelta::seconds(1)));
    let garden = Arc::new(Garden::new());
    let ash = open(&dirs[0], "birch", &clock, &garden);
    let birch = open(&dirs[1], "ash", &clock, &garden);
    let tasks = [
        tokio::spawn(ash.run(std::future::pending())),
        tokio::spawn(birch.run(std::future::pending())),
    ];
    for _ in 0..5_000 {
        if tasks.iter().all(|t| t.is_finished()) {
            break;
        }
        // Time moves only when both creatures are idle (a neural link's window is in
        // creature time); a creature whose run is over holds it back no more.
        let settled = tokio::time::timeout(Duration::from_secs(1), clock.settled()).await;
        if settled.is_ok() {
            clock.advance(TimeDelta::seconds(10));
        }
    }
    for t in tasks {
        let report = t.await.unwrap();
        assert!(
            report.dreams_this_run >= 2,
            "self-cares: {}",
            report.dreams_this_run
        );
    }

    for (dir, mate) in [(&dirs[0], "birch"), (&dirs[1], "ash")] {
        let soul = lines(dir, ".self/soul.jsonl");
        assert!(ops(&soul, "add").len() >= 3 && ops(&soul, "remove").len() == 1);

        let summaries = lines(dir, ".self/summaries.jsonl");
        let own = |k: &str| {
            ops(&summaries, "summary")
                .into_iter()
                .filter(|l| l["kind"] == k && l["from"].is_null())
                .count()
        };
        assert!(own("memories") >= 2, "self-care with >= 30 memories");
        assert!(own("conversations") >= 2, "two dialogue summaries");

        let diary = lines(dir, ".self/diary.jsonl");
        let dates: BTreeSet<&str> = diary.iter().filter_map(|l| l["date"].as_str()).collect();
        assert!(dates.len() >= 2, "diary on several dates: {dates:?}");

        assert!(ops(&lines(dir, ".self/todos.jsonl"), "complete").len() >= 2);
        let calendar = lines(dir, ".self/calendar.jsonl");
        assert!(
            ops(&calendar, "add")
                .iter()
                .any(|l| l["recurrence"] != "none")
        );

        let relations = lines(dir, ".self/relations.jsonl");
        let with_mate: Vec<&Value> = ops(&relations, "relation")
            .into_iter()
            .filter(|l| l["agent"] == mate)
            .collect();
        let kinds: BTreeSet<&str> = with_mate
            .iter()
            .filter_map(|l| l["relationship_type"].as_str())
            .collect();
        assert!(kinds.len() >= 3, "the relation changed: {kinds:?}");
        assert!(
            with_mate
                .iter()
                .filter_map(|l| l["interaction_count"].as_u64())
                .max()
                .unwrap()
                >= 4
        );

        let dialogues = lines(dir, ".self/dialogues.jsonl");
        assert!(ops(&dialogues, "said").iter().any(|l| l["with"] == mate));

        let longterm = lines(dir, ".self/longterm.jsonl");
        let roles: BTreeSet<&str> = ops(&longterm, "neural_link")
            .iter()
            .filter(|l| l["agent"] == mate)
            .filter_map(|l| l["role"].as_str())
            .collect();
        for role in ["requested", "received", "shared"] {
            assert!(roles.contains(role), "neural link {role}: {roles:?}");
        }
        let copied = ops(&longterm, "add").iter().any(|l| l["from"] == mate)
            || ops(&summaries, "summary").iter().any(|l| l["from"] == mate);
        assert!(copied, "memories copied from {mate}");
    }
}
