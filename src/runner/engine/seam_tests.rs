//! The genome seam on its own: a tiny genome proving the engine calls it for tools, sleep
//! steps, deferred wakes, restore and the wake-up message. No IO, no clock.

use chrono::{DateTime, TimeZone, Utc};
use serde_json::json;

use super::input::{Gathered, Restored};
use super::*;
use crate::control::ControlCommand;
use crate::llm::{ContentBlock, LlmError, Request, Response, StopReason};
use crate::memory::conversation::Content;
use crate::memory::events::EventKind;
use crate::runner::brain::task::Task;
use crate::runner::genome::{
    GenomeFiles, GenomePrompt, GenomeRestore, GenomeTool, IoProgress, Performed, SleepEnd,
    SleepStep, ToolReply, ToolTime,
};
use crate::runner::tools::ToolOutcome;

/// Two phases of sleep work: `compacting` (two brain calls, atomic), then `dreaming` (one
/// file write at a time, three of them, which a wake may cut short).
#[derive(Debug, Clone, Default)]
struct Tiny {
    log: Vec<String>,
    phase: Option<Phase>,
    awaiting: Option<u64>,
    dreams: u64,
    sleep_tools_seen: Vec<String>,
    recalled: String,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    Compacting(u8),
    Dreaming(u8),
}

#[derive(Debug, Clone, PartialEq)]
enum TinyIo {
    Save { id: u64, text: String },
    Dream { id: u64 },
}

#[derive(Debug)]
enum TinyDone {
    Saved { id: u64 },
    Dreamt { id: u64 },
}

#[derive(Default)]
struct TinyFiles;

impl GenomeFiles<Tiny> for TinyFiles {
    fn restore(&mut self, _: &crate::memory::write::SeedPaths) -> GenomeRestore<String> {
        GenomeRestore::default()
    }
    fn refresh(_: &crate::memory::write::SeedPaths) -> (String, Vec<String>) {
        (String::new(), Vec::new())
    }
    fn perform(&mut self, _: &crate::memory::write::SeedPaths, _: TinyIo) -> Performed<TinyDone> {
        Performed::Written
    }
}

fn spec(name: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: format!("the {name} tool"),
        input_schema: json!({"type": "object"}),
    }
}

impl Genome for Tiny {
    type Restored = String;
    type Fresh = String;
    type Io = TinyIo;
    type Done = TinyDone;
    type Files = TinyFiles;

    const CONSOLIDATION_EVENT: EventKind = EventKind::Other(String::new());
    const BIRTH_NAME: &'static str = "tiny";

    fn tools(&self, _: &RunnerConfig) -> Vec<GenomeTool> {
        vec![
            GenomeTool {
                spec: spec("note"),
                when: ToolTime::Awake,
            },
            GenomeTool {
                spec: spec("recall"),
                when: ToolTime::Awake,
            },
            GenomeTool {
                spec: spec("journal"),
                when: ToolTime::Asleep,
            },
        ]
    }

    fn call_tool(&mut self, call: &ToolCall, cx: &mut Cx<'_, Self>) -> Option<ToolReply> {
        self.log.push(format!("tool {}", call.name));
        match call.name.as_str() {
            "note" => {
                let id = cx.id();
                self.awaiting = Some(id);
                let text = call.input["text"].as_str().unwrap_or_default().to_string();
                cx.io(TinyIo::Save { id, text });
                Some(ToolReply::Pending)
            }
            "recall" => Some(ToolReply::Done(ToolOutcome {
                ok: true,
                content: format!("recalled: {}", self.recalled),
                display: "recalled".into(),
                ms: 0,
            })),
            _ => None,
        }
    }

    fn restore(&mut self, restored: String) {
        self.log.push("restore".into());
        self.recalled = restored;
    }

    fn refresh(&mut self, fresh: String) {
        self.log.push("refresh".into());
        self.recalled = fresh;
    }

    fn dreams(&self) -> u64 {
        self.dreams
    }

    fn sleep_due(&self, _: DateTime<Utc>, secs: f64, _: &RunnerConfig) -> bool {
        secs >= 100.0
    }

