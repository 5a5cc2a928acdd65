//! The evennia genome on the engine, without IO: a small world answers the engine's
//! outputs in memory (the rehearsal for the sleep work's tasks, `set_sleep` for every
//! turn, the hashing embedding, files as lists of lines) and fires the awaited timer when
//! nothing else is left. Each rule at its threshold.

use chrono::{DateTime, TimeDelta, TimeZone, Utc};
use serde_json::{Value, json};

use super::*;
use crate::control::ControlCommand;
use crate::llm::embed::{Embeddings, HashingEmbedder};
use crate::llm::{ContentBlock, StopReason};
use crate::runner::brain::rehearsal::Rehearsal;
use crate::runner::brain::task::Task;
use crate::runner::engine::Engine;
use crate::runner::engine::context::message_chars;
use crate::runner::engine::input::{Gathered, Input, Restored};
use crate::runner::engine::output::Output;
use crate::runner::tools::ToolOutcome;

struct World {
    engine: Engine<Evennia>,
    now: DateTime<Utc>,
    queue: Vec<Input<Evennia>>,
    timer: Option<(u64, DateTime<Utc>)>,
    /// Lines written, by file.
    files: BTreeMap<&'static str, Vec<Value>>,
    vectors: Vec<(String, Vec<f32>)>,
    tasks: Vec<Task>,
    /// How long the creature asks to sleep at each turn.
    sleep_s: u64,
    calls: u64,
}

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap()
}

fn config(budget: usize) -> RunnerConfig {
    let mut cfg = RunnerConfig::default();
    cfg.genomes
        .edit(|c: &mut config::EvenniaConfig| c.context_budget_chars = budget);
    cfg
}

impl World {
    fn new(cfg: RunnerConfig, restored: EvenniaRestored, sleep_s: u64) -> Self {
        Self::at(start(), cfg, restored, sleep_s)
    }

    fn at(now: DateTime<Utc>, cfg: RunnerConfig, restored: EvenniaRestored, sleep_s: u64) -> Self {
        let mut w = Self {
            engine: Engine::new(cfg, Evennia::default(), None),
            now,
            queue: Vec::new(),
            timer: None,
            files: BTreeMap::new(),
            vectors: Vec::new(),
            tasks: Vec::new(),
            sleep_s,
            calls: 0,
        };
        w.send(Input::Start(Box::new(Restored {
            fresh: true,
            purpose: "live".into(),
            genome: restored,
            ..Default::default()
        })));
        w
    }

    fn send(&mut self, input: Input<Evennia>) {
        let outputs = self.engine.handle(self.now, input);
        for o in outputs {
            self.perform(o);
        }
    }

    fn perform(&mut self, o: Output<Evennia>) {
        match o {
            Output::Think { id, task, .. } => {
                let response = match &task {
                    Task::Turn(_) => {
                        self.calls += 1;
                        Response {
                            content: vec![ContentBlock::ToolUse {
                                id: format!("t{}", self.calls),
                                name: "set_sleep".into(),
                                input: json!({"seconds": self.sleep_s}),
                            }],
                            stop_reason: StopReason::ToolUse,
                            usage: None,
                        }
                    }
                    other => Rehearsal::new().answer(other),
                };
                self.tasks.push(task);
                self.queue.push(Input::Thought {
                    id,
                    result: Ok(response),
                });
            }
            Output::Embed { id, texts } => {
                let e = HashingEmbedder::default();
                let vectors: Vec<Vec<f32>> = texts.iter().map(|t| e.vector(t)).collect();
                self.queue.push(Input::Embedded {
                    id,
                    result: Ok(Embeddings {
                        model: "local-hash-256".into(),
                        dims: 256,
                        vectors,
                        usage: None,
                    }),
                });
            }
            Output::RunTool { id, .. } => self.queue.push(Input::ToolDone {
                id,
                outcome: ToolOutcome {
                    ok: true,
                    content: "ok".into(),
                    display: "ok".into(),
                    ms: 1,
                },
            }),
            Output::Timer { id, at } => self.timer = Some((id, at)),
            Output::Gather { id } => self.queue.push(Input::Gathered {
                id,
                view: Gathered::default(),
            }),
            Output::Genome(io) => self.genome_io(io),
            _ => {}
        }
    }

