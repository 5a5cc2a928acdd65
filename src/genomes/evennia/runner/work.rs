//! The evennia sleep work, one stage at a time. Compacting: scoring (a batch per tick),
//! then journal -> semantic memory (a batch of entries per tick); atomic. Dreaming (not
//! atomic), tick after tick while memories wait for their links: links (a batch per
//! tick), link cleanup, entity consolidation, reflection, pruning, stale working memory,
//! the pre-compaction extraction turn and compaction when the context is full enough.
//! Then resting until the wake.

use super::config;
use crate::llm::embed::Embeddings;
use serde_json::{Value, json};

use super::journal::{self, Entry};
use super::prompts::{self, request};
use super::tasks::{ConsolidateEntity, ExtractFacts, Reflect, ScoreImportance};
use super::{Evennia, append, relationship};
use crate::genomes::evennia::memory::entities::EntityConsolidate;
use crate::genomes::evennia::memory::journal::REFLECTION_SOURCE;
use crate::genomes::evennia::memory::journal::{
    ImportanceMethod, JournalConsolidated, JournalPrune, JournalScore,
};
use crate::genomes::evennia::memory::mode::PhaseLine;
use crate::genomes::evennia::memory::reflections::Reflect as ReflectRecord;
use crate::genomes::evennia::memory::semantic::{LinkTarget, SemanticLink, SemanticUnlink};
use crate::llm::{LlmError, Response, joined_text};
use crate::memory::op_line::OpRecord;
use crate::runner::brain::task::Task;
use crate::runner::genome::{Cx, Genome, SleepEnd, SleepStep};

/// Entities consolidated per sleep.
const ENTITIES_PER_SLEEP: usize = 3;
/// Candidates a link search looks at.
const LINK_K: usize = 5;
/// Entries a reflection looks at.
const REFLECTION_ENTRIES: usize = 10;
/// Insight entries carry this importance.
const INSIGHT_IMPORTANCE: u8 = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Scoring,
    Consolidating,
    Links,
    Cleanup,
    Entities,
    Reflection,
    Prune,
    Stale,
    Extraction,
    Compaction,
}

/// The sleep work under way.
#[derive(Debug, Clone)]
pub struct Work {
    stage: Stage,
    /// The request in flight (a thought, an embedding or a search).
    waiting: Option<u64>,
    /// Entries left in this tick's batch (consolidation), memories (links).
    batch_left: usize,
    /// Entries asked about in this sleep (scored or consolidated, or failed): not again.
    tried: Vec<String>,
    /// The entry being consolidated, and its facts once extracted.
    current: Option<(String, Vec<String>)>,
    entities_done: usize,
    /// An urgent event came during dreaming: wake when the work is over.
    held_wake: bool,
    compacted: bool,
}

impl Work {
    fn new() -> Self {
        Self {
            stage: Stage::Scoring,
            waiting: None,
            batch_left: 0,
            tried: Vec::new(),
            current: None,
            entities_done: 0,
            held_wake: false,
            compacted: false,
        }
    }

    pub fn phase_name(&self) -> &'static str {
        if self.compacting() {
            "compacting"
        } else {
            "dreaming"
        }
    }

    pub fn compacting(&self) -> bool {
        matches!(self.stage, Stage::Scoring | Stage::Consolidating)
    }

    pub fn dreaming(&self) -> bool {
        !self.compacting()
    }

    pub fn hold_wake(&mut self) {
        self.held_wake = true;
    }
}

fn phase_line(phase: &str) -> Value {
    PhaseLine {
        phase: Some(phase.to_string()),
    }
    .line()
}

