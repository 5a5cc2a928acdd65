//! The wire format of `dreamwatch inspect --follow --wire`: one JSON object per line, each
//! with `"t"` (its type). The far side writes [`Report`]s on stdout; the near side writes
//! [`Request`]s on its stdin. The first report is a [`Report::Hello`] naming the protocol;
//! a near side that speaks another protocol refuses it, and a far side told another
//! protocol in the near side's hello says so and exits.
//!
//! File contents travel as they are on the far side's disk: `data` when the bytes are
//! UTF-8, `b64` (standard base64) otherwise, so offsets on both sides agree.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};

/// The protocol spoken: both sides refuse another. 2 added the far machine's OpenSeed
/// orchestrator ([`Report::OpenSeed`], [`Request::OpenSeed`]).
pub const PROTOCOL: u32 = 2;

/// A log larger than this travels as its last `WINDOW` bytes (cut at a line start), then
/// its appends; once the far side has sent twice this much of it, the window is sent
/// again (the near side never holds more than `2 * WINDOW` of one file).
pub const WINDOW: u64 = 8 << 20;

/// What the far side reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Report {
    /// The first line: the protocol, the far side's version and system (`uname -s -m`).
    Hello {
        protocol: u32,
        version: String,
        system: String,
    },
    /// A creature appeared (or is there at the start): `id` names it in what follows.
    Creature { id: String, path: String },
    /// The creature's directory is gone.
    Gone { id: String },
    /// A change to one of the creature's files (`file` relative to its directory).
    File {
        id: String,
        file: String,
        #[serde(flatten)]
        op: FileOp,
    },
    /// Whether a dreamwatch runner hosts the creature (holds its lock), and listens on
    /// its control socket.
    Runner {
        id: String,
        alive: bool,
        listening: bool,
    },
    /// The first snapshot is complete: changes follow.
    Ready,
    /// The answer to the request numbered `req`.
    Reply {
        req: u64,
        ok: bool,
        /// What became of it, for the status line.
        text: String,
        /// A runner's answer (the control protocol's `answer`), when one came.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        answer: Option<serde_json::Value>,
    },
    /// What the far machine's OpenSeed orchestrator reports (`openseed::Update` as JSON:
    /// reachable or not, its creatures' status, costs, live events), for the creatures
    /// it runs (by their directory's name).
    OpenSeed { update: serde_json::Value },
    /// The far side cannot go on (a bad path, a protocol mismatch); it exits after this.
    Error { text: String },
}

/// What happened to one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum FileOp {
    /// The file's content from byte `base` of a file of `size` bytes (`base` is 0 unless
    /// the file is larger than [`WINDOW`]): replaces whatever was there.
    Put {
        base: u64,
        size: u64,
        #[serde(flatten)]
        bytes: Bytes,
    },
    /// Bytes appended to the file.
    Append {
        #[serde(flatten)]
        bytes: Bytes,
    },
    /// The file was deleted.
    Delete,
}

/// Bytes as JSON: text when they are UTF-8, base64 otherwise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bytes {
    Data(String),
    B64(String),
}

impl Bytes {
    pub fn of(bytes: &[u8]) -> Self {
        match std::str::from_utf8(bytes) {
            Ok(text) => Self::Data(text.to_owned()),
            Err(_) => Self::B64(STANDARD.encode(bytes)),
        }
    }

    /// The bytes; `None` when the base64 is not.
    pub fn decode(&self) -> Option<Vec<u8>> {
        match self {
            Self::Data(text) => Some(text.as_bytes().to_vec()),
            Self::B64(text) => STANDARD.decode(text).ok(),
        }
    }
}

/// What the near side asks, each numbered by `req` (its [`Report::Reply`] carries it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Request {
    /// The near side's protocol: a far side that speaks another says so and exits.
    Hello { protocol: u32 },
    /// A command for the creature's runner, in the control protocol's form
    /// (`{"cmd":"wake"}`...).
    Control {
        req: u64,
        id: String,
        command: serde_json::Value,
    },
    /// A message for the creature: to its runner when one listens, else appended to its
    /// MESSAGES.md.
    Message { req: u64, id: String, text: String },
    /// An action of the far machine's OpenSeed orchestrator for the creature it names
    /// `name`: `wake`, `stop`, `start`, or `message` (with `text`).
    OpenSeed {
        req: u64,
        name: String,
        action: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
}

/// One value as a wire line (without its newline): JSON with every character a terminal
/// may obey escaped (`\u009b`), so a wire read on a terminal (a test by hand, `ssh host
/// dreamwatch inspect --follow --wire`) shows nothing raw, and says the same to the reader.
pub fn line<T: Serialize>(value: &T) -> String {
    // Serialising these types cannot fail (no maps with non-string keys, no floats).
    crate::text::sanitize::inert_json(&serde_json::to_string(value).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_line_is_flat_and_round_trips() {
        let r = Report::File {
            id: "sprout".into(),
            file: ".self/observations.md".into(),
            op: FileOp::Append {
                bytes: Bytes::of(b"RED 10:00 hi\n"),
            },
        };
        let text = line(&r);
        assert_eq!(
            text,
            r#"{"t":"file","id":"sprout","file":".self/observations.md","op":"append","data":"RED 10:00 hi\n"}"#
        );
        assert_eq!(serde_json::from_str::<Report>(&text).unwrap(), r);
    }

    #[test]
    fn bytes_that_are_not_utf8_travel_as_base64_exactly() {
        let raw = [b'a', 0xff, 0xc3];
        let b = Bytes::of(&raw);
        assert!(matches!(b, Bytes::B64(_)));
        assert_eq!(b.decode().unwrap(), raw);
        let put = line(&FileOp::Put {
            base: 3,
            size: 9,
            bytes: b,
        });
        assert_eq!(put, r#"{"op":"put","base":3,"size":9,"b64":"Yf/D"}"#);
    }
}
