//! Pauses, timers, waking and the inbox.

use chrono::{DateTime, Utc};

use crate::memory::events::{CreatureEvent, ErrorEvent, Wake};
use crate::memory::time::format_time;
use crate::runner::genome::Genome;
use crate::runner::mail::CREATOR;
use crate::runner::wake;

use super::input::{Gathered, InboxRead};
use super::output::{Output, Record};
use super::{Asleep, Engine, Rest, State, WakeSource};

impl<G: Genome> Engine<G> {
    /// Sleeps `secs` of creature time from now; `started` is when the sleep began (before
    /// any dream), for the wake-up message.
    pub(super) fn rest(
        &mut self,
        now: DateTime<Utc>,
        kind: Rest,
        secs: f64,
        started: DateTime<Utc>,
        dreamt: bool,
        out: &mut Vec<Output<G>>,
    ) {
        let wake_at = now + self.cfg.wall(secs);
        let timer = self.id();
        self.state = State::Asleep(Asleep {
            timer,
            started,
            wake_at,
            kind,
            dreamt,
            due: false,
        });
        out.push(Output::Record(Record::SleepFile { wake_at }));
        out.push(Output::Timer {
            id: timer,
            at: wake_at,
        });
    }

    pub(super) fn on_timer(&mut self, now: DateTime<Utc>, id: u64, out: &mut Vec<Output<G>>) {
        match &mut self.state {
            State::Asleep(a) if a.timer == id => {
                if self.paused || self.hold.is_some() || self.refused.is_some() {
                    a.due = true;
                } else {
                    self.begin_wake(now, WakeSource::Timer, out);
                }
            }
            State::Backoff { timer } | State::Ticking { timer } if *timer == id => {
                self.state = State::Ready;
                self.pump(now, out);
            }
            State::SleepWork(w) if w.timer == Some(id) => self.on_sleep_timer(now, out),
            State::Held(h) if h.timer == Some(id) => self.on_review_timer(out),
            _ => {}
        }
    }

    pub(super) fn begin_wake(
        &mut self,
        now: DateTime<Utc>,
        source: WakeSource,
        out: &mut Vec<Output<G>>,
    ) {
        let State::Asleep(asleep) = std::mem::replace(&mut self.state, State::Ready) else {
            return;
        };
        // Woken: a refused key is tried again.
        self.refused = None;
        out.push(Output::Record(Record::RemoveSleepFile));
        let reason = source.reason();
        let wake = Wake {
            reason: Some(reason.clone()),
            source: Some(source.source().into()),
        };
        self.event(now, CreatureEvent::Wake(wake), out);
        self.with_genome(now, out, |g, cx| g.on_wake(&reason, cx));
        let id = self.id();
        self.state = State::Waking { id, asleep };
        out.push(Output::Gather { id });
    }

    pub(super) fn on_gathered(
        &mut self,
        now: DateTime<Utc>,
        id: u64,
        g: Gathered<G::Fresh>,
        out: &mut Vec<Output<G>>,
    ) {
        if !matches!(&self.state, State::Waking { id: want, .. } if *want == id) {
            return;
        }
        let State::Waking { asleep, .. } = std::mem::replace(&mut self.state, State::Ready) else {
            return;
        };
        for e in g.errors {
            self.error(now, ErrorEvent::in_phase("wake", e), out);
        }
        if let Some(p) = g.purpose.filter(|p| *p != self.purpose) {
            self.purpose = p;
            self.system = self.system_prompt();
        }
        self.genome.refresh(g.genome);
        let inbox_text = g.inbox.and_then(|read| self.take_inbox(&read, out));
        let slept = self.cfg.creature_secs(now - asleep.started);
        let text = if asleep.dreamt {
            let headline = format!(
                "[{}] You woke up after sleeping {}s.",
                format_time(now),
                slept.round()
            );
            wake::wake_message(&headline, &self.genome.recap(), inbox_text.as_deref())
        } else {
            wake::nap_message(now, slept, inbox_text.as_deref())
        };
        self.say_user(now, text, out);
        self.news.woke = true;
        if let Some(t) = inbox_text {
            self.delivered(now, &t, "MESSAGES.md", out);
        }
        self.pump(now, out);
    }

    /// The genome woke the sleeping creature for a creator's message.
    /// An urgent message wakes the creature (`from`: who sent it).
    pub(super) fn urgent_wake(&mut self, now: DateTime<Utc>, from: &str, out: &mut Vec<Output<G>>) {
        // Held by a guardrail, or its key refused: only a person's wake ends the sleep
        // (the message waits in the context).
        if self.hold.is_some() || self.refused.is_some() {
            return;
        }
        let who = if from == CREATOR { "the creator" } else { from };
        let source = WakeSource::Urgent(format!("a message from {who}"));
        match self.state {
            State::Asleep(_) => self.begin_wake(now, source, out),
            State::SleepWork(_) => self.wake_during_sleep_work(now, source, out),
            // Sleep turns or a compaction under way: the wake waits for them.
            _ => {
                if self.wake_early.is_none() {
                    self.wake_early = Some(source);
                }
            }
        }
    }

    /// What of `MESSAGES.md` as read is new (see [`crate::memory::inbox`]); the ledger of
    /// what was delivered is saved when that changes it.
    pub(super) fn take_inbox(
        &mut self,
        read: &InboxRead,
        out: &mut Vec<Output<G>>,
    ) -> Option<String> {
        let before = self.inbox.clone();
        let new = self.inbox.take_new(&read.text);
        if self.inbox != before {
            out.push(Output::Record(Record::InboxDelivered(self.inbox.clone())));
        }
        new
    }

    /// An operator's message, handed to the creature now (after the tool results when a
    /// turn is in flight) and appended to `MESSAGES.md` for the record, counted as
    /// delivered there so that no read of the file gives it again, whatever rewrote the
    /// file meanwhile.
    pub(super) fn message(&mut self, now: DateTime<Utc>, text: String, out: &mut Vec<Output<G>>) {
        self.inbox.mark(&crate::memory::messages::entry(&text, now));
        out.push(Output::Record(Record::InboxDelivered(self.inbox.clone())));
        out.push(Output::Record(Record::AppendInbox {
            t: now,
            text: text.clone(),
        }));
        let wakes = self.delivered(now, &text, "operator", out);
        let note = wake::creator_message(&text);
        match self.state {
            // A turn is in flight: tool results must come first in the next message.
            State::Thinking { .. } | State::Acting(_) | State::Compacting(_) => {
                self.pending_notes.push(note)
            }
            _ => self.say_user(now, note, out),
        }
        if wakes {
            self.urgent_wake(now, CREATOR, out);
        }
    }
}
