//! A rehearsal life of the emergence genome: six sleeps on a virtual clock that the test
//! moves, across midnight, with a creator's message between two self-cares, read back
//! from the files the runner wrote.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use chrono::{TimeDelta, TimeZone, Utc};
use serde_json::Value;

use dreamwatch::control::ControlCommand;
use dreamwatch::genomes::emergence::runner::Emergence;
use dreamwatch::memory::status::Status;
use dreamwatch::runner::brain::rehearsal::{self, Rehearsal};
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn six_sleeps_exercise_every_mechanism_of_one_creature() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("MESSAGES.md"), "# Messages\n\nWelcome, sprout.\n").unwrap();
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 23, 50, 0).unwrap();
    let clock = Arc::new(VirtualClock::held(start, TimeDelta::seconds(1)));
    let mut opts = RunnerOptions::new(
        dir.clone(),
        RunnerConfig::default(),
        Arc::new(Rehearsal::new()),
        rehearsal::MODEL.into(),
    );
    opts.clock = clock.clone();
    opts.max_sleeps = Some(6);
    let runner = Runner::open_genome(opts, Emergence::default()).unwrap();
    let hosted = runner.hosted();
    let task = tokio::spawn(runner.run(std::future::pending()));
    let mut sent = false;
    for _ in 0..5_000 {
        let mut status = hosted.status.clone();
        tokio::select! {
            () = clock.settled() => {}
            _ = status.wait_for(|s| s.status == Status::Stopped) => {}
        }
        if task.is_finished() || hosted.status.borrow().status == Status::Stopped {
            break;
        }
        // Between the first self-care and the second: a message from the creator.
        let cares = ops(&lines(&dir, ".self/summaries.jsonl"), "summary").len();
        if !sent && cares >= 1 {
            hosted
                .control
                .ask(ControlCommand::Message {
                    text: "How are your plans, sprout?".into(),
                })
                .await
                .unwrap();
            sent = true;
            continue;
        }
        clock.advance(TimeDelta::seconds(10));
    }
    let report = task.await.unwrap();
    assert!(sent, "the creator's message was sent");
    assert_eq!(report.dreams_this_run, 3, "three self-cares in six sleeps");

    let soul = lines(&dir, ".self/soul.jsonl");
    assert_eq!(ops(&soul, "add").len(), 4);
    assert_eq!(ops(&soul, "remove").len(), 1);

    let longterm = lines(&dir, ".self/longterm.jsonl");
    assert!(ops(&longterm, "add").len() >= 90);
    let archived: usize = ops(&longterm, "archive")
        .iter()
        .map(|l| l["ids"].as_array().unwrap().len())
        .sum();
    assert!(archived >= 90, "every self-care archived its memories");

    let summaries = lines(&dir, ".self/summaries.jsonl");
    let kinds = |k: &str| {
        ops(&summaries, "summary")
            .into_iter()
            .filter(|l| l["kind"] == k)
            .count()
    };
    assert_eq!(kinds("memories"), 3);
    assert_eq!(kinds("conversations"), 2, "two dialogue summaries");
    let conv: Vec<&Value> = ops(&summaries, "summary")
        .into_iter()
        .filter(|l| l["kind"] == "conversations")
        .collect();
    assert_eq!(
        conv[1]["folded"][0], conv[0]["id"],
        "the earlier summary folded in"
    );
    assert_ne!(conv[0]["watermark"], conv[1]["watermark"]);

    let diary = lines(&dir, ".self/diary.jsonl");
    let dates: BTreeSet<&str> = diary.iter().filter_map(|l| l["date"].as_str()).collect();
    assert!(
        dates.len() >= 2,
        "diary entries on several dates: {dates:?}"
    );
    assert!(
        diary
            .iter()
            .all(|l| l["mood"].is_string() && l["location"].is_string())
    );

    let todos = lines(&dir, ".self/todos.jsonl");
    assert_eq!(ops(&todos, "add").len(), 3);
    assert_eq!(ops(&todos, "complete").len(), 2);

    let calendar = lines(&dir, ".self/calendar.jsonl");
    let recurrences: BTreeSet<&str> = ops(&calendar, "add")
        .iter()
        .filter_map(|l| l["recurrence"].as_str())
        .collect();
    assert!(recurrences.contains("weekly"), "{recurrences:?}");
    assert!(recurrences.contains("FREQ=MONTHLY;BYMONTHDAY=31"));
    assert_eq!(ops(&calendar, "remove").len(), 1);
    let conversation = std::fs::read_to_string(dir.join(".self/conversation.jsonl")).unwrap();
    assert!(
        conversation.contains("[Calendar] Due now"),
        "a recurring event was shown when due"
    );

    let relations = lines(&dir, ".self/relations.jsonl");
    let creator: Vec<&Value> = ops(&relations, "relation")
        .into_iter()
        .filter(|l| l["agent"] == "creator")
        .collect();
    assert!(creator.len() >= 4, "interactions and updates are lines");
    assert_eq!(creator.last().unwrap()["interaction_count"], 2);

    let dialogues = lines(&dir, ".self/dialogues.jsonl");
    assert_eq!(ops(&dialogues, "said").len(), 2);

    let events = lines(&dir, ".sys/events.jsonl");
    let dreams = events
        .iter()
        .filter(|e| e["type"] == "creature.dream")
        .count();
    assert_eq!(dreams, 3, "a self-care is the consolidation");
    let birth: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("BIRTH.json")).unwrap()).unwrap();
    assert_eq!(birth["genome"], "emergence");
}

