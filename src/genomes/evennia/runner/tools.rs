//! The evennia creature's tools. The sleep-mode set (noop, add_journal_entry,
//! review_journal, recall_memories, store_memory) is offered awake and asleep; the rest
//! awake only.

use super::config;
use crate::llm::embed::Embeddings;
use serde_json::{Value, json};

use super::{Evennia, EvenniaIo, Memory, append, first_words, journal, round3};
use crate::genomes::evennia::memory::journal::ImportanceMethod;
use crate::genomes::evennia::memory::semantic::{Embedding, SemanticAdd, SemanticMetadata};
use crate::llm::ToolSpec;
use crate::memory::op_line::OpRecord;
use crate::runner::genome::{Cx, GenomeTool, IoProgress, ToolCall, ToolReply, ToolTime};
use crate::runner::tools::ToolOutcome;

pub const NOOP: &str = "noop";
pub const ADD_JOURNAL_ENTRY: &str = "add_journal_entry";
pub const REVIEW_JOURNAL: &str = "review_journal";
pub const RECALL_MEMORIES: &str = "recall_memories";
pub const STORE_MEMORY: &str = "store_memory";
pub const OBSERVE_ENTITY: &str = "observe_entity";
pub const UPDATE_CONVERSATION: &str = "update_conversation";

/// Memories a recall looks at before its two stages.
const RECALL_K: usize = 10;

/// A tool call waiting for the driver.
#[derive(Debug, Clone, PartialEq)]
pub enum PendingTool {
    /// recall_memories: the query's embedding, then the search.
    Recall { min_trust: f64, searching: bool },
    /// store_memory: the text's embedding.
    Store {
        text: String,
        trust: f64,
        tags: Vec<String>,
    },
}

fn spec(name: &str, description: &str, schema: Value) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: description.into(),
        input_schema: schema,
    }
}

pub fn specs() -> Vec<GenomeTool> {
    let always = |spec| GenomeTool {
        spec,
        when: ToolTime::Always,
    };
    let awake = |spec| GenomeTool {
        spec,
        when: ToolTime::Awake,
    };
    vec![
        always(spec(
            NOOP,
            "Do nothing this tick.",
            json!({"type": "object", "properties": {}}),
        )),
        always(spec(
            ADD_JOURNAL_ENTRY,
            "Write a journal entry: something that happened, that you learned or decided. It is \
             scored for importance now and again while you sleep, and moved into semantic memory.",
            json!({"type": "object", "properties": {
                "text": {"type": "string"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "importance": {"type": "integer", "minimum": 1, "maximum": 10,
                               "description": "1 mundane .. 10 life-changing (optional)"},
                "source_type": {"type": "string", "description": "observation, direct, self"},
                "source_entity": {"type": "string", "description": "who told you, if anyone"},
                "source_trust": {"type": "number", "minimum": 0, "maximum": 1}
            }, "required": ["text"]}),
        )),
        always(spec(
            REVIEW_JOURNAL,
            "Read your journal, newest first, optionally only entries containing `query`.",
            json!({"type": "object", "properties": {
                "query": {"type": "string"}, "limit": {"type": "integer", "minimum": 1}
            }}),
        )),
        always(spec(
            RECALL_MEMORIES,
            "Recall facts from semantic memory relevant to `query` (relevance above 0.7, then \
             source trust at least `min_trust`, default 0.5).",
            json!({"type": "object", "properties": {
                "query": {"type": "string"}, "min_trust": {"type": "number"}
            }, "required": ["query"]}),
        )),
        always(spec(
            STORE_MEMORY,
            "Store a fact about the world directly in semantic memory.",
            json!({"type": "object", "properties": {
                "text": {"type": "string"}, "source_trust": {"type": "number"},
                "tags": {"type": "array", "items": {"type": "string"}}
            }, "required": ["text"]}),
        )),
        awake(spec(
            OBSERVE_ENTITY,
            "Note something about someone (your creator, another creature, a player): an \
             observation, and how it changes your regard for them (favorability_delta, -0.5..0.5).",
            json!({"type": "object", "properties": {
                "entity_id": {"type": "string"}, "entity_type": {"type": "string"},
                "observation": {"type": "string"},
                "favorability_delta": {"type": "number", "minimum": -0.5, "maximum": 0.5}
            }, "required": ["entity_id", "observation"]}),
        )),
        awake(spec(
            UPDATE_CONVERSATION,
            "Update working memory for a conversation: its topic, a pending action to add, or \
             one that is done.",
            json!({"type": "object", "properties": {
                "entity_id": {"type": "string"}, "topic": {"type": "string"},
                "add_pending": {"type": "string"}, "done_pending": {"type": "string"}
            }, "required": ["entity_id"]}),
        )),
    ]
}

fn done(ok: bool, text: String) -> ToolOutcome {
    ToolOutcome {
        ok,
        display: text.clone(),
        content: text,
        ms: 0,
    }
}

fn str_arg<'a>(input: &'a Value, key: &str) -> Option<&'a str> {
    input
        .get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

