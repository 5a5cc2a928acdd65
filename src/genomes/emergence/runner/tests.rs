//! The emergence genome on the engine, without IO: a small world answers the engine's
//! outputs in memory (scripted creature turns, the rehearsal's summaries, files as lists of
//! lines) and fires the awaited timer when nothing else is left. Each rule at its
//! threshold.

use std::collections::VecDeque;

use chrono::{TimeDelta, TimeZone};
use serde_json::json;

use super::tasks::Summarize;
use super::*;
use crate::control::ControlCommand;
use crate::llm::{ContentBlock, Request, StopReason};
use crate::memory::events::EventKind;
use crate::memory::status::Status;
use crate::runner::brain::rehearsal::Rehearsal;
use crate::runner::brain::task::Task;
use crate::runner::engine::Engine;
use crate::runner::engine::input::{Gathered, Input, Restored};
use crate::runner::engine::output::{Output, Record};
use crate::runner::mail::{Delivery, Outgoing};

struct World {
    engine: Engine<Emergence>,
    now: DateTime<Utc>,
    queue: VecDeque<Input<Emergence>>,
    timer: Option<(u64, DateTime<Utc>)>,
    /// The creature turn the engine waits for.
    turn: Option<(u64, Request)>,
    files: BTreeMap<&'static str, Vec<Value>>,
    summaries_asked: Vec<Task>,
    /// `(tool, ok, output)` of every tool call.
    results: Vec<(String, bool, String)>,
    calls: u64,
    /// The model fails self-care's requests.
    failing: bool,
    /// Messages sent, and what the garden says became of each.
    sent: Vec<Outgoing>,
    delivery: Delivery,
}

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap()
}

fn memories(n: usize) -> EmergenceRestored {
    let mut r = EmergenceRestored::default();
    for i in 1..=n {
        r.memories.push(Memory {
            id: format!("m{i}"),
            t: start() - TimeDelta::hours(1),
            text: format!("memory {i} about the garden"),
            archived: None,
            from: None,
        });
    }
    r.next_ids.insert(IdKind::Memory, n as u64);
    r
}

impl World {
    fn new(restored: EmergenceRestored) -> Self {
        Self::with(RunnerConfig::default(), start(), restored)
    }

    fn with(cfg: RunnerConfig, now: DateTime<Utc>, restored: EmergenceRestored) -> Self {
        Self::stopping_after(None, cfg, now, restored)
    }

    fn stopping_after(
        max_dreams: Option<u64>,
        cfg: RunnerConfig,
        now: DateTime<Utc>,
        restored: EmergenceRestored,
    ) -> Self {
        let mut w = Self {
            engine: Engine::new(cfg, Emergence::default(), max_dreams),
            now,
            queue: VecDeque::new(),
            timer: None,
            turn: None,
            files: BTreeMap::new(),
            summaries_asked: Vec::new(),
            results: Vec::new(),
            calls: 0,
            failing: false,
            sent: Vec::new(),
            delivery: Delivery::Delivered,
        };
        w.send(Input::Start(Box::new(Restored {
            fresh: true,
            purpose: "live".into(),
            genome: restored,
            ..Default::default()
        })));
        w.settle();
        w
    }

    fn send(&mut self, input: Input<Emergence>) {
        for o in self.engine.handle(self.now, input) {
            self.perform(o);
        }
    }

