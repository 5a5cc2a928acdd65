//! The dream, a sub-machine of steps: consolidation, the commit of observations and dream,
//! and on a deep sleep: loading the observations, pruning, priorities, the diary.

use serde_json::json;

use super::tasks::{Consolidate, Priorities, Prune};
use crate::llm::{LlmError, Response, joined_text};
use crate::memory::dreams::Dream;
use crate::memory::events::{CreatureEvent, DreamEvent};
use crate::runner::brain::task::Task;

use super::consolidation::{self, DreamInput};
use super::deep_sleep::{self, PrioritiesInput, Pruned};
use super::{CommitError, DreamCommit, Dreamer, DreamerIo, recent_observation_lines};
use crate::runner::disk::FileError;
use crate::runner::genome::{Cx, SleepEnd, SleepStep};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Consolidate,
    Commit,
    LoadObservations,
    Prune,
    Priorities,
}

#[derive(Debug, Clone)]
pub(super) struct Dreaming {
    deep: bool,
    step: Step,
    /// The request in flight for this step.
    req: Option<u64>,
    /// The dream and its observation lines, between consolidation and commit.
    pending: Option<(Dream, Vec<String>)>,
    observations_text: Option<String>,
    pruned: Option<Pruned>,
}

impl Dreaming {
    pub(super) fn new(deep: bool) -> Self {
        Self {
            deep,
            step: Step::Consolidate,
            req: None,
            pending: None,
            observations_text: None,
            pruned: None,
        }
    }
}

