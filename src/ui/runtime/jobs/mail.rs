//! Asking the attached orchestrator of the mail and the narrator, off the UI thread; a
//! mailbox's sent mail is read from OpenSeed's files where its home is on this machine
//! (no route serves it).

use chrono::Utc;

use super::{Jobs, Outcome};
use crate::memory::garden::openseed_home;
use crate::openseed::mail::{mailbox_dir, read_sent, valid_name};
use crate::openseed::narration::NARRATION_ASKED;
use crate::openseed::{CREATOR, Client, Letter, MailMessage, OpenSeedError};
use crate::ui::popups::mail::MailFetched;
use crate::ui::popups::narration::NarrationFetched;
use crate::ui::state::App;
use crate::ui::update::{MailAsk, MailDone};

impl Jobs {
    pub(super) fn mail(&mut self, app: &mut App, ask: MailAsk) {
        let Some(client) = self.openseed.as_ref().and_then(|a| a.client()) else {
            app.set_notice(
                "the OpenSeed orchestrator cannot be reached now: nothing was asked",
                true,
            );
            app.on_mail_done(MailDone::Failed);
            return;
        };
        if let Some(doing) = doing(&ask) {
            app.set_notice(doing, false);
        }
        let tx = self.outcomes.clone();
        tokio::spawn(async move {
            let outcome = match perform(&client, &ask).await {
                Ok((done, said)) => Outcome {
                    mail: Some(Box::new(done)),
                    ..Outcome::from((said, false))
                },
                Err(e) => Outcome {
                    mail: Some(Box::new(MailDone::Failed)),
                    ..Outcome::from((format!("cannot {}: {e}", verb(&ask)), true))
                },
            };
            let _ = tx.send(outcome);
        });
    }
}

/// What the status line says while `ask` is under way, if anything.
fn doing(ask: &MailAsk) -> Option<String> {
    match ask {
        MailAsk::Send(letter) => Some(format!("sending mail to {}…", letter.to)),
        MailAsk::Archive { .. } => Some("archiving the message…".into()),
        MailAsk::SetNarrator(_) => Some("setting the narrator…".into()),
        _ => None,
    }
}

/// What failed, as "cannot …" says it.
fn verb(ask: &MailAsk) -> String {
    match ask {
        MailAsk::Directory { .. } | MailAsk::Mailbox { .. } => "read the mail".into(),
        MailAsk::Read { .. } => "read the message".into(),
        MailAsk::Archive { .. } => "archive the message".into(),
        MailAsk::Send(letter) => format!("send the mail to {}", letter.to),
        MailAsk::Narration => "read the narration".into(),
        MailAsk::NarratorChoices => "read the narrator's settings".into(),
        MailAsk::SetNarrator(_) => "set the narrator".into(),
    }
}

/// Asks; what came, and what the status line says of it (nothing for a plain read).
async fn perform(client: &Client, ask: &MailAsk) -> Result<(MailDone, String), OpenSeedError> {
    Ok(match ask {
        MailAsk::Directory { mailbox } => {
            let (boxes, (inbox, sent)) =
                tokio::join!(client.mail_directory(), mail_of(client, mailbox));
            let fetched = MailFetched::Directory {
                boxes: boxes?,
                mailbox: mailbox.clone(),
                inbox: inbox?,
                sent,
            };
            (MailDone::Mail(fetched), String::new())
        }
        MailAsk::Mailbox { mailbox } => (mailbox_done(client, mailbox).await?, String::new()),
        MailAsk::Read { mailbox, id, mark } => {
            let mut message = client.mail_message(mailbox, id).await?;
            if *mark && !message.read {
                client.mark_read(mailbox, id).await?;
                message.read = true;
            }
            let fetched = MailFetched::Message {
                mailbox: mailbox.clone(),
                message,
            };
            (MailDone::Mail(fetched), String::new())
        }
        MailAsk::Archive { mailbox, id } => {
            let moved = client.archive_mail(mailbox, id).await?;
            let said = if moved {
                format!("the message is archived (out of {mailbox}'s inbox, in its archive)")
            } else {
                "the message was not in the inbox any more: nothing archived".into()
            };
            (mailbox_done(client, mailbox).await?, said)
        }
        MailAsk::Send(letter) => {
            let id = client.send_mail(letter).await?;
            let message = kept(letter, id);
            let (boxes, (inbox, sent)) =
                tokio::join!(client.mail_directory(), mail_of(client, CREATOR));
            let then = match (boxes, inbox) {
                (Ok(boxes), Ok(inbox)) => Some(MailFetched::Directory {
                    boxes,
                    mailbox: CREATOR.into(),
                    inbox,
                    sent,
                }),
                _ => None,
            };
            let said = format!(
                "mail sent to {} as the creator (the orchestrator wakes or tells it)",
                letter.to
            );
            (MailDone::Sent { message, then }, said)
        }
        MailAsk::Narration => {
            let (entries, config) =
                tokio::join!(client.narration(NARRATION_ASKED), client.narrator_config());
            let fetched = NarrationFetched {
                entries: entries?,
                config: config.ok(),
            };
            (MailDone::Narration(fetched), String::new())
        }
        MailAsk::NarratorChoices => {
            let (config, models) = tokio::join!(client.narrator_config(), client.models());
            let done = MailDone::NarratorChoices {
                config: config?,
                models: models.unwrap_or_default(),
            };
            (done, "the narrator's settings: Enter sets them".into())
        }
        MailAsk::SetNarrator(config) => {
            let now = client.set_narrator_config(config).await?;
            let said = format!(
                "the narrator is {} ({}, every {} min)",
                if now.enabled { "on" } else { "off" },
                crate::ui::prepare::inert(&now.model),
                now.interval_minutes
            );
            let fetched = NarrationFetched {
                entries: client.narration(NARRATION_ASKED).await?,
                config: Some(now),
            };
            (MailDone::Narration(fetched), said)
        }
    })
}

async fn mailbox_done(client: &Client, mailbox: &str) -> Result<MailDone, OpenSeedError> {
    let (inbox, sent) = mail_of(client, mailbox).await;
    Ok(MailDone::Mail(MailFetched::Mailbox {
        mailbox: mailbox.to_owned(),
        inbox: inbox?,
        sent,
    }))
}

/// A mailbox's inbox (from the orchestrator) and sent mail (from its files here, if
/// they are).
async fn mail_of(
    client: &Client,
    mailbox: &str,
) -> (
    Result<Vec<MailMessage>, OpenSeedError>,
    Option<Vec<MailMessage>>,
) {
    // The name is the orchestrator's: a path of it only when it is a mailbox's name.
    let dir = openseed_home()
        .filter(|_| valid_name(mailbox))
        .map(|home| mailbox_dir(&home, mailbox));
    let sent = tokio::task::spawn_blocking(move || dir.and_then(|d| read_sent(&d)));
    let inbox = client.inbox(mailbox).await.map(|i| i.messages);
    (inbox, sent.await.ok().flatten())
}

/// The message as the orchestrator keeps it once sent.
fn kept(letter: &Letter, id: String) -> MailMessage {
    MailMessage {
        id,
        from: letter.from.clone(),
        to: letter.to.clone(),
        subject: letter.subject.clone(),
        body: letter.body.clone(),
        timestamp: Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        read: false,
    }
}
