//! `.sys/mode.jsonl`: the operating mode (awake, sleep), the sleep phases, deferred wakes
//! and context compactions.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::memory::json::LineError;
use crate::memory::lenient::{lenient_records, read};
use crate::memory::op_line::{OpLine, OpRecord};
use crate::memory::recent::Recent;
use crate::memory::time::parse_time;

/// Transitions and compactions kept for the views (the newest).
pub const KEPT_RECORDS: usize = 200;

lenient_records! {
    /// `transition`: the mode changed, and why.
    #[op = "transition"]
    pub struct Transition {
        from: String,
        to: String,
        reason: String,
        wake_at: String,
    }

    /// `phase`: the sleep entered a phase.
    #[op = "phase"]
    pub struct PhaseLine {
        phase: String,
    }

    /// `wake_deferred`: a wake came during the compacting phase and waits for its end.
    #[op = "wake_deferred"]
    pub struct WakeDeferred {
        reason: String,
    }

    /// `compaction`: the context was summarized.
    #[op = "compaction"]
    pub struct Compaction {
        /// `sleep` (70 % of the context budget, asleep) or `emergency` (80 %, awake).
        trigger: String,
        ratio: f64,
        summarized: u64,
        preserved: u64,
        /// The synthesis journal entry holding the summary.
        journal_id: String,
    }
}

/// One line of the mode file.
#[derive(Debug, Clone, PartialEq)]
pub enum ModeOp {
    Transition(Transition),
    Phase(PhaseLine),
    WakeDeferred(WakeDeferred),
    Compaction(Compaction),
    Other(String),
}

impl ModeOp {
    /// The op of a line; a transition without `to` or a phase without `phase` is bad.
    pub fn parse(line: &OpLine) -> Result<Self, LineError> {
        Ok(match line.op.as_str() {
            Transition::OP => {
                line.key("to")?;
                ModeOp::Transition(read(&line.fields))
            }
            PhaseLine::OP => {
                line.key("phase")?;
                ModeOp::Phase(read(&line.fields))
            }
            WakeDeferred::OP => ModeOp::WakeDeferred(read(&line.fields)),
            Compaction::OP => ModeOp::Compaction(read(&line.fields)),
            other => ModeOp::Other(other.to_string()),
        })
    }
}

/// The operating mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Awake,
    Sleep,
    /// A mode this reader does not know, as written.
    #[serde(untagged)]
    Other(String),
}

impl Mode {
    fn parse(s: &str) -> Self {
        match s {
            "awake" => Mode::Awake,
            "sleep" => Mode::Sleep,
            other => Mode::Other(other.to_string()),
        }
    }
}

/// A sleep phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Scoring, then journal -> semantic memory: atomic, a wake waits for its end.
    Compacting,
    Dreaming,
    /// The sleep work is over: sleeping until the wake (a light sleep).
    Resting,
    #[serde(untagged)]
    Other(String),
}

impl Phase {
    fn parse(s: &str) -> Self {
        match s {
            "compacting" => Phase::Compacting,
            "dreaming" => Phase::Dreaming,
            "resting" => Phase::Resting,
            other => Phase::Other(other.to_string()),
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            Phase::Compacting => "compacting",
            Phase::Dreaming => "dreaming",
            Phase::Resting => "resting",
            Phase::Other(s) => s,
        }
    }
}

/// A transition as kept.
#[derive(Debug, Clone, PartialEq)]
pub struct ModeTransition {
    pub t: Option<DateTime<Utc>>,
    pub from: Option<String>,
    pub to: Mode,
    pub reason: Option<String>,
    pub wake_at: Option<DateTime<Utc>>,
}

/// A compaction as kept.
#[derive(Debug, Clone, PartialEq)]
pub struct ModeCompaction {
    pub t: Option<DateTime<Utc>>,
    pub compaction: Compaction,
}

/// The mode file folded.
#[derive(Debug, Clone)]
pub struct ModeLog {
    pub lines: u64,
    pub bad_lines: u64,
    transitions: Recent<ModeTransition>,
    pub transition_count: u64,
    /// The last phase line since the last transition.
    phase: Option<(Option<DateTime<Utc>>, Phase)>,
    /// The last line since the last phase line is a `wake_deferred`: its time and reason.
    deferred: Option<(Option<DateTime<Utc>>, Option<String>)>,
    pub deferred_count: u64,
    compactions: Recent<ModeCompaction>,
    pub compactions_sleep: u64,
    pub compactions_emergency: u64,
    /// Compactions with another trigger (or none).
    pub compactions_other: u64,
    /// Sleep works that ended (`phase: resting` lines), and the time of the last.
    pub rests: u64,
    pub last_rest_t: Option<DateTime<Utc>>,
    pub last_t: Option<DateTime<Utc>>,
}

