//! The evennia genome's IO, run by the driver: the restore (a fold of its JSONL files),
//! its appends, working memory, and the semantic vectors with their search.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::journal::Entry;
use super::relationship::Profile;
use super::{Conversation, EvFile, Evennia, EvenniaDone, EvenniaIo, EvenniaRestored, Memory};
use crate::memory::time::parse_time;
use crate::memory::vectors::{Hit, VectorStore, vectors_path};
use crate::memory::write::{self, SeedPaths};
use crate::runner::genome::{GenomeFiles, GenomeRestore, Performed};
use crate::tail::read_bounded;

/// A genome file is read whole at restore up to this size; past it, a problem line.
const MAX_FILE: u64 = 256 << 20;

/// Opens `.self/semantic.vectors` at the first need and keeps it.
#[derive(Default)]
pub struct EvenniaFiles {
    vectors: Option<VectorStore>,
}

pub fn path(paths: &SeedPaths, file: EvFile) -> PathBuf {
    match file {
        EvFile::Journal => paths.self_dir().join("journal.jsonl"),
        EvFile::Semantic => paths.self_dir().join("semantic.jsonl"),
        EvFile::Entities => paths.self_dir().join("entities.jsonl"),
        EvFile::Reflections => paths.self_dir().join("reflections.jsonl"),
        EvFile::Mode => paths.sys_dir().join("mode.jsonl"),
    }
}

fn working_path(paths: &SeedPaths) -> PathBuf {
    paths.self_dir().join("working_memory.json")
}

pub fn file_name(file: EvFile) -> &'static str {
    match file {
        EvFile::Journal => "journal.jsonl",
        EvFile::Semantic => "semantic.jsonl",
        EvFile::Entities => "entities.jsonl",
        EvFile::Reflections => "reflections.jsonl",
        EvFile::Mode => "mode.jsonl",
    }
}

/// The valid JSON object lines of a file, and how many were bad.
fn lines(path: &Path, errors: &mut Vec<String>) -> Vec<serde_json::Map<String, Value>> {
    let bytes = match read_bounded(path, MAX_FILE) {
        Ok(Some(b)) => b,
        Ok(None) => return Vec::new(),
        Err(e) => {
            errors.push(format!("{}: {e}", path.display()));
            return Vec::new();
        }
    };
    let mut bad = 0;
    let mut out = Vec::new();
    for line in bytes.split(|b| *b == b'\n') {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<Value>(line) {
            Ok(Value::Object(m)) => out.push(m),
            _ => bad += 1,
        }
    }
    if bad > 0 {
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        errors.push(format!("{name}: {bad} bad line(s) skipped"));
    }
    out
}

