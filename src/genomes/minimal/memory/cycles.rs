//! A `minimal` creature's cycles, folded from its events log: `creature.boot` or
//! `creature.wake` begins one, `creature.thought`, `creature.tool_call`,
//! `creature.message` and `creature.error` happen in it, `creature.sleep` ends it.

use std::io::Write;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::memory::events::{Event, EventKind};
use crate::memory::recent::Recent;
use crate::text::sanitize::sanitize_line;

/// Cycles kept in memory (the newest); older ones are counted.
const KEPT: usize = 200;
/// Steps kept per cycle (the first); the rest are counted.
const STEPS_KEPT: usize = 100;

/// One step of a cycle.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Thought(String),
    Tool {
        tool: String,
        input: String,
        ok: bool,
    },
    Message(String),
    Error(String),
}

/// One cycle: from a boot or wake to a sleep.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cycle {
    /// When it began (the boot or wake).
    pub t: Option<DateTime<Utc>>,
    /// Why it began: `boot`, `timer expired`, an external wake's reason.
    pub began: String,
    pub steps: Vec<Step>,
    /// Steps past the ones kept.
    pub steps_dropped: u64,
    pub tool_calls: u64,
    pub failed: u64,
    /// The sleep that ended it, in seconds (`None`: under way, or stopped).
    pub slept_s: Option<f64>,
}

/// The cycles folded so far.
#[derive(Debug, Clone)]
pub struct Cycles {
    kept: Recent<Cycle>,
    /// The cycle under way (not yet asleep).
    current: Option<Cycle>,
    /// Cycles that ended in a sleep, all of them.
    pub ended: u64,
    pub tool_calls: u64,
    pub failed: u64,
    pub thoughts: u64,
    last_t: Option<DateTime<Utc>>,
}

impl Default for Cycles {
    fn default() -> Self {
        Self {
            kept: Recent::new(KEPT),
            current: None,
            ended: 0,
            tool_calls: 0,
            failed: 0,
            thoughts: 0,
            last_t: None,
        }
    }
}

fn text(event: &Event, field: &str) -> String {
    event
        .fields
        .get(field)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

impl Cycles {
    /// Folds one event.
    pub fn push(&mut self, event: &Event) {
        self.last_t = self.last_t.max(event.t);
        match &event.kind {
            EventKind::Boot => self.begin(event.t, "boot".to_string()),
            EventKind::Wake => self.begin(event.t, text(event, "reason")),
            EventKind::Thought => {
                self.thoughts += 1;
                self.step(event.t, Step::Thought(text(event, "text")));
            }
            EventKind::ToolCall => {
                let ok = event
                    .fields
                    .get("ok")
                    .and_then(Value::as_bool)
                    .unwrap_or(true);
                self.tool_calls += 1;
                self.failed += u64::from(!ok);
                let tool = text(event, "tool");
                let input = text(event, "input");
                self.step(event.t, Step::Tool { tool, input, ok });
            }
            EventKind::Message => self.step(event.t, Step::Message(text(event, "text"))),
            EventKind::Error => self.step(event.t, Step::Error(text(event, "error"))),
            EventKind::Sleep => {
                let seconds = event.fields.get("seconds").and_then(Value::as_f64);
                let mut cycle = self.current.take().unwrap_or_else(|| Cycle {
                    t: event.t,
                    ..Cycle::default()
                });
                cycle.slept_s = seconds;
                self.ended += 1;
                self.kept.push(cycle);
            }
            _ => {}
        }
    }

    /// A boot or wake: the cycle under way (a boot after a stop leaves one) is kept as it
    /// ended, and a new one begins.
    fn begin(&mut self, t: Option<DateTime<Utc>>, began: String) {
        if let Some(unfinished) = self.current.take() {
            self.kept.push(unfinished);
        }
        self.current = Some(Cycle {
            t,
            began,
            ..Cycle::default()
        });
    }

    fn step(&mut self, t: Option<DateTime<Utc>>, step: Step) {
        let cycle = self.current.get_or_insert_with(|| Cycle {
            t,
            ..Cycle::default()
        });
        if let Step::Tool { ok, .. } = &step {
            cycle.tool_calls += 1;
            cycle.failed += u64::from(!ok);
        }
        if cycle.steps.len() < STEPS_KEPT {
            cycle.steps.push(step);
        } else {
            cycle.steps_dropped += 1;
        }
    }

    /// The cycles kept, oldest first, then the one under way.
    pub fn all(&self) -> impl DoubleEndedIterator<Item = &Cycle> {
        self.kept.as_slice().iter().chain(self.current.as_ref())
    }

    /// The cycle under way, if any.
    pub fn current(&self) -> Option<&Cycle> {
        self.current.as_ref()
    }

    pub fn last_t(&self) -> Option<DateTime<Utc>> {
        self.last_t
    }

    /// What `inspect --json` gives of them.
    pub fn figures(&self) -> Value {
        json!({
            "ended": self.ended,
            "under_way": self.current.is_some(),
            "thoughts": self.thoughts,
            "tool_calls": self.tool_calls,
            "failed": self.failed,
        })
    }
}

/// The lines of plain `inspect`.
pub fn write_text(
    out: &mut dyn Write,
    cycle_count: Option<u64>,
    cycles: &Cycles,
) -> std::io::Result<()> {
    let count = cycle_count.map_or("unknown".to_string(), |n| n.to_string());
    writeln!(
        out,
        "  cycle         {count} ({} ended in a sleep{})",
        super::cycles_label(cycles.ended),
        if cycles.current().is_some() {
            ", one under way"
        } else {
            ""
        }
    )?;
    writeln!(
        out,
        "  tool calls    {} ({} failed), {} thoughts",
        cycles.tool_calls, cycles.failed, cycles.thoughts
    )?;
    if let Some(last) = cycles.all().next_back() {
        writeln!(out, "  last cycle    began: {}", sanitize_line(&last.began))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(line: &str) -> Event {
        Event::parse(line.as_bytes()).unwrap()
    }

    #[test]
    fn a_wake_begins_a_cycle_and_a_sleep_ends_it() {
        let mut c = Cycles::default();
        for line in [
            r#"{"t":"2026-11-26T22:52:40.688Z","type":"creature.boot"}"#,
            r#"{"t":"2026-11-26T22:52:40.834Z","type":"creature.thought","text":"look"}"#,
            r#"{"t":"2026-11-26T22:52:41.060Z","type":"creature.tool_call","tool":"bash","input":"ls","ok":true,"output":"x","ms":3}"#,
            r#"{"t":"2026-11-26T22:52:42.000Z","type":"creature.tool_call","tool":"bash","input":"false","ok":false,"output":"","ms":3}"#,
            r#"{"t":"2026-11-26T22:52:43.000Z","type":"creature.sleep","seconds":10,"text":"","actions":2}"#,
            r#"{"t":"2026-11-26T22:52:53.000Z","type":"creature.wake","reason":"timer expired","source":"timer"}"#,
            r#"{"t":"2026-11-26T22:52:54.000Z","type":"creature.thought","text":"again"}"#,
        ] {
            c.push(&event(line));
        }
        assert_eq!((c.ended, c.tool_calls, c.failed, c.thoughts), (1, 2, 1, 2));
        let all: Vec<&Cycle> = c.all().collect();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].began, "boot");
        assert_eq!(all[0].slept_s, Some(10.0));
        assert_eq!(all[0].steps.len(), 3);
        assert_eq!(all[1].began, "timer expired");
        assert!(c.current().is_some_and(|x| x.slept_s.is_none()));
    }
}