impl Default for ModeLog {
    fn default() -> Self {
        Self {
            lines: 0,
            bad_lines: 0,
            transitions: Recent::new(KEPT_RECORDS),
            transition_count: 0,
            phase: None,
            deferred: None,
            deferred_count: 0,
            compactions: Recent::new(KEPT_RECORDS),
            compactions_sleep: 0,
            compactions_emergency: 0,
            compactions_other: 0,
            rests: 0,
            last_rest_t: None,
            last_t: None,
        }
    }
}

impl ModeLog {
    /// Folds one line.
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), LineError> {
        self.lines += 1;
        let parsed = OpLine::parse(bytes).and_then(|l| Ok((l.t, ModeOp::parse(&l)?)));
        let (t, op) = match parsed {
            Ok(p) => p,
            Err(e) => {
                self.bad_lines += 1;
                return Err(e);
            }
        };
        if t.is_some() {
            self.last_t = self.last_t.max(t);
        }
        self.apply(t, op);
        Ok(())
    }

    pub fn apply(&mut self, t: Option<DateTime<Utc>>, op: ModeOp) {
        match op {
            ModeOp::Transition(tr) => {
                self.transition_count += 1;
                self.phase = None;
                self.deferred = None;
                self.transitions.push(ModeTransition {
                    t,
                    from: tr.from,
                    to: Mode::parse(tr.to.as_deref().unwrap_or_default()),
                    reason: tr.reason,
                    wake_at: tr.wake_at.as_deref().and_then(parse_time),
                });
            }
            ModeOp::Phase(p) => {
                self.deferred = None;
                let phase = Phase::parse(p.phase.as_deref().unwrap_or_default());
                if phase == Phase::Resting {
                    self.rests += 1;
                    self.last_rest_t = t.or(self.last_rest_t);
                }
                self.phase = Some((t, phase));
            }
            ModeOp::WakeDeferred(w) => {
                self.deferred_count += 1;
                self.deferred = Some((t, w.reason));
            }
            ModeOp::Compaction(c) => {
                self.deferred = None;
                match c.trigger.as_deref() {
                    Some("sleep") => self.compactions_sleep += 1,
                    Some("emergency") => self.compactions_emergency += 1,
                    _ => self.compactions_other += 1,
                }
                self.compactions.push(ModeCompaction { t, compaction: c });
            }
            ModeOp::Other(_) => {}
        }
    }

    /// The mode now: the last transition's `to`, awake when there is none.
    pub fn mode(&self) -> Mode {
        self.last_transition()
            .map_or(Mode::Awake, |tr| tr.to.clone())
    }

    pub fn last_transition(&self) -> Option<&ModeTransition> {
        self.transitions.last()
    }

    /// The newest transitions, oldest first.
    pub fn transitions(&self) -> &[ModeTransition] {
        self.transitions.as_slice()
    }

    /// The phase of the sleep now (none while awake).
    pub fn phase(&self) -> Option<&Phase> {
        match self.mode() {
            Mode::Awake => None,
            _ => self.phase.as_ref().map(|(_, p)| p),
        }
    }

    /// When the current phase began.
    pub fn phase_since(&self) -> Option<DateTime<Utc>> {
        self.phase().and(self.phase.as_ref().and_then(|(t, _)| *t))
    }

    /// A wake waiting for the compacting phase to end: its reason (`Some("")` when the
    /// line gave none).
    pub fn wake_deferred(&self) -> Option<&str> {
        match (self.phase(), &self.deferred) {
            (Some(Phase::Compacting), Some((_, reason))) => Some(reason.as_deref().unwrap_or("")),
            _ => None,
        }
    }

    /// When a sleeping creature is due to wake (the last transition to sleep says).
    pub fn wake_at(&self) -> Option<DateTime<Utc>> {
        self.last_transition()
            .filter(|tr| tr.to == Mode::Sleep)
            .and_then(|tr| tr.wake_at)
    }

    /// Where the creature is, as the header and `inspect` say it: `awake`, `asleep`,
    /// `asleep · compacting`, ..., with `· wake deferred` while a wake waits (unsanitised:
    /// an unknown mode or phase is shown as written).
    pub fn label(&self) -> String {
        let mut label = match self.mode() {
            Mode::Awake => "awake".to_string(),
            Mode::Sleep => "asleep".to_string(),
            Mode::Other(s) => s,
        };
        if let Some(phase) = self.phase() {
            label.push_str(" · ");
            label.push_str(phase.as_str());
        }
        if self.wake_deferred().is_some() {
            label.push_str(" · wake deferred");
        }
        label
    }

    /// The newest compactions, oldest first.
    pub fn compactions(&self) -> &[ModeCompaction] {
        self.compactions.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fold(lines: &[&str]) -> ModeLog {
        let mut m = ModeLog::default();
        for l in lines {
            let _ = m.push(l.as_bytes());
        }
        m
    }

    const SLEEP: &str = r#"{"t":"2026-11-22T10:00:00Z","op":"transition","from":"awake","to":"sleep","reason":"set_sleep 600s","wake_at":"2026-11-22T10:10:00Z"}"#;
    const COMPACTING: &str = r#"{"t":"2026-11-22T10:00:01Z","op":"phase","phase":"compacting"}"#;
    const DEFERRED: &str = r#"{"t":"2026-11-22T10:00:30Z","op":"wake_deferred","reason":"scheduled wake during compacting"}"#;

    #[test]
    fn awake_with_no_lines() {
        let m = fold(&[]);
        assert_eq!(
            (m.mode(), m.phase(), m.wake_deferred()),
            (Mode::Awake, None, None)
        );
    }

    #[test]
    fn sleep_phases_and_a_deferred_wake() {
        let m = fold(&[SLEEP, COMPACTING]);
        assert_eq!(m.mode(), Mode::Sleep);
        assert_eq!(m.phase(), Some(&Phase::Compacting));
        assert_eq!(
            m.wake_at().map(|t| t.to_rfc3339()),
            Some("2026-11-22T10:10:00+00:00".into())
        );
        let m = fold(&[SLEEP, COMPACTING, DEFERRED]);
        assert_eq!(m.wake_deferred(), Some("scheduled wake during compacting"));
        assert_eq!(m.label(), "asleep · compacting · wake deferred");
        // The phase moves on: the deferred wake is no longer shown.
        let dreaming = r#"{"t":"2026-11-22T10:01:00Z","op":"phase","phase":"dreaming"}"#;
        let m = fold(&[SLEEP, COMPACTING, DEFERRED, dreaming]);
        assert_eq!(
            (m.phase(), m.wake_deferred()),
            (Some(&Phase::Dreaming), None)
        );
        let resting = r#"{"op":"phase","phase":"resting"}"#;
        assert_eq!(fold(&[SLEEP, resting]).label(), "asleep · resting");
        assert_eq!(fold(&[SLEEP]).label(), "asleep");
        // A wake: awake, no phase.
        let wake = r#"{"t":"2026-11-22T10:02:00Z","op":"transition","from":"sleep","to":"awake","reason":"timer","wake_at":null}"#;
        let m = fold(&[SLEEP, COMPACTING, DEFERRED, dreaming, wake]);
        assert_eq!(
            (m.mode(), m.phase(), m.wake_at()),
            (Mode::Awake, None, None)
        );
        assert_eq!(m.label(), "awake");
        assert_eq!((m.transition_count, m.deferred_count), (2, 1));
    }

    #[test]
    fn compactions_by_trigger_and_bad_lines() {
        let mut m = ModeLog::default();
        for l in [
            r#"{"op":"compaction","trigger":"sleep","ratio":0.73,"summarized":14,"preserved":6,"journal_id":"j40"}"#,
            r#"{"op":"compaction","trigger":"emergency","ratio":0.81}"#,
            r#"{"op":"compaction"}"#,
            r#"{"op":"tick","mode":"awake","n":12}"#,
        ] {
            m.push(l.as_bytes()).unwrap();
        }
        assert_eq!(
            m.push(br#"{"op":"transition","from":"awake"}"#),
            Err(LineError::Missing("to"))
        );
        assert_eq!(
            m.push(br#"{"op":"phase"}"#),
            Err(LineError::Missing("phase"))
        );
        assert_eq!(
            (
                m.compactions_sleep,
                m.compactions_emergency,
                m.compactions_other
            ),
            (1, 1, 1)
        );
        assert_eq!(
            m.compactions()[0].compaction.journal_id.as_deref(),
            Some("j40")
        );
        assert_eq!((m.lines, m.bad_lines), (6, 2));
    }
}
