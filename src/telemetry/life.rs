//! A creature's life as GenAI spans: a pure translation of its events (as written to
//! `.sys/events.jsonl`, by dreamwatch's runner or OpenSeed's), its model calls and what
//! each dream changed, into finished [`SpanRecord`]s.
//!
//! - a wake is a trace: `invoke_agent {creature}`, from the wake (or boot) to the sleep;
//! - its tool calls are `execute_tool {tool}` children (from each `creature.tool_call`,
//!   which says how long the tool ran), its model calls `chat {model}` children;
//! - a sleep's consolidation is a trace of its own (`consolidate_memory {creature}`,
//!   linked to the wake before it), from the sleep to its last dream, said when the
//!   sleep ends (every file its dreams wrote is written then); its memory operations
//!   (`create_memory`, `update_memory`, `delete_memory`, from the dream-diff records)
//!   are its children.
//!
//! What it keeps between events ([`LifeState`]) is small and serialisable, so a reader
//! of files can stop and go on where it was.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use super::call::ModelCall;
use super::content::Capture;
use super::semconv as sc;
use super::span::{Kind, SpanId, SpanRecord, TraceId, Value, span_id, trace_id};
use crate::memory::dream_diff::FileChanges;
use crate::memory::dream_diffs::DiffRecord;
use crate::memory::events::EventKind;

use super::genome_logs::{LoggedOp, operation};

/// The most memory operations one dream's span has as children (a rewrite of the whole
/// file would otherwise make thousands).
pub const MAX_MEMORY_OPS: usize = 200;

/// Who the spans are about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agent {
    /// The creature's name.
    pub name: String,
    /// A stable id: the creature's directory.
    pub id: String,
}

/// A wake or a sleep under way.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Open {
    pub start: DateTime<Utc>,
    /// When a sleep was to end (its event's `seconds`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<DateTime<Utc>>,
}

/// What the dreams of a sleep said.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DreamSeen {
    /// The last dream's time.
    pub t: DateTime<Utc>,
    pub dreams: u64,
    pub deep: bool,
    pub observations: Option<u64>,
}

/// What the translation keeps between events.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LifeState {
    /// The wake under way and why it began.
    pub wake: Option<Open>,
    #[serde(default)]
    pub reason: String,
    /// The sleep under way (its consolidation not yet said).
    pub sleep: Option<Open>,
    /// The dreams of the sleep under way.
    pub dream: Option<DreamSeen>,
    /// Something (a model call, a tool) was done in the sleep under way: its span is
    /// said even if it did not dream.
    #[serde(default)]
    pub sleep_busy: bool,
    /// The last wake's start, which a consolidation links to.
    pub last_wake: Option<DateTime<Utc>>,
    /// The time of the last tool call and how many came at that very time (their ids).
    pub last_t: Option<DateTime<Utc>>,
    #[serde(default)]
    pub same_t: u32,
}

/// What was read of the memory files and not yet said: the dream-diff records and a
/// genome's logged memory operations. A sleep's consolidation takes those of its time,
/// a wake those of its own.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Unsaid {
    #[serde(default)]
    pub diffs: Vec<DiffRecord>,
    #[serde(default)]
    pub ops: Vec<LoggedOp>,
}

impl Unsaid {
    /// Takes what was written by `t`.
    fn take_until(&mut self, t: DateTime<Utc>) -> Unsaid {
        let (diffs, later): (Vec<DiffRecord>, Vec<DiffRecord>) = std::mem::take(&mut self.diffs)
            .into_iter()
            .partition(|r| r.t.is_none_or(|rt| rt <= t));
        self.diffs = later;
        let (ops, later): (Vec<LoggedOp>, Vec<LoggedOp>) = std::mem::take(&mut self.ops)
            .into_iter()
            .partition(|o| o.t <= t);
        self.ops = later;
        Unsaid { diffs, ops }
    }
}

/// A model call under way: its span's place, fixed when it began.
#[derive(Debug, Clone, Copy)]
struct Pending {
    trace: TraceId,
    id: SpanId,
    parent: SpanId,
    start: DateTime<Utc>,
}

