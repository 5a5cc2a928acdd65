//! The cycle's rules with the dreamer, one table or scenario each. No IO, no async, no
//! clock: the harness plays the driver by answering outputs with inputs at a time it sets.

mod mail;
mod review;
mod shared;

use chrono::{DateTime, TimeDelta, TimeZone, Utc};
use serde_json::json;

use super::{CommitError, Dreamer, DreamerDone, DreamerIo, DreamerRestored};
use crate::control::{Answer, ControlCommand};
use crate::llm::{ContentBlock, LlmError, Request, Response, Role, StopReason};
use crate::memory::conversation::Content;
use crate::memory::cycle::{Cycle, Profile};
use crate::memory::dreams::Dream;
use crate::memory::events::EventKind;
use crate::memory::status::Status;
use crate::runner::brain::task::Purpose;
use crate::runner::config::RunnerConfig;
use crate::runner::engine::input::{self, Gathered, InboxRead, Input};
use crate::runner::engine::output::{Output, Record};
use crate::runner::engine::{Engine, context};
use crate::runner::tools::ToolOutcome;

type Restored = input::Restored<DreamerRestored>;

const CONSOLIDATION: &str = "OBSERVATIONS:\nRED 10:00 a fact\nGRN 10:00 a detail\n\nREFLECTION:\nWent fine.\n\nPRIORITY:\nKeep going.\n";

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap()
}

fn dream_at(t: DateTime<Utc>) -> Dream {
    Dream {
        t: Some(t),
        actions: 3,
        reflection: "earlier".into(),
        priority: "earlier priority".into(),
        observations: 1,
        deep: false,
    }
}

pub(crate) fn text_of(req: &Request) -> String {
    req.messages
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(ContentBlock::text)
        .collect::<Vec<_>>()
        .join("\n")
}

pub(crate) struct H {
    pub(crate) fsm: Engine<Dreamer>,
    pub(crate) now: DateTime<Utc>,
    pub(crate) out: Vec<Output<Dreamer>>,
    pub(crate) all: Vec<Output<Dreamer>>,
    pub(crate) calls: u32,
    /// The model call issued and not answered yet.
    pub(crate) pending: Option<(u64, Purpose, Request)>,
    /// Ids of effects already answered.
    pub(crate) answered: std::collections::HashSet<u64>,
}

impl H {
    pub(crate) fn start(cfg: RunnerConfig, r: Restored) -> Self {
        Self::start_with(cfg, None, r)
    }

    pub(crate) fn start_with(cfg: RunnerConfig, max_dreams: Option<u64>, r: Restored) -> Self {
        let mut h = H {
            fsm: Engine::new(cfg, Dreamer::default(), max_dreams),
            now: t0(),
            out: Vec::new(),
            all: Vec::new(),
            calls: 0,
            pending: None,
            answered: Default::default(),
        };
        h.send(Input::Start(Box::new(r)));
        h
    }

    pub(crate) fn fresh() -> Self {
        Self::start(RunnerConfig::default(), fresh())
    }

    /// A creature whose last dream was `minutes` ago (`dreams` on disk).
    pub(crate) fn dreamt_ago(cfg: RunnerConfig, minutes: f64, dreams: u64) -> Self {
        let at = t0() - TimeDelta::milliseconds((minutes * 60_000.0) as i64);
        Self::start(
            cfg,
            Restored {
                purpose: "grow".into(),
                genome: DreamerRestored {
                    dreams,
                    recent_dreams: vec![dream_at(at)],
                    ..Default::default()
                },
                ..Default::default()
            },
        )
    }

    pub(crate) fn send(&mut self, e: Input<Dreamer>) {
        let id = match &e {
            Input::Thought { id, .. }
            | Input::ToolDone { id, .. }
            | Input::Timer { id }
            | Input::Gathered { id, .. }
            | Input::Genome(
                DreamerDone::Committed { id, .. } | DreamerDone::ObservationsLoaded { id, .. },
            ) => Some(*id),
            _ => None,
        };
        self.answered.extend(id);
        self.out = self.fsm.handle(self.now, e);
        self.all.extend(self.out.iter().cloned());
        if let Some(call) = self.new_llm() {
            self.pending = Some(call);
        }
    }

    /// The model call waiting for an answer.
    pub(crate) fn llm(&self) -> Option<(u64, Purpose, Request)> {
        self.pending.clone()
    }

    /// A model call issued by the last event.
    pub(crate) fn new_llm(&self) -> Option<(u64, Purpose, Request)> {
        self.out.iter().find_map(|e| match e {
            Output::Think { id, task, request } => Some((*id, task.purpose(), request.clone())),
            _ => None,
        })
    }

    pub(crate) fn purpose(&self) -> Option<Purpose> {
        self.llm().map(|(_, p, _)| p)
    }

    pub(crate) fn reply(&mut self, content: Vec<ContentBlock>) {
        let (id, _, _) = self.pending.take().expect("a model call is pending");
        self.send(Input::Thought {
            id,
            result: Ok(Response {
                content,
                stop_reason: StopReason::EndTurn,
                usage: None,
            }),
        });
    }

    pub(crate) fn reply_text(&mut self, text: &str) {
        self.reply(vec![ContentBlock::Text { text: text.into() }]);
    }

    pub(crate) fn call(&mut self, name: &str, input: serde_json::Value) -> ContentBlock {
        self.calls += 1;
        ContentBlock::ToolUse {
            id: format!("c{}", self.calls),
            name: name.into(),
            input,
        }
    }

