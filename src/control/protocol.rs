//! The control protocol: newline-delimited JSON over a Unix stream socket,
//! `DIR/.sys/control.sock`.
//!
//! Each request line is a [`ControlCommand`] in its serde form, and gets one [`Reply`] line:
//!
//! ```text
//! -> {"cmd":"pause"}
//! <- {"ok":true}
//! -> {"cmd":"message","text":"Please keep the summary short."}
//! <- {"ok":true}
//! -> {"cmd":"dance"}
//! <- {"error":"unknown variant `dance`, expected one of ...","ok":false}
//! ```
//!
//! Commands: `pause`, `resume`, `force_sleep`, `wake`, `message` (with `text`), `speed`
//! (with `times`: creature time passes that many times faster from now on); for a dream
//! held for review (`--review-dreams`, see [`crate::memory::proposal`]): `proposal` (the
//! pending proposal, answered `{"kind":"proposal","proposal":{...}}` or
//! `{"kind":"no_proposal"}`; a runner holds one at most, so this is the list too),
//! `apply_proposal`, `reject_proposal`, `replace_proposal` (with `text`: the edited
//! proposal in its text form, refused with the reason when it is not valid). `ok` means
//! the runner accepted the command; its effect shows in the creature's files and status.
//! The reply is sent once the runner has handled the command, and may carry what became of
//! it ([`Answer`]), for example:
//!
//! ```text
//! -> {"cmd":"force_sleep"}
//! <- {"ok":true,"answer":{"kind":"already_asleep","until":"2026-03-01T12:04:00Z"}}
//! ```
//!
//! Clients that predate `answer` ignore it. A connection may send any number of lines.
//! Lines longer than [`MAX_LINE`] are refused.
//!
//! Every command carries the operator's token in a `token` field ([`TOKEN_FIELD`]): the
//! contents of `DIR/.sys/control.token`, which the runner writes when it binds the socket
//! and which the creature's own commands cannot read. A line without it, or with another,
//! is refused before it reaches the runner (the examples above leave it out):
//!
//! ```text
//! -> {"cmd":"apply_proposal","token":"9f86d0..."}
//! <- {"ok":true}
//! -> {"cmd":"apply_proposal"}
//! <- {"error":"refused: a command on this socket must carry the operator's token ...","ok":false}
//! ```

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::memory::proposal::Proposal;

/// The field of a request line that carries the operator's token.
pub const TOKEN_FIELD: &str = "token";

/// The longest request or reply line, newline included.
pub const MAX_LINE: u64 = 64 * 1024;

/// What the operator asks of a creature's runner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum ControlCommand {
    Pause,
    Resume,
    ForceSleep,
    Wake,
    Message {
        text: String,
    },
    /// Creature time passes `times` times faster than the wall clock from now on (the
    /// demo's speed keys); a sleep under way keeps what it has left in creature time.
    Speed {
        times: u32,
    },
    /// The pending proposal of a dream held for review.
    Proposal,
    ApplyProposal,
    RejectProposal,
    /// Replaces the pending proposal with an edited one (`Proposal::to_text`'s form).
    ReplaceProposal {
        text: String,
    },
}

impl ControlCommand {
    /// A command about a dream held for review.
    pub fn is_review(&self) -> bool {
        matches!(
            self,
            ControlCommand::Proposal
                | ControlCommand::ApplyProposal
                | ControlCommand::RejectProposal
                | ControlCommand::ReplaceProposal { .. }
        )
    }
}

/// What became of an accepted command, when there is more to say than "accepted".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Answer {
    /// Force sleep: the sleep work (a dream) started now.
    Dreaming,
    /// Force sleep: it dreams as soon as the model call or tool run in flight is over.
    DreamsNext,
    /// Force sleep: the sleep work is already under way.
    AlreadyDreaming,
    /// Force sleep: asleep after a dream, nothing left to consolidate; a wake comes first.
    AlreadyAsleep { until: DateTime<Utc> },
    /// Wake: the creature is awake.
    AlreadyAwake,
    /// Force sleep or wake on a paused creature: done once it is resumed.
    Paused,
    /// The runner is stopping: nothing will be done.
    Stopped,
    /// A review command, and no proposal is pending.
    NoProposal,
    /// The pending proposal.
    Proposal { proposal: Box<Proposal> },
    /// The proposal was written; the creature goes on with it.
    Applied,
    /// The proposal was dropped, nothing of it written.
    Rejected,
    /// The edited proposal is held in place of the old one.
    Replaced,
    /// The runner refused the command: why (an edited proposal that is not valid, a
    /// proposal that could not be written). On the socket, a refusal (`ok: false`).
    Refused { why: String },
}

/// The runner's answer to one request line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reply {
    /// Why the command was refused (absent when accepted). Written first, as the wire
    /// format always had it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default)]
    pub ok: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Answer>,
}

impl Reply {
    pub fn accepted() -> Self {
        Self::answered(None)
    }

    /// An accepted command's reply; `Answer::Refused` is a refusal.
    pub fn answered(answer: Option<Answer>) -> Self {
        if let Some(Answer::Refused { why }) = answer {
            return Self::refused(why);
        }
        Self {
            error: None,
            ok: true,
            answer,
        }
    }

    pub fn refused(error: impl Into<String>) -> Self {
        Self {
            error: Some(error.into()),
            ok: false,
            answer: None,
        }
    }

    /// The reply as one line, newline included.
    pub fn to_line(&self) -> String {
        let mut line = serde_json::to_string(self)
            .unwrap_or_else(|_| r#"{"error":"unserialisable reply","ok":false}"#.into());
        line.push('\n');
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wire_format_is_stable() {
        assert_eq!(Reply::accepted().to_line(), "{\"ok\":true}\n");
        assert_eq!(
            Reply::refused("line too long").to_line(),
            "{\"error\":\"line too long\",\"ok\":false}\n"
        );
        let message = ControlCommand::Message { text: "hi".into() };
        assert_eq!(
            serde_json::to_string(&message).unwrap(),
            r#"{"cmd":"message","text":"hi"}"#
        );
        assert_eq!(
            serde_json::from_str::<ControlCommand>(r#"{"cmd":"force_sleep"}"#).unwrap(),
            ControlCommand::ForceSleep
        );
    }

    #[test]
    fn answers_travel_and_old_replies_still_parse() {
        use chrono::TimeZone;
        let until = Utc.with_ymd_and_hms(2026, 3, 1, 12, 4, 0).unwrap();
        let reply = Reply::answered(Some(Answer::AlreadyAsleep { until }));
        assert_eq!(
            reply.to_line(),
            "{\"ok\":true,\"answer\":{\"kind\":\"already_asleep\",\"until\":\"2026-03-01T12:04:00Z\"}}\n"
        );
        assert_eq!(
            serde_json::from_str::<Reply>(reply.to_line().trim()).unwrap(),
            reply
        );
        assert_eq!(
            serde_json::from_str::<Reply>(r#"{"ok":true}"#).unwrap(),
            Reply::accepted()
        );
    }
}