/// The translation of one creature's life.
#[derive(Debug)]
pub struct Life {
    agent: Agent,
    capture: Capture,
    state: LifeState,
    calls: HashMap<u64, Pending>,
}

fn nanos(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true)
}

fn str_field<'a>(fields: &'a Map<String, Json>, key: &str) -> &'a str {
    fields.get(key).and_then(Json::as_str).unwrap_or("")
}

impl Life {
    pub fn new(agent: Agent, capture: Capture) -> Self {
        Self::resume(agent, capture, LifeState::default())
    }

    /// Goes on from `state` (a reader of files that stopped).
    pub fn resume(agent: Agent, capture: Capture, state: LifeState) -> Self {
        Self {
            agent,
            capture,
            state,
            calls: HashMap::new(),
        }
    }

    pub fn state(&self) -> &LifeState {
        &self.state
    }

    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// Whether a creature's text goes into the spans.
    pub fn captures(&self) -> bool {
        self.capture.on
    }

    fn wake_ids(&self, start: DateTime<Utc>) -> (TraceId, SpanId) {
        let trace = trace_id(&self.agent.id, &format!("wake {}", nanos(start)));
        (trace, span_id(&trace, sc::INVOKE_AGENT))
    }

    fn sleep_ids(&self, start: DateTime<Utc>) -> (TraceId, SpanId) {
        let trace = trace_id(&self.agent.id, &format!("sleep {}", nanos(start)));
        (trace, span_id(&trace, sc::CONSOLIDATE))
    }

    /// The span that what happens now belongs to: the wake's, or the sleep's
    /// consolidation; a life read from its middle begins with a wake at `t`.
    fn current(&mut self, t: DateTime<Utc>) -> (TraceId, SpanId) {
        if let Some(sleep) = self.state.sleep {
            self.state.sleep_busy = true;
            return self.sleep_ids(sleep.start);
        }
        let wake = *self.state.wake.get_or_insert(Open {
            start: t,
            until: None,
        });
        self.wake_ids(wake.start)
    }

    fn agent_attributes(&self) -> Vec<(&'static str, Value)> {
        vec![
            (sc::AGENT_NAME, self.agent.name.as_str().into()),
            (sc::AGENT_ID, self.agent.id.as_str().into()),
            (sc::CONVERSATION_ID, self.agent.id.as_str().into()),
        ]
    }

    /// Whether the sleep under way has a span to say when it ends at `t`.
    fn sleep_to_say(&self, t: DateTime<Utc>, unsaid: &Unsaid) -> bool {
        self.state.dream.is_some()
            || (self.state.sleep.is_some()
                && (self.state.sleep_busy || unsaid.ops.iter().any(|o| o.t <= t)))
    }

    /// The spans an event of the creature's events log finishes. `unsaid`: what was read
    /// of the memory files and not yet said; a wake or a sleep that ends takes what was
    /// written in its time.
    pub fn event(
        &mut self,
        t: DateTime<Utc>,
        kind: &EventKind,
        fields: &Map<String, Json>,
        unsaid: &mut Unsaid,
    ) -> Vec<SpanRecord> {
        let mut out = Vec::new();
        match kind {
            EventKind::Boot | EventKind::Wake => {
                out.extend(self.close_wake(t, unsaid));
                out.extend(self.close_sleep(t, unsaid));
                self.state.wake = Some(Open {
                    start: t,
                    until: None,
                });
                self.state.reason = match kind {
                    EventKind::Boot => "boot".to_string(),
                    _ => str_field(fields, "source").to_string(),
                };
            }
            EventKind::Sleep => {
                out.extend(self.close_wake(t, unsaid));
                out.extend(self.close_sleep(t, unsaid));
                let seconds = fields.get("seconds").and_then(Json::as_i64);
                self.state.sleep = Some(Open {
                    start: t,
                    until: seconds.map(|s| t + chrono::Duration::seconds(s)),
                });
            }
            EventKind::Dream => out.extend(self.dream(t, fields, unsaid)),
            EventKind::ToolCall => {
                out.extend(self.awake(t, false, unsaid));
                out.push(self.tool(t, fields));
            }
            _ => {}
        }
        out
    }