    /// One turn running `n` bash commands that succeed.
    pub(crate) fn bash(&mut self, n: usize) {
        let calls = (0..n)
            .map(|i| self.call("bash", json!({"command": format!("echo {i}")})))
            .collect();
        self.reply(calls);
        self.run_tools();
    }

    /// The latest effect `f` picks whose id has no answer yet.
    pub(crate) fn unanswered<T>(
        &self,
        f: impl Fn(&Output<Dreamer>) -> Option<(u64, T)>,
    ) -> Option<(u64, T)> {
        self.all
            .iter()
            .rev()
            .filter_map(f)
            .find(|(id, _)| !self.answered.contains(id))
    }

    pub(crate) fn run_tools(&mut self) {
        while let Some((id, ())) = self.unanswered(|e| match e {
            Output::RunTool { id, .. } => Some((*id, ())),
            _ => None,
        }) {
            self.send(Input::ToolDone {
                id,
                outcome: ToolOutcome {
                    ok: true,
                    content: "{\"stdout\":\"ok\",\"stderr\":\"\"}".into(),
                    display: "ok".into(),
                    ms: 5,
                },
            });
        }
    }

    pub(crate) fn set_sleep(&mut self, secs: f64) {
        let c = self.call("set_sleep", json!({"seconds": secs}));
        self.reply(vec![
            ContentBlock::Text {
                text: "Resting now.".into(),
            },
            c,
        ]);
    }

    /// Plays the dream through: consolidation, commit, and the deep steps if asked.
    pub(crate) fn dream(&mut self) {
        assert_eq!(self.purpose(), Some(Purpose::Genome("consolidate")));
        self.reply_text(CONSOLIDATION);
        self.commit(Ok(()));
        if let Some(id) = self.out.iter().find_map(|e| match e {
            Output::Genome(DreamerIo::LoadObservations { id }) => Some(*id),
            _ => None,
        }) {
            self.send(Input::Genome(DreamerDone::ObservationsLoaded {
                id,
                result: Ok(
                    "# Observations\n\n## 2026-03-01\n\nRED 10:00 a fact\nGRN 10:00 a detail\n"
                        .into(),
                ),
            }));
            assert_eq!(self.purpose(), Some(Purpose::Genome("prune")));
            self.reply_text("# Observations\n\n## 2026-03-01\n\nGRN 10:00 a detail\n");
            assert_eq!(self.purpose(), Some(Purpose::Genome("priorities")));
            self.reply_text("1. first\n2. second\n3. third\n");
        }
    }

    pub(crate) fn commit(&mut self, result: Result<(), String>) {
        let result = result.map_err(|e| CommitError::Dream(std::io::Error::other(e)));
        let (id, ()) = self
            .unanswered(|e| match e {
                Output::Genome(DreamerIo::Commit { id, .. }) => Some((*id, ())),
                _ => None,
            })
            .expect("a dream commit is pending");
        self.send(Input::Genome(DreamerDone::Committed { id, result }));
    }

    pub(crate) fn timer(&self) -> Option<(u64, DateTime<Utc>)> {
        self.unanswered(|e| match e {
            Output::Timer { id, at } => Some((*id, *at)),
            _ => None,
        })
    }

    /// Lets the pending timer fire at its time.
    pub(crate) fn fire(&mut self) {
        let (id, at) = self.timer().expect("a timer is pending");
        self.now = at;
        self.send(Input::Timer { id });
    }

    /// Answers the pending gather; `inbox` is the whole of `MESSAGES.md` (empty if `None`).
    pub(crate) fn gather(&mut self, inbox: Option<&str>) {
        let (id, ()) = self
            .unanswered(|e| match e {
                Output::Gather { id } => Some((*id, ())),
                _ => None,
            })
            .expect("a gather is pending");
        self.send(Input::Gathered {
            id,
            view: Gathered {
                inbox: Some(InboxRead {
                    text: inbox.unwrap_or_default().into(),
                }),
                ..Default::default()
            },
        });
    }

    pub(crate) fn wake(&mut self) {
        self.fire();
        self.gather(None);
    }

    pub(crate) fn control(&mut self, cmd: ControlCommand) {
        self.send(Input::Control(cmd));
    }

    /// The answer to the command just sent.
    pub(crate) fn answer(&self) -> Option<Answer> {
        self.out.iter().find_map(|e| match e {
            Output::Answer(a) => Some(a.clone()),
            _ => None,
        })
    }

    pub(crate) fn count_events(&self, kind: &str) -> usize {
        self.all
            .iter()
            .filter(
                |e| matches!(e, Output::Record(Record::Event { kind: k, .. }) if k.as_str() == kind),
            )
            .count()
    }

    pub(crate) fn wrote(&self, f: impl Fn(&Record) -> bool) -> bool {
        self.out
            .iter()
            .any(|e| matches!(e, Output::Record(w) if f(w)))
    }

    /// Whether the last input asked for this genome write.
    pub(crate) fn wrote_genome(&self, f: impl Fn(&DreamerIo) -> bool) -> bool {
        self.out
            .iter()
            .any(|e| matches!(e, Output::Genome(io) if f(io)))
    }
}

fn fresh() -> Restored {
    Restored {
        fresh: true,
        purpose: "grow".into(),
        ..Default::default()
    }
}