    fn begin_sleep(&mut self, cause: SleepCause, cx: &mut Cx<'_, Self>) -> SleepStep {
        self.log.push(format!("begin {cause:?}"));
        self.sleep_tools_seen = cx.sleep_tools.iter().map(|t| t.name.clone()).collect();
        self.phase = Some(Phase::Compacting(0));
        SleepStep::Ready
    }

    fn step(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep {
        self.log.push(format!("step {:?}", self.phase));
        match self.phase {
            Some(Phase::Compacting(_)) => {
                let request = Request {
                    system: "compact".into(),
                    messages: Vec::new(),
                    tools: cx.sleep_tools.to_vec(),
                    max_tokens: 10,
                };
                self.awaiting = Some(cx.think(Task::Turn(Default::default()), request));
                SleepStep::Waiting
            }
            Some(Phase::Dreaming(_)) => {
                let id = cx.id();
                self.awaiting = Some(id);
                cx.io(TinyIo::Dream { id });
                SleepStep::Waiting
            }
            None => SleepStep::Unchanged,
        }
    }

    fn on_thought(
        &mut self,
        id: u64,
        _: Result<Response, LlmError>,
        cx: &mut Cx<'_, Self>,
    ) -> SleepStep {
        if self.awaiting != Some(id) {
            return SleepStep::Unchanged;
        }
        self.awaiting = None;
        self.phase = match self.phase {
            Some(Phase::Compacting(0)) => Some(Phase::Compacting(1)),
            _ => {
                self.dreams += 1;
                cx.consolidated();
                Some(Phase::Dreaming(0))
            }
        };
        SleepStep::Ready
    }

    fn on_io(&mut self, done: TinyDone, _: &mut Cx<'_, Self>) -> IoProgress {
        match done {
            TinyDone::Saved { id } if self.awaiting == Some(id) => {
                self.awaiting = None;
                IoProgress::Tool(ToolOutcome {
                    ok: true,
                    content: "saved".into(),
                    display: "saved".into(),
                    ms: 0,
                })
            }
            TinyDone::Dreamt { id } if self.awaiting == Some(id) => {
                self.awaiting = None;
                match self.phase {
                    Some(Phase::Dreaming(n)) if n < 2 => {
                        self.phase = Some(Phase::Dreaming(n + 1));
                        IoProgress::Sleep(SleepStep::Ready)
                    }
                    _ => {
                        self.phase = None;
                        IoProgress::Sleep(SleepStep::Done(SleepEnd {
                            wake: false,
                            consolidated: true,
                            deep: false,
                        }))
                    }
                }
            }
            _ => IoProgress::Nothing,
        }
    }

    fn atomic(&self) -> bool {
        matches!(self.phase, Some(Phase::Compacting(_)))
    }

    fn on_wake_deferred(&mut self, _reason: &str, cx: &mut Cx<'_, Self>) {
        self.log.push("wake deferred".into());
        cx.memory("wake_deferred", json!({"reason": "compacting"}));
    }

    fn interrupt(&mut self, _: &mut Cx<'_, Self>) -> SleepEnd {
        self.log.push(format!("interrupt {:?}", self.phase));
        self.phase = None;
        SleepEnd {
            wake: false,
            consolidated: true,
            deep: false,
        }
    }

    fn recap(&self) -> String {
        format!("\nTiny recalls: {}\n", self.recalled)
    }

    fn history(&self) -> &'static str {
        "Tiny history."
    }

    fn trim_note(dropped: usize) -> String {
        format!("Tiny trimmed {dropped}.")
    }

    fn prompt(&self, _: &RunnerConfig) -> GenomePrompt {
        GenomePrompt {
            sleep: "Tiny sleeps.".into(),
            memory: "Tiny remembers.".into(),
        }
    }
}

struct T {
    engine: Engine<Tiny>,
    now: DateTime<Utc>,
    out: Vec<Output<Tiny>>,
    /// The brain request not answered yet.
    pending: Option<(u64, Request)>,
}

impl T {
    fn start(restored: Restored<String>) -> Self {
        let mut t = T {
            engine: Engine::new(RunnerConfig::default(), Tiny::default(), None),
            now: Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap(),
            out: Vec::new(),
            pending: None,
        };
        t.send(Input::Start(Box::new(restored)));
        t
    }

    fn send(&mut self, input: Input<Tiny>) {
        self.out = self.engine.handle(self.now, input);
        if let Some(think) = self.think() {
            self.pending = Some(think);
        }
    }

