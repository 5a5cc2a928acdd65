//! `.sys/events.jsonl` (older: `.self/events.jsonl`) and `.self/memory.jsonl`:
//! typed events `{"t","type",...}`. Unknown types pass through.
//!
//! [`EventKind`] names every kind dreamwatch writes or reads; [`CreatureEvent`] is the typed
//! payload of each kind the runner writes, read back with [`Event::payload`]. Readers are
//! tolerant: a payload field that is missing or of another type is `None`, never an error.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use super::json::{LineError, parse_line};
use super::lenient::{lenient_records, read};
use super::time::parse_time;

#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub t: Option<DateTime<Utc>>,
    /// `creature.tool_call`, `creature.sleep`, `host.spawn`, ... (memory.jsonl: `thought`, ...).
    pub kind: EventKind,
    /// Every other field (for memory.jsonl, the fields of `data` are merged in).
    pub fields: Map<String, Value>,
}

/// The `type` of an event line. Kinds dreamwatch does not know are kept as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EventKind {
    Boot,
    Sleep,
    Wake,
    Dream,
    ToolCall,
    Thought,
    Error,
    Message,
    /// dreamwatch's runner: a message the creature sent (to a creature of its garden or
    /// its creator).
    MessageSent,
    ProgressCheck,
    SelfEvaluation,
    HostSpawn,
    HostPromote,
    /// dreamwatch's runner: the operator paused or resumed the creature.
    Pause,
    Resume,
    /// Anything else (`budget.*`, memory.jsonl's `thought`, future kinds): passed through.
    Other(String),
}

const KNOWN: [(EventKind, &str); 15] = [
    (EventKind::Boot, "creature.boot"),
    (EventKind::Sleep, "creature.sleep"),
    (EventKind::Wake, "creature.wake"),
    (EventKind::Dream, "creature.dream"),
    (EventKind::ToolCall, "creature.tool_call"),
    (EventKind::Thought, "creature.thought"),
    (EventKind::Error, "creature.error"),
    (EventKind::Message, "creature.message"),
    (EventKind::MessageSent, "creature.message_sent"),
    (EventKind::ProgressCheck, "creature.progress_check"),
    (EventKind::SelfEvaluation, "creature.self_evaluation"),
    (EventKind::HostSpawn, "host.spawn"),
    (EventKind::HostPromote, "host.promote"),
    (EventKind::Pause, "creature.pause"),
    (EventKind::Resume, "creature.resume"),
];

impl EventKind {
    pub fn parse(s: &str) -> Self {
        KNOWN
            .iter()
            .find(|(_, name)| *name == s)
            .map_or_else(|| EventKind::Other(s.to_string()), |(k, _)| k.clone())
    }

    /// As written in the `type` field.
    pub fn as_str(&self) -> &str {
        match self {
            EventKind::Other(s) => s,
            known => KNOWN
                .iter()
                .find(|(k, _)| k == known)
                .map_or("", |(_, name)| name),
        }
    }
}

impl Serialize for EventKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for EventKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Self::parse(&String::deserialize(d)?))
    }
}

/// The payload of each kind of event the runner writes. Every field is optional on reading
/// (OpenSeed writes fewer); the runner writes them all.
#[derive(Debug, Clone, PartialEq)]
pub enum CreatureEvent {
    Boot(Boot),
    Sleep(Sleep),
    Wake(Wake),
    Dream(DreamEvent),
    ToolCall(ToolCall),
    Thought(Thought),
    Error(ErrorEvent),
    Message(MessageEvent),
    MessageSent(SentMessage),
    Pause(OperatorAct),
    Resume(OperatorAct),
}

