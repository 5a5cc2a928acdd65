//! Sleeping, consolidation and deep sleep.

use chrono::{DateTime, Utc};
use serde_json::json;

use crate::llm::{LlmError, Response, joined_text};
use crate::memory::dreams::Dream;
use crate::runner::activity::Activity;
use crate::runner::consolidation::{self, DreamInput};
use crate::runner::deep_sleep::{self, PrioritiesInput};
use crate::runner::wake;

use super::effects::{DreamCommit, Effect, Purpose, Write};
use super::{
    DreamKind, Dreaming, Force, Fsm, RECENT_DREAMS, Rest, State, Step, WakeSource,
    recent_observation_lines,
};

impl Fsm {
    /// `set_sleep` was called: a nap, a plain pause, or a consolidating sleep.
    pub(super) fn begin_sleep(&mut self, now: DateTime<Utc>, secs: f64, out: &mut Vec<Effect>) {
        self.checkpoint(now, secs, None, out);
        if secs < self.cfg.cycle.quick_nap_threshold_s {
            self.rest(now, Rest::Nap, secs, now, false, out);
        } else if self.dream_due(now) {
            self.start_dream(now, DreamKind::Requested(secs), now, out);
        } else {
            self.rest(now, Rest::Sleep, secs, now, false, out);
        }
    }

    /// Whether the last dream is at least MIN_DREAM_INTERVAL old (or there was none).
    fn dream_due(&self, now: DateTime<Utc>) -> bool {
        let interval = self.cfg.wall(self.cfg.cycle.min_dream_interval_s);
        self.last_dream_at.is_none_or(|t| now - t >= interval)
    }

    /// Consolidation whatever the creature wants: the fatigue limit, or the operator.
    pub(super) fn forced_sleep(&mut self, now: DateTime<Utc>, force: Force, out: &mut Vec<Effect>) {
        self.flush_notes(now, out);
        let (note, why) = match force {
            Force::Fatigue => (
                wake::exhausted(self.fatigue),
                "forced consolidation (fatigue limit)",
            ),
            Force::Operator => (
                wake::OPERATOR_SLEEP.to_string(),
                "forced consolidation (operator)",
            ),
        };
        self.say_user(now, note, out);
        self.checkpoint(now, self.cfg.cycle.deep_sleep_pause_s, Some(why), out);
        self.start_dream(now, DreamKind::Forced, now, out);
    }

    pub(super) fn start_dream(
        &mut self,
        now: DateTime<Utc>,
        kind: DreamKind,
        started: DateTime<Utc>,
        out: &mut Vec<Effect>,
    ) {
        self.state = State::Dreaming(Dreaming {
            kind,
            started,
            deep: self.cfg.cycle.is_deep(self.dreams + 1),
            step: Step::Consolidate,
            req: None,
            pending: None,
            observations_text: None,
            pruned: None,
        });
        self.pump(now, out);
    }

    /// Issues the request of the current dream step.
    pub(super) fn dream_step(&mut self, now: DateTime<Utc>, out: &mut Vec<Effect>) {
        let id = self.id();
        let State::Dreaming(d) = &self.state else {
            return;
        };
        let effect = match d.step {
            Step::Consolidate => {
                let hhmm = now.format("%H:%M").to_string();
                let input = DreamInput {
                    purpose: &self.purpose,
                    hhmm: &hhmm,
                    dream_number: self.dreams + 1,
                    previous: self.view.last_dream.as_ref(),
                    recent_observations: &self.view.recent_observations,
                };
                Effect::Llm {
                    id,
                    purpose: Purpose::Consolidate,
                    request: consolidation::request(&input, &self.activity),
                }
            }
            // The commit is issued with the consolidation's answer, never from here.
            Step::Commit => return,
            Step::LoadObservations => Effect::LoadObservations { id },
            Step::Prune => {
                let text = d.observations_text.as_deref().unwrap_or_default();
                let hours = self.cfg.grn_max_age_h / self.cfg.speed;
                Effect::Llm {
                    id,
                    purpose: Purpose::Prune,
                    request: deep_sleep::prune_request(text, now, (hours * 100.0).round() / 100.0),
                }
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
                    .unwrap_or_else(|| self.view.recent_observations.clone());
                Effect::Llm {
                    id,
                    purpose: Purpose::Priorities,
                    request: deep_sleep::priorities_request(&PrioritiesInput {
                        purpose: &self.purpose,
                        dreams: &self.view.recent_dreams,
                        current: &self.view.priorities,
                        observations: &observations,
                    }),
                }
            }
        };
        if let State::Dreaming(d) = &mut self.state {
            d.req = Some(id);
        }
        out.push(effect);
    }

