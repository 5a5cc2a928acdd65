//! Whole lives on the rehearsal brain and a virtual clock, read back with the memory model.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use chrono::{DateTime, TimeDelta, TimeZone, Utc};

use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::memory::creature::Creature;
use dreamwatch::memory::cycle::Cycle;
use dreamwatch::memory::observations::{ObsItem, Observations};
use dreamwatch::runner::brain::rehearsal::{self, Rehearsal};
use dreamwatch::runner::brain::task::{Purpose, Task};
use dreamwatch::runner::brain::{Brain, BrainKind};
use dreamwatch::runner::clock::{Clock, VirtualClock};
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{RunReport, Runner, RunnerOptions};

use crate::common::runner::SimulatedShell;

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 23, 0, 0).unwrap()
}

async fn live(dir: &Path, clock: &Arc<VirtualClock>, dreams: u64) -> RunReport {
    let mut opts = RunnerOptions::new(
        dir.to_path_buf(),
        RunnerConfig::default(),
        Arc::new(Rehearsal::new()),
        rehearsal::MODEL.into(),
    );
    opts.clock = clock.clone();
    opts.tools = Arc::new(SimulatedShell::default());
    opts.max_dreams = Some(dreams);
    Runner::open_genome(opts, Dreamer::default())
        .unwrap()
        .run(std::future::pending())
        .await
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn ten_dreams_with_a_deep_sleep() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("MESSAGES.md"),
        "# Messages\n\nWelcome! Keep notes short.\n",
    )
    .unwrap();
    let clock = Arc::new(VirtualClock::new(start(), TimeDelta::seconds(2)));
    let began = Instant::now();
    let report = live(&dir, &clock, 10).await;
    let took = began.elapsed();
    // How fast is the benchmark's business (benches/runner.rs), not a test's.
    eprintln!(
        "10 dreams of creature life ({} of virtual time) took {took:?}",
        clock.now() - start()
    );
    assert_eq!(
        report,
        RunReport {
            dreams: 10,
            dreams_this_run: 10
        }
    );
    assert!(
        clock.now() - start() >= TimeDelta::minutes(90),
        "dreams are at least 10 minutes apart"
    );

    let c = Creature::open(&dir);
    assert!(c.problems().is_empty(), "{:?}", c.problems());
    let dreams = c.dreams();
    assert_eq!(dreams.len(), 10);
    let deep: Vec<bool> = dreams.iter().map(|d| d.deep).collect();
    assert_eq!(deep, [vec![false; 9], vec![true]].concat());
    assert!((0..dreams.len()).all(|i| {
        let d = c.read_dream(i).unwrap();
        !d.reflection.is_empty() && !d.priority.is_empty()
    }));
    assert!(dreams.windows(2).all(
        |w| w[1].t.unwrap() - w[0].t.unwrap() >= TimeDelta::minutes(10) || w[1].actions >= 80
    ));

    // Observations: a title, then every tagged line under a date header of a dream's day.
    let text = std::fs::read_to_string(dir.join(".self/observations.md")).unwrap();
    let obs = Observations::parse(&text);
    assert_eq!(obs.items[0].1, ObsItem::Title);
    let days: Vec<String> = dreams
        .iter()
        .map(|d| d.t.unwrap().format("%Y-%m-%d").to_string())
        .collect();
    let mut header = None;
    for (_, item) in &obs.items {
        match item {
            ObsItem::Header { date, dream } => {
                assert!(dream.is_none());
                assert!(days.contains(date), "{date}");
                header = Some(date.clone());
            }
            ObsItem::Observation(o) => {
                assert!(header.is_some(), "{o:?} before any header");
                assert!(o.time.is_some());
            }
            ObsItem::Prose(p) => panic!("prose in the runner's observations: {p}"),
            ObsItem::Title => {}
        }
    }
    assert!(days.first() != days.last(), "the life crossed midnight");
    assert!(text.matches("\n## ").count() >= 2);
    assert!(obs.counts().red > 0 && obs.counts().ylw > 0);

    // Deep sleep: one diary entry at the 10th dream, priorities rewritten.
    let diary = c.diary();
    assert_eq!(diary.len(), 1);
    let tenth = dreams[9].t.unwrap().format("%Y-%m-%dT%H:%M").to_string();
    assert_eq!(diary[0].heading, format!("{tenth} - Deep Sleep"));
    assert!(diary[0].body.contains("Dreams since the last deep sleep"));
    assert!(
        diary[0]
            .body
            .contains("RED line(s) the pruner dropped were put back")
    );
    let p = c.priorities();
    assert!((3..=5).contains(&p.items.len()), "{:?}", p.items);
    assert_eq!(p.updated.as_deref(), Some(tenth.as_str()));

    // Every other file reads back whole.
    let events: Vec<String> = lines(&dir.join(".sys/events.jsonl"));
    let count = |kind: &str| {
        events
            .iter()
            .filter(|l| l.contains(&format!("\"type\":\"{kind}\"")))
            .count()
    };
    assert_eq!(count("creature.dream"), 10);
    assert_eq!(count("creature.boot"), 1);
    assert!(count("creature.sleep") > 10);
    assert!(count("creature.tool_call") > 100);
    assert!(
        events
            .iter()
            .any(|l| l.contains("forced consolidation (fatigue limit)"))
    );
    let messages: Vec<&String> = events
        .iter()
        .filter(|l| l.contains("\"type\":\"creature.message\""))
        .collect();
    assert_eq!(messages.len(), 1, "the welcome message is read once");
    assert!(messages[0].contains("Welcome! Keep notes short."));
    assert!(
        events.iter().any(|l| l.contains("tail -n 5 MESSAGES.md")),
        "and acted on"
    );
    assert_eq!(c.conversation().bad_lines(), 0);
    assert!(c.conversation().entries() > 100);
    assert!(c.iterations().len() >= 10);
    assert_eq!(c.birth().unwrap().model.as_deref(), Some("rehearsal"));
    let summary = c.summary(clock.now(), &Cycle::default());
    assert_eq!(summary.dreams, 10);
    assert_eq!(summary.deep_sleeps, 1);
    assert_eq!(summary.fatigue, 0, "nothing happened after the last dream");
}

