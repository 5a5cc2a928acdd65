//! The records the runner writes, read back by the memory model: the exact bytes on
//! disk, and what the folds make of them.

use chrono::{DateTime, TimeZone, Utc};
use proptest::prelude::*;
use serde_json::Value;

use super::entities::EntityRelationship;
use super::journal::{ImportanceMethod, JournalAdd, JournalConsolidated, JournalScore};
use super::mode::{Compaction, Transition};
use super::reflections::Reflect;
use super::semantic::{Embedding, LinkTarget, SemanticAdd, SemanticLink, SemanticMetadata};
use super::working::{ConversationState, WorkingMemory, WorkingMessage};
use super::*;
use crate::memory::op_line::OpRecord;

fn at() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap()
}

fn text(line: &Value) -> String {
    serde_json::to_string(line).unwrap()
}

fn entry(id: &str, text: &str, entity: Option<&str>) -> JournalAdd {
    JournalAdd {
        id: Some(id.into()),
        text: Some(text.into()),
        tags: Some(vec!["tavern".into()]),
        source_type: Some("observation".into()),
        source_trust: Some(0.8),
        source_entity: entity.map(str::to_string),
        importance: Some(6),
        importance_method: Some(ImportanceMethod::Heuristic),
        synthesis: Some(false),
    }
}

fn memory(id: &str, entry_id: Option<&str>) -> SemanticAdd {
    SemanticAdd {
        id: Some(id.into()),
        text: Some("The well is dry.".into()),
        metadata: Some(SemanticMetadata {
            source: Some("journal".into()),
            entry_id: entry_id.map(str::to_string),
            tags: Some(Vec::new()),
            source_type: Some("direct".into()),
            source_trust: Some(0.9),
            source_entity: None,
            importance: Some(5),
            importance_method: Some(ImportanceMethod::Llm),
        }),
        embedding: Some(Embedding {
            model: Some("local-hash-256".into()),
            dims: Some(256),
        }),
    }
}

/// Each record's line, byte for byte as the files have it (keys sorted, `null` where the
/// format writes it, absent where it leaves a field out).
#[test]
fn records_write_the_files_format() {
    let cases: [(Value, &str); 5] = [
        (
            entry("j1", "The tavern is north.", None).line_at(at()),
            r#"{"id":"j1","importance":6,"importance_method":"heuristic","op":"add","source_entity":null,"source_trust":0.8,"source_type":"observation","synthesis":false,"t":"2026-03-01T10:00:00.000Z","tags":["tavern"],"text":"The tavern is north."}"#,
        ),
        (
            JournalConsolidated {
                id: Some("j1".into()),
                memory_id: None,
            }
            .line(),
            r#"{"id":"j1","memory_id":null,"op":"consolidated"}"#,
        ),
        (
            memory("m1", None).line_at(at()),
            r#"{"embedding":{"dims":256,"model":"local-hash-256"},"id":"m1","metadata":{"entry_id":null,"importance":5,"importance_method":"llm","source":"journal","source_entity":null,"source_trust":0.9,"source_type":"direct","tags":[]},"op":"add","t":"2026-03-01T10:00:00.000Z","text":"The well is dry."}"#,
        ),
        (
            Transition {
                from: Some("sleep".into()),
                to: Some("awake".into()),
                reason: Some("operator".into()),
                wake_at: None,
            }
            .line(),
            r#"{"from":"sleep","op":"transition","reason":"operator","to":"awake"}"#,
        ),
        (
            Reflect {
                id: Some("r1".into()),
                questions: Some(vec!["why?".into()]),
                insights: Some(vec!["j2".into()]),
                cumulative_importance: Some(153),
                threshold: Some(150),
            }
            .line(),
            r#"{"cumulative_importance":153,"id":"r1","insights":["j2"],"op":"reflect","questions":["why?"],"threshold":150}"#,
        ),
    ];
    for (line, want) in cases {
        assert_eq!(text(&line), want);
    }
}

/// Every kind of record the runner writes, folded by the memory model.
#[test]
fn what_the_runner_writes_the_memory_model_reads() {
    let mut m = EvenniaMemory::default();
    let lines: [(FileKind, Value); 7] = [
        (
            JOURNAL,
            entry("j1", "The tavern is north.", Some("creator")).line_at(at()),
        ),
        (
            JOURNAL,
            JournalScore {
                id: Some("j1".into()),
                importance: Some(8),
                importance_method: Some(ImportanceMethod::Llm),
            }
            .line(),
        ),
        (
            JOURNAL,
            JournalConsolidated {
                id: Some("j1".into()),
                memory_id: Some("m1".into()),
            }
            .line(),
        ),
        (SEMANTIC, memory("m1", Some("j1")).line_at(at())),
        (
            SEMANTIC,
            SemanticLink {
                id: Some("m1".into()),
                linked_to: Some(vec![LinkTarget {
                    id: Some("m2".into()),
                    score: Some(0.75),
                }]),
            }
            .line(),
        ),
        (
            ENTITIES,
            EntityRelationship {
                entity_id: Some("creator".into()),
                favorability: Some(0.3),
                state: Some("friendly".into()),
                interaction_count: Some(2),
                reason: Some("kind words".into()),
            }
            .line(),
        ),
        (
            OPERATING_MODE,
            Compaction {
                trigger: Some("sleep".into()),
                ratio: Some(0.712),
                summarized: Some(10),
                preserved: Some(4),
                journal_id: Some("j2".into()),
            }
            .line(),
        ),
    ];
    for (n, (file, line)) in lines.into_iter().enumerate() {
        m.fold(file, n as u64, text(&line).as_bytes()).unwrap();
    }
    let e = m.journal.entries().next().unwrap();
    assert_eq!((e.importance, e.added_importance), (Some(8), Some(6)));
    assert_eq!(e.source_entity.as_deref(), Some("creator"));
    let s = m.semantic.memories().next().unwrap();
    assert_eq!(s.meta.entry_id.as_deref(), Some("j1"));
    assert_eq!(s.links[0].score, Some(0.75));
    let creator = m.entities.all().next().unwrap();
    assert_eq!(
        creator.relationship().and_then(|r| r.interaction_count),
        Some(2)
    );
}

proptest! {
    /// Any conversation the runner keeps in working memory reads back the same.
    #[test]
    fn working_memory_round_trips(
        entity in "\\PC{1,20}",
        topic in "\\PC{0,40}",
        said in proptest::collection::vec(("\\PC{1,10}", "\\PC{0,60}"), 0..4),
    ) {
        let t = crate::memory::time::format_time(at());
        let state = ConversationState {
            topic: Some(topic.clone()),
            started_at: Some(t.clone()),
            last_at: Some(t.clone()),
            messages: Some(
                said.iter()
                    .map(|(from, text)| WorkingMessage {
                        t: Some(t.clone()),
                        from: Some(from.clone()),
                        text: Some(text.clone()),
                    })
                    .collect(),
            ),
            pending_actions: Some(Vec::new()),
        };
        let file = serde_json::json!({ entity.clone(): state });
        let read = WorkingMemory::parse(text(&file).as_bytes()).unwrap();
        let c = &read.conversations[0];
        prop_assert_eq!(&c.entity_id, &entity);
        prop_assert_eq!(c.topic.as_deref(), Some(topic.as_str()));
        prop_assert_eq!(c.started_at, Some(at()));
        let back: Vec<(String, String)> = c
            .messages
            .iter()
            .map(|m| (m.from.clone().unwrap_or_default(), m.text.clone().unwrap_or_default()))
            .collect();
        prop_assert_eq!(back, said);
    }
}
