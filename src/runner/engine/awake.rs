//! Start, turns and tools.

use std::collections::VecDeque;

use chrono::{DateTime, TimeDelta, Utc};
use serde_json::{Value, json};

use crate::llm::{ContentBlock, LlmError, Message, Request, Response, Role, joined_text};
use crate::memory::events::{
    Boot, CreatureEvent, ErrorEvent, MessageEvent, Sleep, Thought, ToolCall as ToolCallEvent,
};
use crate::memory::iterations::{Iteration, IterationAction};
use crate::memory::time::format_time;
use crate::runner::activity::{clip, summarize};
use crate::runner::brain::task::Task;
use crate::runner::genome::{Genome, Incoming, SleepCause, ToolCall, ToolReply};
use crate::runner::mail::CREATOR;
use crate::runner::tools::{BASH, SET_SLEEP, ToolOutcome, sleep_seconds};
use crate::runner::wake;

use super::context::{ContextWindow, interrupted_result};
use super::input::Restored;
use super::output::{Output, Record};
use super::{
    Acting, Asleep, Engine, Force, Rest, Running, SinceSleep, State, WakeSource, tool_result,
};

impl<G: Genome> Engine<G> {
    pub(super) fn on_start(
        &mut self,
        now: DateTime<Utc>,
        r: Restored<G::Restored>,
        out: &mut Vec<Output<G>>,
    ) {
        if !matches!(self.state, State::Starting) {
            return;
        }
        self.purpose = r.purpose;
        self.system = self.system_prompt();
        self.genome.restore(r.genome);
        self.fatigue = r.activity.total;
        self.activity = r.activity;
        self.inbox = r.inbox_delivered;
        if r.inbox_migrated {
            out.push(Output::Record(Record::InboxDelivered(self.inbox.clone())));
        }
        self.ctx = ContextWindow::rebuild(
            r.conversation,
            self.cfg.cycle.keep_recent_messages,
            r.whole_log,
            G::trim_note,
        );
        let boot = Boot {
            runner: Some("dreamwatch".into()),
            version: Some(env!("CARGO_PKG_VERSION").into()),
            sha: None,
        };
        self.event(now, CreatureEvent::Boot(boot), out);
        self.memory(now, "heartbeat", json!({"event": "boot"}), out);
        for e in r.errors {
            self.error(now, ErrorEvent::in_phase("restore", e), out);
        }
        let dangling = self.ctx.unanswered_tool_uses();
        if !dangling.is_empty() {
            let results = dangling.iter().map(|id| interrupted_result(id)).collect();
            self.say(
                now,
                Message {
                    role: Role::User,
                    content: results,
                },
                out,
            );
        }
        // A guardrail's hold outlives the runner: whatever sleep comes next ends held.
        self.hold = r.guardrail;
        if let Some(sleep) = r.held {
            return self.hold_restored(sleep, out);
        }
        let nap = self.cfg.cycle.quick_nap_threshold_s;
        if let Some(secs) = r
            .interrupted_sleep_s
            .filter(|s| *s >= nap && self.fatigue > 0)
        {
            self.start_sleep_work(now, SleepCause::Requested(secs), now, out);
            return;
        }
        if let Some(wake_at) = r.sleep_until {
            let timer = self.id();
            self.state = State::Asleep(Asleep {
                timer,
                started: r.sleep_started.filter(|s| *s <= now).unwrap_or(now),
                wake_at,
                kind: Rest::Sleep,
                dreamt: true,
                due: false,
            });
            // Held: the timer finds it due, and a person's wake is waited for.
            if wake_at > now || self.hold.is_some() {
                out.push(Output::Timer {
                    id: timer,
                    at: wake_at.max(now),
                });
            } else {
                self.begin_wake(now, WakeSource::Timer, out);
            }
            return;
        }
        if self.hold.is_some() {
            // Held, but stopped before its sleep: the sleep the guardrail forces, now.
            self.force = Some(Force::Guardrail);
            self.state = State::Ready;
            self.pump(now, out);
            return;
        }
        let inbox = r.inbox.and_then(|read| self.take_inbox(&read, out));
        let inbox_text = inbox.as_deref();
        let text = if r.fresh {
            wake::birth_message(now, self.genome.history(), inbox_text)
        } else {
            let headline = format!(
                "[{}] You are awake again: the runner restarted.",
                format_time(now)
            );
            wake::wake_message(&headline, &self.genome.recap(), inbox_text)
        };
        self.say_user(now, text, out);
        self.news.woke = true;
        if let Some(text) = inbox {
            self.delivered(now, &text, "MESSAGES.md", out);
        }
        self.state = State::Ready;
        self.pump(now, out);
    }