    pub(super) fn on_dream_answer(
        &mut self,
        now: DateTime<Utc>,
        result: Result<Response, LlmError>,
        out: &mut Vec<Effect>,
    ) {
        let State::Dreaming(mut d) = std::mem::replace(&mut self.state, State::Ready) else {
            return;
        };
        d.req = None;
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
                            actions: self.fatigue,
                            reflection: c.reflection,
                            priority: c.priority,
                            observations: c.observations.len() as u64,
                            deep: d.deep,
                        };
                        let id = self.id();
                        out.push(Effect::CommitDream {
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
                        self.state = State::Dreaming(d);
                    }
                    Err(e) => {
                        self.error(
                            now,
                            format!("consolidation failed, no dream written: {e}"),
                            json!({"phase": "consolidation"}),
                            out,
                        );
                        self.after_dream(now, d, false, out);
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
                        self.view.recent_observations = recent_observation_lines(&p.text);
                        out.push(Effect::Write(Write::Observations {
                            text: p.text.clone(),
                        }));
                        d.pruned = Some(p);
                    }
                    Err(e) => self.error(
                        now,
                        format!("pruning skipped, observations left as they were: {e}"),
                        json!({"phase": "deep_sleep"}),
                        out,
                    ),
                }
                d.step = Step::Priorities;
                self.state = State::Dreaming(d);
                self.pump(now, out);
            }
            Step::Priorities => {
                let mut fallback: Vec<String> = self
                    .view
                    .last_dream
                    .iter()
                    .map(|d| d.priority.clone())
                    .collect();
                fallback.extend(self.view.priorities.iter().cloned());
                match answer
                    .map_err(|e| e.to_string())
                    .and_then(|a| deep_sleep::parse_priorities(&a, &fallback))
                {
                    Ok(items) => {
                        out.push(Effect::Write(Write::Priorities {
                            updated: now,
                            items: items.clone(),
                        }));
                        self.view.priorities = items;
                    }
                    Err(e) => self.error(
                        now,
                        format!("priorities left as they were: {e}"),
                        json!({"phase": "deep_sleep"}),
                        out,
                    ),
                }
                let body = deep_sleep::diary_body(
                    &self.view.since_deep,
                    d.pruned.as_ref(),
                    &self.view.priorities,
                );
                out.push(Effect::Write(Write::Diary { at: now, body }));
                self.view.since_deep.clear();
                self.after_dream(now, d, true, out);
            }
            Step::Commit | Step::LoadObservations => self.state = State::Dreaming(d),
        }
    }

    pub(super) fn on_committed(
        &mut self,
        now: DateTime<Utc>,
        id: u64,
        result: Result<(), String>,
        out: &mut Vec<Effect>,
    ) {
        match &self.state {
            State::Dreaming(d) if d.req == Some(id) && d.step == Step::Commit => {}
            _ => return,
        }
        let State::Dreaming(mut d) = std::mem::replace(&mut self.state, State::Ready) else {
            return;
        };
        d.req = None;
        let Some((dream, lines)) = d.pending.take() else {
            return self.after_dream(now, d, false, out);
        };
        if let Err(e) = result {
            self.error(
                now,
                format!("writing the dream failed, nothing was written: {e}"),
                json!({"phase": "consolidation"}),
                out,
            );
            return self.after_dream(now, d, false, out);
        }
        self.dreams += 1;
        self.session_dreams += 1;
        self.last_dream_at = Some(now);
        self.fatigue = 0;
        self.warned = false;
        self.activity = Activity::default();
        self.event(
            now,
            "creature.dream",
            json!({
                "reflection": dream.reflection,
                "priority": dream.priority,
                "observations": dream.observations,
                "deep": dream.deep,
            }),
            out,
        );
        self.memory(
            now,
            "observation",
            json!({"dream": self.dreams, "observations": dream.observations, "deep": dream.deep}),
            out,
        );
        self.remember_observations(lines);
        self.view.recent_dreams.push(dream.clone());
        let excess = self.view.recent_dreams.len().saturating_sub(RECENT_DREAMS);
        self.view.recent_dreams.drain(..excess);
        self.view.since_deep.push(dream.clone());
        self.view.last_dream = Some(dream);
        let dropped = self.ctx.trim(self.cfg.cycle.keep_recent_messages);
        if dropped > 0 {
            self.memory(
                now,
                "observation",
                json!({"event": "trim", "dropped": dropped, "kept": self.ctx.len()}),
                out,
            );
        }
        if d.deep {
            d.step = Step::LoadObservations;
            self.state = State::Dreaming(d);
            self.pump(now, out);
        } else {
            self.after_dream(now, d, true, out);
        }
    }

    pub(super) fn on_observations(
        &mut self,
        now: DateTime<Utc>,
        id: u64,
        result: Result<String, String>,
        out: &mut Vec<Effect>,
    ) {
        let State::Dreaming(d) = &mut self.state else {
            return;
        };
        if d.req != Some(id) || d.step != Step::LoadObservations {
            return;
        }
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
                self.error(
                    now,
                    format!("pruning skipped, cannot read observations: {e}"),
                    json!({"phase": "deep_sleep"}),
                    out,
                );
            }
        }
        self.pump(now, out);
    }

    /// The dream is over (or failed): stop at `--max-dreams`, else pause.
    fn after_dream(
        &mut self,
        now: DateTime<Utc>,
        d: Dreaming,
        dreamt: bool,
        out: &mut Vec<Effect>,
    ) {
        if dreamt && self.max_dreams.is_some_and(|m| self.session_dreams >= m) {
            self.state = State::Stopped;
            out.push(Effect::Exit);
            return;
        }
        let deep = d.deep && dreamt;
        let pause = match d.kind {
            DreamKind::Forced => self.cfg.cycle.deep_sleep_pause_s,
            DreamKind::Requested(s) if deep => s.max(self.cfg.cycle.deep_sleep_pause_s),
            DreamKind::Requested(s) => s,
        };
        let kind = if deep { Rest::Deep } else { Rest::Sleep };
        self.rest(now, kind, pause, d.started, dreamt, out);
        if std::mem::take(&mut self.wake_early) {
            self.begin_wake(now, WakeSource::Operator, out);
        }
    }
}
