//! A rehearsal life of the evennia genome: six sleeps on a virtual clock that the test
//! moves, with a creator's message while the creature rests (an urgent wake), read back
//! from the files the runner wrote.

use std::path::Path;
use std::sync::Arc;

use chrono::{TimeDelta, TimeZone, Utc};
use serde_json::Value;

use dreamwatch::control::ControlCommand;
use dreamwatch::genomes::evennia::runner::Evennia;
use dreamwatch::genomes::evennia::runner::config::EvenniaConfig;
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
async fn six_sleeps_exercise_every_mechanism() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    let clock = Arc::new(VirtualClock::held(start, TimeDelta::seconds(1)));
    let mut config = RunnerConfig::default();
    config
        .genomes
        .edit(|c: &mut EvenniaConfig| c.context_budget_chars = 12_000);
    let mut opts = RunnerOptions::new(
        dir.clone(),
        config,
        Arc::new(Rehearsal::new()),
        rehearsal::MODEL.into(),
    );
    opts.clock = clock.clone();
    opts.max_sleeps = Some(6);
    let runner = Runner::open_genome(opts, Evennia::default()).unwrap();
    let hosted = runner.hosted();
    let task = tokio::spawn(runner.run(std::future::pending()));
    let mut sent = false;
    for _ in 0..2_000 {
        // The runner settles, or ends (after its sixth sleep).
        let mut status = hosted.status.clone();
        tokio::select! {
            () = clock.settled() => {}
            _ = status.wait_for(|s| s.status == Status::Stopped) => {}
        }
        if task.is_finished() || hosted.status.borrow().status == Status::Stopped {
            break;
        }
        let rests = ops(&lines(&dir, ".sys/mode.jsonl"), "phase")
            .iter()
            .filter(|l| l["phase"] == "resting")
            .count();
        // Resting after a later sleep's work: a light sleep, which the creator's message
        // ends.
        let resting = matches!(hosted.status.borrow().status, Status::Asleep { .. });
        if !sent && rests >= 2 && resting {
            hosted
                .control
                .ask(ControlCommand::Message {
                    text: "Wake up, sprout: the garden needs you.".into(),
                })
                .await
                .unwrap();
            sent = true;
            continue;
        }
        clock.advance(TimeDelta::seconds(10));
    }
    let report = task.await.unwrap();
    assert_eq!(report.dreams_this_run, 6, "six completed sleeps");
    assert!(
        sent,
        "the creator's message was sent while the creature rested"
    );

    let journal = lines(&dir, ".self/journal.jsonl");
    let adds = ops(&journal, "add");
    let importances: std::collections::BTreeSet<i64> = adds
        .iter()
        .filter_map(|l| l["importance"].as_i64())
        .collect();
    assert!(importances.len() >= 4, "varied importance: {importances:?}");
    assert!(adds.iter().any(|l| l["importance_method"] == "heuristic"));
    let scores = ops(&journal, "score");
    assert!(!scores.is_empty(), "the model scored entries");
    assert!(scores.iter().all(|l| l["importance_method"] == "llm"));
    assert!(!ops(&journal, "consolidated").is_empty());
    assert!(
        adds.iter().any(|l| l["synthesis"] == true),
        "a compaction summary is a synthesis entry"
    );

    let reflections = lines(&dir, ".self/reflections.jsonl");
    let reflect = ops(&reflections, "reflect");
    assert!(!reflect.is_empty(), "a reflection within six sleeps");
    assert!(reflect[0]["cumulative_importance"].as_i64().unwrap() >= 150);
    let insight = reflect[0]["insights"][0].as_str().unwrap();
    assert!(
        adds.iter()
            .any(|l| l["id"] == insight && l["source_type"] == "reflection"),
        "insights are journal entries"
    );

    let semantic = lines(&dir, ".self/semantic.jsonl");
    assert!(!ops(&semantic, "add").is_empty());
    assert!(!ops(&semantic, "link").is_empty());

    let entities = lines(&dir, ".self/entities.jsonl");
    let wren: Vec<&str> = ops(&entities, "relationship")
        .iter()
        .filter(|l| l["entity_id"] == "wren")
        .map(|l| l["state"].as_str().unwrap())
        .collect();
    for pair in [
        ["stranger", "acquaintance"],
        ["acquaintance", "friend"],
        ["friend", "acquaintance"],
        ["friend", "ally"],
        ["ally", "friend"],
    ] {
        let crossed = std::iter::once("stranger")
            .chain(wren.iter().copied())
            .collect::<Vec<_>>()
            .windows(2)
            .any(|w| w[0] == pair[0] && w[1] == pair[1]);
        assert!(crossed, "wren's favorability crosses {pair:?}: {wren:?}");
    }
    assert!(!ops(&entities, "consolidate").is_empty(), "Pf -> Pa");

    let mode = lines(&dir, ".sys/mode.jsonl");
    assert!(!ops(&mode, "wake_deferred").is_empty(), "a deferred wake");
    let triggers: Vec<&str> = ops(&mode, "compaction")
        .iter()
        .map(|l| l["trigger"].as_str().unwrap())
        .collect();
    assert!(triggers.contains(&"sleep"), "{triggers:?}");
    assert!(triggers.contains(&"emergency"), "{triggers:?}");
    assert!(
        ops(&mode, "transition").iter().any(|l| l["to"] == "awake"
            && l["reason"]
                .as_str()
                .unwrap()
                .contains("message from the creator")),
        "an urgent wake"
    );
    assert!(
        ops(&mode, "transition")
            .iter()
            .filter(|l| l["to"] == "sleep")
            .all(|l| l["wake_at"].is_string()),
        "every transition to sleep says when it wakes"
    );
    let phases: Vec<&str> = ops(&mode, "phase")
        .iter()
        .map(|l| l["phase"].as_str().unwrap())
        .collect();
    assert_eq!(phases[..2], ["compacting", "dreaming"]);

    let events = lines(&dir, ".sys/events.jsonl");
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "creature.wake" && e["source"] == "urgent")
    );
    let birth: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("BIRTH.json")).unwrap()).unwrap();
    assert_eq!(birth["genome"], "evennia");
}