    /// The system prompt for the purpose now, with the genome's parts.
    pub(super) fn system_prompt(&self) -> String {
        crate::runner::prompt::system(&self.purpose, &self.cfg, &self.genome.prompt(&self.cfg))
    }

    /// Books a creator's message: an event, material for the next dream, and the genome's
    /// part. Whether the genome wakes the creature for it (when it sleeps).
    pub(super) fn delivered(
        &mut self,
        now: DateTime<Utc>,
        text: &str,
        source: &str,
        out: &mut Vec<Output<G>>,
    ) -> bool {
        let text = text.trim().to_string();
        self.activity.creator_messages.push(text.clone());
        self.news.creator_messages.push(text.clone());
        let message = Incoming {
            from: CREATOR.into(),
            text,
            direct: true,
            urgent: false,
            priority: None,
            payload: None,
        };
        self.booked(now, &message, source, out)
    }

    /// A delivered message's event and the genome's part; whether it wakes the creature.
    pub(super) fn booked(
        &mut self,
        now: DateTime<Utc>,
        message: &Incoming,
        source: &str,
        out: &mut Vec<Output<G>>,
    ) -> bool {
        let event = MessageEvent {
            text: Some(message.text.clone()),
            source: Some(source.to_string()),
            from: (message.from != CREATOR).then(|| message.from.clone()),
        };
        self.event(now, CreatureEvent::Message(event), out);
        let asleep =
            self.parked.is_some() || matches!(self.state, State::Asleep(_) | State::SleepWork(_));
        let wakes = self.with_genome(now, out, |g, cx| g.on_message(message, asleep, cx));
        asleep && wakes
    }

    pub(super) fn flush_notes(&mut self, now: DateTime<Utc>, out: &mut Vec<Output<G>>) {
        for note in std::mem::take(&mut self.pending_notes) {
            self.say_user(now, note, out);
        }
    }

    pub(super) fn start_turn(&mut self, now: DateTime<Utc>, out: &mut Vec<Output<G>>) {
        if self.parked.is_some() {
            return self.sleep_turn(now, out);
        }
        if let Some(force) = self.force.take() {
            return self.forced_sleep(now, force, out);
        }
        if self.fatigue >= self.cfg.cycle.fatigue_limit {
            return self.forced_sleep(now, Force::Fatigue, out);
        }
        if let Some(tick) = self.genome.awake_tick_s(&self.cfg) {
            let next = self.last_turn_at.map(|t| t + self.cfg.wall(tick));
            if let Some(at) = next.filter(|at| *at > now) {
                let timer = self.id();
                self.state = State::Ticking { timer };
                out.push(Output::Timer { id: timer, at });
                return;
            }
            if let Some(s) = self.with_genome(now, out, |g, cx| g.on_awake_tick(cx)) {
                return self.scheduled_sleep(now, s.secs, &s.reason, out);
            }
        }
        if let Some(note) = self.with_genome(now, out, |g, cx| g.turn_note(cx)) {
            self.pending_notes.push(note);
        }
        self.flush_notes(now, out);
        if self.fatigue >= self.cfg.cycle.fatigue_warning && !self.warned {
            self.warned = true;
            self.say_user(now, wake::FATIGUE_WARNING.into(), out);
            self.memory(
                now,
                "observation",
                json!({"event": "fatigue_warning", "fatigue": self.fatigue}),
                out,
            );
        }
        if self.ctx.last_role() != Some(Role::User) {
            self.say_user(now, wake::CONTINUE.into(), out);
        }
        if let Some(threshold) = self.genome.awake_compaction(&self.cfg)
            && self.begin_compaction(now, threshold, "emergency", out)
        {
            return;
        }
        let max_chars = self
            .cfg
            .cycle
            .max_context_chars
            .min(self.genome.context_budget(&self.cfg));
        let dropped = self
            .ctx
            .emergency_trim(self.cfg.cycle.keep_recent_messages, max_chars);
        if dropped > 0 {
            self.memory(
                now,
                "observation",
                json!({"event": "emergency_trim", "dropped": dropped, "chars": self.ctx.chars()}),
                out,
            );
        }
        self.last_turn_at = Some(now);
        self.think_turn(now, false, out);
    }

