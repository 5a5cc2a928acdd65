//! `.self/semantic.jsonl`: the Mem0 tier. Facts extracted from the journal (or stored by
//! a tool), with their source and trust, linked to similar facts (A-MEM) while dreaming.
//! The vectors live in a side file, never here.

use std::collections::HashSet;

use chrono::{DateTime, Utc};

use super::journal::ImportanceMethod;
use crate::memory::json::LineError;
use crate::memory::keyed::Keyed;
use crate::memory::lenient::{lenient_records, read};
use crate::memory::op_line::{OpLine, OpRecord};

/// Memories kept for the views (the newest); counts cover every line.
pub const KEPT_MEMORIES: usize = 10_000;

lenient_records! {
    /// `add`: a new memory.
    #[op = "add"]
    pub struct SemanticAdd {
        id: String,
        text: String,
        metadata: SemanticMetadata,
        embedding: Embedding,
    }

    /// Where a memory came from.
    pub struct SemanticMetadata {
        /// `journal` or `tool`.
        source: String,
        /// Written `null` for a memory that is no journal entry's.
        #[null]
        entry_id: String,
        tags: Vec<String>,
        source_type: String,
        source_trust: f64,
        /// Written `null` when it comes from no one.
        #[null]
        source_entity: String,
        importance: u32,
        importance_method: ImportanceMethod,
    }

    /// The embedding's model and size (the vector is in the side file).
    pub struct Embedding {
        model: String,
        dims: u32,
    }

    /// `link`: the memory's links now (replacing earlier ones).
    #[op = "link"]
    pub struct SemanticLink {
        id: String,
        linked_to: Vec<LinkTarget>,
    }

    /// One link: the other memory and the similarity (>= 0.7).
    pub struct LinkTarget {
        id: String,
        score: f64,
    }

    /// `unlink`: a link to a memory that is gone is removed.
    #[op = "unlink"]
    pub struct SemanticUnlink {
        id: String,
        target: String,
    }

    /// `forget`: the memory is removed (links to it become orphans).
    #[op = "forget"]
    pub struct SemanticForget {
        id: String,
        reason: String,
    }
}

/// One line of the semantic file.
#[derive(Debug, Clone, PartialEq)]
pub enum SemanticOp {
    Add(SemanticAdd),
    Link(SemanticLink),
    Unlink(SemanticUnlink),
    Forget(SemanticForget),
    Other(String),
}

impl SemanticOp {
    /// The op of a line; a known op without its `id` is a bad line.
    pub fn parse(line: &OpLine) -> Result<Self, LineError> {
        let op = match line.op.as_str() {
            SemanticAdd::OP => SemanticOp::Add(read(&line.fields)),
            SemanticLink::OP => SemanticOp::Link(read(&line.fields)),
            SemanticUnlink::OP => SemanticOp::Unlink(read(&line.fields)),
            SemanticForget::OP => SemanticOp::Forget(read(&line.fields)),
            other => return Ok(SemanticOp::Other(other.to_string())),
        };
        line.key("id")?;
        Ok(op)
    }
}

/// A link from one memory to another.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub id: String,
    pub score: Option<f64>,
}

/// A semantic memory as it stands now.
#[derive(Debug, Clone, PartialEq)]
pub struct SemanticMemory {
    pub id: String,
    pub t: Option<DateTime<Utc>>,
    pub text: String,
    pub meta: SemanticMetadata,
    pub embedding: Embedding,
    pub links: Vec<Link>,
    /// 0-based numbers of its lines in the file, its `add` first.
    pub lines: Vec<u64>,
}

/// The semantic tier folded: current memories (the newest [`KEPT_MEMORIES`]) and counts.
#[derive(Debug, Clone)]
pub struct Semantic {
    memories: Keyed<SemanticMemory>,
    pub lines: u64,
    pub bad_lines: u64,
    pub added: u64,
    pub forgotten: u64,
    pub link_lines: u64,
    pub unlinks: u64,
    pub last_t: Option<DateTime<Utc>>,
}

impl Default for Semantic {
    fn default() -> Self {
        Self {
            memories: Keyed::new(KEPT_MEMORIES),
            lines: 0,
            bad_lines: 0,
            added: 0,
            forgotten: 0,
            link_lines: 0,
            unlinks: 0,
            last_t: None,
        }
    }
}

impl Semantic {
    /// Folds line `line_no` (0-based).
    pub fn push(&mut self, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        self.lines += 1;
        let parsed = OpLine::parse(bytes).and_then(|l| Ok((l.t, SemanticOp::parse(&l)?)));
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
        self.apply(line_no, t, op);
        Ok(())
    }

    pub fn apply(&mut self, line_no: u64, t: Option<DateTime<Utc>>, op: SemanticOp) {
        match op {
            SemanticOp::Add(add) => {
                self.added += 1;
                let id = add.id.unwrap_or_default();
                let memory = SemanticMemory {
                    id: id.clone(),
                    t,
                    text: add.text.unwrap_or_default(),
                    meta: add.metadata.unwrap_or_default(),
                    embedding: add.embedding.unwrap_or_default(),
                    links: Vec::new(),
                    lines: vec![line_no],
                };
                self.memories.insert(id, memory);
            }
            SemanticOp::Link(link) => {
                self.link_lines += 1;
                if let Some(m) = self.memory_mut(link.id.as_deref(), line_no) {
                    m.links = link
                        .linked_to
                        .unwrap_or_default()
                        .into_iter()
                        .filter_map(|l| {
                            Some(Link {
                                id: l.id.filter(|id| !id.is_empty())?,
                                score: l.score,
                            })
                        })
                        .collect();
                }
            }
            SemanticOp::Unlink(unlink) => {
                self.unlinks += 1;
                if let (Some(m), Some(target)) = (
                    self.memory_mut(unlink.id.as_deref(), line_no),
                    unlink.target,
                ) {
                    m.links.retain(|l| l.id != target);
                }
            }
            SemanticOp::Forget(forget) => {
                self.forgotten += 1;
                if let Some(id) = forget.id {
                    self.memories.remove(&id);
                }
            }
            SemanticOp::Other(_) => {}
        }
    }