    /// The creature acts at `t`: past the end of its sleep (a log of early 2026 writes no
    /// wake event), or in a way only an awake creature does (`waking`: an answer its
    /// conversation logged), that sleep is over and a wake began when it ended (at `t`,
    /// when it was to go on); the spans that ends.
    pub fn awake(
        &mut self,
        t: DateTime<Utc>,
        waking: bool,
        unsaid: &mut Unsaid,
    ) -> Vec<SpanRecord> {
        let Some(sleep) = self.state.sleep else {
            return Vec::new();
        };
        let woke = match sleep.until {
            Some(until) if until <= t => until,
            _ if waking => t.max(sleep.start),
            _ => return Vec::new(),
        };
        let out = self.close_sleep(woke, unsaid);
        self.state.sleep = None;
        self.state.wake = Some(Open {
            start: woke,
            until: None,
        });
        self.state.reason = "timer".to_string();
        out
    }

    fn tool(&mut self, t: DateTime<Utc>, fields: &Map<String, Json>) -> SpanRecord {
        let (trace, parent) = self.current(t);
        if self.state.last_t == Some(t) {
            self.state.same_t += 1;
        } else {
            self.state.last_t = Some(t);
            self.state.same_t = 0;
        }
        let tool = match str_field(fields, "tool") {
            "" => "tool",
            name => name,
        };
        let ms = fields.get("ms").and_then(Json::as_u64).unwrap_or(0);
        let ok = fields.get("ok").and_then(Json::as_bool).unwrap_or(true);
        let id = span_id(&trace, &format!("tool {} {}", nanos(t), self.state.same_t));
        let mut attributes = vec![
            (sc::OPERATION, sc::EXECUTE_TOOL.into()),
            (sc::TOOL_NAME, tool.into()),
            (sc::TOOL_TYPE, "function".into()),
            (sc::TOOL_OK, ok.into()),
            (sc::TOOL_MS, ms.into()),
        ];
        attributes.extend(self.agent_attributes());
        if let Some(input) = self.capture.text(str_field(fields, "input")) {
            attributes.push((sc::TOOL_ARGUMENTS, input.into()));
        }
        if let Some(output) = self.capture.text(str_field(fields, "output")) {
            attributes.push((sc::TOOL_RESULT, output.into()));
        }
        if !ok {
            attributes.push((sc::ERROR_TYPE, "tool_error".into()));
        }
        SpanRecord {
            trace,
            id,
            parent: Some(parent),
            link: None,
            name: format!("{} {tool}", sc::EXECUTE_TOOL),
            kind: Kind::Internal,
            start: t - chrono::Duration::milliseconds(i64::try_from(ms).unwrap_or(0)),
            end: t,
            attributes,
            error: (!ok).then(|| "the tool failed".to_string()),
        }
    }

    /// The wake's `invoke_agent` span, ended at `t`, and its memory operations (none
    /// when no wake is under way).
    fn close_wake(&mut self, t: DateTime<Utc>, unsaid: &mut Unsaid) -> Vec<SpanRecord> {
        let Some(wake) = self.state.wake.take() else {
            return Vec::new();
        };
        let (trace, id) = self.wake_ids(wake.start);
        self.state.last_wake = Some(wake.start);
        let mut attributes = vec![(sc::OPERATION, sc::INVOKE_AGENT.into())];
        attributes.extend(self.agent_attributes());
        if !self.state.reason.is_empty() {
            attributes.push((sc::WAKE_REASON, self.state.reason.as_str().into()));
        }
        let end = t.max(wake.start);
        let mut out = vec![SpanRecord {
            trace,
            id,
            parent: None,
            link: None,
            name: format!("{} {}", sc::INVOKE_AGENT, self.agent.name),
            kind: Kind::Internal,
            start: wake.start,
            end,
            attributes,
            error: None,
        }];
        out.extend(self.memory_spans(trace, id, unsaid.take_until(t), end));
        out
    }