fn tags_arg(input: &Value) -> Vec<String> {
    input
        .get("tags")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .take(8)
                .collect()
        })
        .unwrap_or_default()
}

fn num_arg(input: &Value, key: &str) -> Option<f64> {
    input
        .get(key)
        .and_then(Value::as_f64)
        .filter(|v| v.is_finite())
}

impl Evennia {
    pub(super) fn tool(&mut self, call: &ToolCall, cx: &mut Cx<'_, Self>) -> Option<ToolReply> {
        let input = &call.input;
        let reply = match call.name.as_str() {
            NOOP => ToolReply::Done(done(true, "Resting this tick.".into())),
            ADD_JOURNAL_ENTRY => match str_arg(input, "text") {
                None => {
                    ToolReply::Done(done(false, "Error: add_journal_entry needs `text`".into()))
                }
                Some(text) => {
                    let source_type = str_arg(input, "source_type").unwrap_or("observation");
                    let entity = str_arg(input, "source_entity").map(str::to_string);
                    let trust = num_arg(input, "source_trust").unwrap_or(0.8);
                    let importance = input
                        .get("importance")
                        .and_then(Value::as_i64)
                        .map(journal::clamp_importance);
                    let text = text.to_string();
                    let id = self.add_entry(
                        &text,
                        tags_arg(input),
                        source_type,
                        trust,
                        entity,
                        importance,
                        false,
                        cx,
                    );
                    let imp = self.journal.last().map_or(0, |e| e.importance);
                    ToolReply::Done(done(
                        true,
                        format!("Journal entry {id} written (importance {imp}/10, heuristic)."),
                    ))
                }
            },
            REVIEW_JOURNAL => ToolReply::Done(done(true, self.review(input))),
            RECALL_MEMORIES => match str_arg(input, "query") {
                None => ToolReply::Done(done(false, "Error: recall_memories needs `query`".into())),
                Some(q) => {
                    let min_trust =
                        num_arg(input, "min_trust").unwrap_or(config::of(cx.cfg).min_source_trust);
                    let id = cx.embed(vec![q.to_string()]);
                    self.pending_tool = Some((
                        id,
                        PendingTool::Recall {
                            min_trust,
                            searching: false,
                        },
                    ));
                    ToolReply::Pending
                }
            },
            STORE_MEMORY => match str_arg(input, "text") {
                None => ToolReply::Done(done(false, "Error: store_memory needs `text`".into())),
                Some(text) => {
                    let id = cx.embed(vec![text.to_string()]);
                    self.pending_tool = Some((
                        id,
                        PendingTool::Store {
                            text: text.to_string(),
                            trust: num_arg(input, "source_trust")
                                .unwrap_or(0.9)
                                .clamp(0.0, 1.0),
                            tags: tags_arg(input),
                        },
                    ));
                    ToolReply::Pending
                }
            },
            OBSERVE_ENTITY => match (str_arg(input, "entity_id"), str_arg(input, "observation")) {
                (Some(entity), Some(obs)) => {
                    let kind = str_arg(input, "entity_type")
                        .unwrap_or("player")
                        .to_string();
                    let delta = num_arg(input, "favorability_delta")
                        .unwrap_or(0.0)
                        .clamp(-0.5, 0.5);
                    let (entity, obs) = (entity.to_string(), obs.to_string());
                    let (before, after) =
                        self.interact(&entity, &kind, &obs, delta, "observed", cx);
                    let fav = self.entities.get(&entity).map_or(0.0, |p| p.favorability);
                    let change = if before == after {
                        format!("still {after}")
                    } else {
                        format!("{before} -> {after}")
                    };
                    ToolReply::Done(done(
                        true,
                        format!(
                            "Noted about {entity}: {change} (favorability {:.2}).",
                            round3(fav)
                        ),
                    ))
                }
                _ => ToolReply::Done(done(
                    false,
                    "Error: observe_entity needs `entity_id` and `observation`".into(),
                )),
            },
            UPDATE_CONVERSATION => ToolReply::Done(self.update_conversation(input, cx)),
            _ => return None,
        };
        Some(reply)
    }

