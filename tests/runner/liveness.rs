//! Whether a creature's runner is alive is its lock, not a process id.

use std::sync::Arc;

use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::memory::creature::Creature;
use dreamwatch::runner::brain::rehearsal::{self, Rehearsal};
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};

fn probe(dir: &std::path::Path) -> bool {
    let mut c = Creature::open(dir);
    c.refresh();
    c.runner_probe().alive
}

/// A runner.json naming a live process that is not the creature's runner (a reused PID:
/// here the test's own) is not a live runner; an open runner is, and stops being one when
/// it is gone.
#[test]
fn the_runner_lock_is_the_truth_not_the_pid() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    let runner = Runner::open_genome(
        RunnerOptions::new(
            dir.clone(),
            RunnerConfig::default(),
            Arc::new(Rehearsal::new()),
            rehearsal::MODEL.into(),
        ),
        Dreamer::default(),
    )
    .unwrap();
    assert!(probe(&dir), "the open runner holds the lock");
    // The lock is only probed: the runner's lock is still exclusive afterwards.
    assert!(
        Runner::open_genome(
            RunnerOptions::new(
                dir.clone(),
                RunnerConfig::default(),
                Arc::new(Rehearsal::new()),
                rehearsal::MODEL.into(),
            ),
            Dreamer::default(),
        )
        .is_err()
    );
    drop(runner);
    let runner_json = dir.join(".sys/runner.json");
    let text = std::fs::read_to_string(&runner_json).unwrap();
    assert!(
        text.contains(&format!("\"pid\": {}", std::process::id())),
        "{text}"
    );
    assert!(
        !probe(&dir),
        "runner.json's pid lives on, but no runner holds the lock"
    );
    // Nor a runner.json without any lock file.
    std::fs::remove_file(dir.join(".sys/runner.lock")).unwrap();
    assert!(!probe(&dir));
}