    fn genome_io(&mut self, io: EvenniaIo) {
        match io {
            EvenniaIo::Append { file, lines } => {
                let name = crate::runner::genome::file_name(file);
                self.files.entry(name).or_default().extend(lines);
            }
            EvenniaIo::Remember {
                line, id, vector, ..
            } => {
                self.files.entry("semantic.jsonl").or_default().push(line);
                self.vectors.push((id, vector));
            }
            EvenniaIo::Search { req, vector, k } => {
                let hits = self.nearest(&vector, k, None);
                self.queue.push(Input::Genome(EvenniaDone::Found {
                    req,
                    hits: Ok(hits),
                }));
            }
            EvenniaIo::Similar { req, id, k } => {
                let own = self
                    .vectors
                    .iter()
                    .find(|(i, _)| *i == id)
                    .map(|(_, v)| v.clone());
                let hits = own.map_or_else(Vec::new, |v| self.nearest(&v, k, Some(&id)));
                self.queue.push(Input::Genome(EvenniaDone::Found {
                    req,
                    hits: Ok(hits),
                }));
            }
            EvenniaIo::WorkingMemory(_) => {}
        }
    }

    fn nearest(&self, q: &[f32], k: usize, skip: Option<&str>) -> Vec<(String, f32)> {
        let mut hits: Vec<(String, f32)> = self
            .vectors
            .iter()
            .filter(|(id, _)| Some(id.as_str()) != skip)
            .map(|(id, v)| (id.clone(), v.iter().zip(q).map(|(a, b)| a * b).sum()))
            .collect();
        hits.sort_by(|a, b| b.1.total_cmp(&a.1));
        hits.truncate(k);
        hits
    }

    /// Runs until `done` holds, answering everything and firing timers when idle.
    fn until(&mut self, what: &str, mut done: impl FnMut(&Self) -> bool) {
        for _ in 0..10_000 {
            if done(self) {
                return;
            }
            if let Some(input) = self.queue.pop() {
                self.send(input);
                continue;
            }
            match self.timer.take() {
                Some((id, at)) => {
                    self.now = self.now.max(at);
                    self.send(Input::Timer { id });
                }
                None => panic!("nothing left to do before {what}"),
            }
        }
        panic!("never reached {what}");
    }

    fn lines(&self, file: &str, op: &str) -> Vec<&Value> {
        self.files
            .get(file)
            .map(|v| v.iter().filter(|l| l["op"] == op).collect())
            .unwrap_or_default()
    }