    /// Asks the brain for the creature's next turn: awake with every tool, or during the
    /// sleep work with the sleep tools.
    pub(super) fn think_turn(
        &mut self,
        now: DateTime<Utc>,
        asleep: bool,
        out: &mut Vec<Output<G>>,
    ) {
        let id = self.id();
        self.state = State::Thinking { id };
        // The genome's part of the prompt may change as the creature lives (emergence's
        // soul entries are always in it).
        self.system = self.system_prompt();
        let tools = if asleep {
            self.sleep_tools.clone()
        } else {
            self.tools.clone()
        };
        let mut turn = std::mem::take(&mut self.news);
        turn.asleep = asleep;
        turn.garden = self.cfg.garden.clone();
        turn.now = now;
        turn.tools = tools.iter().map(|t| t.name.clone()).collect();
        turn.script = self.genome.turn_script();
        turn.retries = self.retries;
        out.push(Output::Think {
            id,
            task: Task::Turn(turn),
            request: Request {
                system: self.system.clone(),
                messages: self.ctx.messages().to_vec(),
                tools,
                max_tokens: self.cfg.max_tokens,
            },
        });
    }

    pub(super) fn on_turn(
        &mut self,
        now: DateTime<Utc>,
        result: Result<Response, LlmError>,
        out: &mut Vec<Output<G>>,
    ) {
        let response = match result {
            Ok(r) => r,
            Err(e) => return self.turn_failed(now, e, out),
        };
        self.retries = 0;
        self.clear_fault(out);
        let text = joined_text(&response.content);
        if !text.trim().is_empty() {
            self.since_sleep.intent = intent_of(&text);
            self.activity.push_thought(&text);
            let thought = Thought {
                text: Some(text.trim().to_string()),
            };
            self.event(now, CreatureEvent::Thought(thought), out);
            self.memory(now, "thought", json!({"text": text.trim()}), out);
        }
        let mut content: Vec<ContentBlock> = response
            .content
            .into_iter()
            .filter(|b| !matches!(b, ContentBlock::Text { text } if text.trim().is_empty()))
            .collect();
        if content.is_empty() {
            content.push(ContentBlock::Text {
                text: "(no answer)".into(),
            });
        }
        let calls: VecDeque<ToolCall> = content
            .iter()
            .filter_map(|b| match b {
                ContentBlock::ToolUse { id, name, input } => Some(ToolCall {
                    id: id.clone(),
                    name: name.clone(),
                    input: input.clone(),
                }),
                _ => None,
            })
            .collect();
        self.say(
            now,
            Message {
                role: Role::Assistant,
                content,
            },
            out,
        );
        self.since_sleep.turns += 1;
        if calls.is_empty() && self.parked.is_some() {
            // The creature has nothing more to do in its sleep turns.
            self.state = State::Ready;
            if let Some(p) = &mut self.parked {
                p.rounds_left = 0;
            }
        } else if calls.is_empty() {
            self.say_user(now, wake::CONTINUE.into(), out);
            self.state = State::Ready;
        } else {
            self.state = State::Acting(Acting {
                queue: calls,
                results: Vec::new(),
                sleep: None,
                running: None,
            });
        }
        self.pump(now, out);
    }

