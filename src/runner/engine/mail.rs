//! Messages between creatures: what became of one the creature sent, and one it received
//! from another creature of its garden.

use chrono::{DateTime, Utc};

use crate::memory::events::{CreatureEvent, SentMessage};
use crate::runner::genome::{Genome, Incoming};
use crate::runner::mail::{Delivery, Outgoing};
use crate::runner::wake;

use super::output::{Output, Record};
use super::{Engine, State};

impl<G: Genome> Engine<G> {
    /// The garden's answer to `Output::Send`: the sender's record, then the genome's part
    /// (the default answers the `send_message` call in flight).
    pub(super) fn on_sent(
        &mut self,
        now: DateTime<Utc>,
        id: u64,
        message: Outgoing,
        delivery: Delivery,
        out: &mut Vec<Output<G>>,
    ) {
        let sent = SentMessage {
            to: Some(message.to.clone()),
            text: Some(message.text.clone()),
            delivery: Some(delivery.label().to_string()),
        };
        self.event(now, CreatureEvent::MessageSent(sent), out);
        let progress = self.with_genome(now, out, |g, cx| g.on_sent(id, &message, &delivery, cx));
        self.on_progress(now, progress, out);
    }

    /// A message from another creature: in the creature's inbox (`MESSAGES.md`, counted as
    /// delivered), its context and conversation log (after the tool results when a turn is
    /// in flight), its events, and its genome's part, which may wake it. Paused, it finds
    /// the message when it resumes.
    pub(super) fn on_message(&mut self, now: DateTime<Utc>, m: Incoming, out: &mut Vec<Output<G>>) {
        if matches!(self.state, State::Stopped) || m.text.trim().is_empty() {
            return;
        }
        let entry = wake::inbox_entry(&m.from, &m.text);
        self.inbox
            .mark(&crate::memory::messages::entry(&entry, now));
        out.push(Output::Record(Record::InboxDelivered(self.inbox.clone())));
        out.push(Output::Record(Record::AppendInbox {
            t: now,
            text: entry,
        }));
        self.news
            .messages
            .push((m.from.clone(), m.text.trim().to_string()));
        let wakes = self.booked(now, &m, "garden", out);
        let note = wake::creature_message(&m.from, &m.text);
        match self.state {
            State::Thinking { .. } | State::Acting(_) | State::Compacting(_) => {
                self.pending_notes.push(note)
            }
            _ => self.say_user(now, note, out),
        }
        if wakes {
            self.urgent_wake(now, &m.from, out);
        }
    }
}