impl Evennia {
    pub(super) fn begin_work(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep {
        self.work = Some(Work::new());
        append(
            cx,
            crate::genomes::evennia::memory::OPERATING_MODE,
            vec![phase_line("compacting")],
        );
        SleepStep::Ready
    }

    fn stage(&self) -> Option<Stage> {
        self.work.as_ref().map(|w| w.stage)
    }

    fn set_stage(&mut self, stage: Stage) {
        if let Some(w) = &mut self.work {
            w.stage = stage;
        }
    }

    fn wait(&mut self, id: u64) -> SleepStep {
        if let Some(w) = &mut self.work {
            w.waiting = Some(id);
        }
        SleepStep::Waiting
    }

    /// Takes the request in flight if it is `id`.
    fn answered(&mut self, id: u64) -> bool {
        match &mut self.work {
            Some(w) if w.waiting == Some(id) => {
                w.waiting = None;
                true
            }
            _ => false,
        }
    }

    fn tried(&self, id: &str) -> bool {
        self.work
            .as_ref()
            .is_some_and(|w| w.tried.iter().any(|t| t == id))
    }

    fn mark_tried(&mut self, id: &str) {
        if let Some(w) = &mut self.work {
            w.tried.push(id.to_string());
        }
    }

    pub(super) fn work_step(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep {
        let Some(stage) = self.stage() else {
            return SleepStep::Done(SleepEnd::default());
        };
        match stage {
            Stage::Scoring => self.score_batch(cx),
            Stage::Consolidating => self.consolidate_next(cx),
            Stage::Links => self.link_next(cx),
            Stage::Cleanup => {
                self.clean_links(cx);
                self.set_stage(Stage::Entities);
                SleepStep::Ready
            }
            Stage::Entities => self.consolidate_entity(cx),
            Stage::Reflection => self.reflect(cx),
            Stage::Prune => {
                self.prune(cx);
                self.set_stage(Stage::Stale);
                SleepStep::Ready
            }
            Stage::Stale => {
                self.clear_stale(cx);
                self.set_stage(Stage::Extraction);
                SleepStep::Ready
            }
            Stage::Extraction => {
                let budget = self.context_budget(cx.cfg).max(1) as f64;
                let threshold = config::of(cx.cfg).compact_sleep_threshold;
                if cx.context_chars as f64 / budget >= threshold {
                    self.set_stage(Stage::Compaction);
                    SleepStep::Turn {
                        prompt: prompts::EXTRACTION_TURN.into(),
                        rounds: config::of(cx.cfg).extraction_rounds,
                    }
                } else {
                    self.finish(cx)
                }
            }
            Stage::Compaction => self.after_extraction(cx),
        }
    }

    /// The pre-compaction turns are over: compact.
    pub(super) fn after_extraction(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep {
        SleepStep::Compact {
            threshold: config::of(cx.cfg).compact_sleep_threshold,
        }
    }

    pub(super) fn after_compaction(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep {
        self.finish(cx)
    }

    /// The end of a dreaming tick: another one while memories wait for their links, else
    /// the work is over (resting until the wake).
    fn finish(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep {
        if self.memories.iter().any(|m| !m.linked)
            && let Some(w) = &mut self.work
        {
            w.stage = Stage::Links;
            w.batch_left = config::of(cx.cfg).link_batch.max(1);
            return SleepStep::NextTick;
        }
        SleepStep::Done(self.end_work(cx))
    }

    /// Ends the work (done or cut short): the creature rests until its wake.
    pub(super) fn end_work(&mut self, cx: &mut Cx<'_, Self>) -> SleepEnd {
        let Some(work) = self.work.take() else {
            return SleepEnd::default();
        };
        append(
            cx,
            crate::genomes::evennia::memory::OPERATING_MODE,
            vec![phase_line("resting")],
        );
        self.sleeps += 1;
        SleepEnd {
            consolidated: work.compacted,
            deep: false,
            wake: work.held_wake,
        }
    }

    // --- compacting: scoring ---

    fn score_batch(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep {
        let batch: Vec<(String, String)> = self
            .journal
            .iter()
            .filter(|e| e.method == "heuristic" && !e.synthesis && !self.tried(&e.id))
            .take(config::of(cx.cfg).scoring_batch.max(1))
            .map(|e| (e.id.clone(), e.text.clone()))
            .collect();
        if batch.is_empty() {
            self.set_stage(Stage::Consolidating);
            if let Some(w) = &mut self.work {
                w.tried.clear();
                w.batch_left = config::of(cx.cfg).consolidation_batch.max(1);
            }
            return SleepStep::Ready;
        }
        for (id, _) in &batch {
            self.mark_tried(id);
        }
        let listing: String = batch.iter().map(|(id, t)| format!("{id}: {t}\n")).collect();
        let id = cx.think(
            Task::genome(ScoreImportance { entries: batch }),
            request(prompts::SCORING_PROMPT, listing, cx.cfg),
        );
        self.wait(id)
    }

    fn on_scores(&mut self, answer: &str, cx: &mut Cx<'_, Self>) -> SleepStep {
        let asked: Vec<String> = self
            .journal
            .iter()
            .filter(|e| e.method == "heuristic" && self.tried(&e.id))
            .map(|e| e.id.clone())
            .collect();
        let mut lines = Vec::new();
        for (id, score) in journal::parse_scores(answer, &asked) {
            if let Some(e) = self.journal.iter_mut().find(|e| e.id == id) {
                e.importance = score;
                e.method = "llm";
                let line = JournalScore {
                    id: Some(id),
                    importance: Some(u32::from(score)),
                    importance_method: Some(ImportanceMethod::Llm),
                };
                lines.push(line.line());
            }
        }
        if !lines.is_empty() {
            append(cx, crate::genomes::evennia::memory::JOURNAL, lines);
        }
        SleepStep::NextTick
    }

    // --- compacting: journal -> semantic memory ---

    fn consolidate_next(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep {
        if self.work.as_ref().is_some_and(|w| w.batch_left == 0) {
            if let Some(w) = &mut self.work {
                w.batch_left = config::of(cx.cfg).consolidation_batch.max(1);
            }
            return SleepStep::NextTick;
        }
        let next = self
            .journal
            .iter()
            .find(|e| !e.consolidated && !e.synthesis && !self.tried(&e.id))
            .cloned();
        let Some(entry) = next else {
            // Compacting is complete: the dreaming phase begins at the next tick.
            cx.consolidated();
            if let Some(w) = &mut self.work {
                w.compacted = true;
                w.stage = Stage::Links;
                w.batch_left = config::of(cx.cfg).link_batch.max(1);
            }
            append(
                cx,
                crate::genomes::evennia::memory::OPERATING_MODE,
                vec![phase_line("dreaming")],
            );
            return SleepStep::NextTick;
        };
        self.mark_tried(&entry.id);
        if let Some(w) = &mut self.work {
            w.current = Some((entry.id.clone(), Vec::new()));
        }
        let user = match &entry.source_entity {
            Some(who) => format!("Journal entry (source: {who}): {}", entry.text),
            None => format!("Journal entry: {}", entry.text),
        };
        let id = cx.think(
            Task::genome(ExtractFacts {
                entry_id: entry.id.clone(),
                text: entry.text.clone(),
                source_entity: entry.source_entity.clone(),
            }),
            request(prompts::ASSISTANT_FACT_EXTRACTION_PROMPT, user, cx.cfg),
        );
        self.wait(id)
    }

    fn on_facts(&mut self, answer: &str, cx: &mut Cx<'_, Self>) -> SleepStep {
        let facts = parse_facts(answer);
        if facts.is_empty() {
            self.entry_consolidated(None, cx);
            return SleepStep::Ready;
        }
        if let Some(w) = &mut self.work
            && let Some((_, f)) = &mut w.current
        {
            f.clone_from(&facts);
        }
        let id = cx.embed(facts);
        self.wait(id)
    }

    fn on_fact_vectors(
        &mut self,
        model: &str,
        vectors: Vec<Vec<f32>>,
        cx: &mut Cx<'_, Self>,
    ) -> SleepStep {
        let Some((entry_id, facts)) = self.work.as_mut().and_then(|w| w.current.clone()) else {
            return SleepStep::Ready;
        };
        let Some(entry) = self.journal.iter().find(|e| e.id == entry_id).cloned() else {
            return SleepStep::Ready;
        };
        let mut first = None;
        for (fact, vector) in facts.iter().zip(vectors) {
            let id = self.remember(
                fact,
                entry.source_trust,
                entry.importance,
                Some(&entry),
                entry.source_entity.clone(),
                entry.tags.clone(),
                (model, vector),
                "journal",
                cx,
            );
            first.get_or_insert(id);
        }
        self.entry_consolidated(first, cx);
        SleepStep::Ready
    }

    fn entry_consolidated(&mut self, memory_id: Option<String>, cx: &mut Cx<'_, Self>) {
        let Some((entry_id, _)) = self.work.as_mut().and_then(|w| w.current.take()) else {
            return;
        };
        if let Some(e) = self.journal.iter_mut().find(|e| e.id == entry_id) {
            e.consolidated = true;
        }
        if let Some(w) = &mut self.work {
            w.batch_left = w.batch_left.saturating_sub(1);
        }
        append(
            cx,
            crate::genomes::evennia::memory::JOURNAL,
            vec![
                JournalConsolidated {
                    id: Some(entry_id),
                    memory_id,
                }
                .line(),
            ],
        );
    }

    // --- dreaming ---

    fn link_next(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep {
        let next = self
            .memories
            .iter()
            .find(|m| !m.linked)
            .map(|m| m.id.clone());
        let Some(id) = next else {
            self.set_stage(Stage::Cleanup);
            return SleepStep::Ready;
        };
        if self.work.as_ref().is_some_and(|w| w.batch_left == 0) {
            // This tick's links are done; the other operations of the tick follow.
            self.set_stage(Stage::Cleanup);
            return SleepStep::Ready;
        }
        let req = cx.id();
        cx.io(super::EvenniaIo::Similar { req, id, k: LINK_K });
        self.wait(req)
    }

    pub(super) fn work_found(
        &mut self,
        req: u64,
        hits: Result<Vec<(String, f32)>, String>,
        cx: &mut Cx<'_, Self>,
    ) -> SleepStep {
        if !self.answered(req) || self.stage() != Some(Stage::Links) {
            return SleepStep::Unchanged;
        }
        let Some(idx) = self.memories.iter().position(|m| !m.linked) else {
            return SleepStep::Ready;
        };
        let min = config::of(cx.cfg).link_similarity;
        let links: Vec<(String, f32)> = match hits {
            Ok(h) => h
                .into_iter()
                .filter(|(id, s)| *s >= min && *id != self.memories[idx].id)
                .collect(),
            Err(e) => {
                cx.error(format!("link search failed: {e}"), "dreaming");
                Vec::new()
            }
        };
        let m = &mut self.memories[idx];
        m.linked = true;
        m.links.clone_from(&links);
        let linked_to = links
            .iter()
            .map(|(id, s)| LinkTarget {
                id: Some(id.clone()),
                score: Some((f64::from(*s) * 1000.0).round() / 1000.0),
            })
            .collect();
        let line = SemanticLink {
            id: Some(m.id.clone()),
            linked_to: Some(linked_to),
        }
        .line();
        self.link_line(cx, line);
        if let Some(w) = &mut self.work {
            w.batch_left = w.batch_left.saturating_sub(1);
        }
        SleepStep::Ready
    }

    /// Removes links to memories that no longer exist.
    fn clean_links(&mut self, cx: &mut Cx<'_, Self>) {
        let ids: std::collections::HashSet<String> =
            self.memories.iter().map(|m| m.id.clone()).collect();
        let mut lines = Vec::new();
        for m in &mut self.memories {
            let before = m.links.len();
            m.links.retain(|(target, _)| {
                let keep = ids.contains(target);
                if !keep {
                    let unlink = SemanticUnlink {
                        id: Some(m.id.clone()),
                        target: Some(target.clone()),
                    };
                    lines.push(unlink.line());
                }
                keep
            });
            let _ = before;
        }
        if !lines.is_empty() {
            append(cx, crate::genomes::evennia::memory::SEMANTIC, lines);
        }
    }

    fn consolidate_entity(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep {
        let min = config::of(cx.cfg).entity_consolidation_min.max(1);
        let done = self.work.as_ref().map_or(0, |w| w.entities_done);
        let next = self
            .entities
            .iter()
            .find(|(_, p)| p.observations.len() >= min)
            .map(|(id, p)| (id.clone(), p.clone()));
        let Some((entity_id, p)) = next.filter(|_| done < ENTITIES_PER_SLEEP) else {
            self.set_stage(Stage::Reflection);
            return SleepStep::Ready;
        };
        if let Some(w) = &mut self.work {
            w.entities_done += 1;
        }
        let attributes: Vec<(String, String)> = p.attributes.clone().into_iter().collect();
        let user = format!(
            "Entity {entity_id} ({}).\nKnown attributes: {}\nRecent observations:\n{}",
            p.entity_type,
            serde_json::to_string(&p.attributes).unwrap_or_default(),
            p.observations
                .iter()
                .map(|o| format!("- {o}\n"))
                .collect::<String>()
        );
        let id = cx.think(
            Task::genome(ConsolidateEntity {
                entity_id,
                entity_type: p.entity_type.clone(),
                attributes,
                observations: p.observations.clone(),
            }),
            request(prompts::ENTITY_PROMPT, user, cx.cfg),
        );
        self.wait(id)
    }

    fn on_attributes(&mut self, answer: &str, cx: &mut Cx<'_, Self>) -> SleepStep {
        let min = config::of(cx.cfg).entity_consolidation_min.max(1);
        let Some((entity_id, p)) = self
            .entities
            .iter_mut()
            .find(|(_, p)| p.observations.len() >= min)
        else {
            return SleepStep::Ready;
        };
        let parsed = relationship::parse_attributes(answer);
        p.attributes.extend(parsed);
        p.observations.clear();
        let attributes = p
            .attributes
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect();
        let line = EntityConsolidate {
            entity_id: Some(entity_id.clone()),
            attributes: Some(attributes),
        }
        .line();
        append(cx, crate::genomes::evennia::memory::ENTITIES, vec![line]);
        SleepStep::Ready
    }

    fn reflect(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep {
        let threshold = config::of(cx.cfg).reflection_threshold;
        if self.cumulative_importance() < threshold {
            self.set_stage(Stage::Prune);
            return SleepStep::Ready;
        }
        let mut recent: Vec<&Entry> = self
            .journal
            .iter()
            .filter(|e| {
                e.counts_toward_reflection() && self.last_reflection_at.is_none_or(|s| e.t > s)
            })
            .collect();
        recent.sort_by_key(|e| std::cmp::Reverse(e.importance));
        let entries: Vec<(String, String, u8)> = recent
            .into_iter()
            .take(REFLECTION_ENTRIES)
            .map(|e| (e.id.clone(), e.text.clone(), e.importance))
            .collect();
        let user: String = entries
            .iter()
            .map(|(id, t, i)| format!("{id} ({i}/10): {t}\n"))
            .collect();
        let id = cx.think(
            Task::genome(Reflect { entries }),
            request(prompts::REFLECTION_PROMPT, user, cx.cfg),
        );
        self.wait(id)
    }

    fn on_reflection(&mut self, answer: &str, cx: &mut Cx<'_, Self>) -> SleepStep {
        let (questions, insights) = parse_reflection(answer);
        let cumulative = self.cumulative_importance();
        let mut ids = Vec::new();
        for insight in insights {
            let id = self.add_entry(
                &insight,
                vec![REFLECTION_SOURCE.into()],
                REFLECTION_SOURCE,
                1.0,
                None,
                Some(INSIGHT_IMPORTANCE),
                false,
                cx,
            );
            ids.push(id);
        }
        let rid = self.reflection_id();
        append(
            cx,
            crate::genomes::evennia::memory::REFLECTIONS,
            vec![
                ReflectRecord {
                    id: Some(rid),
                    questions: Some(questions),
                    insights: Some(ids),
                    cumulative_importance: Some(u64::from(cumulative)),
                    threshold: Some(u64::from(config::of(cx.cfg).reflection_threshold)),
                }
                .line(),
            ],
        );
        self.reflections += 1;
        self.last_reflection_at = Some(cx.now);
        self.set_stage(Stage::Prune);
        SleepStep::Ready
    }

    /// Old, consolidated, unimportant entries leave the journal (their facts stay in
    /// semantic memory; the lines stay in the file).
    fn prune(&mut self, cx: &mut Cx<'_, Self>) {
        let e = &config::of(cx.cfg);
        let cutoff = cx.now - cx.cfg.wall(e.prune_after_h * 3600.0);
        let max = e.prune_max_importance;
        let mut lines = Vec::new();
        self.journal.retain(|entry| {
            let prune = entry.consolidated
                && !entry.synthesis
                && entry.importance <= max
                && entry.t < cutoff;
            if prune {
                let prune = JournalPrune {
                    id: Some(entry.id.clone()),
                    reason: Some(format!(
                        "importance {} and older than {} h",
                        entry.importance, e.prune_after_h
                    )),
                };
                lines.push(prune.line());
            }
            !prune
        });
        self.journal_pruned += lines.len() as u64;
        if !lines.is_empty() {
            append(cx, crate::genomes::evennia::memory::JOURNAL, lines);
        }
    }

    fn clear_stale(&mut self, cx: &mut Cx<'_, Self>) {
        let cutoff = cx.now
            - cx.cfg
                .wall(config::of(cx.cfg).stale_conversation_min * 60.0);
        let before = self.working.len();
        self.working.retain(|_, c| c.last_at >= cutoff);
        if self.working.len() != before {
            self.write_working(cx);
            cx.memory(
                "observation",
                json!({"event": "stale_conversations_cleared", "cleared": before - self.working.len()}),
            );
        }
    }

    // --- answers ---

    pub(super) fn work_answer(
        &mut self,
        id: u64,
        result: Result<Response, LlmError>,
        cx: &mut Cx<'_, Self>,
    ) -> SleepStep {
        if !self.answered(id) {
            return SleepStep::Unchanged;
        }
        let Some(stage) = self.stage() else {
            return SleepStep::Unchanged;
        };
        let text = match result {
            Ok(r) => joined_text(&r.content),
            Err(e) => {
                cx.error(format!("sleep work ({stage:?}) failed: {e}"), "sleep");
                return self.skip_after_failure(stage);
            }
        };
        match stage {
            Stage::Scoring => self.on_scores(&text, cx),
            Stage::Consolidating => self.on_facts(&text, cx),
            Stage::Entities => self.on_attributes(&text, cx),
            Stage::Reflection => self.on_reflection(&text, cx),
            _ => SleepStep::Ready,
        }
    }

    pub(super) fn work_embedded(
        &mut self,
        id: u64,
        result: Result<Embeddings, String>,
        cx: &mut Cx<'_, Self>,
    ) -> SleepStep {
        if !self.answered(id) {
            return SleepStep::Unchanged;
        }
        match result {
            Ok(e) => self.on_fact_vectors(&e.model, e.vectors, cx),
            Err(e) => {
                cx.error(format!("embedding failed: {e}"), "compacting");
                // The entry stays unconsolidated: the next sleep tries again.
                if let Some(w) = &mut self.work {
                    w.current = None;
                    w.batch_left = w.batch_left.saturating_sub(1);
                }
                SleepStep::Ready
            }
        }
    }

    /// A model call of the sleep work failed: go on without it (the next sleep tries
    /// again).
    fn skip_after_failure(&mut self, stage: Stage) -> SleepStep {
        if let Some(w) = &mut self.work {
            match stage {
                Stage::Consolidating => {
                    w.current = None;
                    w.batch_left = w.batch_left.saturating_sub(1);
                }
                Stage::Entities => w.entities_done = ENTITIES_PER_SLEEP,
                Stage::Reflection => w.stage = Stage::Prune,
                _ => {}
            }
        }
        match stage {
            Stage::Scoring => SleepStep::NextTick,
            _ => SleepStep::Ready,
        }
    }
}

/// One fact per line, bullets and numbering left out; `NONE` is none. At most three.
pub fn parse_facts(answer: &str) -> Vec<String> {
    answer
        .lines()
        .map(|l| {
            l.trim()
                .trim_start_matches(['-', '*', '•'])
                .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ')')
                .trim()
                .to_string()
        })
        .filter(|l| !l.is_empty() && !l.eq_ignore_ascii_case("none") && l.len() >= 8)
        .take(3)
        .collect()
}

/// `QUESTIONS:` and `INSIGHTS:` sections of bullet lines.
pub fn parse_reflection(answer: &str) -> (Vec<String>, Vec<String>) {
    let mut questions = Vec::new();
    let mut insights = Vec::new();
    let mut into_insights = false;
    for line in answer.lines() {
        let l = line.trim();
        let upper = l.to_uppercase();
        if upper.starts_with("QUESTIONS") {
            into_insights = false;
            continue;
        }
        if upper.starts_with("INSIGHTS") {
            into_insights = true;
            continue;
        }
        let item = l.trim_start_matches(['-', '*', '•']).trim();
        if item.is_empty() {
            continue;
        }
        if into_insights {
            insights.push(item.to_string());
        } else {
            questions.push(item.to_string());
        }
    }
    insights.truncate(3);
    questions.truncate(3);
    (questions, insights)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_lines_without_bullets() {
        assert_eq!(
            parse_facts("- The tavern is in the north wing.\n2. Alice prefers tea.\nNONE\nx"),
            vec!["The tavern is in the north wing.", "Alice prefers tea."]
        );
        assert!(parse_facts("NONE").is_empty());
    }

    #[test]
    fn reflections_have_two_sections() {
        let (q, i) =
            parse_reflection("QUESTIONS:\n- Why?\n- How?\nINSIGHTS:\n- It grows (j1, j2)\n");
        assert_eq!(q, ["Why?", "How?"]);
        assert_eq!(i, ["It grows (j1, j2)"]);
    }
}