    fn turn_failed(&mut self, now: DateTime<Utc>, e: LlmError, out: &mut Vec<Output<G>>) {
        if self.parked.is_some() {
            if matches!(e, LlmError::Auth { .. }) {
                self.key_refused_asleep(now, &e, out);
                self.state = State::Ready;
                let step = self.with_genome(now, out, |g, cx| g.on_sleep_turns_over(cx));
                return self.unpark(now, step, out);
            }
            // Sleep turns are a chance, not a duty: the sleep work goes on without them.
            let error = ErrorEvent::in_phase("sleep turn", format!("model call failed: {e}"));
            self.error(now, error, out);
            self.state = State::Ready;
            let step = self.with_genome(now, out, |g, cx| g.on_sleep_turns_over(cx));
            return self.unpark(now, step, out);
        }
        self.retries += 1;
        if matches!(e, LlmError::Auth { .. }) {
            return self.refused_key(now, &e, out);
        }
        if matches!(e, LlmError::ContextTooLong(_) | LlmError::Rejected { .. }) {
            let keep = (self.cfg.cycle.keep_recent_messages / 2).max(2);
            let dropped = self
                .ctx
                .emergency_trim(keep, self.cfg.cycle.max_context_chars / 2);
            self.memory(
                now,
                "observation",
                json!({"event": "emergency_trim", "dropped": dropped, "after": e.to_string()}),
                out,
            );
        }
        let backoff_s = (self.cfg.retry_base_s
            * 2f64.powi(self.retries.saturating_sub(1).min(30) as i32))
        .min(self.cfg.retry_max_s);
        // A server that says when to come back is taken at its word.
        let delay_s = match &e {
            LlmError::RateLimited {
                retry_after: Some(after),
            } => after.as_secs_f64().max(backoff_s),
            _ => backoff_s,
        };
        let error = ErrorEvent {
            error: Some(format!("model call failed: {e}")),
            retry_in: Some((delay_s * 1000.0).round()),
            retries: Some(u64::from(self.retries)),
            phase: None,
        };
        self.error(now, error, out);
        let timer = self.id();
        self.state = State::Backoff { timer };
        out.push(Output::Timer {
            id: timer,
            at: now + TimeDelta::milliseconds((delay_s * 1000.0) as i64),
        });
    }

    /// The key was refused: trying again will not help, so no timer is set. The creature
    /// waits in its backoff until the operator wakes it (after fixing the key), which
    /// tries again at once.
    fn refused_key(&mut self, now: DateTime<Utc>, e: &LlmError, out: &mut Vec<Output<G>>) {
        let error = ErrorEvent {
            error: Some(format!("{e} · wake to try again")),
            retry_in: None,
            retries: Some(u64::from(self.retries)),
            phase: None,
        };
        self.error(now, error, out);
        let timer = self.id();
        self.state = State::Backoff { timer };
    }