    /// The memory operations of `unsaid` as children of span `parent` (a dream's at
    /// `at`, a logged one at its time), [`MAX_MEMORY_OPS`] at most.
    fn memory_spans(
        &self,
        trace: TraceId,
        parent: SpanId,
        unsaid: Unsaid,
        at: DateTime<Utc>,
    ) -> Vec<SpanRecord> {
        let agent = self.agent_attributes();
        let from_diffs = unsaid
            .diffs
            .iter()
            .flat_map(|d| memory_ops(d, &self.capture, at))
            .collect::<Vec<_>>();
        let logged = unsaid.ops.into_iter().map(|o| MemoryOp {
            op: operation(&o.op),
            file: o.store.clone(),
            kind: o.store.trim_end_matches(".jsonl").to_string(),
            id: o.id,
            text: o.text.as_deref().and_then(|t| self.capture.text(t)),
            t: o.t,
        });
        from_diffs
            .into_iter()
            .chain(logged)
            .take(MAX_MEMORY_OPS)
            .enumerate()
            .map(|(n, op)| op.span(trace, parent, n, &agent))
            .collect()
    }

    /// The life stops being followed at `t` (the runner stops): the wake's span, or the
    /// sleep's consolidation when it dreamed.
    pub fn finish(&mut self, t: DateTime<Utc>, unsaid: &mut Unsaid) -> Vec<SpanRecord> {
        let mut out = self.close_wake(t, unsaid);
        out.extend(self.close_sleep(t, unsaid));
        out
    }

    /// A dream at `t`: kept until its sleep ends. A dream with no sleep before it (a
    /// life read from its middle) sleeps from `t`.
    fn dream(
        &mut self,
        t: DateTime<Utc>,
        fields: &Map<String, Json>,
        unsaid: &mut Unsaid,
    ) -> Vec<SpanRecord> {
        let wake = if self.state.sleep.is_none() {
            let wake = self.close_wake(t, unsaid);
            self.state.sleep = Some(Open {
                start: t,
                until: None,
            });
            wake
        } else {
            Vec::new()
        };
        let seen = self.state.dream.get_or_insert(DreamSeen {
            t,
            dreams: 0,
            deep: false,
            observations: None,
        });
        seen.t = t;
        seen.dreams += 1;
        seen.deep |= fields.get("deep").and_then(Json::as_bool).unwrap_or(false);
        if let Some(n) = fields.get("observations").and_then(Json::as_u64) {
            seen.observations = Some(n);
        }
        wake
    }

    /// The sleep under way ends at `t`: its consolidation's span and memory operations
    /// when it dreamed or did something (taking from `unsaid` what was written by `t`).
    fn close_sleep(&mut self, t: DateTime<Utc>, unsaid: &mut Unsaid) -> Vec<SpanRecord> {
        if !self.sleep_to_say(t, unsaid) {
            self.state.sleep = None;
            return Vec::new();
        }
        let sleep = self.state.sleep.take();
        self.state.sleep_busy = false;
        let seen = self.state.dream.take().unwrap_or(DreamSeen {
            t,
            dreams: 0,
            deep: false,
            observations: None,
        });
        let start = sleep.map_or(seen.t, |s| s.start);
        let (trace, id) = self.sleep_ids(start);
        let mut attributes = vec![(sc::OPERATION, sc::CONSOLIDATE.into())];
        attributes.extend(self.agent_attributes());
        attributes.push((sc::DEEP, seen.deep.into()));
        attributes.push((sc::DREAMS_IN_SLEEP, seen.dreams.into()));
        if let Some(n) = seen.observations {
            attributes.push((sc::OBSERVATIONS, n.into()));
        }
        let link = self.state.last_wake.map(|w| self.wake_ids(w));
        let mut out = vec![SpanRecord {
            trace,
            id,
            parent: None,
            link,
            name: format!("{} {}", sc::CONSOLIDATE, self.agent.name),
            kind: Kind::Internal,
            start,
            end: seen.t.max(start),
            attributes,
            error: None,
        }];
        let at = seen.t.max(start);
        out.extend(self.memory_spans(trace, id, unsaid.take_until(t), at));
        out
    }

