//! Who talks to whom: the messages a creature's `events.jsonl` records
//! (`creature.message_sent`, to another creature or its creator, and `creature.message`
//! from another creature of its garden; the creator's own messages are not talk between
//! creatures: the Events view shows them),
//! kept per creature as the file is followed, and the garden's conversation merged from
//! every creature's, each message once.

use chrono::{DateTime, Utc};

use super::events::{CreatureEvent, Event};
use super::recent::Recent;

/// Messages kept per creature: the newest.
pub const KEPT: usize = 500;

/// The name a message to or from the creator carries.
pub const CREATOR: &str = "creator";

/// One message in a creature's events, as that creature saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub t: Option<DateTime<Utc>>,
    /// The other side: the recipient of a sent message (`creator` for the creator), the
    /// sending creature of a received one.
    pub peer: String,
    pub text: String,
    pub way: Way,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Way {
    /// `creature.message_sent`, with what became of it (`delivered`, `unknown recipient`...).
    Sent {
        delivery: Option<String>,
    },
    Received,
}

impl Mail {
    /// A message the creature sent to its creator.
    pub fn to_creator(&self) -> bool {
        matches!(self.way, Way::Sent { .. }) && self.peer == CREATOR
    }

    /// The message an event records, if it records one.
    pub fn of(event: &Event) -> Option<Mail> {
        let (peer, text, way) = match event.payload()? {
            CreatureEvent::MessageSent(m) => (
                m.to?,
                m.text?,
                Way::Sent {
                    delivery: m.delivery,
                },
            ),
            CreatureEvent::Message(m) if m.source.as_deref() == Some("garden") => {
                (m.from?, m.text?, Way::Received)
            }
            _ => return None,
        };
        Some(Mail {
            t: event.t,
            peer,
            text,
            way,
        })
    }
}

/// A creature's messages, the newest [`KEPT`].
#[derive(Debug, Clone)]
pub struct Mailbox {
    kept: Recent<Mail>,
    /// Messages recorded since the file was first read (more than are kept).
    recorded: u64,
    /// Of those, the messages the creature sent to its creator.
    to_creator: u64,
}

impl Default for Mailbox {
    fn default() -> Self {
        Self {
            kept: Recent::new(KEPT),
            recorded: 0,
            to_creator: 0,
        }
    }
}

impl Mailbox {
    /// Keeps the message `event` records, if any.
    pub fn record(&mut self, event: &Event) {
        if let Some(mail) = Mail::of(event) {
            if mail.to_creator() {
                self.to_creator += 1;
            }
            self.kept.push(mail);
            self.recorded += 1;
        }
    }

    /// How many messages to its creator were recorded, and the newest one kept.
    pub fn to_creator(&self) -> (u64, Option<&Mail>) {
        let newest = self.as_slice().iter().rev().find(|m| m.to_creator());
        (self.to_creator, newest)
    }

    /// Oldest first.
    pub fn as_slice(&self) -> &[Mail] {
        self.kept.as_slice()
    }

    /// How many messages were recorded (it grows with each one: the garden's
    /// conversation is merged again only when some creature's grew).
    pub fn recorded(&self) -> u64 {
        self.recorded
    }
}

/// One message of the garden's conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    pub t: Option<DateTime<Utc>>,
    pub from: String,
    pub to: String,
    pub text: String,
    /// The sender's word on it; `None` when only the recipient's events are seen.
    pub delivery: Option<String>,
}

impl Said {
    /// Whether the message did not reach a creature (an unknown name, not in a garden).
    pub fn undelivered(&self) -> bool {
        self.delivery
            .as_deref()
            .is_some_and(|d| d != "delivered" && d != CREATOR)
    }
}

/// The garden's conversation from each creature's name and messages, newest first, at
/// most `cap`. A message between two creatures is in both their events: the sender's
/// record is kept, and the recipient's only where the sender's is not seen.
pub fn conversation<'a>(
    creatures: impl IntoIterator<Item = (&'a str, &'a [Mail])>,
    cap: usize,
) -> Vec<Said> {
    let mut sent = Vec::new();
    let mut received = Vec::new();
    for (name, mails) in creatures {
        for m in mails {
            match &m.way {
                Way::Sent { delivery } => sent.push(Said {
                    t: m.t,
                    from: name.to_string(),
                    to: m.peer.clone(),
                    text: m.text.clone(),
                    delivery: delivery.clone(),
                }),
                Way::Received => received.push(Said {
                    t: m.t,
                    from: m.peer.clone(),
                    to: name.to_string(),
                    text: m.text.clone(),
                    delivery: None,
                }),
            }
        }
    }
    // Each sent record answers for one received record of the same sender, recipient and
    // text (a message said twice arrives twice).
    let mut unmatched: Vec<&Said> = sent.iter().collect();
    let mut said: Vec<Said> = Vec::with_capacity(sent.len() + received.len());
    for r in received {
        let twin = unmatched
            .iter()
            .position(|s| s.from == r.from && s.to == r.to && s.text == r.text);
        match twin {
            Some(i) => {
                unmatched.swap_remove(i);
            }
            None => said.push(r),
        }
    }
    said.extend(sent);
    // Newest first; those without a time last, in the order read.
    said.sort_by_key(|s| std::cmp::Reverse(s.t));
    said.truncate(cap);
    said
}

