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
//! Commands: `pause`, `resume`, `force_sleep`, `wake`, `message` (with `text`). `ok` means
//! the runner accepted the command; its effect shows in the creature's files and status.
//! A connection may send any number of lines. Lines longer than [`MAX_LINE`] are refused.

use serde::{Deserialize, Serialize};

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
    Message { text: String },
}

/// The runner's answer to one request line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    /// Why the command was refused (absent when accepted). Written first, as the wire
    /// format always had it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default)]
    pub ok: bool,
}

impl Reply {
    pub fn accepted() -> Self {
        Self {
            error: None,
            ok: true,
        }
    }

    pub fn refused(error: impl Into<String>) -> Self {
        Self {
            error: Some(error.into()),
            ok: false,
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
}
