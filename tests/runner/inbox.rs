//! The creator's messages reach the creature exactly once, whatever another process does to
//! `MESSAGES.md` meanwhile (an editor saves by writing a temporary file and renaming it
//! over the inbox, sometimes from a copy it read before the runner appended a message).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use chrono::{TimeDelta, TimeZone, Utc};
use dreamwatch::control::{ControlCommand, send_command};
use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::runner::brain::rehearsal::{self, Rehearsal};
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};

use crate::common::runner::SimulatedShell;

const PATIENCE: Duration = Duration::from_secs(20);
const MESSAGES: usize = 40;

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_default()
}

/// What an editor does on save: the whole text to a temporary file, renamed over the inbox.
fn rewrite_by_rename(dir: &Path, text: &str) {
    let tmp = dir.join(".MESSAGES.md.swp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, dir.join("MESSAGES.md")).unwrap();
}

async fn settle(clock: &VirtualClock, what: &str) {
    assert!(
        tokio::time::timeout(PATIENCE, clock.settled())
            .await
            .is_ok(),
        "never settled {what}"
    );
}

fn token(i: usize) -> String {
    format!("inbox-check-{i:02}.")
}

/// The parts of a user message that hand over the creator's words: a message delivered on
/// its own, or the inbox part of a wake-up message. (Elsewhere, recalled observations may
/// quote a message the creature was given earlier.)
fn handed_over(content: &str) -> Vec<&str> {
    if content.starts_with("[MESSAGE FROM YOUR CREATOR") {
        return vec![content];
    }
    content
        .split("New in MESSAGES.md from your creator")
        .skip(1)
        .filter_map(|part| part.split("\n---\n").nth(1))
        .collect()
}

/// How many times each message was handed to the creature: in `creature.message` events
/// (what the runner records as delivered) and in the creature's own context (the user
/// lines of `conversation.jsonl`).
fn deliveries(dir: &Path) -> (Vec<usize>, Vec<usize>) {
    let mut events = vec![0; MESSAGES];
    for line in read(dir, ".sys/events.jsonl").lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["type"] == "creature.message" {
            let text = v["text"].as_str().unwrap_or_default();
            for (i, n) in events.iter_mut().enumerate() {
                *n += text.matches(&token(i)).count();
            }
        }
    }
    let mut context = vec![0; MESSAGES];
    for line in read(dir, ".self/conversation.jsonl").lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["role"] != "user" {
            continue;
        }
        for part in handed_over(v["content"].as_str().unwrap_or_default()) {
            for (i, n) in context.iter_mut().enumerate() {
                *n += part.matches(&token(i)).count();
            }
        }
    }
    (events, context)
}

/// 40 messages, half through the control socket and half through the in-process channel
/// the observatory's message box uses, each followed by a rewrite-by-rename of
/// `MESSAGES.md`: every third one from a copy read before the message was sent (the
/// message vanishes from the file), the others from the file as it is. Wakes come in
/// between, each reading the inbox. Every message is delivered exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_reach_the_creature_once_whatever_rewrites_the_inbox() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    let clock = Arc::new(VirtualClock::held(start, TimeDelta::seconds(2)));
    let mut opts = RunnerOptions::new(
        dir.clone(),
        RunnerConfig::default(),
        Arc::new(Rehearsal::new()),
        rehearsal::MODEL.into(),
    );
    opts.tools = Arc::new(SimulatedShell::default());
    opts.clock = clock.clone();
    opts.control_socket = true;
    let runner = Runner::open_genome(opts, Dreamer::default()).unwrap();
    let hosted = runner.hosted();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(runner.run(async {
        let _ = stopped.await;
    }));
    settle(&clock, "at birth").await;

    for i in 0..MESSAGES {
        let stale = read(&dir, "MESSAGES.md");
        let command = ControlCommand::Message {
            text: format!("{} Keep notes short.", token(i)),
        };
        if i % 2 == 0 {
            send_command(&dir, &command).await.unwrap();
        } else {
            hosted.control.ask(command).await.unwrap();
        }
        settle(&clock, "after a message").await;
        let text = if i % 3 == 0 {
            stale
        } else {
            read(&dir, "MESSAGES.md")
        };
        rewrite_by_rename(&dir, &text);
        if i % 4 == 3 {
            clock.advance(TimeDelta::hours(1));
            settle(&clock, "after a wake").await;
        }
    }
    let _ = stop.send(());
    tokio::time::timeout(PATIENCE, task).await.unwrap().unwrap();

    let (events, context) = deliveries(&dir);
    let once = vec![1; MESSAGES];
    assert_eq!(events, once, "creature.message events per message");
    assert_eq!(context, once, "times each message reached the context");
    let inbox = read(&dir, "MESSAGES.md");
    // The last one no stale copy wiped out.
    let last = (0..MESSAGES).rev().find(|i| i % 3 != 0).unwrap();
    assert!(
        inbox.contains(&token(last)),
        "sent messages are appended to MESSAGES.md for the record"
    );
}
