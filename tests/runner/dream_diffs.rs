//! The runner records what each dream changed (`.sys/dream-diffs.jsonl`), from the files.

use std::sync::Arc;

use chrono::{TimeDelta, TimeZone, Utc};

use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::memory::dream_diff::FileChanges;
use dreamwatch::memory::dream_diffs::{self, DiffRecord};
use dreamwatch::runner::brain::rehearsal::{self, Rehearsal};
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};

use crate::common::runner::SimulatedShell;

#[tokio::test]
async fn every_dream_is_recorded_and_the_deep_sleep_shows_its_pruning() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    std::fs::create_dir_all(&dir).unwrap();
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 23, 0, 0).unwrap();
    let clock = Arc::new(VirtualClock::new(start, TimeDelta::seconds(2)));
    let mut opts = RunnerOptions::new(
        dir.clone(),
        RunnerConfig::default(),
        Arc::new(Rehearsal::new()),
        rehearsal::MODEL.into(),
    );
    opts.clock = clock.clone();
    opts.tools = Arc::new(SimulatedShell::default());
    opts.max_dreams = Some(10);
    Runner::open_genome(opts, Dreamer::default())
        .unwrap()
        .run(std::future::pending())
        .await;

    let path = dream_diffs::path(&dir);
    let dreams: Vec<String> = std::fs::read_to_string(dir.join(".self/dreams.jsonl"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    for n in 1..=9u64 {
        let read = dream_diffs::read_dream(&path, n).unwrap();
        assert_eq!((read.bad, read.first), (0, Some(1)));
        let records = read.records;
        let [
            DiffRecord {
                review: None,
                file,
                changes: FileChanges::Observations(o),
                t,
                ..
            },
        ] = records.as_slice()
        else {
            panic!("dream {n}: {records:?}");
        };
        assert_eq!(file, "observations.md");
        // A consolidation only appends: new lines, or again what is known (duplicates).
        assert!(o.added.len() + o.duplicated.len() > 0, "dream {n}: {o:?}");
        assert!(
            o.pruned.is_empty() && o.moved.is_empty(),
            "dream {n}: {o:?}"
        );
        // Keyed to the dream's own line.
        let stamp = dreamwatch::memory::time::format_time(t.unwrap());
        assert!(dreams[n as usize - 1].contains(&stamp), "{stamp}");
    }
    let deep = dream_diffs::read_dream(&path, 10).unwrap().records;
    let files: Vec<&str> = deep.iter().map(|r| r.file.as_str()).collect();
    assert_eq!(
        files,
        [
            "observations.md",
            "observations.md",
            "priorities.md",
            "diary.md"
        ]
    );
    let FileChanges::Observations(pruning) = &deep[1].changes else {
        panic!("{deep:?}");
    };
    assert!(!pruning.pruned.is_empty() || !pruning.deduplicated.is_empty());
    // What was pruned is gone from the file; RED lines never are.
    let now = std::fs::read_to_string(dir.join(".self/observations.md")).unwrap();
    for line in &pruning.pruned {
        assert!(!now.contains(&line.text), "{line:?}");
        assert!(!line.text.starts_with("RED"), "{line:?}");
    }
    let FileChanges::Lines(diary) = &deep[3].changes else {
        panic!("{deep:?}");
    };
    assert!(diary.removed.is_empty() && diary.added.iter().any(|l| l.contains("Deep Sleep")));
}
