//! Self-care: the creature's own consolidation, a tool call that asks the model.
//!
//! Phase A: the long-term memories not yet archived (at least `min_memories`), in batches
//! of `batch` (fewer when a batch would pass the token ceiling), each summarised around
//! the focus the creature chose; the summary is kept and the batch archived into it.
//! Phase B: the dialogue lines after the watermark, summarised with the latest conversation
//! summary folded in (in stretches that fit the token ceiling, each folding the one
//! before), the watermark moving to the last line covered. Then the summarised dialogue
//! beyond `max_dialogues` lines or `post_summary_ceiling` tokens is archived, oldest first,
//! and the engine consolidates (fatigue starts over, the context is trimmed).

use std::collections::VecDeque;

use serde_json::{Value, json};

use super::config::{self, tokens};
use super::tasks::Summarize;
use super::tools::{done, str_arg};
use super::{Emergence, IdKind, Summary, SummaryKind, append, prompts};
use crate::genomes::emergence::memory::lines::Archive;
use crate::genomes::emergence::memory::summaries::{SummaryKind as Kind, SummaryLine};
use crate::llm::{LlmError, Response, joined_text};
use crate::memory::events::{CreatureEvent, DreamEvent};
use crate::memory::lenient::Strings;
use crate::memory::op_line::OpRecord;
use crate::runner::brain::task::Task;
use crate::runner::genome::{Cx, IoProgress, ToolReply};

#[derive(Debug, Clone)]
pub(super) struct Care {
    focus: String,
    /// Memory batches not yet asked for: ids.
    batches: VecDeque<Vec<String>>,
    batches_total: usize,
    /// The request in flight.
    asked: Option<(u64, Asked)>,
    report: Report,
}

#[derive(Debug, Clone)]
enum Asked {
    Memories(Vec<String>),
    Dialogues {
        ids: Vec<String>,
        earlier: Option<String>,
    },
}

#[derive(Debug, Clone, Default)]
struct Report {
    memory_summaries: Vec<String>,
    memories: usize,
    conversation_summaries: Vec<String>,
    dialogues: usize,
    archived_dialogues: usize,
}