    /// A brain request issued by the last input.
    fn think(&self) -> Option<(u64, Request)> {
        self.out.iter().find_map(|o| match o {
            Output::Think { id, request, .. } => Some((*id, request.clone())),
            _ => None,
        })
    }

    fn answer(&mut self, content: Vec<ContentBlock>) {
        let (id, _) = self.pending.take().expect("a brain request");
        self.send(Input::Thought {
            id,
            result: Ok(Response {
                content,
                stop_reason: StopReason::EndTurn,
                usage: None,
            }),
        });
    }

    fn call(&mut self, name: &str, input: serde_json::Value) {
        self.answer(vec![ContentBlock::ToolUse {
            id: format!("call-{name}"),
            name: name.into(),
            input,
        }]);
    }

    fn io(&self) -> Option<TinyIo> {
        self.out.iter().find_map(|o| match o {
            Output::Genome(io) => Some(io.clone()),
            _ => None,
        })
    }

    fn log(&self) -> &[String] {
        &self.engine.genome().log
    }
}

fn born() -> Restored<String> {
    Restored {
        fresh: true,
        purpose: "grow".into(),
        genome: "the seed".into(),
        ..Default::default()
    }
}

fn last_text(req: &Request) -> String {
    req.messages
        .last()
        .map(|m| crate::llm::joined_text(&m.content))
        .unwrap_or_default()
}

#[test]
fn restore_prompt_and_awake_tools_come_from_the_genome() {
    let t = T::start(born());
    assert_eq!(t.log(), ["restore"]);
    let (_, req) = t.think().unwrap();
    let names: Vec<&str> = req.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        ["bash", "set_sleep", "note", "recall"],
        "no sleep-only tool awake"
    );
    assert!(req.system.contains("Tiny sleeps.") && req.system.contains("Tiny remembers."));
    assert!(last_text(&req).contains("Tiny history."));
}

#[test]
fn genome_tools_answer_at_once_or_through_its_io() {
    let mut t = T::start(born());
    t.call("recall", json!({}));
    let (_, req) = t.think().unwrap();
    assert!(
        matches!(&req.messages.last().unwrap().content[0], ContentBlock::ToolResult { content, .. } if content == "recalled: the seed")
    );
    t.call("note", json!({"text": "hello"}));
    assert!(t.think().is_none(), "the turn waits for the genome's write");
    let Some(TinyIo::Save { id, text }) = t.io() else {
        panic!("a save was asked")
    };
    assert_eq!(text, "hello");
    t.send(Input::Genome(TinyDone::Saved { id }));
    let (_, req) = t.think().unwrap();
    assert!(
        matches!(&req.messages.last().unwrap().content[0], ContentBlock::ToolResult { content, .. } if content == "saved")
    );
    assert_eq!(t.engine.fatigue(), 2, "genome tools tire too");
    assert_eq!(t.log(), ["restore", "tool recall", "tool note"]);
}

#[test]
fn a_sleep_only_tool_is_refused_awake() {
    let mut t = T::start(born());
    t.call("journal", json!({}));
    let (_, req) = t.think().unwrap();
    assert!(
        matches!(&req.messages.last().unwrap().content[0], ContentBlock::ToolResult { content, is_error: true, .. } if content.contains("only be used while you sleep"))
    );
    assert!(!t.log().iter().any(|l| l == "tool journal"));
}

#[test]
fn the_engine_runs_the_genomes_sleep_steps_and_takes_its_consolidation() {
    let mut t = T::start(born());
    t.call("recall", json!({}));
    t.call("set_sleep", json!({"seconds": 120}));
    assert_eq!(t.engine.status(), Status::Dreaming);
    assert_eq!(t.engine.genome().sleep_tools_seen, ["journal"]);
    let (_, req) = t.think().expect("the first compacting call");
    assert_eq!(req.tools.len(), 1, "sleep work gets the sleep tools");
    t.answer(Vec::new());
    t.answer(Vec::new());
    assert_eq!(t.engine.fatigue(), 0, "the consolidation reset fatigue");
    for _ in 0..3 {
        let Some(TinyIo::Dream { id }) = t.io() else {
            panic!("a dreaming step")
        };
        t.send(Input::Genome(TinyDone::Dreamt { id }));
    }
    assert!(matches!(t.engine.status(), Status::Asleep { .. }));
    assert_eq!(t.engine.dreams(), 1);
    assert_eq!(
        t.log()[2..],
        [
            "begin Requested(120.0)",
            "step Some(Compacting(0))",
            "step Some(Compacting(1))",
            "step Some(Dreaming(0))",
            "step Some(Dreaming(1))",
            "step Some(Dreaming(2))",
        ]
    );
    // A short sleep is not due for the genome: a plain pause.
    let mut t = T::start(born());
    t.call("set_sleep", json!({"seconds": 60}));
    assert!(matches!(t.engine.status(), Status::Asleep { .. }));
    assert!(!t.log().iter().any(|l| l.starts_with("begin")));
}