    fn review(&self, input: &Value) -> String {
        let query = str_arg(input, "query").map(str::to_lowercase);
        let limit = input
            .get("limit")
            .and_then(Value::as_u64)
            .unwrap_or(10)
            .clamp(1, 50) as usize;
        let lines: Vec<String> = self
            .journal
            .iter()
            .rev()
            .filter(|e| {
                query
                    .as_ref()
                    .is_none_or(|q| e.text.to_lowercase().contains(q))
            })
            .take(limit)
            .map(|e| {
                format!(
                    "[{}] {} importance {}/10 ({}){}: {}",
                    e.id,
                    crate::memory::time::format_time(e.t),
                    e.importance,
                    e.method,
                    if e.consolidated { ", consolidated" } else { "" },
                    e.text
                )
            })
            .collect();
        if lines.is_empty() {
            return "No journal entries match.".into();
        }
        lines.join("\n")
    }

    fn update_conversation(&mut self, input: &Value, cx: &mut Cx<'_, Self>) -> ToolOutcome {
        let Some(entity) = str_arg(input, "entity_id") else {
            return done(false, "Error: update_conversation needs `entity_id`".into());
        };
        let now = cx.now;
        let c = self
            .working
            .entry(entity.to_string())
            .or_insert_with(|| super::Conversation {
                topic: String::new(),
                started_at: now,
                last_at: now,
                messages: Vec::new(),
                pending_actions: Vec::new(),
            });
        c.last_at = now;
        if let Some(t) = str_arg(input, "topic") {
            c.topic = first_words(t, 12);
        }
        if let Some(p) = str_arg(input, "add_pending")
            && !c.pending_actions.iter().any(|a| a == p)
        {
            c.pending_actions.push(p.to_string());
        }
        if let Some(p) = str_arg(input, "done_pending") {
            c.pending_actions.retain(|a| a != p);
        }
        let text = format!(
            "Conversation with {entity}: topic {:?}, {} pending action(s).",
            c.topic,
            c.pending_actions.len()
        );
        self.write_working(cx);
        done(true, text)
    }

    /// A pending tool's embedding came back.
    pub(super) fn tool_embedded(
        &mut self,
        result: Result<Embeddings, String>,
        cx: &mut Cx<'_, Self>,
    ) -> IoProgress {
        let Some((_, pending)) = self.pending_tool.take() else {
            return IoProgress::Nothing;
        };
        let (model, vector) = match result.map(|mut e| (e.model, e.vectors.pop())) {
            Ok((model, Some(v))) => (model, v),
            Ok((_, None)) => {
                return IoProgress::Tool(done(false, "Error: no embedding came back".into()));
            }
            Err(e) => {
                return IoProgress::Tool(done(false, format!("Error: embedding failed: {e}")));
            }
        };
        match pending {
            PendingTool::Recall { min_trust, .. } => {
                let req = cx.id();
                self.pending_tool = Some((
                    req,
                    PendingTool::Recall {
                        min_trust,
                        searching: true,
                    },
                ));
                cx.io(EvenniaIo::Search {
                    req,
                    vector,
                    k: RECALL_K,
                });
                IoProgress::Nothing
            }
            PendingTool::Store { text, trust, tags } => {
                let id = self.remember(
                    &text,
                    trust,
                    7,
                    None,
                    None,
                    tags,
                    (&model, vector),
                    "tool",
                    cx,
                );
                IoProgress::Tool(done(true, format!("Stored as memory {id}.")))
            }
        }
    }