#[test]
fn birth_asks_the_model_with_tools_and_purpose() {
    let h = H::fresh();
    let (_, purpose, req) = h.llm().unwrap();
    assert_eq!(purpose, Purpose::Turn);
    assert!(req.system.contains("grow"));
    let tools: Vec<&str> = req.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(tools, ["bash", "set_sleep", "send_message"]);
    assert!(text_of(&req).contains("You just came to life"));
    assert_eq!(h.fsm.status(), Status::Awake);
    assert_eq!(h.count_events("creature.boot"), 1);
}

#[test]
fn nap_plain_pause_or_dream() {
    #[derive(Debug, PartialEq)]
    enum Want {
        Nap,
        Pause,
        Dream,
    }
    // (seconds asked, minutes since the last dream (None: never dreamt), outcome, pause length)
    let table = [
        (10.0, Some(60.0), Want::Nap, 10.0),
        (29.9, Some(60.0), Want::Nap, 29.9),
        (1.0, Some(60.0), Want::Nap, 2.0),
        (30.0, Some(60.0), Want::Dream, 30.0),
        (30.0, Some(9.0), Want::Pause, 30.0),
        (300.0, Some(10.0), Want::Dream, 300.0),
        (300.0, Some(9.9), Want::Pause, 300.0),
        (300.0, None, Want::Dream, 300.0),
        (9999.0, Some(60.0), Want::Dream, 300.0),
    ];
    for (secs, ago, want, pause) in table {
        let mut h = match ago {
            Some(m) => H::dreamt_ago(RunnerConfig::default(), m, 1),
            None => H::start(RunnerConfig::default(), fresh()),
        };
        h.set_sleep(secs);
        let got = match (h.purpose(), h.fsm.status()) {
            (Some(Purpose::Genome("consolidate")), Status::Dreaming) => Want::Dream,
            (None, Status::Napping { .. }) => Want::Nap,
            (None, Status::Asleep { .. }) => Want::Pause,
            other => panic!("{secs}s: unexpected {other:?}"),
        };
        assert_eq!(got, want, "{secs}s, {ago:?} min ago");
        if want == Want::Dream {
            h.dream();
        }
        let (_, at) = h.timer().expect("a wake timer");
        assert_eq!(
            at - h.now,
            TimeDelta::milliseconds((pause * 1000.0) as i64),
            "{secs}s"
        );
        assert_eq!(h.count_events("creature.sleep"), 1);
        assert!(h.all.iter().any(|e| matches!(e, Output::Record(Record::Iteration(i)) if i.sleep_s == f64::clamp(secs, 2.0, 300.0))));
    }
}

#[test]
fn the_dream_interval_follows_the_config_and_speed() {
    // At speed 60 the 10-minute interval is 10 real seconds.
    let cfg = RunnerConfig {
        speed: 60.0,
        ..RunnerConfig::default()
    };
    for (seconds_ago, dreams) in [(9.0, false), (10.0, true)] {
        let mut h = H::dreamt_ago(cfg.clone(), seconds_ago / 60.0, 1);
        h.set_sleep(300.0);
        assert_eq!(
            h.purpose() == Some(Purpose::Genome("consolidate")),
            dreams,
            "{seconds_ago}s ago"
        );
        if !dreams {
            // 300 creature seconds are 5 real ones.
            assert_eq!(h.timer().unwrap().1 - h.now, TimeDelta::seconds(5));
        }
    }
}

#[test]
fn fatigue_warning_once_at_the_threshold() {
    // (tool calls, warned in the next request)
    for (calls, warned) in [(59, false), (60, true), (61, true)] {
        let mut h = H::fresh();
        h.bash(calls);
        let (_, p, req) = h.llm().unwrap();
        assert_eq!(p, Purpose::Turn);
        let n = text_of(&req).matches("Start wrapping up").count();
        assert_eq!(n, usize::from(warned), "{calls} calls");
        assert_eq!(h.fsm.fatigue(), calls as u64);
        if warned {
            h.bash(1);
            let (_, _, req) = h.llm().unwrap();
            assert_eq!(
                text_of(&req).matches("Start wrapping up").count(),
                1,
                "warned once"
            );
        }
    }
}

#[test]
fn the_fatigue_limit_forces_consolidation_then_the_deep_pause() {
    for (calls, forced) in [(79, false), (80, true), (85, true)] {
        let mut h = H::fresh();
        h.bash(calls);
        assert_eq!(
            h.purpose() == Some(Purpose::Genome("consolidate")),
            forced,
            "{calls} calls"
        );
        if !forced {
            continue;
        }
        assert!(h.all.iter().any(|e| matches!(e, Output::Record(Record::Conversation { content, .. }) if content.contains("You're exhausted"))));
        h.dream();
        assert_eq!(h.fsm.fatigue(), 0, "reset after consolidation");
        let (_, at) = h.timer().unwrap();
        assert_eq!(at - h.now, TimeDelta::seconds(300));
        assert_eq!(h.fsm.dreams(), 1);
    }
}

#[test]
fn set_sleep_is_not_counted_as_fatigue_and_other_calls_are() {
    let mut h = H::fresh();
    let calls = vec![
        h.call("bash", json!({"command": "ls"})),
        h.call("bash", json!({})),
        h.call("browser", json!({"url": "x"})),
    ];
    h.reply(calls);
    h.run_tools();
    assert_eq!(h.fsm.fatigue(), 3);
    assert_eq!(h.count_events("creature.tool_call"), 3);
    h.set_sleep(10.0);
    assert_eq!(h.fsm.fatigue(), 3);
    assert_eq!(h.count_events("creature.tool_call"), 3);
}

