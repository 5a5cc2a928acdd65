//! The records the runner writes, read back by the memory model: the exact bytes on
//! disk, and what the folds make of them.

use chrono::{DateTime, TimeZone, Utc};
use proptest::prelude::*;
use serde_json::Value;

use super::calendar::CalendarAdd;
use super::dialogues::SaidLine;
use super::diary::DiaryLine;
use super::lines::Archive;
use super::longterm::{LinkRole, LongTermAdd, NeuralLinkLine};
use super::relations::RelationLine;
use super::soul::SoulAdd;
use super::summaries::{SummaryKind, SummaryLine};
use super::todos::{Priority, TodoAdd};
use super::*;
use crate::memory::lenient::Strings;
use crate::memory::op_line::OpRecord;

fn at() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap()
}

fn bytes(line: &Value) -> Vec<u8> {
    serde_json::to_vec(line).unwrap()
}

/// Each record's line, byte for byte as the files have it (keys sorted, `null` where the
/// format writes it, absent where it leaves a field out).
#[test]
fn records_write_the_files_format() {
    let cases: [(Value, &str); 6] = [
        (
            LongTermAdd {
                id: Some("m1".into()),
                text: Some("Ada".into()),
                ..Default::default()
            }
            .line_at(at()),
            r#"{"id":"m1","op":"add","t":"2026-03-01T10:00:00.000Z","text":"Ada"}"#,
        ),
        (
            NeuralLinkLine {
                agent: Some("wren".into()),
                role: Some(LinkRole::Received),
                memories: Some(2),
                summaries: Some(0),
            }
            .line(),
            r#"{"agent":"wren","memories":2,"op":"neural_link","role":"received","summaries":0}"#,
        ),
        (
            SummaryLine {
                id: Some("sum1".into()),
                kind: Some(SummaryKind::Memories),
                focus: Some(String::new()),
                text: Some("x".into()),
                covers: Some(Strings(vec!["m1".into()])),
                folded: Some(Strings::default()),
                watermark: None,
                ..Default::default()
            }
            .line(),
            r#"{"covers":["m1"],"focus":"","folded":[],"id":"sum1","kind":"memories","op":"summary","text":"x","watermark":null}"#,
        ),
        (
            DiaryLine {
                date: Some("2026-03-01".into()),
                text: Some("a day".into()),
                mood: Some("calm".into()),
                location: None,
            }
            .line(),
            r#"{"date":"2026-03-01","location":null,"mood":"calm","op":"entry","text":"a day"}"#,
        ),
        (
            TodoAdd {
                id: Some("td1".into()),
                title: Some("x".into()),
                description: Some(String::new()),
                priority: Some(Priority::Text("medium".into())),
                due: None,
            }
            .line(),
            r#"{"description":"","due":null,"id":"td1","op":"add","priority":"medium","title":"x"}"#,
        ),
        (
            RelationLine {
                agent: Some("wren".into()),
                interaction_count: Some(1),
                first_met_at: None,
                trust_level: Some(0.4),
                ..Default::default()
            }
            .line(),
            r#"{"agent":"wren","first_met_at":null,"interaction_count":1,"op":"relation","trust_level":0.4}"#,
        ),
    ];
    for (line, want) in cases {
        assert_eq!(String::from_utf8(bytes(&line)).unwrap(), want);
    }
}