    /// A recall's search came back: the two stages.
    pub(super) fn tool_found(
        &mut self,
        hits: Result<Vec<(String, f32)>, String>,
        cx: &mut Cx<'_, Self>,
    ) -> IoProgress {
        let Some((_, PendingTool::Recall { min_trust, .. })) = self.pending_tool.take() else {
            return IoProgress::Nothing;
        };
        let hits = match hits {
            Ok(h) => h,
            Err(e) => return IoProgress::Tool(done(false, format!("Error: recall failed: {e}"))),
        };
        let relevance = config::of(cx.cfg).recall_relevance;
        let found = two_stage(&self.memories, &hits, relevance, min_trust);
        if found.is_empty() {
            return IoProgress::Tool(done(
                true,
                format!(
                    "No memory is relevant enough (above {relevance}) and trusted enough (at least {min_trust})."
                ),
            ));
        }
        let lines: Vec<String> = found
            .iter()
            .map(|(m, score)| {
                format!(
                    "[{}] {} (relevance {:.2}, trust {:.2})",
                    m.id, m.text, score, m.source_trust
                )
            })
            .collect();
        IoProgress::Tool(done(true, lines.join("\n")))
    }

    /// A new semantic memory: its line and vector to the files. Returns its id.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn remember(
        &mut self,
        text: &str,
        trust: f64,
        importance: u8,
        entry: Option<&journal::Entry>,
        entity: Option<String>,
        tags: Vec<String>,
        (model, vector): (&str, Vec<f32>),
        source: &str,
        cx: &mut Cx<'_, Self>,
    ) -> String {
        let id = self.memory_id();
        let metadata = SemanticMetadata {
            source: Some(source.to_string()),
            entry_id: entry.map(|e| e.id.clone()),
            tags: Some(tags),
            source_type: Some(
                entry
                    .map_or("direct", |e| e.source_type.as_str())
                    .to_string(),
            ),
            source_trust: Some(trust),
            source_entity: entity.clone(),
            importance: Some(u32::from(importance)),
            importance_method: Some(ImportanceMethod::named(
                entry.map_or("heuristic", |e| e.method),
            )),
        };
        let add = SemanticAdd {
            id: Some(id.clone()),
            text: Some(text.to_string()),
            metadata: Some(metadata),
            embedding: Some(Embedding {
                model: Some(model.to_string()),
                dims: u32::try_from(vector.len()).ok(),
            }),
        };
        let line = add.line_at(cx.now);
        cx.io(EvenniaIo::Remember {
            line,
            id: id.clone(),
            model: model.to_string(),
            vector,
        });
        self.memories.push(Memory {
            id: id.clone(),
            text: text.to_string(),
            source_trust: trust,
            importance,
            source_entity: entity,
            links: Vec::new(),
            linked: false,
        });
        id
    }

    /// Writes an `unlink` or a `link` line.
    pub(super) fn link_line(&self, cx: &mut Cx<'_, Self>, line: Value) {
        append(cx, crate::genomes::evennia::memory::SEMANTIC, vec![line]);
    }
}

/// Recall in two stages: relevance above `relevance`, then trust at least `min_trust`.
pub fn two_stage<'a>(
    memories: &'a [Memory],
    hits: &[(String, f32)],
    relevance: f32,
    min_trust: f64,
) -> Vec<(&'a Memory, f32)> {
    hits.iter()
        .filter(|(_, score)| *score > relevance)
        .filter_map(|(id, score)| memories.iter().find(|m| &m.id == id).map(|m| (m, *score)))
        .filter(|(m, _)| m.source_trust >= min_trust)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory(id: &str, trust: f64) -> Memory {
        Memory {
            id: id.into(),
            text: id.into(),
            source_trust: trust,
            importance: 5,
            source_entity: None,
            links: Vec::new(),
            linked: false,
        }
    }

    #[test]
    fn recall_keeps_relevant_then_trusted() {
        let memories = vec![memory("m1", 0.9), memory("m2", 0.49), memory("m3", 0.5)];
        let hits = vec![
            ("m1".to_string(), 0.71),
            ("m2".to_string(), 0.95),
            ("m3".to_string(), 0.9),
            ("m1".to_string(), 0.70),
        ];
        let found: Vec<&str> = two_stage(&memories, &hits, 0.7, 0.5)
            .iter()
            .map(|(m, _)| m.id.as_str())
            .collect();
        // 0.70 is not above 0.7; trust 0.49 is below 0.5; 0.5 is enough.
        assert_eq!(found, ["m1", "m3"]);
    }
}