#[test]
fn a_wake_during_an_atomic_phase_waits_for_its_end() {
    let mut t = T::start(born());
    t.call("set_sleep", json!({"seconds": 120}));
    t.send(Input::Control(ControlCommand::Wake));
    assert_eq!(t.engine.status(), Status::Dreaming, "compacting is not cut");
    assert!(t.log().iter().any(|l| l == "wake deferred"));
    t.answer(Vec::new());
    assert!(!t.out.iter().any(|o| matches!(o, Output::Gather { .. })));
    t.answer(Vec::new());
    // Compacting is over: dreaming may be cut, and the deferred wake happens.
    assert!(t.log().iter().any(|l| l == "interrupt Some(Dreaming(0))"));
    assert!(t.out.iter().any(|o| matches!(o, Output::Gather { .. })));
    t.send(Input::Gathered {
        id: match t.out.iter().find_map(|o| match o {
            Output::Gather { id, .. } => Some(*id),
            _ => None,
        }) {
            Some(id) => id,
            None => unreachable!(),
        },
        view: Gathered {
            genome: "fresh".into(),
            ..Default::default()
        },
    });
    let (_, req) = t.think().unwrap();
    assert!(last_text(&req).contains("Tiny recalls: fresh"));
    // A wake between dreaming steps cuts the sleep work at once.
    let mut t = T::start(born());
    t.call("set_sleep", json!({"seconds": 120}));
    t.answer(Vec::new());
    t.answer(Vec::new());
    let Some(TinyIo::Dream { id }) = t.io() else {
        panic!("a dreaming step")
    };
    t.send(Input::Control(ControlCommand::Pause));
    t.send(Input::Genome(TinyDone::Dreamt { id }));
    assert!(t.io().is_none(), "paused: no next step");
    t.send(Input::Control(ControlCommand::Wake));
    assert!(t.log().iter().any(|l| l == "interrupt Some(Dreaming(1))"));
    assert!(!t.log().iter().any(|l| l == "wake deferred"));
}

#[test]
fn the_genome_says_where_trimmed_context_went() {
    let conversation = (0..30)
        .flat_map(|i| {
            [
                ("user".to_string(), Content::Text(format!("u{i}"))),
                ("assistant".to_string(), Content::Text(format!("a{i}"))),
            ]
        })
        .collect();
    let t = T::start(Restored {
        purpose: "grow".into(),
        conversation,
        whole_log: true,
        ..Default::default()
    });
    let (_, req) = t.think().unwrap();
    let first = crate::llm::joined_text(&req.messages[0].content);
    assert!(first.starts_with("Tiny trimmed "), "{first}");
}

#[test]
fn a_turn_task_says_what_is_new_as_data() {
    fn turn(t: &T) -> Option<crate::runner::brain::task::Turn> {
        t.out.iter().find_map(|o| match o {
            Output::Think {
                task: Task::Turn(turn),
                ..
            } => Some(turn.clone()),
            _ => None,
        })
    }
    let mut t = T::start(Restored {
        inbox: Some(super::input::InboxRead {
            text: "be brief\n".into(),
        }),
        ..born()
    });
    let first = turn(&t).unwrap();
    assert!(first.woke);
    assert_eq!(first.creator_messages, ["be brief"]);
    t.call("recall", json!({}));
    let next = turn(&t).unwrap();
    assert!(
        !next.woke && next.creator_messages.is_empty() && !next.asleep,
        "nothing new after a tool call"
    );
    assert_eq!(next.tools, ["bash", "set_sleep", "note", "recall"]);
}