/// The last message `name` sent, of `said` (newest first).
pub fn last_sent<'a>(said: &'a [Said], name: &str) -> Option<&'a Said> {
    said.iter().find(|s| s.from == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(json: &str) -> Event {
        Event::parse(json.as_bytes()).unwrap()
    }

    fn mails(lines: &[&str]) -> Mailbox {
        let mut b = Mailbox::default();
        for l in lines {
            b.record(&event(l));
        }
        b
    }

    #[test]
    fn messages_to_the_creator_are_counted() {
        let b = mails(&[
            r#"{"type":"creature.message_sent","to":"creator","text":"help","delivery":"creator"}"#,
            r#"{"type":"creature.message_sent","to":"fern","text":"hi","delivery":"delivered"}"#,
            r#"{"type":"creature.message","from":"creator","source":"garden","text":"no"}"#,
        ]);
        let (count, newest) = b.to_creator();
        assert_eq!(count, 1);
        assert_eq!(newest.map(|m| m.text.as_str()), Some("help"));
    }

    #[test]
    fn events_become_mail_and_others_do_not() {
        let sent = event(
            r#"{"t":"2026-11-25T12:03:00Z","type":"creature.message_sent","to":"fern","text":"hi","delivery":"delivered"}"#,
        );
        let m = Mail::of(&sent).unwrap();
        assert_eq!((m.peer.as_str(), m.text.as_str()), ("fern", "hi"));
        assert_eq!(
            m.way,
            Way::Sent {
                delivery: Some("delivered".into())
            }
        );
        let from_garden =
            event(r#"{"type":"creature.message","from":"sprout","source":"garden","text":"hi"}"#);
        assert_eq!(Mail::of(&from_garden).unwrap().peer, "sprout");
        // The creator's message, a garden message without its sender, one without text,
        // other kinds: nothing.
        for odd in [
            r#"{"type":"creature.message","source":"operator","text":"be kind"}"#,
            r#"{"type":"creature.message","source":"garden","text":"x"}"#,
            r#"{"type":"creature.message_sent","to":"fern"}"#,
            r#"{"type":"creature.sleep","seconds":3}"#,
        ] {
            assert_eq!(Mail::of(&event(odd)), None, "{odd}");
        }
    }

    #[test]
    fn a_message_seen_from_both_sides_is_said_once() {
        let sprout = mails(&[
            r#"{"t":"2026-11-25T12:03:00Z","type":"creature.message_sent","to":"fern","text":"hello","delivery":"delivered"}"#,
            r#"{"t":"2026-11-25T12:05:00Z","type":"creature.message_sent","to":"fern","text":"hello","delivery":"delivered"}"#,
            r#"{"t":"2026-11-25T12:06:00Z","type":"creature.message_sent","to":"ghost","text":"boo","delivery":"unknown recipient"}"#,
        ]);
        let fern = mails(&[
            r#"{"t":"2026-11-25T12:03:01Z","type":"creature.message","from":"sprout","source":"garden","text":"hello"}"#,
            r#"{"t":"2026-11-25T12:05:01Z","type":"creature.message","from":"sprout","source":"garden","text":"hello"}"#,
            r#"{"t":"2026-11-25T12:04:00Z","type":"creature.message","from":"moss","source":"garden","text":"and me"}"#,
            r#"{"t":"2026-11-25T12:07:00Z","type":"creature.message_sent","to":"creator","text":"rest","delivery":"creator"}"#,
        ]);
        let said = conversation(
            [("sprout", sprout.as_slice()), ("fern", fern.as_slice())],
            10,
        );
        let rows: Vec<(&str, &str, &str)> = said
            .iter()
            .map(|s| (s.from.as_str(), s.to.as_str(), s.text.as_str()))
            .collect();
        assert_eq!(
            rows,
            [
                ("fern", "creator", "rest"),
                ("sprout", "ghost", "boo"),
                ("sprout", "fern", "hello"),
                // moss is not watched: fern's record of it stands.
                ("moss", "fern", "and me"),
                ("sprout", "fern", "hello"),
            ]
        );
        assert!(!said[0].undelivered(), "the creator has it");
        assert!(said[1].undelivered());
        assert!(!said[2].undelivered());
        assert_eq!(said[3].delivery, None);
        assert_eq!(conversation([("fern", fern.as_slice())], 2).len(), 2);
        let t = |s: &str| s.parse::<DateTime<Utc>>().unwrap();
        let last = last_sent(&said, "sprout").map(|s| (s.to.as_str(), s.t));
        assert_eq!(last, Some(("ghost", Some(t("2026-11-25T12:06:00Z")))));
        assert_eq!(last_sent(&said, "ghost"), None);
        let fern = last_sent(&said, "fern");
        assert_eq!(fern.map(|s| s.to.as_str()), Some("creator"));
        // moss's message is known from fern's events only: it still sent it.
        let moss = last_sent(&said, "moss");
        assert_eq!(moss.map(|s| s.to.as_str()), Some("fern"));
    }

    #[test]
    fn a_mailbox_keeps_the_newest() {
        let mut b = Mailbox::default();
        for i in 0..KEPT + 3 {
            let line = format!(
                r#"{{"type":"creature.message_sent","to":"fern","text":"{i}","delivery":"delivered"}}"#
            );
            b.record(&event(&line));
        }
        b.record(&event(r#"{"type":"creature.wake"}"#));
        assert_eq!(b.as_slice().len(), KEPT);
        assert_eq!(b.as_slice()[0].text, "3");
        assert_eq!(b.recorded(), KEPT as u64 + 3);
    }
}