/// Splits `items` (`(id, tokens)`, in order) into batches of `batch` at most, a batch
/// closing early when the next item would take it past `ceiling` tokens.
pub fn batches(items: &[(String, usize)], batch: usize, ceiling: usize) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut used = 0;
    for (id, t) in items {
        if !current.is_empty() && (current.len() >= batch.max(1) || used + t > ceiling) {
            out.push(std::mem::take(&mut current));
            used = 0;
        }
        current.push(id.clone());
        used += t;
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// How a dialogue line reads to the summariser.
fn dialogue_line(from: &str, with: &str, text: &str) -> String {
    if from == with {
        format!("{from} to me: {text}")
    } else {
        format!("I to {with}: {text}")
    }
}

impl Emergence {
    /// `self_care{focus}`: refused below the memory threshold, else the first request.
    pub(super) fn self_care(&mut self, input: &Value, cx: &mut Cx<'_, Self>) -> ToolReply {
        let Some(focus) = str_arg(input, "focus") else {
            return ToolReply::Done(done(false, "Error: self_care needs a `focus`".into()));
        };
        let c = &config::of(cx.cfg);
        let active: Vec<(String, usize)> = self
            .active_memories()
            .map(|m| (m.id.clone(), tokens(&m.text)))
            .collect();
        if active.len() < c.min_memories {
            return ToolReply::Done(done(
                false,
                format!(
                    "Self-care refused: it needs at least {} long-term memories and you have {}. \
                     Store more with add_to_longterm_memory first.",
                    c.min_memories,
                    active.len()
                ),
            ));
        }
        let planned: VecDeque<Vec<String>> = batches(&active, c.batch, c.token_ceiling).into();
        self.care = Some(Care {
            focus: focus.to_string(),
            batches_total: planned.len(),
            batches: planned,
            asked: None,
            report: Report::default(),
        });
        match self.care_next(cx) {
            IoProgress::Tool(outcome) => ToolReply::Done(outcome),
            _ => ToolReply::Pending,
        }
    }

    /// The model's answer to a self-care request.
    pub(super) fn care_answer(
        &mut self,
        id: u64,
        result: Result<Response, LlmError>,
        cx: &mut Cx<'_, Self>,
    ) -> IoProgress {
        let Some(care) = self.care.as_mut() else {
            return IoProgress::Nothing;
        };
        let asked = match care.asked.take() {
            Some((want, asked)) if want == id => asked,
            other => {
                care.asked = other;
                return IoProgress::Nothing;
            }
        };
        let text = match result {
            Ok(r) => joined_text(&r.content).trim().to_string(),
            Err(e) => return self.care_failed(&format!("the model call failed: {e}"), cx),
        };
        if text.is_empty() {
            return self.care_failed("the model gave no summary", cx);
        }
        let focus = care.focus.clone();
        let summary_id = self.new_id(IdKind::Summary);
        let summary = match asked {
            Asked::Memories(ids) => {
                append(
                    cx,
                    crate::genomes::emergence::memory::LONG_TERM,
                    vec![archive(ids.clone(), summary_id.clone())],
                );
                for m in self.memories.iter_mut().filter(|m| ids.contains(&m.id)) {
                    m.archived = Some(summary_id.clone());
                }
                if let Some(c) = self.care.as_mut() {
                    c.report.memories += ids.len();
                    c.report.memory_summaries.push(summary_id.clone());
                }
                Summary {
                    id: summary_id,
                    t: cx.now,
                    kind: SummaryKind::Memories,
                    focus,
                    text,
                    covers: ids,
                    folded: Vec::new(),
                    watermark: None,
                    from: None,
                }
            }
            Asked::Dialogues { ids, earlier } => {
                for d in self.dialogues.iter_mut().filter(|d| ids.contains(&d.id)) {
                    d.summary = Some(summary_id.clone());
                }
                if let Some(c) = self.care.as_mut() {
                    c.report.dialogues += ids.len();
                    c.report.conversation_summaries.push(summary_id.clone());
                }
                Summary {
                    id: summary_id,
                    t: cx.now,
                    kind: SummaryKind::Conversations,
                    focus,
                    text,
                    watermark: ids.last().cloned(),
                    covers: ids,
                    folded: earlier.into_iter().collect(),
                    from: None,
                }
            }
        };
        append(
            cx,
            crate::genomes::emergence::memory::SUMMARIES,
            vec![summary.record(None).line()],
        );
        self.summaries.push(summary);
        self.care_next(cx)
    }

    /// Asks for the next batch or stretch of dialogue, or finishes.
    fn care_next(&mut self, cx: &mut Cx<'_, Self>) -> IoProgress {
        let Some(care) = self.care.as_mut() else {
            return IoProgress::Nothing;
        };
        if let Some(ids) = care.batches.pop_front() {
            let n = care.batches_total - care.batches.len();
            let items: Vec<(String, String)> = ids
                .iter()
                .filter_map(|id| self.memories.iter().find(|m| &m.id == id))
                .map(|m| (m.id.clone(), m.text.clone()))
                .collect();
            let user = prompts::memories_text(&care.focus, &items, n, care.batches_total);
            let task = Task::genome(Summarize {
                kind: SummaryKind::Memories,
                focus: care.focus.clone(),
                items,
                earlier: None,
            });
            let req = cx.think(
                task,
                prompts::request(prompts::MEMORY_SUMMARY_PROMPT, user, cx.cfg),
            );
            care.asked = Some((req, Asked::Memories(ids)));
            return IoProgress::Nothing;
        }
        // The latest conversation summary is folded into the next.
        let earlier = self
            .summaries
            .iter()
            .rev()
            .find(|s| s.kind == SummaryKind::Conversations && s.from.is_none());
        let budget = config::of(cx.cfg)
            .token_ceiling
            .saturating_sub(earlier.map_or(0, |s| tokens(&s.text)));
        let mut used = 0;
        let mut items: Vec<(String, String)> = Vec::new();
        for d in self
            .dialogues
            .iter()
            .filter(|d| d.summary.is_none() && !d.archived)
        {
            let line = dialogue_line(&d.from, &d.with, &d.text);
            let t = tokens(&line);
            if !items.is_empty() && used + t > budget {
                break;
            }
            used += t;
            items.push((d.id.clone(), line));
        }
        if items.is_empty() {
            return self.care_finish(cx);
        }
        let user = prompts::dialogues_text(&care.focus, earlier.map(|s| s.text.as_str()), &items);
        let task = Task::genome(Summarize {
            kind: SummaryKind::Conversations,
            focus: care.focus.clone(),
            items: items.clone(),
            earlier: earlier.map(|s| s.text.clone()),
        });
        let earlier = earlier.map(|s| s.id.clone());
        let req = cx.think(
            task,
            prompts::request(prompts::CONVERSATION_SUMMARY_PROMPT, user, cx.cfg),
        );
        care.asked = Some((
            req,
            Asked::Dialogues {
                ids: items.into_iter().map(|(id, _)| id).collect(),
                earlier,
            },
        ));
        IoProgress::Nothing
    }

    /// A request failed: what was summarised stays; nothing more is asked.
    fn care_failed(&mut self, why: &str, cx: &mut Cx<'_, Self>) -> IoProgress {
        let wrote = self.care.as_ref().is_some_and(|c| {
            !c.report.memory_summaries.is_empty() || !c.report.conversation_summaries.is_empty()
        });
        if wrote {
            let IoProgress::Tool(mut outcome) = self.care_finish(cx) else {
                return IoProgress::Nothing;
            };
            outcome.content = format!("Self-care stopped early ({why}). {}", outcome.content);
            outcome.display = outcome.content.clone();
            return IoProgress::Tool(outcome);
        }
        self.care = None;
        IoProgress::Tool(done(
            false,
            format!("Error: self-care failed: {why}. Nothing was summarised."),
        ))
    }

    /// Archives dialogue past the ceilings, counts the self-care, consolidates.
    fn care_finish(&mut self, cx: &mut Cx<'_, Self>) -> IoProgress {
        let Some(mut care) = self.care.take() else {
            return IoProgress::Nothing;
        };
        care.report.archived_dialogues = self.archive_dialogues(cx);
        self.self_cares += 1;
        let r = &care.report;
        let summaries = r.memory_summaries.len() + r.conversation_summaries.len();
        let text = format!(
            "Self-care done (focus: {}): {} memories in {} summary(ies) {}, archived and still \
             searchable; {} dialogue line(s) in {} conversation summary(ies){}; {} dialogue \
             line(s) archived. Your fatigue starts over.",
            care.focus,
            r.memories,
            r.memory_summaries.len(),
            list(&r.memory_summaries),
            r.dialogues,
            r.conversation_summaries.len(),
            self.watermark()
                .map_or(String::new(), |w| format!(" (watermark {w})")),
            r.archived_dialogues
        );
        cx.event(CreatureEvent::Dream(DreamEvent {
            reflection: Some(text.clone()),
            priority: Some(care.focus.clone()),
            observations: Some(summaries as u64),
            deep: Some(false),
        }));
        cx.memory(
            "observation",
            json!({"self_care": self.self_cares, "focus": care.focus, "memories": r.memories,
                   "dialogues": r.dialogues, "summaries": summaries,
                   "archived_dialogues": r.archived_dialogues}),
        );
        cx.consolidated();
        IoProgress::Tool(done(true, text))
    }

    /// Archives the oldest summarised dialogue while more than `max_dialogues` lines or
    /// `post_summary_ceiling` tokens of dialogue are unarchived. Returns how many.
    fn archive_dialogues(&mut self, cx: &mut Cx<'_, Self>) -> usize {
        let c = &config::of(cx.cfg);
        let (max_lines, max_tokens) = (c.max_dialogues, c.post_summary_ceiling);
        let mut lines = self.dialogues.iter().filter(|d| !d.archived).count();
        let mut toks: usize = self
            .dialogues
            .iter()
            .filter(|d| !d.archived)
            .map(|d| tokens(&d.text))
            .sum();
        // (summary id, dialogue ids) in order.
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for d in self.dialogues.iter_mut().filter(|d| !d.archived) {
            if lines <= max_lines && toks <= max_tokens {
                break;
            }
            let Some(s) = d.summary.clone() else {
                break;
            };
            d.archived = true;
            lines -= 1;
            toks = toks.saturating_sub(tokens(&d.text));
            match groups.last_mut() {
                Some((id, ids)) if *id == s => ids.push(d.id.clone()),
                _ => groups.push((s, vec![d.id.clone()])),
            }
        }
        let n = groups.iter().map(|(_, ids)| ids.len()).sum();
        if !groups.is_empty() {
            let archive = groups.into_iter().map(|(s, ids)| archive(ids, s)).collect();
            append(cx, crate::genomes::emergence::memory::DIALOGUES, archive);
        }
        n
    }
}

fn list(ids: &[String]) -> String {
    if ids.is_empty() {
        String::new()
    } else {
        format!("({})", ids.join(", "))
    }
}

/// An `archive` line: `ids` summarised into `summary_id`.
fn archive(ids: Vec<String>, summary_id: String) -> Value {
    Archive {
        ids: Some(Strings(ids)),
        summary_id: Some(summary_id),
    }
    .line()
}

impl Summary {
    /// Its `summaries.jsonl` record; `origin`: its id in the file it was copied from.
    pub fn record(&self, origin: Option<String>) -> SummaryLine {
        SummaryLine {
            id: Some(self.id.clone()),
            kind: Some(match self.kind {
                SummaryKind::Memories => Kind::Memories,
                SummaryKind::Conversations => Kind::Conversations,
            }),
            focus: Some(self.focus.clone()),
            text: Some(self.text.clone()),
            covers: Some(Strings(self.covers.clone())),
            folded: Some(Strings(self.folded.clone())),
            watermark: self.watermark.clone(),
            from: self.from.clone(),
            origin,
        }
    }
}
