//! A garden hosted in one process: its creatures' mailboxes by name, routing what one
//! sends to another ([`Postbox`]).
//!
//! A message to a creature whose run is over (its mailbox is closed) goes into its inbox,
//! `MESSAGES.md`, where it finds it at its next start.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use chrono::{DateTime, Utc};

use super::driver::{Mailbox, Runner};
use super::genome::{Genome, Incoming};
use super::mail::{Delivery, Outgoing, Postbox};
use super::wake;

/// The creatures of one process's garden, by name.
#[derive(Debug, Default)]
pub struct Garden {
    members: Mutex<BTreeMap<String, Member>>,
}

#[derive(Debug)]
struct Member {
    dir: PathBuf,
    mailbox: Mailbox,
}

impl Garden {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a hosted creature (its runner's [`crate::runner::driver::Runner::mailbox`]).
    pub fn join(&self, name: &str, dir: PathBuf, mailbox: Mailbox) {
        self.lock()
            .insert(name.to_string(), Member { dir, mailbox });
    }

    /// Adds a hosted creature by its runner.
    pub fn admit<G: Genome>(&self, runner: &Runner<G>) {
        self.join(runner.name(), runner.dir().to_path_buf(), runner.mailbox());
    }

    /// The names of its creatures, in order.
    pub fn names(&self) -> Vec<String> {
        self.lock().keys().cloned().collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Member>> {
        self.members.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Postbox for Garden {
    fn post(&self, from: &str, message: &Outgoing, now: DateTime<Utc>) -> Delivery {
        let members = self.lock();
        let Some(member) = members.get(&message.to).filter(|_| message.to != from) else {
            return Delivery::UnknownRecipient {
                known: members.keys().filter(|n| *n != from).cloned().collect(),
            };
        };
        let incoming = Incoming {
            from: from.to_string(),
            text: message.text.clone(),
            direct: true,
            urgent: false,
            priority: None,
            payload: message.payload.clone(),
        };
        if member.mailbox.send(incoming).is_ok() {
            return Delivery::Delivered;
        }
        // Its run is over: the inbox keeps it for the next one.
        let entry = wake::inbox_entry(from, &message.text);
        match crate::memory::messages::append(&member.dir, &entry, now) {
            Ok(_) => Delivery::Delivered,
            Err(e) => Delivery::Failed(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use std::sync::Arc;
    use tokio::sync::mpsc;

    use crate::runner::clock::RealClock;

    fn mailbox(tx: mpsc::UnboundedSender<Incoming>) -> Mailbox {
        Mailbox::new(tx, Arc::new(RealClock))
    }

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap()
    }

    fn hello(to: &str) -> Outgoing {
        Outgoing {
            to: to.into(),
            text: "hello".into(),
            payload: Some(serde_json::json!({"k": 1})),
        }
    }

    #[test]
    fn routes_by_name_and_knows_who_is_there() {
        let g = Garden::new();
        let (tx, mut rx) = mpsc::unbounded_channel();
        g.join("wren", PathBuf::from("/nowhere/wren"), mailbox(tx));
        let (tx, _rx) = mpsc::unbounded_channel();
        g.join("moss", PathBuf::from("/nowhere/moss"), mailbox(tx));
        assert_eq!(g.post("moss", &hello("wren"), now()), Delivery::Delivered);
        let got = rx.try_recv().unwrap();
        assert_eq!((got.from.as_str(), got.direct), ("moss", true));
        assert_eq!(got.payload, Some(serde_json::json!({"k": 1})));
        assert_eq!(
            g.post("moss", &hello("nobody"), now()),
            Delivery::UnknownRecipient {
                known: vec!["wren".into()]
            }
        );
        assert!(matches!(
            g.post("moss", &hello("moss"), now()),
            Delivery::UnknownRecipient { .. }
        ));
    }

    #[test]
    fn a_creature_whose_run_is_over_finds_it_in_its_inbox() {
        let dir = tempfile::tempdir().unwrap();
        let g = Garden::new();
        let (tx, rx) = mpsc::unbounded_channel();
        drop(rx);
        g.join("wren", dir.path().to_path_buf(), mailbox(tx));
        assert_eq!(g.post("moss", &hello("wren"), now()), Delivery::Delivered);
        let inbox = std::fs::read_to_string(dir.path().join("MESSAGES.md")).unwrap();
        assert!(inbox.contains("From moss: hello"), "{inbox}");
    }
}