#[test]
fn deep_sleep_every_nth_dream() {
    // (dreams on disk before, profile) -> the next dream is deep, and its pause
    for (before, profile, deep, pause) in [
        (0, Profile::Seed, false, 300.0),
        (8, Profile::Seed, false, 300.0),
        (9, Profile::Seed, true, 300.0),
        (10, Profile::Seed, false, 300.0),
        (19, Profile::Seed, true, 300.0),
        (3, Profile::Openseed, false, 30.0),
        (4, Profile::Openseed, true, 30.0),
    ] {
        let cfg = RunnerConfig::profile(profile);
        let mut h = H::dreamt_ago(cfg, 60.0, before);
        let asked = if profile == Profile::Seed {
            300.0
        } else {
            30.0
        };
        h.set_sleep(asked);
        h.reply_text(CONSOLIDATION);
        let dream = h.out.iter().find_map(|e| match e {
            Output::Genome(DreamerIo::Commit { commit, .. }) => Some(commit.dream.clone()),
            _ => None,
        });
        assert_eq!(dream.unwrap().deep, deep, "dream #{}", before + 1);
        h.commit(Ok(()));
        let loads = h
            .out
            .iter()
            .any(|e| matches!(e, Output::Genome(DreamerIo::LoadObservations { .. })));
        assert_eq!(loads, deep, "dream #{}", before + 1);
        if deep {
            h.send(Input::Genome(DreamerDone::ObservationsLoaded {
                id: match h.out.iter().find_map(|e| match e {
                    Output::Genome(DreamerIo::LoadObservations { id }) => Some(*id),
                    _ => None,
                }) {
                    Some(id) => id,
                    None => unreachable!(),
                },
                result: Ok(
                    "# Observations\n\n## 2026-03-01\n\nRED 09:00 keep me\nGRN 09:00 drop me\n"
                        .into(),
                ),
            }));
            // The pruner drops a RED line: the code puts it back.
            h.reply_text("# Observations\n\n## 2026-03-01\n");
            assert!(h.wrote_genome(|w| matches!(w, DreamerIo::Observations { text } if text.contains("RED 09:00 keep me") && !text.contains("drop me"))));
            h.reply_text("- a\n- b\n- c\n");
            assert!(h.wrote_genome(
                |w| matches!(w, DreamerIo::Priorities { items, .. } if items.len() == 3)
            ));
            assert!(h.wrote_genome(
                |w| matches!(w, DreamerIo::Diary { body, .. } if body.contains("Keep going."))
            ));
            assert!(matches!(h.fsm.status(), Status::DeepSleep { .. }));
        }
        let (_, at) = h.timer().unwrap();
        assert_eq!(
            at - h.now,
            TimeDelta::milliseconds((pause * 1000.0) as i64),
            "dream #{}",
            before + 1
        );
    }
}

