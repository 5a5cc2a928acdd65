//! The evennia genome's IO, run by the driver: the restore (a fold of its JSONL files),
//! its appends, working memory, and the semantic vectors with their search.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::journal::{Entry, clamp_importance};
use super::relationship::Profile;
use super::{Conversation, Evennia, EvenniaDone, EvenniaIo, EvenniaRestored, Memory};
use crate::genomes::evennia::memory::EvenniaMemory;
use crate::genomes::evennia::memory::entities::Entity;
use crate::genomes::evennia::memory::journal::{ImportanceMethod, JournalEntry};
use crate::genomes::evennia::memory::semantic::SemanticMemory;
use crate::genomes::evennia::memory::working::WorkingMemory;
use crate::memory::time::parse_time;
use crate::memory::vectors::{Hit, VectorStore, vectors_path};
use crate::memory::write::{self, SeedPaths};
use crate::runner::genome::{
    GenomeFiles, GenomeRestore, Performed, append_lines, file_name, file_path as path,
};
use crate::tail::read_bounded;

/// A genome file is read whole at restore up to this size; past it, a problem line.
const MAX_FILE: u64 = 256 << 20;

/// Opens `.self/semantic.vectors` at the first need and keeps it.
#[derive(Default)]
pub struct EvenniaFiles {
    vectors: Option<VectorStore>,
}

fn working_path(paths: &SeedPaths) -> PathBuf {
    path(paths, crate::genomes::evennia::memory::WORKING_MEMORY)
}

/// Folds the genome's files with the memory model (the observatory's own readers) into
/// what the genome restores. Bad lines are counted, listed in `errors`, and skipped.
pub fn fold(paths: &SeedPaths, errors: &mut Vec<String>) -> EvenniaRestored {
    let mut mem = EvenniaMemory::default();
    for file in [
        crate::genomes::evennia::memory::JOURNAL,
        crate::genomes::evennia::memory::SEMANTIC,
        crate::genomes::evennia::memory::ENTITIES,
        crate::genomes::evennia::memory::REFLECTIONS,
        crate::genomes::evennia::memory::OPERATING_MODE,
    ] {
        let bytes = match read_bounded(&path(paths, file), MAX_FILE) {
            Ok(Some(b)) => b,
            Ok(None) => continue,
            Err(e) => {
                errors.push(format!("{}: {e}", file_name(file)));
                continue;
            }
        };
        let mut bad = 0;
        for (n, line) in bytes.split(|b| *b == b'\n').enumerate() {
            if !line.iter().all(u8::is_ascii_whitespace) && mem.fold(file, n as u64, line).is_err()
            {
                bad += 1;
            }
        }
        if bad > 0 {
            errors.push(format!("{}: {bad} bad line(s) skipped", file_name(file)));
        }
    }
    let journal: Vec<Entry> = mem.journal.entries().map(entry).collect();
    let memories: Vec<Memory> = mem.semantic.memories().map(memory).collect();
    let max_id = |ids: &mut dyn Iterator<Item = &str>| ids.map(number_of).max().unwrap_or(0);
    let next_ids = [
        mem.journal
            .added
            .max(max_id(&mut journal.iter().map(|e| e.id.as_str()))),
        mem.semantic
            .added
            .max(max_id(&mut memories.iter().map(|m| m.id.as_str()))),
        mem.reflections.count,
    ];
    EvenniaRestored {
        journal_pruned: mem.journal.pruned,
        journal,
        memories,
        entities: mem
            .entities
            .all()
            .map(|e| (e.id.clone(), profile(e)))
            .collect(),
        working: read_working(paths, errors),
        reflections: mem.reflections.count,
        last_reflection_at: mem.reflections.last_reflect_t,
        sleeps: mem.mode.rests,
        last_sleep_at: mem.mode.last_rest_t,
        next_ids,
    }
}

fn number_of(id: &str) -> u64 {
    id.get(1..).and_then(|n| n.parse().ok()).unwrap_or(0)
}

fn entry(e: &JournalEntry) -> Entry {
    Entry {
        id: e.id.clone(),
        t: e.t.unwrap_or_default(),
        text: e.text.clone(),
        tags: e.tags.clone(),
        source_type: e
            .source_type
            .clone()
            .unwrap_or_else(|| "observation".into()),
        source_trust: e.source_trust.unwrap_or(0.5),
        source_entity: e.source_entity.clone(),
        importance: clamp_importance(e.importance.map_or(3, i64::from)),
        method: match e.method {
            Some(ImportanceMethod::Llm) => "llm",
            _ => "heuristic",
        },
        synthesis: e.synthesis,
        consolidated: e.consolidated.is_some(),
    }
}

fn memory(m: &SemanticMemory) -> Memory {
    Memory {
        id: m.id.clone(),
        text: m.text.clone(),
        source_trust: m.meta.source_trust.unwrap_or(0.5),
        importance: clamp_importance(m.meta.importance.map_or(3, i64::from)),
        source_entity: m.meta.source_entity.clone(),
        links: m
            .links
            .iter()
            .map(|l| (l.id.clone(), l.score.unwrap_or(0.0) as f32))
            .collect(),
        // A link line (even with no link) says it was processed.
        linked: m.lines.len() > 1,
    }
}

