//! The creatures' mail, as the orchestrator serves it (`src/host/index.ts` at 815f9fd,
//! the store in `src/shared/mail.ts`): each creature has a mailbox of files in OpenSeed's
//! home, `mail/NAME/{inbox,sent,archived}/ID.json`, each a [`MailMessage`].
//! - `GET /api/mail/directory` (`index.ts:1011`): `[{creature, total, unread}]`, one per
//!   mailbox directory (its inbox counted).
//! - `GET /api/creatures/:name/mail` (1077): `{total, unread, messages}`, the inbox
//!   newest first; a mailbox never made reads empty (nothing is created).
//! - `GET .../mail/:id` (1086): the message (`404 {"error":"not found"}`; a malformed id
//!   `400 {"error":"invalid message id"}`); reading it does not mark it read.
//! - `POST .../mail/:id/read` (1098): marks it read (`200 {"ok":true}`, no content
//!   type; an unknown id is no error), as the creature's own code does once read.
//! - `POST .../mail/:id/archive` (1107): moves it from the inbox to `archived`
//!   (`200 {"ok":true,"archived":N}`, no content type).
//! - `POST /api/creatures/:from/mail` (1037) with `{to, subject?, body}`: written to the
//!   recipient's inbox and the sender's `sent`, `200 {"ok":true,"id"}`; the recipient
//!   must be a creature a supervisor runs (`404 {"error":"unknown recipient ..."}`), both
//!   names lowercase letters, digits and hyphens (`400 {"error":"invalid creature
//!   name ..."}`), `to` and `body` given (`400`). A sleeping recipient is woken
//!   (`creature.wake`, reason `mail from FROM (subject: "S")`, source `mail`), an awake
//!   one told (`creature.message`, source `system`, `[MAIL] New message from ...`).
//!
//! No route lists a mailbox's `sent`: it is read from the files where OpenSeed's home is
//! on this machine ([`read_sent`]). The operator writes as [`CREATOR`], a mailbox of its
//! own (`mail/creator/`), where the creatures' answers arrive.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::OpenSeedError;
use super::client::Client;

/// The name the operator's mail goes out as (a mailbox name, as the orchestrator takes
/// them: lowercase letters, digits, hyphens).
pub const CREATOR: &str = "creator";

/// One message, as its file and the routes hold it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MailMessage {
    pub id: String,
    pub from: String,
    pub to: String,
    #[serde(default)]
    pub subject: String,
    #[serde(default)]
    pub body: String,
    /// RFC 3339, as the orchestrator writes it.
    #[serde(default)]
    pub timestamp: String,
    #[serde(default)]
    pub read: bool,
}

/// A mailbox's inbox, newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct Inbox {
    #[serde(default)]
    pub total: usize,
    #[serde(default)]
    pub unread: usize,
    #[serde(default)]
    pub messages: Vec<MailMessage>,
}

/// A mailbox of the directory, its inbox counted.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Mailbox {
    pub creature: String,
    #[serde(default)]
    pub total: usize,
    #[serde(default)]
    pub unread: usize,
}

/// Mail to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Letter {
    pub from: String,
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// Whether `name` is one the orchestrator takes for a mailbox (`mail.ts:16`).
pub fn valid_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

impl Client {
    /// Every mailbox, its inbox counted.
    pub async fn mail_directory(&self) -> Result<Vec<Mailbox>, OpenSeedError> {
        self.send(
            reqwest::Method::GET,
            &["api", "mail", "directory"],
            None,
            None,
        )
        .await
    }

    /// The inbox of `mailbox`, newest first.
    pub async fn inbox(&self, mailbox: &str) -> Result<Inbox, OpenSeedError> {
        self.send(
            reqwest::Method::GET,
            &["api", "creatures", mailbox, "mail"],
            None,
            None,
        )
        .await
    }

    /// One message of `mailbox`'s inbox (reading it marks nothing).
    pub async fn mail_message(
        &self,
        mailbox: &str,
        id: &str,
    ) -> Result<MailMessage, OpenSeedError> {
        self.send(
            reqwest::Method::GET,
            &["api", "creatures", mailbox, "mail", id],
            None,
            None,
        )
        .await
    }

