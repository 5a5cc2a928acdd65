//! The creatures' mail and the narrator's story (an OpenSeed orchestrator's, the one
//! attached here): opening them, moving in them, reading, archiving and writing mail as
//! the creator, the narrator's settings; what the orchestrator answers is taken in here.
//! A far machine's orchestrator's mail is not offered (said in words).

use super::Job;
use crate::openseed::mail::valid_name;
use crate::openseed::{ApiStatus, CREATOR, Letter, MailMessage, ModelInfo, NarratorConfig};
use crate::ui::doc::scroll::Step;
use crate::ui::focus::Mode;
use crate::ui::input::action::Action;
use crate::ui::popups::mail::{Column, Folder, MailFetched};
use crate::ui::popups::narration::NarrationFetched;
use crate::ui::popups::openseed_form::{FormFor, OpenSeedForm};
use crate::ui::state::App;
use crate::ui::state::openseed::plain;

/// What is asked of the orchestrator for the mail or the narrator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailAsk {
    /// The mailboxes, and the mail of one.
    Directory {
        mailbox: String,
    },
    /// One mailbox's inbox and sent mail.
    Mailbox {
        mailbox: String,
    },
    /// A message whole, marked read (`mark`) as OpenSeed does once it is read.
    Read {
        mailbox: String,
        id: String,
        mark: bool,
    },
    Archive {
        mailbox: String,
        id: String,
    },
    Send(Letter),
    /// The narrator's last entries and its settings.
    Narration,
    /// Its settings and the models it may use, for the form.
    NarratorChoices,
    SetNarrator(NarratorConfig),
}

/// What the orchestrator answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailDone {
    Mail(MailFetched),
    /// Mail sent (as the orchestrator keeps it), and the mail read again after.
    Sent {
        message: MailMessage,
        then: Option<MailFetched>,
    },
    Narration(NarrationFetched),
    NarratorChoices {
        config: NarratorConfig,
        models: Vec<ModelInfo>,
    },
    /// Nothing came (the status line says why).
    Failed,
}

impl App {
    pub(super) fn mail_action(&mut self, action: Action) -> Vec<Job> {
        match action {
            Action::Mail if self.mode == Mode::Mail => self.mode = Mode::Normal,
            Action::Mail | Action::OpenSeedMail => return self.open_mail(),
            Action::OpenSeedNarration => return self.open_narration(),
            Action::MailClose | Action::NarrationClose => self.mode = Mode::Normal,
            Action::MailLeft => self.popups.mail.move_column(-1),
            Action::MailRight => self.popups.mail.move_column(1),
            Action::MailFolder => self.popups.mail.toggle_folder(),
            Action::MailRead => return self.read_mail(),
            Action::MailWrite => self.write_mail(false),
            Action::MailReply => self.write_mail(true),
            Action::MailArchive => return self.archive_mail(),
            Action::NarratorSettings => return vec![Job::Mail(MailAsk::NarratorChoices)],
            _ => {}
        }
        Vec::new()
    }

    /// Whether an orchestrator is attached here; if not, says so.
    fn mail_served(&mut self) -> bool {
        if self.openseed.is_some() {
            return true;
        }
        self.mode = Mode::Normal;
        self.set_notice(
            "mail and the narration are those of an OpenSeed orchestrator attached here (--openseed, or [openseed] in the config file): a far machine's are not offered",
            true,
        );
        false
    }

    fn open_mail(&mut self) -> Vec<Job> {
        if !self.mail_served() {
            return Vec::new();
        }
        self.popups.mail.open();
        self.mode = Mode::Mail;
        let mailbox = self.popups.mail.shown().to_owned();
        vec![Job::Mail(MailAsk::Directory { mailbox })]
    }

    fn open_narration(&mut self) -> Vec<Job> {
        if !self.mail_served() {
            return Vec::new();
        }
        self.popups.narration.open();
        self.mode = Mode::Narration;
        vec![Job::Mail(MailAsk::Narration)]
    }

    /// A moving key in the mail or the narration; a new mailbox under the cursor has its
    /// mail read.
    pub(super) fn mail_step(&mut self, step: Step) -> Vec<Job> {
        let page = usize::from(self.area.height.saturating_sub(6).max(2));
        if self.mode == Mode::Narration {
            self.popups.narration.scroll(step, page);
            return Vec::new();
        }
        if !self.popups.mail.step(step, page) {
            return Vec::new();
        }
        match self.popups.mail.box_selected() {
            Some(mailbox) => vec![Job::Mail(MailAsk::Mailbox {
                mailbox: mailbox.to_owned(),
            })],
            None => Vec::new(),
        }
    }

    /// Enter: the mailbox's mail, or the message read whole (marked read unless
    /// read-only).
    fn read_mail(&mut self) -> Vec<Job> {
        let mail = &mut self.popups.mail;
        if mail.column == Column::Boxes {
            mail.column = Column::Messages;
            return match mail.box_selected() {
                Some(mailbox) => vec![Job::Mail(MailAsk::Mailbox {
                    mailbox: mailbox.to_owned(),
                })],
                None => Vec::new(),
            };
        }
        let Some(message) = mail.selected() else {
            return Vec::new();
        };
        if mail.folder == Folder::Sent {
            mail.column = Column::Reader;
            return Vec::new();
        }
        let ask = MailAsk::Read {
            mailbox: mail.shown().to_owned(),
            id: message.id.clone(),
            mark: !self.read_only,
        };
        if self.read_only && !message.read {
            self.set_notice(
                "read-only: the message is read but not marked read, this observatory only watches",
                false,
            );
        }
        vec![Job::Mail(ask)]
    }