#[test]
fn observations_and_dream_go_in_one_commit() {
    let mut h = H::fresh();
    h.bash(2);
    h.set_sleep(300.0);
    let (_, _, req) = h.llm().unwrap();
    assert!(req.system.starts_with(super::consolidation::SYSTEM_PREFIX));
    assert!(text_of(&req).contains("Actions since the last dream: 2 (0 failed)"));
    h.reply_text(CONSOLIDATION);
    let commit = h
        .out
        .iter()
        .find_map(|e| match e {
            Output::Genome(DreamerIo::Commit { commit, .. }) => Some(commit.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(commit.date, "2026-03-01");
    assert_eq!(
        commit.observations,
        vec!["RED 10:00 a fact", "GRN 10:00 a detail"]
    );
    assert_eq!(
        (
            commit.dream.actions,
            commit.dream.observations,
            commit.dream.reflection.as_str(),
            commit.dream.priority.as_str()
        ),
        (2, 2, "Went fine.", "Keep going.")
    );
    assert_eq!(
        h.count_events("creature.dream"),
        0,
        "not before the commit succeeds"
    );
    h.commit(Ok(()));
    assert_eq!(h.count_events("creature.dream"), 1);
}

#[test]
fn a_failed_consolidation_writes_no_dream() {
    // The model fails, answers nothing usable, or the commit fails.
    for case in 0..3 {
        let mut h = H::fresh();
        h.bash(3);
        h.set_sleep(300.0);
        match case {
            0 => {
                let (id, _, _) = h.pending.take().unwrap();
                h.send(Input::Thought {
                    id,
                    result: Err(LlmError::Timeout),
                });
            }
            1 => h.reply_text("   "),
            _ => {
                h.reply_text(CONSOLIDATION);
                h.commit(Err("disk full".into()));
            }
        }
        assert!(!h.all.iter().any(|e| matches!(
            e,
            Output::Genome(
                DreamerIo::Observations { .. }
                    | DreamerIo::Priorities { .. }
                    | DreamerIo::Diary { .. }
            )
        )));
        assert_eq!(h.count_events("creature.dream"), 0, "case {case}");
        assert_eq!(h.count_events("creature.error"), 1, "case {case}");
        assert_eq!(h.fsm.dreams(), 0);
        assert_eq!(h.fsm.fatigue(), 3, "fatigue stays until a dream succeeds");
        assert!(
            matches!(h.fsm.status(), Status::Asleep { .. }),
            "the sleep goes on"
        );
        if case < 2 {
            assert!(
                !h.all
                    .iter()
                    .any(|e| matches!(e, Output::Genome(DreamerIo::Commit { .. })))
            );
        }
    }
}

#[test]
fn context_is_trimmed_after_a_dream() {
    let mut h = H::fresh();
    for _ in 0..15 {
        h.bash(1);
    }
    assert!(h.fsm.context().len() > 21);
    h.set_sleep(300.0);
    h.dream();
    let ctx = h.fsm.context();
    assert_eq!(ctx.len(), 21);
    assert_eq!(ctx[1].role, Role::Assistant);
    let ContentBlock::Text { text } = &ctx[0].content[0] else {
        panic!("a note heads the context")
    };
    assert!(text.contains(".self/conversation.jsonl"));
    h.wake();
    let (_, _, req) = h.llm().unwrap();
    assert!(text_of(&req).contains("Your last reflection: Went fine."));
    assert!(text_of(&req).contains("Your priority: Keep going."));
    assert!(text_of(&req).contains("RED 10:00 a fact"));
}

#[test]
fn emergency_trim_keeps_requests_under_the_limit() {
    let cfg = RunnerConfig {
        cycle: Cycle {
            max_context_chars: 20_000,
            ..Cycle::default()
        },
        ..RunnerConfig::default()
    };
    let mut h = H::start(cfg, fresh());
    for _ in 0..30 {
        let c = h.call("bash", json!({"command": "cat big"}));
        h.reply(vec![c]);
        let id = h
            .out
            .iter()
            .find_map(|e| match e {
                Output::RunTool { id, .. } => Some(*id),
                _ => None,
            })
            .unwrap();
        h.send(Input::ToolDone {
            id,
            outcome: ToolOutcome {
                ok: true,
                content: "x".repeat(3_000),
                display: "x".into(),
                ms: 1,
            },
        });
        let (_, _, req) = h.llm().unwrap();
        let chars: usize = req.messages.iter().map(context::message_chars).sum();
        assert!(chars <= 20_000, "{chars}");
        assert_eq!(req.messages[0].role, Role::User);
    }
}

#[test]
fn pause_stops_model_calls_tools_and_wakes_until_resume() {
    // Paused while the model thinks: its answer is recorded, its tools wait.
    let mut h = H::fresh();
    h.control(ControlCommand::Pause);
    assert_eq!(h.fsm.status(), Status::Paused);
    assert!(h.wrote(|w| matches!(w, Record::Runner { paused: true })));
    assert_eq!(h.count_events("creature.pause"), 1, "a pause is an event");
    let c = h.call("bash", json!({"command": "ls"}));
    h.reply(vec![c]);
    assert!(
        !h.out
            .iter()
            .any(|e| matches!(e, Output::RunTool { .. } | Output::Think { .. }))
    );
    h.control(ControlCommand::Resume);
    assert!(h.out.iter().any(|e| matches!(e, Output::RunTool { .. })));
    assert_eq!(h.count_events("creature.resume"), 1, "a resume is an event");
    h.run_tools();
    // Paused while asleep: the timer fires, the creature stays asleep.
    h.set_sleep(10.0);
    h.control(ControlCommand::Pause);
    h.fire();
    assert!(!h.out.iter().any(|e| matches!(e, Output::Gather { .. })));
    assert_eq!(h.fsm.status(), Status::Paused);
    h.control(ControlCommand::Resume);
    h.gather(None);
    assert_eq!(h.purpose(), Some(Purpose::Turn));
    // Paused before a turn: nothing at all.
    h.control(ControlCommand::Pause);
    h.reply_text("thinking");
    assert!(h.new_llm().is_none());
    h.control(ControlCommand::Resume);
    assert_eq!(h.purpose(), Some(Purpose::Turn));
}

#[test]
fn pause_holds_a_dream_between_steps() {
    let mut h = H::fresh();
    h.bash(1);
    h.set_sleep(300.0);
    h.control(ControlCommand::Pause);
    h.reply_text(CONSOLIDATION);
    h.commit(Ok(()));
    assert_eq!(h.fsm.dreams(), 1, "what was in flight finishes");
    h.control(ControlCommand::Resume);
    assert!(h.timer().is_some());
}

#[test]
fn force_sleep_from_every_state() {
    // Awake with a turn in flight: consolidation follows the turn (enough actions for a
    // full dream; fewer make a lightweight one, see below).
    let mut h = H::fresh();
    h.control(ControlCommand::ForceSleep);
    let calls = (0..5)
        .map(|_| h.call("bash", json!({"command": "ls"})))
        .collect();
    h.reply(calls);
    h.run_tools();
    assert_eq!(h.purpose(), Some(Purpose::Genome("consolidate")));
    assert!(h.all.iter().any(|e| matches!(e, Output::Record(Record::Conversation { content, .. }) if content.contains("operator is putting you to sleep"))));
    h.dream();
    assert_eq!(h.timer().unwrap().1 - h.now, TimeDelta::seconds(300));
    // Asleep after a dream: nothing to consolidate.
    h.control(ControlCommand::ForceSleep);
    assert!(h.new_llm().is_none());
    // Napping: consolidation now, even inside the dream interval.
    h.wake();
    h.bash(5);
    h.set_sleep(5.0);
    assert!(matches!(h.fsm.status(), Status::Napping { .. }));
    h.control(ControlCommand::ForceSleep);
    assert_eq!(h.purpose(), Some(Purpose::Genome("consolidate")));
    h.dream();
    assert_eq!(h.fsm.dreams(), 2);
}

/// The operator's force sleep dreams now, inside the dream interval too, and says what
/// became of it.
#[test]
fn operator_force_sleep_dreams_whatever_the_interval_and_answers() {
    // Dreamt 5 minutes ago; the turn in flight ends in a set_sleep of its own.
    let mut h = H::dreamt_ago(RunnerConfig::default(), 5.0, 1);
    h.control(ControlCommand::ForceSleep);
    assert_eq!(h.answer(), Some(Answer::DreamsNext));
    let mut calls: Vec<ContentBlock> = (0..6)
        .map(|i| h.call("bash", json!({"command": format!("echo {i}")})))
        .collect();
    calls.push(h.call("set_sleep", json!({"seconds": 60})));
    h.reply(calls);
    h.run_tools();
    assert_eq!(
        h.purpose(),
        Some(Purpose::Genome("consolidate")),
        "a dream, not a plain sleep"
    );
    assert_eq!(h.fsm.status(), Status::Dreaming);
    h.control(ControlCommand::ForceSleep);
    assert_eq!(h.answer(), Some(Answer::AlreadyDreaming));
    h.dream();
    assert_eq!(h.fsm.dreams(), 2);
    // Asleep after a dream: nothing done, and the operator is told until when.
    let (_, wake_at) = h.timer().unwrap();
    h.control(ControlCommand::ForceSleep);
    assert_eq!(h.answer(), Some(Answer::AlreadyAsleep { until: wake_at }));
    assert!(h.new_llm().is_none() && h.timer().is_some());
    // Awake with almost nothing done: a lightweight dream, no model call.
    h.wake();
    h.bash(2);
    h.control(ControlCommand::ForceSleep);
    h.reply_text("looking around");
    assert_ne!(h.purpose(), Some(Purpose::Genome("consolidate")));
    assert!(
        h.wrote_genome(|io| matches!(io, DreamerIo::Commit { commit, .. }
        if commit.observations.is_empty()
            && commit.dream.observations == 0
            && commit.dream.actions == 2
            && commit.dream.reflection == commit.dream.priority))
    );
    h.commit(Ok(()));
    assert_eq!(h.fsm.dreams(), 3);
    assert_eq!(h.count_events("creature.dream"), 2);
    // Paused: held until resumed, and said so.
    h.wake();
    h.control(ControlCommand::Pause);
    h.control(ControlCommand::ForceSleep);
    assert_eq!(h.answer(), Some(Answer::Paused));
    h.reply_text("still here");
    assert!(h.new_llm().is_none());
    h.control(ControlCommand::Resume);
    assert!(h.wrote_genome(|io| matches!(io, DreamerIo::Commit { .. })));
    // Waking an awake creature.
    h.commit(Ok(()));
    h.wake();
    h.control(ControlCommand::Wake);
    assert_eq!(h.answer(), Some(Answer::AlreadyAwake));
}

#[test]
fn wake_cuts_sleep_short_and_outdates_the_timer() {
    let mut h = H::fresh();
    h.set_sleep(300.0);
    h.dream();
    let (old, _) = h.timer().unwrap();
    h.now += TimeDelta::seconds(20);
    h.control(ControlCommand::Wake);
    assert!(h.wrote(|w| matches!(w, Record::Event { kind: EventKind::Wake, fields, .. } if fields["source"] == "operator")));
    assert!(h.wrote(|w| matches!(w, Record::RemoveSleepFile)));
    h.gather(None);
    let (_, _, req) = h.llm().unwrap();
    assert!(text_of(&req).contains("You woke up after sleeping 20s."));
    h.send(Input::Timer { id: old });
    assert!(
        h.out.iter().all(|e| matches!(e, Output::Status { .. })),
        "stale timer ignored"
    );
    // Wake during a dream: no pause after it.
    h.now += TimeDelta::hours(1);
    h.set_sleep(300.0);
    assert_eq!(h.purpose(), Some(Purpose::Genome("consolidate")));
    h.control(ControlCommand::Wake);
    h.reply_text(CONSOLIDATION);
    h.commit(Ok(()));
    assert!(h.out.iter().any(|e| matches!(e, Output::Gather { .. })));
}

#[test]
fn restart_mid_sleep_resumes_the_sleep() {
    // (wake_at relative to now in seconds) -> still asleep?
    for (offset, asleep) in [(120, true), (-5, false)] {
        let wake_at = t0() + TimeDelta::seconds(offset);
        let mut h = H::start(
            RunnerConfig::default(),
            Restored {
                purpose: "grow".into(),
                genome: DreamerRestored {
                    dreams: 3,
                    recent_dreams: vec![dream_at(t0() - TimeDelta::minutes(2))],
                    ..Default::default()
                },
                sleep_until: Some(wake_at),
                sleep_started: Some(t0() - TimeDelta::seconds(100)),
                ..Default::default()
            },
        );
        assert!(h.new_llm().is_none(), "no model call while asleep");
        if asleep {
            assert_eq!(
                h.fsm.status(),
                Status::Asleep {
                    until: Some(wake_at)
                }
            );
            assert_eq!(h.timer().unwrap().1, wake_at);
            h.fire();
        }
        h.gather(Some("new note\n"));
        let (_, _, req) = h.llm().unwrap();
        let text = text_of(&req);
        let slept = 100 + offset.max(0);
        assert!(
            text.contains(&format!("You woke up after sleeping {slept}s.")),
            "{text}"
        );
        assert!(text.contains("Your priority: earlier priority"));
        assert!(text.contains("new note"));
        assert_eq!(h.fsm.dreams(), 3, "never from zero");
    }
}

#[test]
fn restart_while_dreaming_dreams_again() {
    let mut activity = crate::runner::activity::Activity::default();
    activity.push_thought("I was busy");
    activity.push_action(crate::memory::iterations::IterationAction {
        tool: "bash".into(),
        ok: true,
        summary: "x".into(),
        ms: 1,
        command: Some("ls".into()),
    });
    for (asked, dreams) in [(300.0, true), (10.0, false)] {
        let h = H::start(
            RunnerConfig::default(),
            Restored {
                purpose: "grow".into(),
                activity: activity.clone(),
                interrupted_sleep_s: Some(asked),
                ..Default::default()
            },
        );
        assert_eq!(
            h.purpose() == Some(Purpose::Genome("consolidate")),
            dreams,
            "{asked}s"
        );
        assert_eq!(h.fsm.fatigue(), 1);
    }
}

#[test]
fn restart_rebuilds_context_and_answers_dangling_calls() {
    let log = vec![
        ("user".to_string(), Content::Text("born".into())),
        (
            "assistant".to_string(),
            Content::Blocks(vec![crate::memory::conversation::Block::ToolUse {
                id: "a".into(),
                name: "bash".into(),
                input: json!({"command": "sleep 100"}),
            }]),
        ),
    ];
    let h = H::start(
        RunnerConfig::default(),
        Restored {
            purpose: "grow".into(),
            conversation: log,
            whole_log: true,
            ..Default::default()
        },
    );
    let (_, _, req) = h.llm().unwrap();
    assert_eq!(req.messages.len(), 3);
    assert!(
        matches!(&req.messages[2].content[0], ContentBlock::ToolResult { tool_use_id, is_error: true, .. } if tool_use_id == "a")
    );
    assert!(text_of(&req).contains("the runner restarted"));
}

#[test]
fn messages_are_delivered_once_and_after_tool_results() {
    let mut h = H::fresh();
    // Arrives while a tool runs: held until the results are in, handed over directly.
    let c = h.call("bash", json!({"command": "ls"}));
    h.reply(vec![c]);
    h.control(ControlCommand::Message {
        text: "be brief".into(),
    });
    assert!(h.wrote(|w| matches!(w, Record::AppendInbox { text, .. } if text == "be brief")));
    assert!(h.wrote(|w| matches!(w, Record::InboxDelivered(_))));
    assert_eq!(h.count_events("creature.message"), 1);
    h.run_tools();
    let (_, _, req) = h.llm().unwrap();
    let last = req.messages.last().unwrap();
    assert!(matches!(last.content[0], ContentBlock::ToolResult { .. }));
    assert!(text_of(&req).contains("be brief"));
    // The next wake finds it in MESSAGES.md, whatever the file around it became: already
    // delivered. A paragraph a person added is new.
    h.set_sleep(10.0);
    h.fire();
    h.gather(Some(&format!(
        "# Messages\n\nrewritten by an editor\n\n{}",
        crate::memory::messages::entry("be brief", t0())
    )));
    let (_, _, req) = h.llm().unwrap();
    let text = text_of(&req);
    assert!(text.contains("rewritten by an editor"), "{text}");
    assert_eq!(text.matches("be brief").count(), 1, "{text}");
    assert_eq!(h.count_events("creature.message"), 2);
}

#[test]
fn an_inbox_read_at_start_is_delivered_once_and_its_ledger_kept() {
    let h = H::start(
        RunnerConfig::default(),
        Restored {
            inbox: Some(InboxRead {
                text: "# Messages\n\nwelcome\n".into(),
            }),
            inbox_migrated: true,
            ..fresh()
        },
    );
    let (_, _, req) = h.llm().unwrap();
    assert!(text_of(&req).contains("welcome"));
    let saved: Vec<_> = h
        .all
        .iter()
        .filter_map(|o| match o {
            Output::Record(Record::InboxDelivered(d)) => Some(d.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        saved.len(),
        2,
        "the migrated ledger, then what was delivered"
    );
    let mut d = saved[1].clone();
    assert_eq!(d.take_new("welcome\n"), None);
}

#[test]
fn model_errors_back_off_and_retry() {
    let mut h = H::fresh();
    let mut delays = Vec::new();
    for _ in 0..7 {
        let (id, _, _) = h.pending.take().unwrap();
        h.send(Input::Thought {
            id,
            result: Err(LlmError::Server {
                status: 529,
                body: "overloaded".into(),
            }),
        });
        let (_, at) = h.timer().unwrap();
        delays.push((at - h.now).num_seconds());
        h.fire();
    }
    assert_eq!(delays, vec![2, 4, 8, 16, 32, 60, 60]);
    assert_eq!(h.count_events("creature.error"), 7);
    assert!(h.all.iter().any(|e| matches!(e, Output::Fault(Some(_)))));
    h.reply_text("better now");
    assert!(h.out.iter().any(|e| matches!(e, Output::Fault(None))));
}

#[test]
fn a_rate_limit_waits_as_long_as_the_server_asks() {
    let mut h = H::fresh();
    let (id, _, _) = h.pending.take().unwrap();
    h.send(Input::Thought {
        id,
        result: Err(LlmError::RateLimited {
            retry_after: Some(std::time::Duration::from_secs(90)),
        }),
    });
    let (_, at) = h.timer().unwrap();
    assert_eq!((at - h.now).num_seconds(), 90);
    assert!(h.all.iter().any(|e| matches!(
        e,
        Output::Record(Record::Event { fields, .. }) if fields.get("retryIn") == Some(&json!(90000.0))
    )));
}

#[test]
fn a_refused_key_waits_for_the_operator_and_a_wake_tries_again() {
    let mut h = H::fresh();
    let (id, _, _) = h.pending.take().unwrap();
    h.send(Input::Thought {
        id,
        result: Err(LlmError::Auth {
            status: 401,
            body: String::new(),
            variable: Some("ANTHROPIC_API_KEY"),
        }),
    });
    assert!(h.timer().is_none(), "no retry is scheduled");
    assert!(h.pending.is_none(), "no model call");
    assert!(h.all.iter().any(|e| matches!(
        e,
        Output::Record(Record::Event { fields, .. })
            if fields.get("error") == Some(&json!("the model refused the key (401): check ANTHROPIC_API_KEY · wake to try again"))
                && !fields.contains_key("retryIn")
    )));
    assert!(
        h.all.iter().any(
            |e| matches!(e, Output::Fault(Some(why)) if why.contains("check ANTHROPIC_API_KEY"))
        )
    );
    h.now += TimeDelta::hours(1);
    assert!(h.pending.is_none(), "still waiting");
    h.send(Input::Control(ControlCommand::Wake));
    assert!(h.pending.is_some(), "a wake tries again at once");
    h.reply_text("the key works now");
    assert!(h.out.iter().any(|e| matches!(e, Output::Fault(None))));
}

#[test]
fn max_dreams_ends_the_run_after_the_nth_dream() {
    let mut h = H::start_with(RunnerConfig::default(), Some(2), fresh());
    for n in 1..=2 {
        h.bash(1);
        h.set_sleep(300.0);
        h.dream();
        if n < 2 {
            h.wake();
            h.now += TimeDelta::minutes(10);
        }
    }
    assert!(h.out.iter().any(|e| matches!(e, Output::Exit)));
    assert_eq!(h.fsm.status(), Status::Stopped);
}

#[test]
fn shutdown_writes_an_interrupted_checkpoint() {
    let mut h = H::fresh();
    h.bash(3);
    h.send(Input::Shutdown);
    assert!(h.wrote(
        |w| matches!(w, Record::Iteration(i) if i.interrupted && i.action_count == Some(3))
    ));
    assert!(h.out.iter().any(|e| matches!(e, Output::Exit)));
    h.send(Input::Shutdown);
    assert!(
        !h.out.iter().any(|e| matches!(e, Output::Exit)),
        "only once"
    );
}

#[test]
fn status_and_fatigue_are_published_on_change_only() {
    let mut h = H::fresh();
    let before = h
        .all
        .iter()
        .filter(|e| matches!(e, Output::Status { .. }))
        .count();
    assert_eq!(before, 1);
    h.reply_text("just talking");
    assert!(!h.out.iter().any(|e| matches!(e, Output::Status { .. })));
    h.bash(2);
    assert!(h.all.iter().any(|e| matches!(
        e,
        Output::Status {
            fatigue: 2,
            status: Status::Awake
        }
    )));
}

#[test]
fn deep_sleep_without_observations_skips_pruning() {
    let mut h = H::dreamt_ago(RunnerConfig::default(), 60.0, 9);
    h.set_sleep(300.0);
    h.reply_text("REFLECTION:\nNothing to note.\nPRIORITY:\nRest.\n");
    h.commit(Ok(()));
    let (id, ()) = h
        .unanswered(|e| match e {
            Output::Genome(DreamerIo::LoadObservations { id }) => Some((*id, ())),
            _ => None,
        })
        .unwrap();
    h.send(Input::Genome(DreamerDone::ObservationsLoaded {
        id,
        result: Ok("# Observations\n".into()),
    }));
    assert_eq!(h.purpose(), Some(Purpose::Genome("priorities")));
    h.reply_text("- one\n- two\n- three\n");
    assert!(h.wrote_genome(
        |w| matches!(w, DreamerIo::Diary { body, .. } if body.contains("not pruned"))
    ));
}

#[test]
fn a_new_speed_shortens_the_sleep_under_way_in_proportion() {
    let cfg = RunnerConfig {
        speed: 60.0,
        ..RunnerConfig::default()
    };
    let mut h = H::dreamt_ago(cfg, 1.0, 1);
    h.set_sleep(300.0);
    if h.fsm.status() == Status::Dreaming {
        h.dream();
    }
    let (old_id, at) = h.timer().expect("a wake timer");
    let left = at - h.now;
    h.control(ControlCommand::Speed { times: 120 });
    let (id, new_at) = h.timer().expect("a new wake timer");
    assert_ne!(id, old_id, "the old timer goes stale");
    assert_eq!(new_at - h.now, left / 2);
    assert!(h.wrote(|w| matches!(w, Record::SleepFile { wake_at } if *wake_at == new_at)));
}