fn s(m: &serde_json::Map<String, Value>, k: &str) -> String {
    m.get(k)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

fn t(m: &serde_json::Map<String, Value>) -> Option<DateTime<Utc>> {
    m.get("t").and_then(Value::as_str).and_then(parse_time)
}

fn number_of(id: &str) -> u64 {
    id.get(1..).and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// Folds the genome's files into what the genome restores.
pub fn fold(paths: &SeedPaths, errors: &mut Vec<String>) -> EvenniaRestored {
    let mut r = EvenniaRestored::default();
    for m in lines(&path(paths, EvFile::Journal), errors) {
        let id = s(&m, "id");
        r.next_ids[0] = r.next_ids[0].max(number_of(&id));
        match s(&m, "op").as_str() {
            "add" => r.journal.push(Entry {
                id,
                t: t(&m).unwrap_or_default(),
                text: s(&m, "text"),
                tags: m
                    .get("tags")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default(),
                source_type: s(&m, "source_type"),
                source_trust: m.get("source_trust").and_then(Value::as_f64).unwrap_or(0.5),
                source_entity: m
                    .get("source_entity")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                importance: m
                    .get("importance")
                    .and_then(Value::as_i64)
                    .map_or(3, super::journal::clamp_importance),
                method: if s(&m, "importance_method") == "llm" {
                    "llm"
                } else {
                    "heuristic"
                },
                synthesis: m.get("synthesis").and_then(Value::as_bool).unwrap_or(false),
                consolidated: false,
            }),
            "score" => {
                if let Some(e) = r.journal.iter_mut().find(|e| e.id == id) {
                    e.importance = m
                        .get("importance")
                        .and_then(Value::as_i64)
                        .map_or(e.importance, super::journal::clamp_importance);
                    e.method = "llm";
                }
            }
            "consolidated" => {
                if let Some(e) = r.journal.iter_mut().find(|e| e.id == id) {
                    e.consolidated = true;
                }
            }
            "prune" => {
                let before = r.journal.len();
                r.journal.retain(|e| e.id != id);
                r.journal_pruned += (before - r.journal.len()) as u64;
            }
            _ => {}
        }
    }
    for m in lines(&path(paths, EvFile::Semantic), errors) {
        let id = s(&m, "id");
        r.next_ids[1] = r.next_ids[1].max(number_of(&id));
        match s(&m, "op").as_str() {
            "add" => {
                let meta = m.get("metadata").and_then(Value::as_object);
                let num = |k: &str| meta.and_then(|x| x.get(k)).and_then(Value::as_f64);
                r.memories.push(Memory {
                    id,
                    text: s(&m, "text"),
                    source_trust: num("source_trust").unwrap_or(0.5),
                    importance: num("importance")
                        .map_or(3, |v| super::journal::clamp_importance(v as i64)),
                    source_entity: meta
                        .and_then(|x| x.get("source_entity"))
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    links: Vec::new(),
                    linked: false,
                });
            }
            "link" => {
                if let Some(mem) = r.memories.iter_mut().find(|x| x.id == id) {
                    mem.linked = true;
                    mem.links = m
                        .get("linked_to")
                        .and_then(Value::as_array)
                        .map(|a| {
                            a.iter()
                                .filter_map(|l| {
                                    Some((
                                        l.get("id")?.as_str()?.to_string(),
                                        l.get("score")?.as_f64()? as f32,
                                    ))
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                }
            }
            "unlink" => {
                let target = s(&m, "target");
                if let Some(mem) = r.memories.iter_mut().find(|x| x.id == id) {
                    mem.links.retain(|(l, _)| *l != target);
                }
            }
            "forget" => r.memories.retain(|x| x.id != id),
            _ => {}
        }
    }
    let mut entities: BTreeMap<String, Profile> = BTreeMap::new();
    for m in lines(&path(paths, EvFile::Entities), errors) {
        let id = s(&m, "entity_id");
        if id.is_empty() {
            continue;
        }
        let p = entities
            .entry(id)
            .or_insert_with(|| Profile::new(&s(&m, "entity_type")));
        match s(&m, "op").as_str() {
            "observe" => p.observations.push(s(&m, "text")),
            "consolidate" => {
                if let Some(a) = m.get("attributes").and_then(Value::as_object) {
                    p.attributes = a
                        .iter()
                        .map(|(k, v)| {
                            (
                                k.clone(),
                                v.as_str().map_or_else(|| v.to_string(), str::to_string),
                            )
                        })
                        .collect();
                }
                p.observations.clear();
            }
            "relationship" => {
                p.favorability = m
                    .get("favorability")
                    .and_then(Value::as_f64)
                    .unwrap_or(p.favorability);
                p.interactions = m
                    .get("interaction_count")
                    .and_then(Value::as_u64)
                    .unwrap_or(p.interactions);
            }
            _ => {}
        }
    }
    r.entities = entities;
    for m in lines(&path(paths, EvFile::Reflections), errors) {
        if s(&m, "op") == "reflect" {
            r.reflections += 1;
            r.last_reflection_at = t(&m).or(r.last_reflection_at);
            r.next_ids[2] = r.next_ids[2].max(number_of(&s(&m, "id")));
        }
    }
    for m in lines(&path(paths, EvFile::Mode), errors) {
        if s(&m, "op") == "phase" && s(&m, "phase") == "resting" {
            r.sleeps += 1;
            r.last_sleep_at = t(&m);
        }
    }
    r.working = read_working(paths, errors);
    r
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
    let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(&bytes) else {
        errors.push("working_memory.json: not a JSON object; starting with none".into());
        return BTreeMap::new();
    };
    map.into_iter()
        .filter_map(|(id, v)| {
            let c = v.as_object()?;
            let time = |k: &str| c.get(k).and_then(Value::as_str).and_then(parse_time);
            let started = time("started_at")?;
            Some((
                id,
                Conversation {
                    topic: c
                        .get("topic")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string(),
                    started_at: started,
                    last_at: time("last_at").unwrap_or(started),
                    messages: c
                        .get("messages")
                        .and_then(Value::as_array)
                        .map(|a| {
                            a.iter()
                                .filter_map(|m| {
                                    Some((
                                        m.get("t").and_then(Value::as_str).and_then(parse_time)?,
                                        m.get("from")?.as_str()?.to_string(),
                                        m.get("text")?.as_str()?.to_string(),
                                    ))
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                    pending_actions: c
                        .get("pending_actions")
                        .and_then(Value::as_array)
                        .map(|a| {
                            a.iter()
                                .filter_map(Value::as_str)
                                .map(str::to_string)
                                .collect()
                        })
                        .unwrap_or_default(),
                },
            ))
        })
        .collect()
}

fn scored(hits: Vec<Hit>) -> Vec<(String, f32)> {
    hits.into_iter().map(|h| (h.id, h.score)).collect()
}

fn append_lines(path: &Path, lines: &[Value]) -> std::io::Result<()> {
    let mut buf = Vec::new();
    for l in lines {
        serde_json::to_writer(&mut buf, l).map_err(std::io::Error::other)?;
        buf.push(b'\n');
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    f.write_all(&buf)
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
            EvenniaIo::Append { file, lines } => match append_lines(&path(paths, file), &lines) {
                Ok(()) => Performed::Written,
                Err(e) => Performed::Failed {
                    file: file_name(file),
                    error: e.to_string(),
                },
            },
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
                    append_lines(&path(paths, EvFile::Semantic), &[line]).map_err(|e| e.to_string())
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