    fn phases(&self) -> Vec<String> {
        self.lines("mode.jsonl", "phase")
            .iter()
            .map(|l| l["phase"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    fn rested(&self) -> bool {
        self.phases().iter().any(|p| p == "resting")
    }

    fn awake_again(&self) -> bool {
        self.lines("mode.jsonl", "transition")
            .iter()
            .any(|l| l["to"] == "awake")
    }

    fn context_chars(&self) -> usize {
        self.engine.context().iter().map(message_chars).sum()
    }
}

fn entry(id: &str, importance: u8, method: &'static str, consolidated: bool) -> Entry {
    Entry {
        id: id.into(),
        t: start() - TimeDelta::hours(1),
        text: format!("entry {id} about the garden"),
        tags: Vec::new(),
        source_type: "observation".into(),
        source_trust: 0.8,
        source_entity: None,
        importance,
        method,
        synthesis: false,
        consolidated,
    }
}

/// Scored and consolidated entries whose importance sums to `total`.
fn journal_of(total: u32) -> EvenniaRestored {
    let mut journal = Vec::new();
    let mut left = total;
    let mut n = 0;
    while left > 0 {
        n += 1;
        let i = left.min(10) as u8;
        journal.push(entry(&format!("j{n}"), i, "llm", true));
        left -= u32::from(i);
    }
    EvenniaRestored {
        journal,
        next_ids: [n, 0, 0],
        ..Default::default()
    }
}

#[test]
fn a_reflection_comes_at_150_not_149() {
    for (total, reflects) in [(149, false), (150, true)] {
        let mut w = World::new(config(0), journal_of(total), 300);
        w.until("the first rest", World::rested);
        let asked = w
            .tasks
            .iter()
            .any(|t| t.request::<super::tasks::Reflect>().is_some());
        assert_eq!(asked, reflects, "cumulative importance {total}");
        let lines = w.lines("reflections.jsonl", "reflect");
        assert_eq!(lines.len(), usize::from(reflects));
        if reflects {
            assert_eq!(lines[0]["cumulative_importance"], 150);
            assert_eq!(lines[0]["threshold"], 150);
            // The counter starts over: the insights do not count.
            assert_eq!(w.engine.genome().cumulative_importance(), 0);
        }
    }
}

#[test]
fn sleep_compaction_comes_at_70_percent_not_69() {
    // The context a sleep sees, measured once with a budget it cannot fill.
    let mut w = World::new(config(10_000_000), EvenniaRestored::default(), 300);
    w.until("dreaming", |w| w.phases().iter().any(|p| p == "dreaming"));
    let chars = w.context_chars() as f64;
    for (budget, compacts) in [
        ((chars / 0.699).ceil() as usize, false),
        ((chars / 0.70).floor() as usize, true),
    ] {
        let mut w = World::new(config(budget), EvenniaRestored::default(), 300);
        w.until("the first rest", World::rested);
        let compacted = w.lines("mode.jsonl", "compaction");
        assert_eq!(
            !compacted.is_empty(),
            compacts,
            "budget {budget} for {chars} chars"
        );
        let extraction = w
            .tasks
            .iter()
            .any(|t| matches!(t, Task::Turn(turn) if turn.asleep));
        assert_eq!(
            extraction, compacts,
            "the extraction turn comes before compaction"
        );
        if compacts {
            assert_eq!(compacted[0]["trigger"], "sleep");
            let id = compacted[0]["journal_id"].as_str().unwrap();
            let summary = w.lines("journal.jsonl", "add");
            assert!(
                summary
                    .iter()
                    .any(|l| l["id"] == id && l["synthesis"] == true)
            );
        }
    }
}

#[test]
fn a_wake_during_compacting_is_deferred_until_it_completes() {
    let mut restored = EvenniaRestored::default();
    for n in 1..=12 {
        restored
            .journal
            .push(entry(&format!("j{n}"), 5, "llm", false));
    }
    restored.next_ids = [12, 0, 0];
    let mut w = World::new(config(0), restored, 300);
    w.until("compacting", |w| {
        w.phases().iter().any(|p| p == "compacting")
    });
    w.send(Input::Control(ControlCommand::Wake));
    assert!(!w.awake_again(), "no wake while compacting");
    assert_eq!(w.lines("mode.jsonl", "wake_deferred").len(), 1);
    w.until("awake again", World::awake_again);
    let consolidated = w.lines("journal.jsonl", "consolidated").len();
    assert_eq!(consolidated, 12, "compacting completed before the wake");
    let phases = w.phases();
    assert_eq!(phases, ["compacting", "dreaming", "resting"]);
}

#[test]
fn an_urgent_message_wakes_a_light_sleeper_at_once() {
    let mut w = World::new(config(0), EvenniaRestored::default(), 300);
    w.until("resting", World::rested);
    let before = w.now;
    w.send(Input::Control(ControlCommand::Message {
        text: "come back".into(),
    }));
    w.until("awake again", World::awake_again);
    assert_eq!(w.now, before, "at once, not at the wake time");
    let wake = w.lines("mode.jsonl", "transition");
    let reason = wake.last().unwrap()["reason"].as_str().unwrap();
    assert!(reason.contains("message from the creator"), "{reason}");
}

#[test]
fn an_urgent_message_waits_for_deep_sleep_to_end() {
    // Memories waiting for links keep the creature dreaming for several ticks.
    let mut restored = EvenniaRestored::default();
    for n in 1..=12 {
        restored.memories.push(Memory {
            id: format!("m{n}"),
            text: format!("fact {n}"),
            source_trust: 0.8,
            importance: 5,
            source_entity: None,
            links: Vec::new(),
            linked: false,
        });
    }
    restored.next_ids = [0, 12, 0];
    let mut w = World::new(config(0), restored, 300);
    w.until("dreaming", |w| w.phases().iter().any(|p| p == "dreaming"));
    w.send(Input::Control(ControlCommand::Message {
        text: "come back".into(),
    }));
    assert!(!w.awake_again(), "deep sleep holds the urgent wake");
    let held = w.lines("mode.jsonl", "wake_deferred");
    assert!(held[0]["reason"].as_str().unwrap().contains("deep sleep"));
    w.until("awake again", World::awake_again);
    assert!(w.rested(), "dreaming finished first");
    assert_eq!(w.lines("semantic.jsonl", "link").len(), 12);
    assert!(
        w.now < start() + TimeDelta::seconds(300),
        "woken for the message, before the wake time"
    );
}

#[test]
fn the_schedule_sleeps_across_midnight_after_min_awake_ticks_and_not_in_cooldown() {
    let mut cfg = config(0);
    cfg.genomes.edit(|c: &mut config::EvenniaConfig| {
        c.schedule = config::SleepSchedule {
            enabled: true,
            sleep_start_hour: 23,
            sleep_duration_hours: 2,
            min_awake_ticks: 3,
        }
    });
    let late = Utc.with_ymd_and_hms(2026, 3, 1, 23, 50, 0).unwrap();
    // The creature never asks to sleep (a nap each turn): the schedule does.
    let mut w = World::at(late, cfg, EvenniaRestored::default(), 5);
    w.until("a scheduled sleep", |w| {
        w.lines("mode.jsonl", "transition")
            .iter()
            .any(|l| l["reason"] == "sleep schedule")
    });
    let turns = w
        .tasks
        .iter()
        .filter(|t| matches!(t, Task::Turn(_)))
        .count();
    // Ticks 1 and 2 were turns; the third awake tick is the schedule's.
    assert_eq!(turns, 2, "three awake ticks first");
    w.until("awake again", World::awake_again);
    assert_eq!(
        w.now,
        Utc.with_ymd_and_hms(2026, 3, 2, 1, 0, 0).unwrap(),
        "until the end of the window, past midnight"
    );
}

#[test]
fn a_wake_sets_the_cooldown_that_holds_the_schedule_back() {
    let mut cfg = config(0);
    cfg.genomes.edit(|c: &mut config::EvenniaConfig| {
        c.schedule = config::SleepSchedule {
            enabled: true,
            sleep_start_hour: 0,
            sleep_duration_hours: 24,
            min_awake_ticks: 1,
        }
    });
    let mut w = World::new(cfg, EvenniaRestored::default(), 5);
    w.until("a scheduled sleep", |w| {
        !w.lines("mode.jsonl", "transition").is_empty()
    });
    w.until("the rest", World::rested);
    w.send(Input::Control(ControlCommand::Wake));
    w.until("awake", World::awake_again);
    let woke = w.now;
    let sleeps = |w: &World| {
        w.lines("mode.jsonl", "transition")
            .iter()
            .filter(|l| l["to"] == "sleep")
            .count()
    };
    w.until("a second scheduled sleep", |w| sleeps(w) == 2);
    let second = w.lines("mode.jsonl", "transition");
    assert!(
        w.now >= woke + TimeDelta::minutes(60),
        "not within the 60-minute cooldown: woke {woke}, slept again {} ({second:?})",
        w.now
    );
}