/// Every record the runner writes, folded by the memory model.
#[test]
fn what_the_runner_writes_the_memory_model_reads() {
    let mut m = EmergenceMemory::default();
    let mut fold = |kind, n, line: Value| m.fold(kind, n, &bytes(&line)).unwrap();
    fold(
        LONG_TERM,
        0,
        LongTermAdd {
            id: Some("m1".into()),
            text: Some("Bo likes bread".into()),
            from: Some("ada".into()),
            origin: Some("m9".into()),
        }
        .line_at(at()),
    );
    fold(
        LONG_TERM,
        1,
        Archive {
            ids: Some(Strings(vec!["m1".into()])),
            summary_id: Some("sum1".into()),
        }
        .line(),
    );
    fold(
        CALENDAR,
        0,
        CalendarAdd {
            id: Some("ev1".into()),
            at: Some("2026-03-02T10:00:00.000Z".into()),
            location: Some(String::new()),
            description: Some("tea".into()),
            recurrence: Some("weekly".into()),
        }
        .line(),
    );
    fold(
        DIALOGUES,
        0,
        SaidLine {
            id: Some("d1".into()),
            with: Some("wren".into()),
            from: Some("sprout".into()),
            text: Some("hello".into()),
        }
        .line(),
    );
    let memory = m.longterm.get("m1").unwrap();
    assert_eq!(memory.t, Some(at()));
    assert_eq!(
        (memory.from.as_deref(), memory.origin.as_deref()),
        (Some("ada"), Some("m9"))
    );
    assert_eq!(memory.archived.as_deref(), Some("sum1"));
    let event = m.calendar.get("ev1").unwrap();
    assert!(event.repeats() && event.location.is_none());
    assert_eq!(m.dialogues.get("d1").unwrap().from, "sprout");
    assert_eq!(m.counts(DIALOGUES).max_number, 1);
}

proptest! {
    /// Any text the runner writes reads back the same (ids and text round-trip; empty
    /// optional text reads as absent).
    #[test]
    fn any_text_round_trips(
        id in "[a-z]{1,3}[0-9]{1,4}",
        text in "\\PC{0,80}",
        mood in proptest::option::of("\\PC{0,20}"),
        due in proptest::option::of("\\PC{0,20}"),
        trust in proptest::option::of(0.0f64..=1.0),
    ) {
        let mut m = EmergenceMemory::default();
        let soul = SoulAdd { id: Some(id.clone()), text: Some(text.clone()) };
        m.fold(SOUL, 0, &bytes(&soul.line_at(at()))).unwrap();
        let entry = m.soul.entries().next().unwrap();
        prop_assert_eq!((&entry.id, &entry.text, entry.t), (&id, &text, Some(at())));

        let diary = DiaryLine {
            date: Some("2026-03-01".into()),
            text: Some(text.clone()),
            mood: mood.clone(),
            location: None,
        };
        m.fold(DIARY_LOG, 0, &bytes(&diary.line())).unwrap();
        let day = m.diary.days().next().unwrap();
        prop_assert_eq!(&day.text, &text);
        prop_assert_eq!(day.mood.clone(), mood.filter(|s| !s.is_empty()));

        let todo = TodoAdd {
            id: Some(id.clone()),
            title: Some(text.clone()),
            description: Some(text.clone()),
            priority: Some(Priority::Text("high".into())),
            due,
        };
        m.fold(TODOS, 0, &bytes(&todo.line())).unwrap();
        let t = m.todos.get(&id).unwrap();
        prop_assert_eq!(&t.title, &text);
        prop_assert_eq!(t.description.clone(), Some(text.clone()).filter(|s| !s.is_empty()));
        prop_assert_eq!(t.priority.as_deref(), Some("high"));

        let relation = RelationLine {
            agent: Some(id.clone()),
            notes: Some(text.clone()),
            trust_level: trust,
            interaction_count: Some(3),
            first_met_at: None,
            ..Default::default()
        };
        m.fold(RELATIONS, 0, &bytes(&relation.line())).unwrap();
        let now = m.relations.get(&id).unwrap().current().unwrap();
        // serde_json reads a float back to within an ulp or so (no `float_roundtrip`).
        let off = match (now.trust_level, trust) {
            (Some(read), Some(wrote)) => (read - wrote).abs(),
            (None, None) => 0.0,
            _ => 1.0,
        };
        prop_assert!(off < 1e-12);
        prop_assert_eq!(now.interaction_count, Some(3));
        prop_assert_eq!(now.notes.clone(), Some(text.clone()).filter(|s| !s.is_empty()));
    }
}