    pub(super) fn next_tool(&mut self, now: DateTime<Utc>, out: &mut Vec<Output<G>>) {
        let State::Acting(mut acting) = std::mem::replace(&mut self.state, State::Ready) else {
            return;
        };
        let asleep = self.parked.is_some();
        while let Some(call) = acting.queue.pop_front() {
            match call.name.as_str() {
                name if asleep && !self.sleep_tools.iter().any(|t| t.name == name) => {
                    let fail = refusal(&format!(
                        "Error: `{name}` cannot be used while you sleep; your tools now are {}",
                        names(&self.sleep_tools)
                    ));
                    let block = self.record_tool(now, &call, fail, out);
                    acting.results.push(block);
                }
                SET_SLEEP => {
                    let s = sleep_seconds(&call.input, self.cfg.min_sleep_s, self.cfg.max_sleep_s);
                    acting.results.push(tool_result(
                        &call.id,
                        format!("Sleeping for {s}s. You will continue this conversation when you wake up."),
                        false,
                    ));
                    acting.sleep = Some(s);
                }
                BASH => match call.input.get("command").and_then(Value::as_str) {
                    Some(cmd) if !cmd.trim().is_empty() => {
                        let id = self.id();
                        out.push(Output::RunTool {
                            id,
                            command: cmd.to_string(),
                        });
                        acting.running = Some(Running::Bash { id, call });
                        self.state = State::Acting(acting);
                        return;
                    }
                    _ => {
                        let fail = refusal("Error: bash needs a non-empty string `command`");
                        let block = self.record_tool(now, &call, fail, out);
                        acting.results.push(block);
                    }
                },
                name if !asleep && self.sleep_only.iter().any(|t| t == name) => {
                    let fail =
                        refusal(&format!("Error: `{name}` can only be used while you sleep"));
                    let block = self.record_tool(now, &call, fail, out);
                    acting.results.push(block);
                }
                name => match self.with_genome(now, out, |g, cx| g.call_tool(&call, cx)) {
                    Some(ToolReply::Done(outcome)) => {
                        let block = self.record_tool(now, &call, outcome, out);
                        acting.results.push(block);
                    }
                    Some(ToolReply::Pending) => {
                        acting.running = Some(Running::Genome { call });
                        self.state = State::Acting(acting);
                        return;
                    }
                    None => {
                        let fail = refusal(&format!(
                            "Error: unknown tool `{name}`; your tools are {}",
                            self.tool_names()
                        ));
                        let block = self.record_tool(now, &call, fail, out);
                        acting.results.push(block);
                    }
                },
            }
        }
        self.finish_turn(now, acting, out);
    }

    /// `bash and set_sleep`, `bash, set_sleep and recall`.
    fn tool_names(&self) -> String {
        names(&self.tools)
    }

    pub(super) fn on_tool(
        &mut self,
        now: DateTime<Utc>,
        id: u64,
        outcome: ToolOutcome,
        out: &mut Vec<Output<G>>,
    ) {
        let State::Acting(acting) = &mut self.state else {
            return;
        };
        if !matches!(&acting.running, Some(Running::Bash { id: want, .. }) if *want == id) {
            return;
        }
        let Some(Running::Bash { call, .. }) = acting.running.take() else {
            return;
        };
        self.tool_finished(now, call, outcome, out);
    }

    /// The answer of a genome's tool call in flight.
    pub(super) fn on_genome_tool(
        &mut self,
        now: DateTime<Utc>,
        outcome: ToolOutcome,
        out: &mut Vec<Output<G>>,
    ) {
        let State::Acting(acting) = &mut self.state else {
            return;
        };
        if !matches!(acting.running, Some(Running::Genome { .. })) {
            return;
        }
        let Some(Running::Genome { call }) = acting.running.take() else {
            return;
        };
        self.tool_finished(now, call, outcome, out);
    }

    fn tool_finished(
        &mut self,
        now: DateTime<Utc>,
        call: ToolCall,
        outcome: ToolOutcome,
        out: &mut Vec<Output<G>>,
    ) {
        let block = self.record_tool(now, &call, outcome, out);
        if let State::Acting(acting) = &mut self.state {
            acting.results.push(block);
        }
        self.pump(now, out);
    }

    /// Counts a tool call (fatigue), logs it, and returns its result block.
    fn record_tool(
        &mut self,
        now: DateTime<Utc>,
        call: &ToolCall,
        outcome: ToolOutcome,
        out: &mut Vec<Output<G>>,
    ) -> ContentBlock {
        // Tools used in the sleep work's turns are not awake activity.
        if self.parked.is_none() {
            self.fatigue += 1;
        }
        let command = call.input.get("command").and_then(Value::as_str);
        let input = match command {
            Some(c) => Value::String(c.to_string()),
            None => Value::String(call.input.to_string()),
        };
        let action = IterationAction {
            tool: call.name.clone(),
            ok: outcome.ok,
            summary: summarize(&outcome.display),
            ms: outcome.ms,
            command: command.map(|c| clip(c, 100)),
        };
        self.activity.push_action(action.clone());
        self.since_sleep.actions.push(action);
        let record = ToolCallEvent {
            tool: Some(call.name.clone()),
            input: input.as_str().map(str::to_string),
            ok: Some(outcome.ok),
            output: Some(clip(&outcome.display, self.cfg.event_output_cap)),
            ms: Some(outcome.ms),
        };
        self.event(now, CreatureEvent::ToolCall(record), out);
        self.memory(
            now,
            "action",
            json!({"tool": call.name, "input": input, "ok": outcome.ok, "ms": outcome.ms}),
            out,
        );
        if self.parked.is_none() {
            let bash = command.filter(|_| call.name == super::super::tools::BASH);
            self.guard_tool(now, bash, !outcome.ok, out);
        }
        tool_result(&call.id, outcome.content, !outcome.ok)
    }

