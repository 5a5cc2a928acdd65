//! One hosted creature's export: its life translated as it is lived (events as they are
//! written, model calls as they go and come back), the spans queued to the [`Sink`],
//! its figures recorded. Everything here is quick and in memory but for one read of
//! the dream-diff records when a sleep ends; nothing is written anywhere.

use std::path::Path;

use chrono::{DateTime, Utc};
use serde_json::{Map, Value as Json};

use super::call::ModelCall;
use super::diffs::DiffTail;
use super::exporter::Sink;
use super::genome_logs::GenomeLogs;
use super::life::{Agent, Life, Unsaid};
use super::span::SpanRecord;
use crate::memory::dream_diffs;
use crate::memory::events::EventKind;

pub struct CreatureTelemetry {
    life: Life,
    sink: Sink,
    diffs: DiffTail,
    logs: GenomeLogs,
    unsaid: Unsaid,
}

impl CreatureTelemetry {
    /// The export of the creature `name` living in `root` (its dream-diff records and
    /// its genome's memory logs read from their end as they are now).
    pub fn new(sink: Sink, name: &str, root: &Path, capture: super::content::Capture) -> Self {
        let path = dream_diffs::path(root);
        let offset = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let agent = Agent {
            name: name.to_string(),
            id: root.display().to_string(),
        };
        Self {
            life: Life::new(agent, capture),
            sink,
            diffs: DiffTail::new(path, offset),
            logs: GenomeLogs::open(root, Default::default(), true),
            unsaid: Unsaid::default(),
        }
    }

    fn send(&self, spans: Vec<SpanRecord>) {
        for span in &spans {
            if let Some(super::span::Value::Int(ms)) = span.attribute(super::semconv::TOOL_MS)
                && let Some(super::span::Value::Str(tool)) =
                    span.attribute(super::semconv::TOOL_NAME)
            {
                self.sink
                    .meters
                    .tool(&self.life.agent().name, tool, *ms as f64 / 1000.0);
            }
        }
        self.sink.send(spans);
    }

    /// An event was written to the creature's events log.
    pub fn event(&mut self, t: DateTime<Utc>, kind: &EventKind, fields: &Map<String, Json>) {
        if matches!(kind, EventKind::Boot | EventKind::Wake | EventKind::Sleep) {
            self.read_memory();
        }
        if *kind == EventKind::Dream {
            self.sink.meters.dream(&self.life.agent().name);
        }
        let spans = self.life.event(t, kind, fields, &mut self.unsaid);
        self.send(spans);
    }

    /// A model call (a chat or embeddings) begins: the `traceparent` its request
    /// carries.
    pub fn call_begins(&mut self, id: u64, now: DateTime<Utc>) -> String {
        self.life.call_begins(id, now)
    }

    /// A model call came back.
    pub fn call_ends(&mut self, call: &ModelCall) {
        let span = self.life.call_ends(call);
        let seconds = (span.end - span.start).num_milliseconds() as f64 / 1000.0;
        self.sink
            .meters
            .call(&self.life.agent().name, call, seconds);
        self.sink.send(vec![span]);
    }

    /// Whether the model calls' content goes into their spans.
    pub fn captures(&self) -> bool {
        self.life.captures()
    }

    pub fn fatigue(&self, fatigue: u64) {
        self.sink.meters.fatigue(&self.life.agent().name, fatigue);
    }

    /// The run ends at `t`: the wake (or the sleep) under way is said.
    pub fn finish(&mut self, t: DateTime<Utc>) {
        self.read_memory();
        let spans = self.life.finish(t, &mut self.unsaid);
        self.send(spans);
    }

    /// Reads what the memory files say since (a wake or a sleep ends).
    fn read_memory(&mut self) {
        self.diffs.read(&mut self.unsaid.diffs);
        self.logs.read(&mut self.unsaid.ops);
    }

    /// What is wrong with the export now (an unreachable collector), if anything.
    pub fn problem(&self) -> Option<String> {
        self.sink.problem()
    }
}