/// A creature stopped after two sleeps and hosted again: it keeps its genome, its ids go
/// on (none reused), and its semantic memory (vectors included) is recalled as before.
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
        let mut config = RunnerConfig::default();
        config
            .genomes
            .edit(|c: &mut EvenniaConfig| c.context_budget_chars = 12_000);
        let mut opts = RunnerOptions::new(
            dir.clone(),
            config,
            Arc::new(Rehearsal::new()),
            rehearsal::MODEL.into(),
        );
        opts.clock = clock;
        opts.max_sleeps = Some(2);
        let report = Runner::open_genome(opts, Evennia::default())
            .unwrap()
            .run(std::future::pending())
            .await;
        assert_eq!(report.dreams_this_run, 2);
        assert_eq!(report.dreams, 2 * (life as u64 + 1), "sleeps on disk count");
    }
    let journal = lines(&dir, ".self/journal.jsonl");
    let ids: Vec<&str> = ops(&journal, "add")
        .iter()
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    let unique: std::collections::BTreeSet<&str> = ids.iter().copied().collect();
    assert_eq!(
        unique.len(),
        ids.len(),
        "no journal id reused after the restart"
    );
    let semantic = lines(&dir, ".self/semantic.jsonl");
    let memories = ops(&semantic, "add").len();
    let (store, _) =
        dreamwatch::memory::vectors::VectorStore::open(dir.join(".self/semantic.vectors")).unwrap();
    assert_eq!(store.index().len(), memories, "a vector for every memory");
    // The second life's recalls found memories of the first.
    let events = lines(&dir, ".sys/events.jsonl");
    let recalls: Vec<&str> = events
        .iter()
        .filter(|e| e["type"] == "creature.tool_call" && e["tool"] == "recall_memories")
        .map(|e| e["output"].as_str().unwrap_or_default())
        .collect();
    assert!(
        recalls.iter().any(|o| o.contains("relevance")),
        "a recall found a memory: {recalls:?}"
    );
}