#[tokio::test]
async fn a_restart_goes_on_where_the_creature_left_off() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pip");
    let clock = Arc::new(VirtualClock::new(start(), TimeDelta::seconds(2)));
    live(&dir, &clock, 2).await;
    let before = lines(&dir.join(".self/conversation.jsonl")).len();
    let last = Creature::open(&dir).dream_log().last().cloned().unwrap();
    clock.advance(TimeDelta::hours(1));
    let report = live(&dir, &clock, 2).await;
    assert_eq!(
        report,
        RunReport {
            dreams: 4,
            dreams_this_run: 2
        }
    );
    let conv = lines(&dir.join(".self/conversation.jsonl"));
    assert!(conv.len() > before);
    // The first message after the restart carries what the creature knew.
    let restart = &conv[before];
    assert!(restart.contains("the runner restarted"), "{restart}");
    assert!(restart.contains(&last.priority));
    let c = Creature::open(&dir);
    assert!(c.problems().is_empty(), "{:?}", c.problems());
    assert_eq!(
        lines(&dir.join(".sys/events.jsonl"))
            .iter()
            .filter(|l| l.contains("creature.boot"))
            .count(),
        2
    );
}

#[tokio::test]
async fn a_non_creature_directory_is_refused_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("precious.txt"), "do not touch").unwrap();
    let opts = RunnerOptions::new(
        tmp.path().to_path_buf(),
        RunnerConfig::default(),
        Arc::new(Rehearsal::new()),
        "rehearsal".into(),
    );
    let Err(e) = Runner::open_genome(opts, Dreamer::default()) else {
        panic!("a non-creature directory was accepted")
    };
    let e = e.to_string();
    assert!(e.contains("not a creature"), "{e}");
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
}

#[tokio::test]
async fn one_runner_per_creature() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("solo");
    let opts = || {
        RunnerOptions::new(
            dir.clone(),
            RunnerConfig::default(),
            Arc::new(Rehearsal::new()),
            "rehearsal".into(),
        )
    };
    let first = Runner::open_genome(opts(), Dreamer::default()).unwrap();
    let Err(e) = Runner::open_genome(opts(), Dreamer::default()) else {
        panic!("two runners on one creature")
    };
    let e = e.to_string();
    assert!(e.contains("another dreamwatch runner"), "{e}");
    drop(first);
    assert!(
        Runner::open_genome(opts(), Dreamer::default()).is_ok(),
        "the lock goes with the runner"
    );
}

