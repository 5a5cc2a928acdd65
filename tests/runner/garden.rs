//! Two creatures in one garden on a held virtual clock: a message passes both ways and is
//! logged on both sides; a message to an unknown name is refused; a paused creature, and
//! one whose run is over, still receive into their inbox.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{TimeDelta, TimeZone, Utc};
use dreamwatch::control::ControlCommand;
use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::llm::{ContentBlock, LlmFuture, Request, Response, StopReason};
use dreamwatch::runner::brain::rehearsal::{self, Rehearsal};
use dreamwatch::runner::brain::task::Task;
use dreamwatch::runner::brain::{Brain, BrainKind};
use dreamwatch::runner::clock::{Clock, VirtualClock};
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{RunReport, Runner, RunnerOptions};
use dreamwatch::runner::garden::Garden;
use dreamwatch::runner::mail::{Delivery, Outgoing, Postbox};
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::common::runner::SimulatedShell;

const PATIENCE: Duration = Duration::from_secs(20);

/// A creature that writes first (`opener`: to a name nobody has, then to its mate), answers
/// every message it gets once, and otherwise sleeps. The sleep work is the rehearsal's.
struct PenPal {
    opener: Option<String>,
    opened: Mutex<bool>,
    calls: Mutex<u32>,
    rest: Rehearsal,
}

impl PenPal {
    fn new(opener: Option<&str>) -> Self {
        Self {
            opener: opener.map(str::to_string),
            opened: Mutex::new(false),
            calls: Mutex::new(0),
            rest: Rehearsal::new(),
        }
    }

    fn call(&self, name: &str, input: Value) -> ContentBlock {
        let mut n = self.calls.lock().unwrap();
        *n += 1;
        ContentBlock::ToolUse {
            id: format!("toolu_{n}"),
            name: name.into(),
            input,
        }
    }
}

impl Brain for PenPal {
    fn kind(&self) -> BrainKind {
        BrainKind::Rehearsal
    }

    fn label(&self) -> String {
        "pen pal".into()
    }

    fn think<'a>(&'a self, task: &'a Task, _request: &'a Request) -> LlmFuture<'a> {
        let Task::Turn(turn) = task else {
            let r = self.rest.answer(task);
            return Box::pin(async move { Ok(r) });
        };
        let mut calls: Vec<ContentBlock> = turn
            .messages
            .iter()
            .filter(|(_, text)| !text.starts_with("got your"))
            .map(|(from, text)| {
                self.call(
                    "send_message",
                    json!({"to": from, "text": format!("got your '{text}'")}),
                )
            })
            .collect();
        let mut opened = self.opened.lock().unwrap();
        if let Some(mate) = self.opener.as_ref().filter(|_| !*opened) {
            *opened = true;
            assert_eq!(
                turn.garden,
                std::slice::from_ref(mate),
                "a creature knows its garden"
            );
            calls.push(self.call("send_message", json!({"to": "nobody", "text": "anyone?"})));
            calls.push(self.call("send_message", json!({"to": mate, "text": "hello"})));
        }
        if calls.is_empty() {
            calls.push(self.call("set_sleep", json!({"seconds": 300})));
        }
        let r = Response {
            content: calls,
            stop_reason: StopReason::ToolUse,
            usage: None,
        };
        Box::pin(async move { Ok(r) })
    }
}

struct Hosted {
    stop: oneshot::Sender<()>,
    task: JoinHandle<RunReport>,
    control: dreamwatch::control::HostedCreature,
}

/// Opens a creature of the garden (all are opened before any runs, so that each knows
/// the others from its first turn).
fn open(
    dir: &Path,
    brain: PenPal,
    clock: &Arc<VirtualClock>,
    garden: &Arc<Garden>,
    mates: &[&str],
) -> Runner<Dreamer> {
    let config = RunnerConfig {
        garden: mates.iter().map(|m| m.to_string()).collect(),
        ..RunnerConfig::default()
    };
    let mut opts = RunnerOptions::new(
        dir.to_path_buf(),
        config,
        Arc::new(brain),
        rehearsal::MODEL.into(),
    );
    opts.tools = Arc::new(SimulatedShell::default());
    opts.clock = clock.clone();
    opts.postbox = Some(garden.clone());
    let runner = Runner::open_genome(opts, Dreamer::default()).unwrap();
    garden.admit(&runner);
    runner
}

fn spawn(runner: Runner<Dreamer>) -> Hosted {
    let control = runner.hosted();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(runner.run(async {
        let _ = stopped.await;
    }));
    Hosted {
        stop,
        task,
        control,
    }
}

async fn settle(clock: &VirtualClock, what: &str) {
    assert!(
        tokio::time::timeout(PATIENCE, clock.settled())
            .await
            .is_ok(),
        "never settled {what}"
    );
}