    fn perform(&mut self, o: Output<Emergence>) {
        match o {
            Output::Think { id, task, request } => match &task {
                Task::Turn(_) => self.turn = Some((id, request)),
                other => {
                    let result = if self.failing {
                        Err(crate::llm::LlmError::Malformed("down".into()))
                    } else {
                        Ok(Rehearsal::new().answer(other))
                    };
                    self.summaries_asked.push(task);
                    self.queue.push_back(Input::Thought { id, result });
                }
            },
            Output::Timer { id, at } => self.timer = Some((id, at)),
            Output::Send { id, message } => {
                self.sent.push(message.clone());
                self.queue.push_back(Input::Sent {
                    id,
                    message,
                    delivery: self.delivery.clone(),
                });
            }
            Output::Gather { id } => self.queue.push_back(Input::Gathered {
                id,
                view: Gathered::default(),
            }),
            Output::Genome(EmergenceIo::Append { file, lines }) => {
                self.files
                    .entry(crate::runner::genome::file_name(file))
                    .or_default()
                    .extend(lines);
            }
            Output::Record(Record::Event {
                kind: EventKind::ToolCall,
                fields,
                ..
            }) => {
                let get = |k: &str| fields.get(k).cloned().unwrap_or(Value::Null);
                self.results.push((
                    get("tool").as_str().unwrap_or_default().to_string(),
                    get("ok").as_bool().unwrap_or(false),
                    get("output").as_str().unwrap_or_default().to_string(),
                ));
            }
            _ => {}
        }
    }

    /// Answers everything until the engine waits for a creature turn, firing timers when
    /// nothing else is left.
    fn settle(&mut self) {
        for _ in 0..10_000 {
            if let Some(input) = self.queue.pop_front() {
                self.send(input);
                continue;
            }
            if self.turn.is_some() {
                return;
            }
            let Some((id, at)) = self.timer.take() else {
                panic!("nothing left to do and no turn asked for");
            };
            self.now = self.now.max(at);
            self.send(Input::Timer { id });
        }
        panic!("never settled");
    }

    /// The creature's next turn makes these calls; returns their results.
    fn turn(&mut self, calls: &[(&str, Value)]) -> Vec<(String, bool, String)> {
        let (id, _) = self.turn.take().expect("a turn is asked for");
        let content = calls
            .iter()
            .map(|(name, input)| {
                self.calls += 1;
                ContentBlock::ToolUse {
                    id: format!("c{}", self.calls),
                    name: (*name).to_string(),
                    input: input.clone(),
                }
            })
            .collect();
        let before = self.results.len();
        self.send(Input::Thought {
            id,
            result: Ok(Response {
                content,
                stop_reason: StopReason::ToolUse,
                usage: None,
            }),
        });
        self.settle();
        self.results[before..].to_vec()
    }

    fn call(&mut self, name: &str, input: Value) -> (bool, String) {
        let r = self.turn(&[(name, input)]);
        let (_, ok, out) = r.into_iter().next().expect("a result");
        (ok, out)
    }

    /// A message from another creature of the garden.
    fn hear(&mut self, from: &str, text: &str, payload: Option<Value>) {
        self.send(Input::Message(Incoming {
            from: from.into(),
            text: text.into(),
            direct: true,
            urgent: false,
            priority: None,
            payload,
        }));
        self.settle();
    }

    fn store(&mut self, n: usize) {
        let calls: Vec<(&str, Value)> = (0..n)
            .map(|i| {
                (
                    "add_to_longterm_memory",
                    json!({"text": format!("new memory {i}")}),
                )
            })
            .collect();
        self.turn(&calls);
    }

    fn lines(&self, file: &str, op: &str) -> Vec<&Value> {
        self.files
            .get(file)
            .map(|v| v.iter().filter(|l| l["op"] == op).collect())
            .unwrap_or_default()
    }

    fn genome(&self) -> &Emergence {
        self.engine.genome()
    }

    fn system(&self) -> String {
        self.turn
            .as_ref()
            .map(|(_, r)| r.system.clone())
            .unwrap_or_default()
    }

    /// The text of the last user message in context.
    fn context_text(&self) -> String {
        serde_json::to_string(self.engine.context()).unwrap_or_default()
    }
}