    /// A model call (a chat or embeddings) begins at `now`: its `traceparent`, for the
    /// request's headers.
    pub fn call_begins(&mut self, id: u64, now: DateTime<Utc>) -> String {
        let (trace, parent) = self.current(now);
        // Not before the wake or sleep it is part of (a call read from a log began at
        // the message before it, which may be the sleep's).
        let under_way = self.state.sleep.or(self.state.wake);
        let now = under_way.map_or(now, |o| now.max(o.start));
        let span = span_id(&trace, &format!("chat {id} {}", nanos(now)));
        self.calls.insert(
            id,
            Pending {
                trace,
                id: span,
                parent,
                start: now,
            },
        );
        super::span::traceparent(&trace, &span)
    }

    /// A model call came back: its `chat {model}` or `embeddings {model}` span.
    pub fn call_ends(&mut self, call: &ModelCall) -> SpanRecord {
        let pending = self.calls.remove(&call.id).unwrap_or_else(|| {
            let (trace, parent) = self.current(call.end);
            Pending {
                trace,
                id: span_id(&trace, &format!("chat {} {}", call.id, nanos(call.end))),
                parent,
                start: call.end,
            }
        });
        SpanRecord {
            trace: pending.trace,
            id: pending.id,
            parent: Some(pending.parent),
            link: None,
            name: call.span_name(),
            kind: Kind::Client,
            start: pending.start,
            end: call.end.max(pending.start),
            attributes: call.attributes(&self.capture),
            error: call.error.as_ref().map(|(_, words)| words.clone()),
        }
    }
}

/// One memory operation of a dream.
struct MemoryOp {
    op: &'static str,
    file: String,
    kind: String,
    id: Option<String>,
    text: Option<String>,
    t: DateTime<Utc>,
}

impl MemoryOp {
    fn span(
        self,
        trace: TraceId,
        parent: SpanId,
        n: usize,
        agent: &[(&'static str, Value)],
    ) -> SpanRecord {
        let t = self.t;
        let mut attributes = vec![
            (sc::OPERATION, self.op.into()),
            (sc::MEMORY_STORE, self.file.as_str().into()),
            (sc::MEMORY_TYPE, self.kind.into()),
            (sc::MEMORY_SCOPE, "agent".into()),
        ];
        if let Some(id) = self.id {
            attributes.push((sc::MEMORY_ID, id.into()));
        }
        attributes.extend(agent.iter().cloned());
        if let Some(text) = self.text {
            attributes.push((sc::MEMORY_CONTENT, text.into()));
        }
        SpanRecord {
            trace,
            id: span_id(&trace, &format!("memory {n}")),
            parent: Some(parent),
            link: None,
            name: format!("{} {}", self.op, self.file),
            kind: Kind::Internal,
            start: t,
            end: t,
            attributes,
            error: None,
        }
    }
}

/// The memory operations one file's changes are: an observation added is created, one
/// pruned deleted, one moved or re-prioritised updated; a file read as lines is updated.
fn memory_ops(record: &DiffRecord, capture: &Capture, t: DateTime<Utc>) -> Vec<MemoryOp> {
    let op = |op, kind: &str, text: &str| MemoryOp {
        op,
        file: record.file.clone(),
        kind: kind.to_string(),
        id: None,
        text: capture.text(text),
        t,
    };
    match &record.changes {
        FileChanges::Observations(o) => {
            let mut ops = Vec::new();
            for line in o.added.iter().chain(&o.duplicated) {
                ops.push(op(sc::CREATE_MEMORY, "observation", &line.text));
            }
            for line in o.pruned.iter().chain(&o.deduplicated) {
                ops.push(op(sc::DELETE_MEMORY, "observation", &line.text));
            }
            for m in &o.moved {
                ops.push(op(sc::UPDATE_MEMORY, "observation", &m.text));
            }
            for r in &o.reprioritised {
                ops.push(op(sc::UPDATE_MEMORY, "observation", &r.after));
            }
            ops
        }
        FileChanges::Lines(l) if l.is_empty() => Vec::new(),
        FileChanges::Lines(l) => vec![op(sc::UPDATE_MEMORY, "document", &l.added.join("\n"))],
    }
}