/// Pf is what was observed after the last consolidation.
fn profile(e: &Entity) -> Profile {
    let relationship = e.relationship();
    Profile {
        entity_type: e.entity_type.clone().unwrap_or_default(),
        attributes: e.attributes.clone(),
        observations: e
            .observations
            .as_slice()
            .iter()
            .filter(|o| e.consolidate_line.is_none_or(|c| o.line > c))
            .map(|o| o.text.clone())
            .collect(),
        favorability: relationship.and_then(|r| r.favorability).unwrap_or(0.0),
        interactions: relationship.and_then(|r| r.interaction_count).unwrap_or(0),
    }
}

fn read_working(paths: &SeedPaths, errors: &mut Vec<String>) -> BTreeMap<String, Conversation> {
    let bytes = match read_bounded(&working_path(paths), MAX_FILE) {
        Ok(Some(b)) => b,
        Ok(None) => return BTreeMap::new(),
        Err(e) => {
            errors.push(format!("working_memory.json: {e}"));
            return BTreeMap::new();
        }
    };
    let Ok(working) = WorkingMemory::parse(&bytes) else {
        errors.push("working_memory.json: not a JSON object; starting with none".into());
        return BTreeMap::new();
    };
    working
        .conversations
        .into_iter()
        .filter_map(|c| {
            let started = c.started_at?;
            let messages = c
                .messages
                .into_iter()
                .filter_map(|m| Some((m.t.as_deref().and_then(parse_time)?, m.from?, m.text?)))
                .collect();
            Some((
                c.entity_id,
                Conversation {
                    topic: c.topic.unwrap_or_default(),
                    started_at: started,
                    last_at: c.last_at.unwrap_or(started),
                    messages,
                    pending_actions: c.pending_actions,
                },
            ))
        })
        .collect()
}

fn scored(hits: Vec<Hit>) -> Vec<(String, f32)> {
    hits.into_iter().map(|h| (h.id, h.score)).collect()
}

impl EvenniaFiles {
    fn store(&mut self, paths: &SeedPaths) -> Result<&mut VectorStore, String> {
        if self.vectors.is_none() {
            let (store, _) =
                VectorStore::open(vectors_path(&paths.root)).map_err(|e| e.to_string())?;
            self.vectors = Some(store);
        }
        self.vectors
            .as_mut()
            .ok_or_else(|| "no vector store".to_string())
    }
}

impl GenomeFiles<Evennia> for EvenniaFiles {
    fn restore(&mut self, paths: &SeedPaths) -> GenomeRestore<EvenniaRestored> {
        let mut errors = Vec::new();
        let state = fold(paths, &mut errors);
        if let Err(e) = self.store(paths) {
            errors.push(format!("semantic.vectors: {e}"));
        }
        GenomeRestore {
            lived: state.sleeps > 0 || !state.journal.is_empty(),
            last_consolidated: state.last_sleep_at,
            state,
            errors,
        }
    }

    fn refresh(_paths: &SeedPaths) -> ((), Vec<String>) {
        ((), Vec::new())
    }

    fn perform(&mut self, paths: &SeedPaths, io: EvenniaIo) -> Performed<EvenniaDone> {
        match io {
            EvenniaIo::Append { file, lines } => append_lines(paths, file, &lines),
            EvenniaIo::Remember {
                line,
                id,
                model,
                vector,
            } => {
                // The vector first: a memory line without its vector would never be found.
                let stored = self
                    .store(paths)
                    .and_then(|s| s.add(&id, &model, &vector).map_err(|e| e.to_string()));
                let written = stored.and_then(|()| {
                    write::append_json_lines(
                        &path(paths, crate::genomes::evennia::memory::SEMANTIC),
                        &[line],
                    )
                    .map(drop)
                    .map_err(|e| e.to_string())
                });
                match written {
                    Ok(()) => Performed::Written,
                    Err(error) => Performed::Failed {
                        file: "semantic.jsonl",
                        error,
                    },
                }
            }
            EvenniaIo::Search { req, vector, k } => {
                let hits = self.store(paths).and_then(|s| {
                    let hits = s.index().search(&vector, k, |_| true);
                    hits.map(scored).map_err(|e| e.to_string())
                });
                Performed::Done(EvenniaDone::Found { req, hits })
            }
            EvenniaIo::Similar { req, id, k } => {
                let hits = self
                    .store(paths)
                    .map(|s| scored(s.index().similar_to(&id, k, f32::MIN)));
                Performed::Done(EvenniaDone::Found { req, hits })
            }
            EvenniaIo::WorkingMemory(v) => {
                let text = serde_json::to_vec_pretty(&v).unwrap_or_default();
                match write::atomic_write(&working_path(paths), &text) {
                    Ok(()) => Performed::Written,
                    Err(e) => Performed::Failed {
                        file: "working_memory.json",
                        error: e.to_string(),
                    },
                }
            }
        }
    }
}