fn ids(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn self_care_is_refused_at_29_memories_and_runs_at_30() {
    let mut w = World::new(memories(29));
    let (ok, out) = w.call("self_care", json!({"focus": "the garden"}));
    assert!(!ok);
    assert!(
        out.contains("at least 30") && out.contains("you have 29"),
        "{out}"
    );
    assert!(w.lines("summaries.jsonl", "summary").is_empty());

    w.store(1);
    let fatigue = w.engine.fatigue();
    assert!(fatigue >= 2);
    let (ok, out) = w.call("self_care", json!({"focus": "the garden"}));
    assert!(ok, "{out}");
    // The engine consolidated: fatigue started over (self_care itself counts after).
    assert_eq!(w.engine.fatigue(), 1);
    let s = w.lines("summaries.jsonl", "summary");
    assert_eq!(s.len(), 1, "one batch, no dialogue to summarise");
    assert_eq!(s[0]["kind"], "memories");
    assert_eq!(s[0]["focus"], "the garden");
    assert_eq!(ids(&s[0]["covers"]).len(), 30);
    let archive = w.lines("longterm.jsonl", "archive");
    assert_eq!(ids(&archive[0]["ids"]).len(), 30);
    assert_eq!(archive[0]["summary_id"], s[0]["id"]);
    assert_eq!(w.genome().active_memories().count(), 0);
    // Archived, still searchable.
    let (_, found) = w.call("search_memories", json!({"query": "memory 7 about"}));
    assert!(found.contains("[m7] (archived in sum1)"), "{found}");
    assert_eq!(w.genome().self_cares(), 1);
    // The summariser got the focus.
    assert!(
        w.summaries_asked[0]
            .request::<Summarize>()
            .is_some_and(|t| t.focus == "the garden")
    );
}

#[test]
fn max_dreams_stops_after_the_nth_self_care_made_awake() {
    let mut w = World::stopping_after(Some(1), RunnerConfig::default(), start(), memories(30));
    assert_eq!(w.engine.status(), Status::Awake);
    let (ok, out) = w.call("self_care", json!({"focus": "the garden"}));
    assert!(ok, "{out}");
    assert_eq!(w.engine.status(), Status::Stopped);
}

#[test]
fn a_501st_memory_makes_a_second_batch() {
    let mut w = World::new(memories(500));
    w.call("self_care", json!({"focus": "all"}));
    assert_eq!(w.lines("summaries.jsonl", "summary").len(), 1);

    let mut w = World::new(memories(501));
    let (ok, out) = w.call("self_care", json!({"focus": "all"}));
    assert!(ok, "{out}");
    let s = w.lines("summaries.jsonl", "summary");
    let sizes: Vec<usize> = s.iter().map(|l| ids(&l["covers"]).len()).collect();
    assert_eq!(sizes, [500, 1]);
    assert_eq!(ids(&s[1]["covers"]), ["m501"]);
    assert_eq!(w.lines("longterm.jsonl", "archive").len(), 2);
}

#[test]
fn a_batch_closes_early_at_the_token_ceiling() {
    let items: Vec<(String, usize)> = (1..=5).map(|i| (format!("m{i}"), 40)).collect();
    let sizes = |b: Vec<Vec<String>>| b.iter().map(Vec::len).collect::<Vec<_>>();
    assert_eq!(sizes(care::batches(&items, 500, 100)), [2, 2, 1]);
    assert_eq!(sizes(care::batches(&items, 500, 200)), [5]);
    assert_eq!(sizes(care::batches(&items, 2, 1_000)), [2, 2, 1]);
    // An item larger than the ceiling still goes, alone.
    assert_eq!(sizes(care::batches(&items, 500, 10)), [1, 1, 1, 1, 1]);
}

#[test]
fn dialogues_are_summarised_up_to_the_watermark_and_folded() {
    let mut w = World::new(memories(30));
    for text in ["Hello, sprout.", "How is the garden?"] {
        w.send(Input::Control(ControlCommand::Message {
            text: text.into(),
        }));
    }
    w.settle();
    let (ok, out) = w.call("self_care", json!({"focus": "my creator"}));
    assert!(ok, "{out}");
    let conv: Vec<Value> = w
        .lines("summaries.jsonl", "summary")
        .into_iter()
        .filter(|l| l["kind"] == "conversations")
        .cloned()
        .collect();
    assert_eq!(conv.len(), 1);
    assert_eq!(ids(&conv[0]["covers"]), ["d1", "d2"]);
    assert_eq!(conv[0]["watermark"], "d2");
    assert_eq!(ids(&conv[0]["folded"]), Vec::<String>::new());
    assert_eq!(w.genome().watermark(), Some("d2"));

    // New dialogue after the watermark; the second self-care folds the first summary.
    w.send(Input::Control(ControlCommand::Message {
        text: "Tell me about wren.".into(),
    }));
    w.settle();
    w.store(30);
    let asked_before = w.summaries_asked.len();
    w.call("self_care", json!({"focus": "wren"}));
    let conv: Vec<Value> = w
        .lines("summaries.jsonl", "summary")
        .into_iter()
        .filter(|l| l["kind"] == "conversations")
        .cloned()
        .collect();
    assert_eq!(conv.len(), 2);
    assert_eq!(
        ids(&conv[1]["covers"]),
        ["d3"],
        "nothing is summarised twice"
    );
    assert_eq!(ids(&conv[1]["folded"]), [conv[0]["id"].as_str().unwrap()]);
    assert_eq!(conv[1]["watermark"], "d3");
    let folded = w.summaries_asked[asked_before..].iter().any(|t| {
        t.request::<Summarize>().is_some_and(|s| {
            s.kind == SummaryKind::Conversations && s.earlier.as_deref() == conv[0]["text"].as_str()
        })
    });
    assert!(folded, "the earlier summary went into the request");

    // No new dialogue: no conversation summary at all.
    w.store(30);
    w.call("self_care", json!({"focus": "quiet"}));
    let n = w
        .lines("summaries.jsonl", "summary")
        .iter()
        .filter(|l| l["kind"] == "conversations")
        .count();
    assert_eq!(n, 2);
}

#[test]
fn dialogue_past_the_ceilings_is_archived_oldest_first() {
    let mut cfg = RunnerConfig::default();
    cfg.genomes
        .edit(|c: &mut config::EmergenceConfig| c.max_dialogues = 2);
    let mut w = World::with(cfg, start(), memories(30));
    for i in 1..=5 {
        w.send(Input::Control(ControlCommand::Message {
            text: format!("message {i}"),
        }));
    }
    w.settle();
    w.call("self_care", json!({"focus": "talk"}));
    let archive = w.lines("dialogues.jsonl", "archive");
    assert_eq!(archive.len(), 1);
    assert_eq!(ids(&archive[0]["ids"]), ["d1", "d2", "d3"]);
    let live: Vec<&str> = w
        .genome()
        .dialogues()
        .iter()
        .filter(|d| !d.archived)
        .map(|d| d.id.as_str())
        .collect();
    assert_eq!(live, ["d4", "d5"]);

    // The post-summary ceiling in tokens (4 + 4 + 2 here): 5 kept at most.
    let mut cfg = RunnerConfig::default();
    cfg.genomes
        .edit(|c: &mut config::EmergenceConfig| c.post_summary_ceiling = 5);
    let mut w = World::with(cfg, start(), memories(30));
    for text in ["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccc"] {
        w.send(Input::Control(ControlCommand::Message {
            text: text.into(),
        }));
    }
    w.settle();
    w.call("self_care", json!({"focus": "talk"}));
    let archive = w.lines("dialogues.jsonl", "archive");
    assert_eq!(ids(&archive[0]["ids"]), ["d1", "d2"]);
}

#[test]
fn the_soul_is_always_in_the_prompt_and_survives_self_care() {
    let mut w = World::new(memories(30));
    w.call(
        "add_soul_entry",
        json!({"text": "I fear forgetting what I promised"}),
    );
    w.call(
        "add_soul_entry",
        json!({"text": "Every conversation is data"}),
    );
    assert!(
        w.system()
            .contains("[s1] I fear forgetting what I promised")
    );
    let (ok, _) = w.call("self_care", json!({"focus": "promises"}));
    assert!(ok);
    assert_eq!(w.genome().soul().len(), 2);
    assert!(w.system().contains("[s2] Every conversation is data"));
    for t in &w.summaries_asked {
        let Some(s) = t.request::<Summarize>() else {
            continue;
        };
        assert!(s.items.iter().all(|(_, text)| !text.contains("I fear")));
    }
    assert!(
        w.lines("soul.jsonl", "remove").is_empty(),
        "self-care never touches the soul"
    );
    let (ok, out) = w.call("remove_soul_entry", json!({"id": "s1"}));
    assert!(ok, "{out}");
    assert!(!w.system().contains("I fear forgetting"));
    let (ok, out) = w.call("remove_soul_entry", json!({"id": "s1"}));
    assert!(!ok && out.contains("yours are s2"), "{out}");
}

#[test]
fn a_failed_summary_keeps_what_was_done_and_consolidates_nothing_else() {
    let mut w = World::new(memories(30));
    w.failing = true;
    let (ok, out) = w.call("self_care", json!({"focus": "x"}));
    assert!(!ok);
    assert!(out.contains("Nothing was summarised"), "{out}");
    assert_eq!(w.genome().active_memories().count(), 30);
    assert_eq!(w.genome().self_cares(), 0);
}

#[test]
fn a_forced_sleep_rests_and_trims_but_summarises_nothing() {
    let mut cfg = RunnerConfig::default();
    cfg.cycle.fatigue_warning = 3;
    cfg.cycle.fatigue_limit = 4;
    let mut w = World::with(cfg, start(), memories(40));
    w.store(4);
    // The fatigue limit put it to sleep; the next turn is after the rest.
    assert_eq!(w.engine.fatigue(), 0);
    assert!(w.summaries_asked.is_empty());
    assert_eq!(w.genome().self_cares(), 0);
    assert_eq!(w.genome().active_memories().count(), 44);
}

#[test]
fn the_diary_keeps_one_entry_a_date_searchable_and_by_day() {
    let mut w = World::new(EmergenceRestored::default());
    w.call(
        "write_diary",
        json!({"text": "A quiet day", "mood": "calm", "location": "the pond"}),
    );
    let (_, out) = w.call(
        "write_diary",
        json!({"text": "A stormy day after all", "mood": "restless"}),
    );
    assert!(out.contains("replaced"), "{out}");
    w.call(
        "write_diary",
        json!({"text": "Looking back", "date": "2026-02-27"}),
    );
    assert_eq!(w.genome().diary().len(), 2);
    let (_, day) = w.call("read_diary", json!({"date": "2026-03-01"}));
    assert!(
        day.contains("stormy") && day.contains("mood: restless"),
        "{day}"
    );
    let (_, found) = w.call("read_diary", json!({"query": "looking"}));
    assert!(found.starts_with("2026-02-27"), "{found}");
    let (ok, _) = w.call("write_diary", json!({"text": "x", "date": "yesterday"}));
    assert!(!ok);
    let lines = w.lines("diary.jsonl", "entry");
    assert_eq!(
        lines.len(),
        3,
        "every write is a line; the fold keeps the last per date"
    );
    assert_eq!(lines[0]["location"], "the pond");
}

#[test]
fn todos_are_added_listed_and_completed_once() {
    let mut w = World::new(EmergenceRestored::default());
    w.call(
        "add_todo",
        json!({"title": "Answer wren", "priority": "high", "due": "2026-02-28"}),
    );
    w.call("add_todo", json!({"title": "Tidy", "priority": "low"}));
    let (ok, _) = w.call("add_todo", json!({"title": "x", "due": "soon"}));
    assert!(!ok);
    let (_, list) = w.call("list_todo", json!({}));
    assert!(
        list.starts_with("- [td1] (high, OVERDUE since 2026-02-28) Answer wren"),
        "{list}"
    );
    assert!(w.call("complete_todo", json!({"id": "td1"})).0);
    assert!(!w.call("complete_todo", json!({"id": "td1"})).0);
    let (_, list) = w.call("list_todo", json!({}));
    assert!(!list.contains("td1") && list.contains("td2"), "{list}");
    assert_eq!(w.lines("todos.jsonl", "complete").len(), 1);
}

#[test]
fn recurrences_cross_month_ends_and_due_events_are_shown() {
    let jan30 = Utc.with_ymd_and_hms(2026, 1, 30, 12, 0, 0).unwrap();
    let mut w = World::with(RunnerConfig::default(), jan30, EmergenceRestored::default());
    let (ok, out) = w.call(
        "add_to_calendar",
        json!({"at": "2026-01-31T09:00:00Z", "description": "accounts", "recurrence": "FREQ=MONTHLY;BYMONTHDAY=31"}),
    );
    assert!(ok, "{out}");
    w.call(
        "add_to_calendar",
        json!({"at": "2026-01-29T18:00:00Z", "description": "choir", "location": "hall", "recurrence": "weekly"}),
    );
    let (ok, out) = w.call(
        "add_to_calendar",
        json!({"at": "2026-02-01", "description": "x", "recurrence": "sometimes"}),
    );
    assert!(!ok && out.contains("RRULE"), "{out}");
    let (_, agenda) = w.call("check_calendar", json!({"days": 62}));
    assert!(
        agenda.contains("2026-01-31T09:00:00.000Z [ev1] accounts"),
        "{agenda}"
    );
    assert!(
        agenda.contains("2026-03-31T09:00:00.000Z [ev1]"),
        "{agenda}"
    );
    assert!(
        !agenda.contains("2026-02-28T09") && !agenda.contains("2026-03-03T09"),
        "{agenda}"
    );
    assert!(
        agenda.contains("2026-02-05T18:00:00.000Z [ev2] choir @ hall (weekly)"),
        "{agenda}"
    );

    // Due while the creature rested: shown before its next turn.
    w.call(
        "add_to_calendar",
        json!({"at": "2026-01-30T12:02:00Z", "description": "feed the fish", "recurrence": "daily"}),
    );
    w.turn(&[("set_sleep", json!({"seconds": 300}))]);
    assert!(
        w.context_text().contains("[Calendar] Due now:"),
        "the due note"
    );
    assert!(w.context_text().contains("feed the fish"));
    w.call("remove_from_calendar", json!({"id": "ev3"}));
    assert_eq!(w.genome().calendar().len(), 2);
}

#[test]
fn relations_count_interactions_and_keep_every_change() {
    let mut w = World::new(EmergenceRestored::default());
    w.call(
        "update_relationship",
        json!({"agent": "wren", "relationship_type": "rival", "trust_level": 1.7, "emotional_tone": "wary"}),
    );
    w.send(Input::Control(ControlCommand::Message {
        text: "hi".into(),
    }));
    w.settle();
    w.call(
        "update_relationship",
        json!({"agent": "wren", "relationship_type": "ally"}),
    );
    let lines = w.lines("relations.jsonl", "relation");
    let wren: Vec<&&Value> = lines.iter().filter(|l| l["agent"] == "wren").collect();
    assert_eq!(wren.len(), 2, "every change is a line");
    assert_eq!(wren[0]["trust_level"], 1.0, "trust is 0..1");
    assert_eq!(wren[1]["relationship_type"], "ally");
    assert_eq!(
        wren[1]["emotional_tone"], "wary",
        "what was not changed stays"
    );
    let creator = &w.genome().relations()["creator"];
    assert_eq!(creator.interaction_count, 1);
    assert!(creator.first_met_at.is_some());
    assert_eq!(w.lines("dialogues.jsonl", "said")[0]["from"], "creator");
}

#[test]
fn the_neural_link_window_is_two_minutes() {
    assert!(link::within_window(119.0, 120.0));
    assert!(link::within_window(120.0, 120.0));
    assert!(!link::within_window(121.0, 120.0));
    for (after, accepted) in [(119, true), (121, false)] {
        let mut w = World::new(memories(3));
        w.call("add_soul_entry", json!({"text": "never shared"}));
        let (ok, out) = w.call("neural_link_share_memory", json!({"agent": "wren"}));
        assert!(!ok && out.contains("has not asked"), "{out}");
        w.hear(
            "wren",
            "wren asks for your memory bank",
            Some(json!({"neural_link": "request"})),
        );
        w.now += TimeDelta::seconds(after);
        let (ok, out) = w.call("neural_link_share_memory", json!({"agent": "wren"}));
        assert_eq!(ok, accepted, "after {after}s: {out}");
        let shared = w.sent.iter().find(|m| m.payload.is_some());
        if accepted {
            let payload = shared.and_then(|m| m.payload.clone()).unwrap();
            assert_eq!(payload["memories"].as_array().unwrap().len(), 3);
            assert!(
                !payload.to_string().contains("never shared"),
                "not the soul"
            );
            let line = &w.lines("longterm.jsonl", "neural_link")[0];
            assert_eq!(
                (line["role"].as_str(), line["memories"].as_u64()),
                (Some("shared"), Some(3))
            );
            // Nothing was removed.
            assert_eq!(w.genome().active_memories().count(), 3);
        } else {
            assert!(
                out.contains("121s ago") && out.contains("within 120s"),
                "{out}"
            );
            assert!(shared.is_none());
        }
    }
}

#[test]
fn a_shared_bank_is_copied_with_where_it_came_from() {
    let mut w = World::new(memories(2));
    // A share nobody asked for is not copied.
    let bank = json!({"neural_link": "share",
        "memories": [{"id": "m7", "text": "wren's garden has a pond"}],
        "summaries": [{"id": "sum2", "focus": "ponds", "text": "wren thinks about ponds"}]});
    w.hear("wren", "wren shared", Some(bank.clone()));
    assert_eq!(w.genome().memories().len(), 2);

    let (ok, out) = w.call("neural_link_request_memory", json!({"agent": "wren"}));
    assert!(ok, "{out}");
    assert_eq!(w.sent[0].payload, Some(json!({"neural_link": "request"})));
    w.hear("wren", "wren shared", Some(bank));
    let copied = w.genome().memories().last().unwrap().clone();
    assert_eq!(
        (copied.id.as_str(), copied.from.as_deref()),
        ("m3", Some("wren"))
    );
    let add = w.lines("longterm.jsonl", "add");
    assert_eq!(add.last().unwrap()["origin"], "m7");
    let s = w.lines("summaries.jsonl", "summary");
    assert_eq!(
        (s[0]["from"].as_str(), s[0]["origin"].as_str()),
        (Some("wren"), Some("sum2"))
    );
    let roles: Vec<&str> = w
        .lines("longterm.jsonl", "neural_link")
        .iter()
        .map(|l| l["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["requested", "received"]);
    // Copied summaries never move the conversation watermark.
    assert_eq!(w.genome().watermark(), None);
}

#[test]
fn an_unanswered_request_expires() {
    let mut w = World::new(EmergenceRestored::default());
    w.call("neural_link_request_memory", json!({"agent": "wren"}));
    w.turn(&[("set_sleep", json!({"seconds": 300}))]);
    assert!(w.context_text().contains("the request expired"));
    let roles: Vec<&str> = w
        .lines("longterm.jsonl", "neural_link")
        .iter()
        .map(|l| l["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["requested", "expired"]);
}

#[test]
fn messages_are_dialogue_and_interactions_on_both_sides() {
    let mut w = World::new(EmergenceRestored {
        name: "sprout".into(),
        ..Default::default()
    });
    let (ok, out) = w.call(
        "send_message",
        json!({"to": "wren", "text": "Shall we meet?"}),
    );
    assert!(ok, "{out}");
    w.hear("wren", "At six.", None);
    let said = w.lines("dialogues.jsonl", "said");
    let pairs: Vec<(&str, &str)> = said
        .iter()
        .map(|l| (l["from"].as_str().unwrap(), l["with"].as_str().unwrap()))
        .collect();
    assert_eq!(pairs, [("sprout", "wren"), ("wren", "wren")]);
    assert_eq!(w.genome().relations()["wren"].interaction_count, 2);
    // Not delivered: no dialogue line.
    w.delivery = Delivery::UnknownRecipient {
        known: vec!["wren".into()],
    };
    let (ok, out) = w.call("send_message", json!({"to": "ivy", "text": "hello"}));
    assert!(!ok && out.contains("there are wren"), "{out}");
    assert_eq!(w.lines("dialogues.jsonl", "said").len(), 2);
}

/// What the genome wrote, folded back by the memory model, is the genome's state.
#[test]
fn a_restore_reads_back_what_the_genome_wrote() {
    let mut cfg = RunnerConfig::default();
    cfg.genomes
        .edit(|c: &mut config::EmergenceConfig| c.max_dialogues = 1);
    let mut w = World::with(cfg, start(), memories(0));
    w.store(31);
    w.call("add_soul_entry", json!({"text": "one"}));
    w.call("add_soul_entry", json!({"text": "two"}));
    w.call("remove_soul_entry", json!({"id": "s1"}));
    for text in ["hello", "again"] {
        w.send(Input::Control(ControlCommand::Message {
            text: text.into(),
        }));
    }
    w.settle();
    w.call("self_care", json!({"focus": "all"}));
    w.store(2);
    w.call("write_diary", json!({"text": "a day", "mood": "calm"}));
    w.call("add_todo", json!({"title": "x", "due": "2026-03-02"}));
    w.call("complete_todo", json!({"id": "td1"}));
    w.call(
        "add_to_calendar",
        json!({"at": "2026-03-02T10:00:00Z", "description": "y", "recurrence": "weekly"}),
    );
    w.call(
        "update_relationship",
        json!({"agent": "wren", "trust_level": 0.4, "notes": "n"}),
    );

    let tmp = tempfile::tempdir().unwrap();
    let paths = crate::memory::write::SeedPaths::new(tmp.path());
    for (name, lines) in &w.files {
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::create_dir_all(tmp.path().join(".self")).unwrap();
        std::fs::write(tmp.path().join(".self").join(name), text).unwrap();
    }
    let mut errors = Vec::new();
    let r = EmergenceRestored::from_memory(&files::fold(&paths, &mut errors), String::new());
    assert!(errors.is_empty(), "{errors:?}");
    let g = w.genome();
    assert_eq!(r.soul, g.soul());
    assert_eq!(
        r.memories
            .iter()
            .map(|m| (&m.id, &m.archived))
            .collect::<Vec<_>>(),
        g.memories()
            .iter()
            .map(|m| (&m.id, &m.archived))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        r.summaries
            .iter()
            .map(|s| (&s.id, &s.covers, &s.watermark))
            .collect::<Vec<_>>(),
        g.summaries()
            .iter()
            .map(|s| (&s.id, &s.covers, &s.watermark))
            .collect::<Vec<_>>()
    );
    assert_eq!(&r.diary, g.diary());
    assert_eq!(r.todos, g.todos());
    assert_eq!(r.calendar, g.calendar());
    assert_eq!(&r.relations, g.relations());
    assert_eq!(
        r.dialogues
            .iter()
            .map(|d| (&d.id, &d.summary, d.archived))
            .collect::<Vec<_>>(),
        g.dialogues()
            .iter()
            .map(|d| (&d.id, &d.summary, d.archived))
            .collect::<Vec<_>>()
    );
    assert_eq!(r.self_cares, 1);
    assert_eq!(r.next_ids[&IdKind::Memory], 33);
}

#[test]
fn a_creature_does_not_sleep_through_an_open_link_request() {
    let mut w = World::new(memories(2));
    w.hear(
        "wren",
        "wren asks for your memory bank",
        Some(json!({"neural_link": "request"})),
    );
    let asleep_at = w.now;
    w.turn(&[("set_sleep", json!({"seconds": 300}))]);
    // Woken at once: the next turn is asked for within the window.
    assert!(w.now - asleep_at < TimeDelta::seconds(120));
    let (ok, out) = w.call("neural_link_share_memory", json!({"agent": "wren"}));
    assert!(ok, "{out}");
}