/// The rehearsal brain, except that every consolidation fails.
struct NoDreams(Rehearsal);

impl Brain for NoDreams {
    fn kind(&self) -> BrainKind {
        BrainKind::Model
    }

    fn label(&self) -> String {
        "no dreams (test)".into()
    }

    fn think<'a>(
        &'a self,
        task: &'a Task,
        _request: &'a dreamwatch::llm::Request,
    ) -> dreamwatch::llm::LlmFuture<'a> {
        let failing = task.purpose() == Purpose::Genome("consolidate");
        Box::pin(async move {
            if failing {
                Err(dreamwatch::llm::LlmError::Server {
                    status: 529,
                    body: "overloaded".into(),
                })
            } else {
                Ok(self.0.answer(task))
            }
        })
    }
}

#[tokio::test]
async fn failed_consolidations_leave_the_memory_files_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("insomniac");
    let clock = Arc::new(VirtualClock::new(start(), TimeDelta::seconds(2)));
    let mut opts = RunnerOptions::new(
        dir.clone(),
        RunnerConfig::default(),
        Arc::new(NoDreams(Rehearsal::new())),
        "test".into(),
    );
    opts.clock = clock.clone();
    opts.tools = Arc::new(SimulatedShell::default());
    // Stopped after three hours of its life, however long they take to run.
    let lifetime = clock.clone();
    let report = Runner::open_genome(opts, Dreamer::default())
        .unwrap()
        .run(async move { lifetime.sleep_until(start() + TimeDelta::hours(3)).await })
        .await;
    assert_eq!(report.dreams, 0);
    assert!(
        clock.now() - start() >= TimeDelta::hours(3),
        "the creature lived on"
    );
    for file in [
        ".self/dreams.jsonl",
        ".self/observations.md",
        ".self/priorities.md",
        ".self/diary.md",
    ] {
        assert!(!dir.join(file).exists(), "{file} was written");
    }
    let events = lines(&dir.join(".sys/events.jsonl"));
    assert!(
        events
            .iter()
            .filter(|l| l.contains("consolidation failed, no dream written"))
            .count()
            > 1
    );
    assert!(
        events
            .iter()
            .any(|l| l.contains("forced consolidation (fatigue limit)")),
        "forced, failed, and forced again"
    );
    let c = Creature::open(&dir);
    assert!(c.problems().is_empty(), "{:?}", c.problems());
}

/// `--speed 60`: the creature's 48-hour GRN age limit is 48 real minutes. A life of ten
/// dreams lasts minutes, so the deep sleep at the tenth dream prunes no GRN line for age.
#[tokio::test]
async fn an_accelerated_life_keeps_its_recent_green_lines_through_deep_sleep() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("quick");
    let clock = Arc::new(VirtualClock::new(start(), TimeDelta::seconds(2)));
    let config = RunnerConfig {
        speed: 60.0,
        ..RunnerConfig::default()
    };
    let mut opts = RunnerOptions::new(
        dir.clone(),
        config,
        Arc::new(Rehearsal::new()),
        rehearsal::MODEL.into(),
    );
    opts.clock = clock.clone();
    opts.tools = Arc::new(SimulatedShell::default());
    opts.max_dreams = Some(10);
    let report = Runner::open_genome(opts, Dreamer::default())
        .unwrap()
        .run(std::future::pending())
        .await;
    assert_eq!(report.dreams, 10);
    assert!(
        clock.now() - start() < TimeDelta::minutes(48),
        "a short life"
    );
    let text = std::fs::read_to_string(dir.join(".self/observations.md")).unwrap();
    // The deep sleep came minutes of real time (hours of creature time) after the first
    // dreams: their GRN lines are younger than the limit.
    assert!(
        text.contains("GRN 23:0"),
        "recent GRN lines were pruned as old:\n{text}"
    );
}