impl Dreamer {
    /// A dream with no model call, for a sleep with almost nothing to consolidate: no
    /// observations, the reflection is the priority (the last one, carried on), and
    /// nothing pruned nor written in the diary even when it counts as deep.
    pub(super) fn light_dream(&mut self, deep: bool, cx: &mut Cx<'_, Self>) -> SleepStep {
        let now = cx.now;
        let text = self
            .recall
            .last_dream
            .as_ref()
            .map(|d| d.priority.trim().to_string())
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| format!("A short rest after {} actions.", cx.fatigue));
        let dream = Dream {
            t: Some(now),
            actions: cx.fatigue,
            reflection: text.clone(),
            priority: text,
            observations: 0,
            deep,
        };
        let id = cx.id();
        cx.io(DreamerIo::Commit {
            id,
            commit: DreamCommit {
                date: now.format("%Y-%m-%d").to_string(),
                observations: Vec::new(),
                dream: dream.clone(),
            },
        });
        let mut d = Dreaming::new(false);
        d.step = Step::Commit;
        d.req = Some(id);
        d.pending = Some((dream, Vec::new()));
        self.dreaming = Some(d);
        SleepStep::Waiting
    }

    /// Issues the request of the current step.
    pub(super) fn dream_step(&mut self, cx: &mut Cx<'_, Self>) -> SleepStep {
        let Some(d) = &self.dreaming else {
            return SleepStep::Unchanged;
        };
        let now = cx.now;
        let (task, request) = match d.step {
            Step::Consolidate => {
                let hhmm = now.format("%H:%M").to_string();
                let input = DreamInput {
                    purpose: cx.purpose,
                    hhmm: &hhmm,
                    dream_number: self.dreams + 1,
                    previous: self.recall.last_dream.as_ref(),
                    recent_observations: &self.recall.recent_observations,
                };
                let request = consolidation::request(&input, cx.activity);
                let task = Task::genome(Consolidate {
                    hhmm,
                    dream_number: self.dreams + 1,
                    activity: cx.activity.clone(),
                });
                (task, request)
            }
            // The commit is issued with the consolidation's answer, never from here.
            Step::Commit => return SleepStep::Unchanged,
            Step::LoadObservations => {
                let id = cx.id();
                cx.io(DreamerIo::LoadObservations { id });
                if let Some(d) = &mut self.dreaming {
                    d.req = Some(id);
                }
                return SleepStep::Waiting;
            }
            Step::Prune => {
                let prune = Prune {
                    observations: d.observations_text.clone().unwrap_or_default(),
                    now,
                    grn_max_age_h: cx.cfg.grn_max_age_h,
                    speed: cx.cfg.speed,
                };
                let request = deep_sleep::prune_request(
                    &prune.observations,
                    now,
                    prune.grn_max_age_wall_h(),
                    prune.keep_from(),
                );
                (Task::genome(prune), request)
            }
            Step::Priorities => {
                let observations = d
                    .observations_text
                    .as_deref()
                    .map(|t| {
                        let lines: Vec<&str> = t.lines().filter(|l| !l.trim().is_empty()).collect();
                        lines[lines.len().saturating_sub(40)..]
                            .iter()
                            .map(|l| l.to_string())
                            .collect()
                    })
                    .unwrap_or_else(|| self.recall.recent_observations.clone());
                let request = deep_sleep::priorities_request(&PrioritiesInput {
                    purpose: cx.purpose,
                    dreams: &self.recall.recent_dreams,
                    current: &self.recall.priorities,
                    observations: &observations,
                });
                let task = Task::genome(Priorities {
                    dream_priorities: self
                        .recall
                        .recent_dreams
                        .iter()
                        .map(|d| d.priority.clone())
                        .collect(),
                });
                (task, request)
            }
        };
        let id = cx.think(task, request);
        if let Some(d) = &mut self.dreaming {
            d.req = Some(id);
        }
        SleepStep::Waiting
    }

    /// The brain's answer to the step in flight.
    pub(super) fn dream_answer(
        &mut self,
        id: u64,
        result: Result<Response, LlmError>,
        cx: &mut Cx<'_, Self>,
    ) -> SleepStep {
        let Some(mut d) = self.dreaming.take_if(|d| d.req == Some(id)) else {
            return SleepStep::Unchanged;
        };
        d.req = None;
        let now = cx.now;
        let answer = result.map(|r| joined_text(&r.content));
        match d.step {
            Step::Consolidate => {
                let parsed = answer
                    .map_err(|e| e.to_string())
                    .and_then(|a| consolidation::parse(&a, &now.format("%H:%M").to_string()));
                match parsed {
                    Ok(c) => {
                        let dream = Dream {
                            t: Some(now),
                            actions: cx.fatigue,
                            reflection: c.reflection,
                            priority: c.priority,
                            observations: c.observations.len() as u64,
                            deep: d.deep,
                        };
                        let id = cx.id();
                        cx.io(DreamerIo::Commit {
                            id,
                            commit: DreamCommit {
                                date: now.format("%Y-%m-%d").to_string(),
                                observations: c.observations.clone(),
                                dream: dream.clone(),
                            },
                        });
                        d.step = Step::Commit;
                        d.req = Some(id);
                        d.pending = Some((dream, c.observations));
                        self.dreaming = Some(d);
                        SleepStep::Waiting
                    }
                    Err(e) => {
                        cx.error(
                            format!("consolidation failed, no dream written: {e}"),
                            "consolidation",
                        );
                        SleepStep::Done(SleepEnd::default())
                    }
                }
            }
            Step::Prune => {
                let original = d.observations_text.as_deref().unwrap_or_default();
                match answer
                    .map_err(|e| e.to_string())
                    .and_then(|a| deep_sleep::apply_prune(original, &a))
                {
                    Ok(p) => {
                        self.recall.recent_observations = recent_observation_lines(&p.text);
                        cx.io(DreamerIo::Observations {
                            text: p.text.clone(),
                        });
                        d.pruned = Some(p);
                    }
                    Err(e) => cx.error(
                        format!("pruning skipped, observations left as they were: {e}"),
                        "deep_sleep",
                    ),
                }
                d.step = Step::Priorities;
                self.dreaming = Some(d);
                SleepStep::Ready
            }
            Step::Priorities => {
                let mut fallback: Vec<String> = self
                    .recall
                    .last_dream
                    .iter()
                    .map(|d| d.priority.clone())
                    .collect();
                fallback.extend(self.recall.priorities.iter().cloned());
                match answer
                    .map_err(|e| e.to_string())
                    .and_then(|a| deep_sleep::parse_priorities(&a, &fallback))
                {
                    Ok(items) => {
                        cx.io(DreamerIo::Priorities {
                            updated: now,
                            items: items.clone(),
                        });
                        self.recall.priorities = items;
                    }
                    Err(e) => cx.error(format!("priorities left as they were: {e}"), "deep_sleep"),
                }
                let body = deep_sleep::diary_body(
                    &self.recall.since_deep,
                    d.pruned.as_ref(),
                    &self.recall.priorities,
                );
                cx.io(DreamerIo::Diary { at: now, body });
                self.recall.since_deep.clear();
                SleepStep::Done(SleepEnd {
                    wake: false,
                    consolidated: true,
                    deep: true,
                })
            }
            Step::Commit | Step::LoadObservations => {
                self.dreaming = Some(d);
                SleepStep::Unchanged
            }
        }
    }

    pub(super) fn on_committed(
        &mut self,
        id: u64,
        result: Result<(), CommitError>,
        cx: &mut Cx<'_, Self>,
    ) -> SleepStep {
        let Some(mut d) = self
            .dreaming
            .take_if(|d| d.req == Some(id) && d.step == Step::Commit)
        else {
            return SleepStep::Unchanged;
        };
        d.req = None;
        let Some((dream, lines)) = d.pending.take() else {
            return SleepStep::Done(SleepEnd::default());
        };
        if let Err(e) = result {
            cx.error(
                format!("writing the dream failed, nothing was written: {e}"),
                "consolidation",
            );
            return SleepStep::Done(SleepEnd::default());
        }
        self.dreams += 1;
        self.last_dream_at = Some(cx.now);
        cx.event(CreatureEvent::Dream(DreamEvent {
            reflection: Some(dream.reflection.clone()),
            priority: Some(dream.priority.clone()),
            observations: Some(dream.observations),
            deep: Some(dream.deep),
        }));
        cx.memory(
            "observation",
            json!({"dream": self.dreams, "observations": dream.observations, "deep": dream.deep}),
        );
        self.remember_observations(lines);
        self.remember_dream(dream);
        cx.consolidated();
        if d.deep {
            d.step = Step::LoadObservations;
            self.dreaming = Some(d);
            SleepStep::Ready
        } else {
            SleepStep::Done(SleepEnd {
                wake: false,
                consolidated: true,
                deep: false,
            })
        }
    }

    pub(super) fn on_observations(
        &mut self,
        id: u64,
        result: Result<String, FileError>,
        cx: &mut Cx<'_, Self>,
    ) -> SleepStep {
        let Some(d) = self
            .dreaming
            .as_mut()
            .filter(|d| d.req == Some(id) && d.step == Step::LoadObservations)
        else {
            return SleepStep::Unchanged;
        };
        d.req = None;
        match result {
            Ok(text) => {
                // Nothing to prune in a file without observations: no model call.
                d.step = if recent_observation_lines(&text).is_empty() {
                    Step::Priorities
                } else {
                    Step::Prune
                };
                d.observations_text = Some(text);
            }
            Err(e) => {
                d.step = Step::Priorities;
                cx.error(
                    format!("pruning skipped, cannot read observations: {e}"),
                    "deep_sleep",
                );
            }
        }
        SleepStep::Ready
    }
}