    fn finish_turn(&mut self, now: DateTime<Utc>, acting: Acting, out: &mut Vec<Output<G>>) {
        self.say(
            now,
            Message {
                role: Role::User,
                content: acting.results,
            },
            out,
        );
        self.flush_notes(now, out);
        if self.parked.is_some() {
            self.state = State::Ready;
            return self.sleep_turn(now, out);
        }
        match acting.sleep {
            // The operator's force sleep (a consolidation) takes the place of the creature's.
            Some(s) if self.force.is_none() => self.begin_sleep(now, s, out),
            Some(_) => {
                self.state = State::Ready;
                self.pump(now, out);
            }
            None => {
                self.state = State::Ready;
                self.pump(now, out);
            }
        }
    }

    /// Writes the sleep's records: the iteration, a thought, the `creature.sleep` event
    /// (whose text is `forced` for a forced sleep, the creature's intent otherwise).
    pub(super) fn checkpoint(
        &mut self,
        now: DateTime<Utc>,
        sleep_s: f64,
        forced: Option<&str>,
        out: &mut Vec<Output<G>>,
    ) {
        let since = std::mem::take(&mut self.since_sleep);
        let intent = match (since.intent.is_empty(), forced) {
            (false, _) => since.intent.clone(),
            (true, Some(f)) => f.to_string(),
            (true, None) => "Resting.".to_string(),
        };
        let n = since.actions.len();
        self.memory(
            now,
            "thought",
            json!({"intent": intent, "actions": n, "sleep_s": sleep_s}),
            out,
        );
        let sleep = Sleep {
            seconds: Some(sleep_s),
            text: Some(forced.unwrap_or(&intent).to_string()),
            actions: Some(n as u64),
        };
        self.event(now, CreatureEvent::Sleep(sleep), out);
        out.push(Output::Record(Record::Iteration(Iteration {
            t: Some(now),
            turns: since.turns,
            intent,
            actions: since.actions,
            sleep_s,
            sleep_started_at: Some(now),
            interrupted: false,
            action_count: None,
        })));
    }

    pub(super) fn on_shutdown(&mut self, now: DateTime<Utc>, out: &mut Vec<Output<G>>) {
        if matches!(self.state, State::Stopped) {
            return;
        }
        let since = std::mem::take(&mut self.since_sleep);
        if !since.actions.is_empty() || since.turns > 0 {
            out.push(Output::Record(Record::Iteration(Iteration {
                t: Some(now),
                turns: since.turns,
                intent: since.intent,
                actions: Vec::new(),
                sleep_s: 0.0,
                sleep_started_at: None,
                interrupted: true,
                action_count: Some(since.actions.len() as u64),
            })));
        }
        self.since_sleep = SinceSleep::default();
        self.state = State::Stopped;
        out.push(Output::Exit);
    }
}

/// `a and b`, `a, b and c`.
fn names(tools: &[crate::llm::ToolSpec]) -> String {
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => "none".into(),
    }
}

fn refusal(text: &str) -> ToolOutcome {
    ToolOutcome {
        ok: false,
        content: text.to_string(),
        display: text.to_string(),
        ms: 0,
    }
}

/// The intent of a turn: the first line of its last paragraph, at most 200 characters.
fn intent_of(text: &str) -> String {
    let last = text
        .rsplit("\n\n")
        .map(str::trim)
        .find(|p| !p.is_empty())
        .unwrap_or("");
    clip(last.lines().next().unwrap_or("").trim(), 200)
}