lenient_records! {
    /// `creature.pause`, `creature.resume`: who did it (`operator`).
    pub struct OperatorAct {
        source: String,
    }

    /// `creature.boot`: OpenSeed writes `sha`, dreamwatch's runner its name and version.
    pub struct Boot {
        sha: String,
        runner: String,
        version: String,
    }

    /// `creature.sleep`: how long, the intent (or why it was forced), actions since the last.
    pub struct Sleep {
        seconds: f64,
        text: String,
        actions: u64,
    }

    /// `creature.wake`.
    pub struct Wake {
        reason: String,
        /// `timer` or `operator`.
        source: String,
    }

    /// `creature.dream`.
    pub struct DreamEvent {
        reflection: String,
        priority: String,
        observations: u64,
        deep: bool,
    }

    /// `creature.tool_call`: one per executed tool (`set_sleep` excluded).
    pub struct ToolCall {
        tool: String,
        /// The command (bash), or the input's JSON text.
        input: String,
        ok: bool,
        output: String,
        ms: u64,
    }

    /// `creature.thought`.
    pub struct Thought {
        text: String,
    }

    /// `creature.error`: what failed, and for a model call the retry schedule.
    pub struct ErrorEvent {
        error: String,
        /// Where in the cycle (`restore`, `consolidation`, `deep_sleep`, `wake`, `inbox`).
        phase: String,
        /// Milliseconds until the retry.
        #[wire = "retryIn"]
        retry_in: f64,
        retries: u64,
    }

    /// `creature.message`: a message delivered to the creature, from its creator or
    /// (`from`) another creature of its garden.
    pub struct MessageEvent {
        text: String,
        /// `MESSAGES.md`, `operator` or `garden`.
        source: String,
        /// The sending creature's name (garden messages only).
        from: String,
    }

    /// `creature.message_sent`: a message the creature sent.
    pub struct SentMessage {
        /// A creature's name, or `creator`.
        to: String,
        text: String,
        /// `delivered`, `creator`, `unknown recipient` or `not in a garden`.
        delivery: String,
    }
}

impl ErrorEvent {
    /// An error met in `phase` of the cycle.
    pub fn in_phase(phase: &str, error: String) -> Self {
        Self {
            error: Some(error),
            phase: Some(phase.to_string()),
            ..Self::default()
        }
    }
}

impl CreatureEvent {
    pub fn kind(&self) -> EventKind {
        match self {
            CreatureEvent::Boot(_) => EventKind::Boot,
            CreatureEvent::Sleep(_) => EventKind::Sleep,
            CreatureEvent::Wake(_) => EventKind::Wake,
            CreatureEvent::Dream(_) => EventKind::Dream,
            CreatureEvent::ToolCall(_) => EventKind::ToolCall,
            CreatureEvent::Thought(_) => EventKind::Thought,
            CreatureEvent::Error(_) => EventKind::Error,
            CreatureEvent::Message(_) => EventKind::Message,
            CreatureEvent::MessageSent(_) => EventKind::MessageSent,
            CreatureEvent::Pause(_) => EventKind::Pause,
            CreatureEvent::Resume(_) => EventKind::Resume,
        }
    }

    /// The fields beside `t` and `type`.
    pub fn fields(&self) -> Map<String, Value> {
        let value = match self {
            CreatureEvent::Boot(p) => serde_json::to_value(p),
            CreatureEvent::Sleep(p) => serde_json::to_value(p),
            CreatureEvent::Wake(p) => serde_json::to_value(p),
            CreatureEvent::Dream(p) => serde_json::to_value(p),
            CreatureEvent::ToolCall(p) => serde_json::to_value(p),
            CreatureEvent::Thought(p) => serde_json::to_value(p),
            CreatureEvent::Error(p) => serde_json::to_value(p),
            CreatureEvent::Message(p) => serde_json::to_value(p),
            CreatureEvent::MessageSent(p) => serde_json::to_value(p),
            CreatureEvent::Pause(p) | CreatureEvent::Resume(p) => serde_json::to_value(p),
        };
        match value {
            Ok(Value::Object(m)) => m,
            _ => Map::new(),
        }
    }

    /// The typed payload of `kind` read from `fields`; `None` for kinds without one.
    pub fn from_fields(kind: &EventKind, fields: &Map<String, Value>) -> Option<Self> {
        Some(match kind {
            EventKind::Boot => CreatureEvent::Boot(read(fields)),
            EventKind::Sleep => CreatureEvent::Sleep(read(fields)),
            EventKind::Wake => CreatureEvent::Wake(read(fields)),
            EventKind::Dream => CreatureEvent::Dream(read(fields)),
            EventKind::ToolCall => CreatureEvent::ToolCall(read(fields)),
            EventKind::Thought => CreatureEvent::Thought(read(fields)),
            EventKind::Error => CreatureEvent::Error(read(fields)),
            EventKind::Message => CreatureEvent::Message(read(fields)),
            EventKind::MessageSent => CreatureEvent::MessageSent(read(fields)),
            EventKind::Pause => CreatureEvent::Pause(read(fields)),
            EventKind::Resume => CreatureEvent::Resume(read(fields)),
            _ => return None,
        })
    }
}