    /// Marks a message of `mailbox`'s inbox read.
    pub async fn mark_read(&self, mailbox: &str, id: &str) -> Result<(), OpenSeedError> {
        let _: Value = self
            .send(
                reqwest::Method::POST,
                &["api", "creatures", mailbox, "mail", id, "read"],
                None,
                Some(&json!({})),
            )
            .await?;
        Ok(())
    }

    /// Moves a message of `mailbox`'s inbox to its archive; whether one was moved.
    pub async fn archive_mail(&self, mailbox: &str, id: &str) -> Result<bool, OpenSeedError> {
        let answer: Value = self
            .send(
                reqwest::Method::POST,
                &["api", "creatures", mailbox, "mail", id, "archive"],
                None,
                Some(&json!({})),
            )
            .await?;
        Ok(answer["archived"].as_u64().unwrap_or(0) > 0)
    }

    /// Sends `letter`; the new message's id.
    pub async fn send_mail(&self, letter: &Letter) -> Result<String, OpenSeedError> {
        let body = json!({"to": letter.to, "subject": letter.subject, "body": letter.body});
        let answer: Value = self
            .send(
                reqwest::Method::POST,
                &["api", "creatures", &letter.from, "mail"],
                None,
                Some(&body),
            )
            .await?;
        Ok(answer["id"].as_str().unwrap_or_default().to_owned())
    }
}

/// At most this many of a mailbox's sent messages are read from its files.
pub const SENT_READ: usize = 500;
/// A file larger than this is no message (it is skipped).
const MESSAGE_BYTES: u64 = 1 << 20;

/// Where the mailbox `name`'s files are, in OpenSeed's `home`.
pub fn mailbox_dir(home: &Path, name: &str) -> PathBuf {
    home.join("mail").join(name)
}

/// The messages in `mailbox_dir`'s `sent`, newest first (at most [`SENT_READ`]; files
/// that are no message, or too large, are skipped as the orchestrator skips them);
/// `None` when there is no such directory here.
pub fn read_sent(mailbox_dir: &Path) -> Option<Vec<MailMessage>> {
    let entries = std::fs::read_dir(mailbox_dir.join("sent")).ok()?;
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            (meta.is_file() && meta.len() <= MESSAGE_BYTES)
                .then(|| (meta.modified().unwrap_or(std::time::UNIX_EPOCH), e.path()))
        })
        .collect();
    files.sort_by_key(|f| std::cmp::Reverse(f.0));
    let mut sent: Vec<MailMessage> = files
        .into_iter()
        .take(SENT_READ)
        .filter_map(|(_, path)| serde_json::from_slice(&std::fs::read(path).ok()?).ok())
        .collect();
    sent.sort_by(|a, b| b.timestamp.cmp(&a.timestamp));
    Some(sent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_the_orchestrator_takes_them() {
        assert!(valid_name("creator"));
        assert!(valid_name("finch-2"));
        assert!(!valid_name("-finch"));
        assert!(!valid_name("Finch"));
        assert!(!valid_name("../etc"));
    }

    #[test]
    fn sent_is_read_from_its_files_newest_first() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_sent(dir.path()), None);
        let sent = dir.path().join("sent");
        std::fs::create_dir_all(&sent).unwrap();
        for (id, t) in [
            ("a", "2026-03-09T10:00:00.000Z"),
            ("b", "2026-03-09T11:00:00.000Z"),
        ] {
            let m = json!({"id": id, "from": "creator", "to": "finch", "subject": "s",
                "body": "b", "timestamp": t, "read": false});
            std::fs::write(sent.join(format!("{id}.json")), m.to_string()).unwrap();
        }
        std::fs::write(sent.join("junk.json"), "{not json").unwrap();
        let got = read_sent(dir.path()).unwrap();
        assert_eq!(
            got.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(),
            ["b", "a"]
        );
    }
}