/// A creature stopped after two sleeps and hosted again: it keeps its genome, its ids go
/// on (none reused), its self-cares are counted from disk, and no memory is summarised
/// twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resumed_creature_goes_on_where_it_left_off() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    for life in 0..2 {
        let clock = Arc::new(VirtualClock::new(
            start + TimeDelta::hours(life),
            TimeDelta::seconds(1),
        ));
        let mut opts = RunnerOptions::new(
            dir.clone(),
            RunnerConfig::default(),
            Arc::new(Rehearsal::new()),
            rehearsal::MODEL.into(),
        );
        opts.clock = clock;
        // The second life first ends the sleep the first one stopped in (a sleep too).
        opts.max_sleeps = Some(2 + life as u64);
        let report = Runner::open_genome(opts, Emergence::default())
            .unwrap()
            .run(std::future::pending())
            .await;
        assert_eq!(report.dreams_this_run, 1, "one self-care a life");
        assert_eq!(report.dreams, life as u64 + 1, "self-cares on disk count");
    }
    for (file, prefix) in [
        (".self/longterm.jsonl", "m"),
        (".self/soul.jsonl", "s"),
        (".self/todos.jsonl", "td"),
        (".self/summaries.jsonl", "sum"),
    ] {
        let all = lines(&dir, file);
        let ids: Vec<&str> = all
            .iter()
            .filter(|l| l["op"] == "add" || l["op"] == "summary")
            .map(|l| l["id"].as_str().unwrap())
            .collect();
        let unique: BTreeSet<&str> = ids.iter().copied().collect();
        assert_eq!(unique.len(), ids.len(), "no id reused in {file}");
        assert!(ids.iter().all(|id| id.starts_with(prefix)));
    }
    let summaries = lines(&dir, ".self/summaries.jsonl");
    let mut covered: Vec<&str> = ops(&summaries, "summary")
        .iter()
        .filter(|l| l["kind"] == "memories")
        .flat_map(|l| {
            l["covers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
        })
        .collect();
    let n = covered.len();
    covered.sort_unstable();
    covered.dedup();
    assert_eq!(covered.len(), n, "no memory summarised twice");
    let added = ops(&lines(&dir, ".self/longterm.jsonl"), "add").len();
    assert_eq!(n, added, "every memory summarised once, across both lives");
}
