//! The creatures' mail, as an OpenSeed orchestrator keeps it: its mailboxes (the
//! creator's first, where answers to the operator arrive), the selected one's inbox or
//! sent mail, and the selected message in a reader pane. What the orchestrator sends is
//! made inert as it arrives; the keys move between the three columns.

mod draw;

use crate::openseed::{CREATOR, MailMessage, Mailbox};
use crate::text::sanitize::sanitize;
use crate::ui::doc::scroll::Step;
use crate::ui::prepare::inert;

/// Which of a mailbox's folders is listed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Folder {
    #[default]
    Inbox,
    Sent,
}

/// The column the moving keys go to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Column {
    #[default]
    Boxes,
    Messages,
    Reader,
}

/// What the orchestrator (and, for sent mail, OpenSeed's files here) said of the mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailFetched {
    /// The directory, and the mailbox shown.
    Directory {
        boxes: Vec<Mailbox>,
        mailbox: String,
        inbox: Vec<MailMessage>,
        sent: Option<Vec<MailMessage>>,
    },
    /// One mailbox's inbox and sent mail.
    Mailbox {
        mailbox: String,
        inbox: Vec<MailMessage>,
        sent: Option<Vec<MailMessage>>,
    },
    /// A message read whole (and marked read, unless `--read-only`).
    Message {
        mailbox: String,
        message: MailMessage,
    },
}

#[derive(Debug, Default)]
pub struct MailPopup {
    boxes: Vec<Mailbox>,
    box_at: usize,
    /// The mailbox whose mail is listed (its name).
    shown: String,
    pub folder: Folder,
    inbox: Vec<MailMessage>,
    /// `None`: no route serves it and its files are not on this machine.
    sent: Option<Vec<MailMessage>>,
    /// What was sent from here as the creator (shown as its sent mail when its files
    /// are not on this machine).
    sent_here: Vec<MailMessage>,
    at: usize,
    pub column: Column,
    reader_top: usize,
    /// Waiting for the orchestrator.
    pub loading: bool,
}

/// A message with every text of it inert (the body keeps its lines).
fn inert_message(m: MailMessage) -> MailMessage {
    MailMessage {
        id: inert(&m.id),
        from: inert(&m.from),
        to: inert(&m.to),
        subject: inert(&m.subject),
        body: sanitize(&m.body),
        timestamp: inert(&m.timestamp),
        read: m.read,
    }
}

impl MailPopup {
    /// Opens it on the creator's mailbox, to be filled by the orchestrator's answer.
    pub fn open(&mut self) {
        self.loading = true;
        self.column = Column::Boxes;
        if self.shown.is_empty() {
            CREATOR.clone_into(&mut self.shown);
        }
    }

    /// The mailbox listed.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// The mailbox under the cursor in the mailboxes' column.
    pub fn box_selected(&self) -> Option<&str> {
        self.boxes.get(self.box_at).map(|b| b.creature.as_str())
    }

    /// The messages of the folder listed, newest first.
    pub fn messages(&self) -> &[MailMessage] {
        match self.folder {
            Folder::Inbox => &self.inbox,
            Folder::Sent => match &self.sent {
                Some(sent) => sent,
                None if self.shown == CREATOR => &self.sent_here,
                None => &[],
            },
        }
    }

    /// The message selected, if any.
    pub fn selected(&self) -> Option<&MailMessage> {
        self.messages().get(self.at)
    }

    /// Takes in what was fetched.
    pub fn on_fetched(&mut self, fetched: MailFetched) {
        self.loading = false;
        match fetched {
            MailFetched::Directory {
                boxes,
                mailbox,
                inbox,
                sent,
            } => {
                let mut boxes: Vec<Mailbox> = boxes
                    .into_iter()
                    .map(|b| Mailbox {
                        creature: inert(&b.creature),
                        ..b
                    })
                    .collect();
                // The creator's first, there before any mail is.
                boxes.sort_by_key(|b| (b.creature != CREATOR, b.creature.clone()));
                if boxes.first().is_none_or(|b| b.creature != CREATOR) {
                    boxes.insert(
                        0,
                        Mailbox {
                            creature: CREATOR.into(),
                            total: 0,
                            unread: 0,
                        },
                    );
                }
                self.boxes = boxes;
                self.box_at = self
                    .boxes
                    .iter()
                    .position(|b| b.creature == mailbox)
                    .unwrap_or(0);
                self.show(mailbox, inbox, sent);
            }
            MailFetched::Mailbox {
                mailbox,
                inbox,
                sent,
            } => self.show(mailbox, inbox, sent),
            MailFetched::Message { mailbox, message } => {
                if mailbox != self.shown {
                    return;
                }
                let message = inert_message(message);
                let unread_before = self.inbox.iter().any(|m| m.id == message.id && !m.read);
                if let Some(m) = self.inbox.iter_mut().find(|m| m.id == message.id) {
                    *m = message.clone();
                }
                if unread_before
                    && message.read
                    && let Some(b) = self.boxes.iter_mut().find(|b| b.creature == mailbox)
                {
                    b.unread = b.unread.saturating_sub(1);
                }
                self.column = Column::Reader;
                self.reader_top = 0;
            }
        }
    }