    fn memory_mut(&mut self, id: Option<&str>, line_no: u64) -> Option<&mut SemanticMemory> {
        let m = self.memories.get_mut(id?)?;
        m.lines.push(line_no);
        Some(m)
    }

    /// The current memories kept, oldest first.
    pub fn memories(&self) -> impl DoubleEndedIterator<Item = &SemanticMemory> + ExactSizeIterator {
        self.memories.iter()
    }

    pub fn contains(&self, id: &str) -> bool {
        self.memories.contains(id)
    }

    /// Memories let go to stay within [`KEPT_MEMORIES`].
    pub fn not_kept(&self) -> u64 {
        self.memories.dropped()
    }

    /// Links of the kept memories, and those among them whose target is not a current
    /// memory (orphans, until the dreaming phase cleans them up).
    pub fn links(&self) -> (u64, u64) {
        let ids: HashSet<&str> = self.memories.iter().map(|m| m.id.as_str()).collect();
        self.memories
            .iter()
            .flat_map(|m| &m.links)
            .fold((0, 0), |(all, orphans), l| {
                let orphan = u64::from(!ids.contains(l.id.as_str()));
                (all + 1, orphans + orphan)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fold(lines: &[&str]) -> (Semantic, Vec<Result<(), LineError>>) {
        let mut s = Semantic::default();
        let results = lines
            .iter()
            .enumerate()
            .map(|(i, l)| s.push(i as u64, l.as_bytes()))
            .collect();
        (s, results)
    }

    #[test]
    fn every_op() {
        let (s, results) = fold(&[
            r#"{"t":"2026-11-22T10:00:00Z","op":"add","id":"m1","text":"The well is dry.","metadata":{"source":"journal","entry_id":"j2","tags":["well"],"source_type":"observation","source_trust":0.9,"source_entity":null,"importance":5,"importance_method":"llm"},"embedding":{"model":"local-hash-256","dims":256}}"#,
            r#"{"t":"2026-11-22T10:00:01Z","op":"add","id":"m2","text":"The tavern is in the north wing.","metadata":{"source":"tool","entry_id":null}}"#,
            r#"{"t":"2026-11-22T10:00:02Z","op":"add","id":"m3","text":"Ale is cheap at the tavern."}"#,
            r#"{"t":"2026-11-22T10:05:00Z","op":"link","id":"m2","linked_to":[{"id":"m1","score":0.71},{"id":"m3","score":0.83}]}"#,
            r#"{"t":"2026-11-22T10:05:01Z","op":"link","id":"m3","linked_to":[{"id":"m2","score":0.83},{"score":0.9}]}"#,
            r#"{"t":"2026-11-22T10:06:00Z","op":"forget","id":"m1","reason":"superseded"}"#,
        ]);
        assert!(results.iter().all(Result::is_ok));
        let ids: Vec<&str> = s.memories().map(|m| m.id.as_str()).collect();
        assert_eq!(ids, ["m2", "m3"]);
        assert_eq!(s.links(), (3, 1));
        let m2 = s.memories().next().unwrap();
        assert_eq!(m2.meta.source.as_deref(), Some("tool"));
        assert_eq!(m2.meta.entry_id, None);
        assert_eq!(m2.lines, [1, 3]);
        // The orphan is cleaned up; a later link line replaces the links.
        let mut s = s;
        s.push(6, br#"{"op":"unlink","id":"m2","target":"m1"}"#)
            .unwrap();
        assert_eq!(s.links(), (2, 0));
        s.push(7, br#"{"op":"link","id":"m2","linked_to":[]}"#)
            .unwrap();
        assert_eq!(s.links(), (1, 0));
        assert_eq!(
            (s.added, s.forgotten, s.link_lines, s.unlinks),
            (3, 1, 3, 1)
        );
    }

    #[test]
    fn metadata_and_embedding_are_read() {
        let (s, _) = fold(&[
            r#"{"op":"add","id":"m1","text":"x","metadata":{"source":"journal","entry_id":"j2","tags":["well"],"source_type":"observation","source_trust":0.9,"importance":5,"importance_method":"llm"},"embedding":{"model":"text-embedding-3-small","dims":1536}}"#,
        ]);
        let m = s.memories().next().unwrap();
        assert_eq!(m.meta.entry_id.as_deref(), Some("j2"));
        assert_eq!(m.meta.source_trust, Some(0.9));
        assert_eq!(m.meta.importance_method, Some(ImportanceMethod::Llm));
        assert_eq!(m.embedding.dims, Some(1536));
    }

    #[test]
    fn bad_lines_and_unknown_ops() {
        let (s, results) = fold(&[
            r#"{"op":"link","linked_to":[]}"#,
            r#"{"op":"reembed","id":"m1"}"#,
            "{",
            r#"{"op":"unlink","id":"m404","target":"m1"}"#,
        ]);
        assert_eq!(results[0], Err(LineError::Missing("id")));
        assert!(results[1].is_ok() && results[2].is_err() && results[3].is_ok());
        assert_eq!((s.lines, s.bad_lines), (4, 2));
    }
}