impl Event {
    pub fn parse(line: &[u8]) -> Result<Self, LineError> {
        let value: Value = parse_line(line)?;
        let Value::Object(mut fields) = value else {
            return Err(LineError::NotAnObject);
        };
        let kind = match fields.remove("type") {
            Some(Value::String(s)) => EventKind::parse(&s),
            _ => return Err(LineError::Missing("type")),
        };
        let t = fields
            .remove("t")
            .as_ref()
            .and_then(Value::as_str)
            .and_then(parse_time);
        if let Some(Value::Object(data)) = fields.remove("data") {
            fields.extend(data);
        }
        Ok(Self { t, kind, fields })
    }

    /// The typed payload, for the kinds the runner writes.
    pub fn payload(&self) -> Option<CreatureEvent> {
        CreatureEvent::from_fields(&self.kind, &self.fields)
    }

    pub fn str(&self, key: &str) -> Option<&str> {
        self.fields.get(key).and_then(Value::as_str)
    }

    pub fn f64(&self, key: &str) -> Option<f64> {
        self.fields.get(key).and_then(Value::as_f64)
    }

    pub fn bool(&self, key: &str) -> Option<bool> {
        self.fields.get(key).and_then(Value::as_bool)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_fields() {
        let e = Event::parse(br#"{"t":"2026-11-22T17:32:33.041Z","type":"creature.sleep","seconds":30,"text":"zz","actions":5}"#).unwrap();
        assert_eq!(e.kind, EventKind::Sleep);
        assert_eq!(e.kind.as_str(), "creature.sleep");
        assert_eq!(e.f64("seconds"), Some(30.0));
        assert_eq!(e.str("text"), Some("zz"));
        assert_eq!(
            e.payload(),
            Some(CreatureEvent::Sleep(Sleep {
                seconds: Some(30.0),
                text: Some("zz".into()),
                actions: Some(5),
            }))
        );
    }

    #[test]
    fn memory_data_is_merged() {
        let e =
            Event::parse(br#"{"t":"2026-11-22T17:32:33Z","type":"thought","data":{"intent":"x"}}"#)
                .unwrap();
        assert_eq!(e.str("intent"), Some("x"));
        assert_eq!(e.kind, EventKind::Other("thought".into()));
    }

    #[test]
    fn bad_events() {
        assert!(Event::parse(br#"{"t":"x"}"#).is_err());
        assert!(Event::parse(b"42").is_err());
    }

    #[test]
    fn every_kind_round_trips_and_unknown_ones_pass_through() {
        for (kind, name) in KNOWN {
            assert_eq!(EventKind::parse(name), kind);
            assert_eq!(kind.as_str(), name);
        }
        let odd = EventKind::parse("budget.exceeded");
        assert_eq!(odd.as_str(), "budget.exceeded");
        assert_eq!(serde_json::to_string(&odd).unwrap(), "\"budget.exceeded\"");
        let e = Event::parse(br#"{"type":"host.spawn","pid":7}"#).unwrap();
        assert_eq!((&e.kind, e.payload()), (&EventKind::HostSpawn, None));
    }

    #[test]
    fn payloads_are_written_whole_and_read_leniently() {
        let call = CreatureEvent::ToolCall(ToolCall {
            tool: Some("bash".into()),
            input: Some("ls".into()),
            ok: Some(true),
            output: Some("a".into()),
            ms: Some(5),
        });
        let fields = call.fields();
        assert_eq!(fields["tool"], "bash");
        assert_eq!(fields.len(), 5);
        assert_eq!(
            CreatureEvent::from_fields(&call.kind(), &fields),
            Some(call)
        );
        // OpenSeed's object input and a string `ms`: the rest of the call still reads.
        let e = Event::parse(
            br#"{"type":"creature.tool_call","tool":"browser","input":{"url":"x"},"ok":true,"ms":"7"}"#,
        )
        .unwrap();
        let Some(CreatureEvent::ToolCall(c)) = e.payload() else {
            panic!("a tool call")
        };
        assert_eq!(
            (c.tool.as_deref(), c.input, c.ok, c.ms),
            (Some("browser"), None, Some(true), None)
        );
        let error = CreatureEvent::Error(ErrorEvent {
            error: Some("x".into()),
            retry_in: Some(2000.0),
            retries: Some(1),
            phase: None,
        });
        assert!(error.fields().contains_key("retryIn"));
    }
}