fn lines(dir: &Path, file: &str) -> Vec<Value> {
    std::fs::read_to_string(dir.join(file))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn events(dir: &Path, kind: &str) -> Vec<Value> {
    lines(dir, ".sys/events.jsonl")
        .into_iter()
        .filter(|e| e["type"] == kind)
        .collect()
}

/// Whether `text` is in the creature's conversation log.
fn said(dir: &Path, text: &str) -> bool {
    lines(dir, ".self/conversation.jsonl")
        .iter()
        .any(|l| l["content"].to_string().contains(text))
}

fn inbox(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("MESSAGES.md")).unwrap_or_default()
}

fn garden_dirs() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("ash"), tmp.path().join("birch"));
    (tmp, a, b)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_passes_both_ways_and_is_logged_on_both_sides() {
    let (_tmp, a, b) = garden_dirs();
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    let clock = Arc::new(VirtualClock::held(start, TimeDelta::seconds(2)));
    let garden = Arc::new(Garden::new());
    let ash = open(&a, PenPal::new(Some("birch")), &clock, &garden, &["birch"]);
    let birch = open(&b, PenPal::new(None), &clock, &garden, &["ash"]);
    let (ash, birch) = (spawn(ash), spawn(birch));
    settle(&clock, "at birth").await;
    // Both asleep by now; waking lets birch answer, then ash read the answer.
    for _ in 0..3 {
        clock.advance(TimeDelta::hours(1));
        settle(&clock, "after a wake").await;
    }
    for h in [ash, birch] {
        let _ = h.stop.send(());
        h.task.await.unwrap();
    }

    // ash: refused for an unknown name, told so; delivered to birch; birch's answer in.
    let sent = events(&a, "creature.message_sent");
    let to = |e: &Value| (e["to"].clone(), e["delivery"].clone());
    assert_eq!(to(&sent[0]), (json!("nobody"), json!("unknown recipient")));
    assert_eq!(to(&sent[1]), (json!("birch"), json!("delivered")));
    assert!(
        said(&a, "no creature named `nobody`"),
        "the creature is told"
    );
    assert!(said(&a, "Delivered to birch."));
    let got = events(&a, "creature.message");
    assert!(
        got.iter()
            .any(|e| e["from"] == "birch" && e["text"] == "got your 'hello'"),
        "{got:?}"
    );
    assert!(said(&a, "got your 'hello'"), "in ash's conversation");
    assert!(inbox(&a).contains("From birch: got your 'hello'"));

    // birch: received, logged, answered.
    let got = events(&b, "creature.message");
    assert!(
        got.iter()
            .any(|e| e["from"] == "ash" && e["text"] == "hello")
    );
    assert!(said(&b, "MESSAGE FROM ash"));
    assert!(inbox(&b).contains("From ash: hello"));
    let sent = events(&b, "creature.message_sent");
    assert_eq!(to(&sent[0]), (json!("ash"), json!("delivered")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_or_stopped_creature_still_receives_into_its_inbox() {
    let (_tmp, _, b) = garden_dirs();
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    let clock = Arc::new(VirtualClock::held(start, TimeDelta::seconds(2)));
    let garden = Arc::new(Garden::new());
    let birch = spawn(open(&b, PenPal::new(None), &clock, &garden, &["ash"]));
    settle(&clock, "at birth").await;
    birch
        .control
        .control
        .ask(ControlCommand::Pause)
        .await
        .unwrap();
    settle(&clock, "paused").await;
    let note = |text: &str| Outgoing {
        to: "birch".into(),
        text: text.into(),
        payload: None,
    };
    // What ash's runner would do for its send_message.
    assert_eq!(
        garden.post("ash", &note("while you rest"), clock.now()),
        Delivery::Delivered
    );
    settle(&clock, "a message while paused").await;
    assert!(inbox(&b).contains("From ash: while you rest"));
    assert!(said(&b, "while you rest"), "in its context and log");

    let _ = birch.stop.send(());
    birch.task.await.unwrap();
    assert_eq!(
        garden.post("ash", &note("after you stopped"), clock.now()),
        Delivery::Delivered
    );
    assert!(inbox(&b).contains("From ash: after you stopped"));
    assert!(!said(&b, "after you stopped"), "not handed over yet");

    // Its next run finds it in MESSAGES.md when it wakes, once.
    let garden = Arc::new(Garden::new());
    let birch = spawn(open(&b, PenPal::new(None), &clock, &garden, &["ash"]));
    settle(&clock, "restarted").await;
    clock.advance(TimeDelta::hours(1));
    settle(&clock, "woken").await;
    let _ = birch.stop.send(());
    birch.task.await.unwrap();
    assert!(said(&b, "after you stopped"));
    let handed = lines(&b, ".self/conversation.jsonl")
        .iter()
        .filter(|l| l["content"].to_string().contains("while you rest"))
        .count();
    assert_eq!(handed, 1, "what it was given paused is not given again");
}