    fn show(&mut self, mailbox: String, inbox: Vec<MailMessage>, sent: Option<Vec<MailMessage>>) {
        let same = mailbox == self.shown;
        let keep = self.selected().map(|m| m.id.clone());
        self.shown = inert(&mailbox);
        self.inbox = inbox.into_iter().map(inert_message).collect();
        self.sent = sent.map(|s| s.into_iter().map(inert_message).collect());
        if let Some(b) = self.boxes.iter_mut().find(|b| b.creature == self.shown) {
            b.total = self.inbox.len();
            b.unread = self.inbox.iter().filter(|m| !m.read).count();
        }
        let kept = keep
            .filter(|_| same)
            .and_then(|id| self.messages().iter().position(|m| m.id == id));
        self.at = kept
            .unwrap_or(0)
            .min(self.messages().len().saturating_sub(1));
        if !same {
            self.reader_top = 0;
        }
    }

    /// A letter sent from here as the creator, kept for its sent mail.
    pub fn sent_from_here(&mut self, message: MailMessage) {
        self.sent_here.insert(0, inert_message(message));
    }

    /// Inbox, then sent, then inbox again.
    pub fn toggle_folder(&mut self) {
        self.folder = match self.folder {
            Folder::Inbox => Folder::Sent,
            Folder::Sent => Folder::Inbox,
        };
        self.at = 0;
        self.reader_top = 0;
    }

    /// Focus one column to the left (`-1`) or right (`1`).
    pub fn move_column(&mut self, delta: i8) {
        self.column = match (self.column, delta < 0) {
            (Column::Boxes, true) | (Column::Messages, true) => Column::Boxes,
            (Column::Reader, true) | (Column::Boxes, false) => Column::Messages,
            (Column::Messages, false) | (Column::Reader, false) => Column::Reader,
        };
    }

    /// A moving key in the focused column; whether the mailbox under the cursor changed
    /// (its mail is then to be fetched).
    pub fn step(&mut self, step: Step, page: usize) -> bool {
        let moved = |at: usize, len: usize| -> usize {
            let last = len.saturating_sub(1);
            match step {
                Step::Up(n) => at.saturating_sub(n),
                Step::Down(n) => (at + n).min(last),
                Step::PageUp => at.saturating_sub(page),
                Step::PageDown => (at + page).min(last),
                Step::Top => 0,
                Step::Bottom => last,
            }
        };
        match self.column {
            Column::Boxes => {
                let before = self.box_at;
                self.box_at = moved(self.box_at, self.boxes.len());
                before != self.box_at
            }
            Column::Messages => {
                let before = self.at;
                self.at = moved(self.at, self.messages().len());
                if before != self.at {
                    self.reader_top = 0;
                }
                false
            }
            Column::Reader => {
                let lines = self.selected().map_or(0, |m| m.body.lines().count() + 4);
                self.reader_top = moved(self.reader_top, lines);
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(id: &str, from: &str, body: &str, read: bool) -> MailMessage {
        MailMessage {
            id: id.into(),
            from: from.into(),
            to: CREATOR.into(),
            subject: String::new(),
            body: body.into(),
            timestamp: "2026-03-09T10:00:00.000Z".into(),
            read,
        }
    }

    #[test]
    fn the_creators_mailbox_is_first_and_what_arrives_is_inert() {
        let mut mail = MailPopup::default();
        mail.open();
        mail.on_fetched(MailFetched::Directory {
            boxes: vec![Mailbox {
                creature: "finch".into(),
                total: 0,
                unread: 0,
            }],
            mailbox: CREATOR.into(),
            inbox: vec![message("a", "finch", "\x1b[31mred\x1b[0m\nline two", false)],
            sent: None,
        });
        assert_eq!(mail.box_selected(), Some(CREATOR));
        assert_eq!(mail.boxes.len(), 2);
        assert_eq!(mail.boxes[0].unread, 1);
        let body = &mail.selected().unwrap().body;
        assert!(!body.contains('\x1b'), "{body:?}");
        assert_eq!(body.lines().count(), 2);
        // Read whole and marked read: the count follows.
        mail.on_fetched(MailFetched::Message {
            mailbox: CREATOR.into(),
            message: message("a", "finch", "x", true),
        });
        assert_eq!(mail.boxes[0].unread, 0);
        assert_eq!(mail.column, Column::Reader);
        // Sent, with no files here: what was sent from here.
        mail.toggle_folder();
        assert!(mail.messages().is_empty());
        mail.sent_from_here(message("b", CREATOR, "hi", false));
        assert_eq!(mail.messages().len(), 1);
        assert!(!mail.step(Step::Down(1), 10));
    }
}