    fn archive_mail(&mut self) -> Vec<Job> {
        let mail = &self.popups.mail;
        match (mail.folder, mail.selected()) {
            (Folder::Inbox, Some(m)) => {
                let ask = MailAsk::Archive {
                    mailbox: mail.shown().to_owned(),
                    id: m.id.clone(),
                };
                vec![Job::Mail(ask)]
            }
            (Folder::Sent, Some(_)) => {
                self.set_notice(
                    "only an inbox's messages are archived (OpenSeed keeps sent mail as it is)",
                    true,
                );
                Vec::new()
            }
            (_, None) => Vec::new(),
        }
    }

    /// The mail form: to the creature whose mailbox is selected (or, `reply`, to the one
    /// the message is from or to), as the creator.
    fn write_mail(&mut self, reply: bool) {
        let Some(openseed) = self.openseed.as_ref() else {
            return;
        };
        let mut recipients: Vec<String> = openseed
            .creatures
            .values()
            .filter(|c| plain(&c.name) && c.status != ApiStatus::Stopped)
            .map(|c| c.name.clone())
            .collect();
        if recipients.is_empty() {
            self.set_notice(
                "no creature of the orchestrator's runs: it takes mail only for those it runs (p starts one)",
                true,
            );
            return;
        }
        let mail = &self.popups.mail;
        let (to, subject) = match (reply, mail.selected()) {
            (true, Some(m)) => {
                let to = if mail.folder == Folder::Sent {
                    &m.to
                } else {
                    &m.from
                };
                let subject = if m.subject.starts_with("Re: ") || m.subject.is_empty() {
                    m.subject.clone()
                } else {
                    format!("Re: {}", m.subject)
                };
                (Some(to.clone()), subject)
            }
            (true, None) => return,
            (false, _) => (mail.box_selected().map(str::to_owned), String::new()),
        };
        if let Some(to) = to
            .as_ref()
            .filter(|t| *t != CREATOR && !recipients.contains(t))
        {
            recipients.push(to.clone());
        }
        let at = to
            .as_ref()
            .and_then(|t| recipients.iter().position(|r| r == t))
            .unwrap_or(0);
        self.popups.openseed_form = Some(OpenSeedForm::mail(recipients, at, subject, reply));
        self.mode = Mode::OpenSeedForm;
    }

    /// Enter in the mail or the narrator's form: sent, or what is wrong said in it.
    pub(super) fn submit_mail_form(&mut self) -> Vec<Job> {
        let Some(form) = self.popups.openseed_form.as_mut() else {
            return Vec::new();
        };
        let asked = match form.what {
            FormFor::Narrator => narrator_config(form).map(MailAsk::SetNarrator),
            _ => letter(form).map(MailAsk::Send),
        };
        match asked {
            Ok(ask) => {
                self.mode = self.mode_after_form();
                self.popups.openseed_form = None;
                vec![Job::Mail(ask)]
            }
            Err(problem) => {
                form.problem = Some(problem);
                Vec::new()
            }
        }
    }

    /// Where the keys go once the open form is closed: back to the mail or the narration
    /// it was opened from.
    pub(super) fn mode_after_form(&self) -> Mode {
        match self.popups.openseed_form.as_ref().map(|f| &f.what) {
            Some(FormFor::Mail) => Mode::Mail,
            Some(FormFor::Narrator) => Mode::Narration,
            _ => Mode::Normal,
        }
    }

    /// What the orchestrator answered of the mail or the narrator.
    pub fn on_mail_done(&mut self, done: MailDone) {
        match done {
            MailDone::Mail(fetched) => self.popups.mail.on_fetched(fetched),
            MailDone::Sent { message, then } => {
                self.popups.mail.sent_from_here(message);
                if let Some(then) = then {
                    self.popups.mail.on_fetched(then);
                }
            }
            MailDone::Narration(fetched) => self.popups.narration.on_fetched(fetched),
            MailDone::NarratorChoices { config, models } => {
                self.popups.narration.config = Some(config.clone());
                if self.mode == Mode::Narration {
                    self.popups.openseed_form = Some(OpenSeedForm::narrator(&config, &models));
                    self.mode = Mode::OpenSeedForm;
                }
            }
            MailDone::Failed => {
                self.popups.mail.loading = false;
                self.popups.narration.loading = false;
            }
        }
        self.dirty = true;
    }
}

/// The letter the form asks to send, or what is wrong with it.
fn letter(form: &OpenSeedForm) -> Result<Letter, String> {
    let to = form.value("to");
    let body = form.value("text");
    if body.is_empty() {
        return Err("the text: the orchestrator takes no mail without one".into());
    }
    if !valid_name(to) {
        return Err(format!("{to:?} is no creature's mailbox"));
    }
    Ok(Letter {
        from: CREATOR.into(),
        to: to.to_owned(),
        subject: form.value("subject").to_owned(),
        body: body.to_owned(),
    })
}

/// The narrator's settings the form asks for, or what is wrong with them.
fn narrator_config(form: &OpenSeedForm) -> Result<NarratorConfig, String> {
    let minutes = form.value("every (minutes)");
    let interval_minutes = minutes
        .parse::<u32>()
        .ok()
        .filter(|m| (1..=10_080).contains(m))
        .ok_or_else(|| {
            format!("every (minutes): a whole number of minutes, 1 or more, not {minutes:?}")
        })?;
    Ok(NarratorConfig {
        enabled: form.value("narrator") == "on",
        model: form.value("model").to_owned(),
        interval_minutes,
    })
}
