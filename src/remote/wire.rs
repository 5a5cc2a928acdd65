//! The wire format of `dreamwatch inspect --follow --wire`: one JSON object per line, each
//! with `"t"` (its type). The far side writes [`Report`]s on stdout; the near side writes
//! [`Request`]s on its stdin. The first report is a [`Report::Hello`] naming the protocol;
//! a near side that speaks another protocol refuses it, and a far side told another
//! protocol in the near side's hello says so and exits.
//!
//! File contents travel as they are on the far side's disk: `data` when the bytes are
//! UTF-8, `b64` (standard base64) otherwise, so offsets on both sides agree. A whole
//! file or window ([`Bytes::bulk`]) of more than [`BULK`] bytes travels as `b64`
//! whatever it holds: base64 is read and written at memory speed, where a log's JSON
//! text escaped again as a JSON string grows by half and is slow to read back.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};

use crate::memory::far_head::FarHead;

/// The protocol spoken: both sides refuse another. 2 added the far machine's OpenSeed
/// orchestrator ([`Report::OpenSeed`], [`Request::OpenSeed`]); 3 a conversation's head
/// counted on the far side ([`Report::Head`]); 4 a conversation's window sent after the
/// first snapshot ([`FileOp::Later`], [`Request::Want`]).
pub const PROTOCOL: u32 = 4;

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
    /// The count of a conversation's lines before the window the next put of `file`
    /// sends (the far side's model's count): sent just before that put.
    Head {
        id: String,
        file: String,
        #[serde(flatten)]
        head: FarHead,
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
    /// A conversation of `size` bytes whose every line the [`Report::Head`] before this
    /// counted: its copy is empty until its window comes, after [`Report::Ready`] (the
    /// first snapshot sends the garden's figures first, its logs' lines after).
    Later { size: u64 },
}

/// A put of more bytes than this travels as base64 ([`Bytes::bulk`]).
pub const BULK: usize = 4 << 10;

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

    /// A whole file or window: past [`BULK`] bytes, base64 unless JSON would escape
    /// little of it (prose, such as `observations.md` or a diary, travels as text, a
    /// quarter smaller than its base64); else as [`Bytes::of`].
    pub fn bulk(bytes: &[u8]) -> Self {
        if bytes.len() > BULK && escaping(bytes) > bytes.len() / 8 {
            Self::B64(STANDARD.encode(bytes))
        } else {
            Self::of(bytes)
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

/// About how many bytes a JSON string of `bytes` made inert ([`line`]) adds: a quote, a
/// backslash, a line end one each, another control character or a lead byte of the C1
/// controls (and of the rest of U+0080..U+00BF, to be safe) five.
fn escaping(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' => 1,
            0..0x20 | 0x7f | 0xc2 => 5,
            _ => 0,
        })
        .sum()
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
    /// The creature `id` is looked at: its logs' windows still to come are sent before
    /// the others', at once (no reply).
    Want { id: String },
    /// The logs' windows still to come may all be sent now (the near side has taken in
    /// every far garden's figures; no reply).
    Windows,
}

/// A file report as it is on the wire, read without the tagged enum's buffering (a
/// snapshot is mostly these, each holding a whole file).
#[derive(Deserialize)]
struct FileLine {
    t: String,
    id: String,
    file: String,
    op: String,
    base: Option<u64>,
    size: Option<u64>,
    data: Option<String>,
    b64: Option<String>,
}

/// Reads one report. A `file` report is read straight into its fields (serde reads an
/// internally tagged, flattened enum through a buffered copy of the whole line first);
/// anything else, or a file report that is not plainly one, goes through [`Report`]'s
/// own reading, so both say the same of every line.
pub fn parse(text: &str) -> Result<Report, serde_json::Error> {
    if text.starts_with(r#"{"t":"file","#)
        && let Ok(line) = serde_json::from_str::<FileLine>(text)
        && line.t == "file"
    {
        let bytes = match (line.data, line.b64) {
            (Some(text), None) => Some(Bytes::Data(text)),
            (None, Some(b64)) => Some(Bytes::B64(b64)),
            _ => None,
        };
        let op = match (line.op.as_str(), bytes, line.base, line.size) {
            ("put", Some(bytes), Some(base), Some(size)) => Some(FileOp::Put { base, size, bytes }),
            ("append", Some(bytes), None, None) => Some(FileOp::Append { bytes }),
            ("delete", None, None, None) => Some(FileOp::Delete),
            ("later", None, None, Some(size)) => Some(FileOp::Later { size }),
            _ => None,
        };
        if let Some(op) = op {
            return Ok(Report::File {
                id: line.id,
                file: line.file,
                op,
            });
        }
    }
    serde_json::from_str(text)
}

/// One value as a wire line (without its newline): JSON with every character a terminal
/// may obey escaped (`\u009b`), so a wire read on a terminal (a test by hand, `ssh host
/// dreamwatch inspect --follow --wire`) shows nothing raw, and says the same to the reader.
pub fn line<T: Serialize>(value: &T) -> String {
    // Serialising these types cannot fail (no maps with non-string keys, no floats).
    crate::text::sanitize::inert_json(&serde_json::to_string(value).unwrap_or_default())
}

/// Writes one report as a wire line with its newline. A put in base64 (most of a
/// snapshot's bytes) is written around its payload, which needs no escaping: the same
/// bytes as [`line`] gives, without scanning the payload twice more.
pub fn write_line(out: &mut impl std::io::Write, report: &Report) -> std::io::Result<()> {
    if let Report::File {
        id,
        file,
        op:
            FileOp::Put {
                base,
                size,
                bytes: Bytes::B64(b64),
            },
    } = report
    {
        let (id, file) = (line(id), line(file));
        write!(
            out,
            r#"{{"t":"file","id":{id},"file":{file},"op":"put","base":{base},"size":{size},"b64":""#
        )?;
        out.write_all(b64.as_bytes())?;
        return out.write_all(b"\"}\n");
    }
    writeln!(out, "{}", line(report))
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

    /// Every file line reads the same through the fast reading as through the enum's.
    #[test]
    fn file_lines_read_the_same_both_ways() {
        let lines = [
            r#"{"t":"file","id":"a","file":".self/x","op":"put","base":0,"size":2,"data":"hi"}"#,
            r#"{"t":"file","id":"a","file":".self/x","op":"put","base":3,"size":9,"b64":"Yf/D"}"#,
            r#"{"t":"file","id":"a","file":".self/x","op":"append","data":"more\n"}"#,
            r#"{"t":"file","id":"a","file":".self/x","op":"delete"}"#,
            r#"{"t":"file","id":"a","file":".self/x","op":"later","size":90000}"#,
            r#"{"t":"file","id":"a","file":".self/x","op":"later"}"#,
            r#"{"t":"file","id":"a","file":".self/x","op":"put","data":"no base"}"#,
            r#"{"t":"file","id":"a","file":".self/x","op":"squash"}"#,
            r#"{"t":"file","id":"a","file":".self/x","op":"append","data":"a","b64":"YQ=="}"#,
            r#"{"t":"file","id":"a","op":"delete"}"#,
            r#"{"t":"ready"}"#,
        ];
        for text in lines {
            let fast = parse(text).map_err(|e| e.to_string());
            let enum_ = serde_json::from_str::<Report>(text).map_err(|e| e.to_string());
            assert_eq!(fast.is_ok(), enum_.is_ok(), "{text}: {fast:?} / {enum_:?}");
            if let (Ok(a), Ok(b)) = (fast, enum_) {
                assert_eq!(a, b, "{text}");
            }
        }
    }

    #[test]
    fn a_put_in_base64_is_written_as_line_writes_it() {
        let reports = [
            Report::File {
                id: "a\u{1b}[31m\"b".into(),
                file: ".self/conversation.jsonl".into(),
                op: FileOp::Put {
                    base: 7,
                    size: 9000,
                    bytes: Bytes::bulk("x\u{9b}y\n".repeat(BULK).as_bytes()),
                },
            },
            Report::Ready,
        ];
        for r in reports {
            let mut out = Vec::new();
            write_line(&mut out, &r).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), format!("{}\n", line(&r)));
        }
    }

    #[test]
    fn large_json_lines_travel_as_base64_and_prose_and_small_puts_as_text() {
        let lines =
            r#"{"t":"2026-03-01T00:00:00Z","role":"user","content":"[{\"type\":\"text\"}]"}"#
                .repeat(BULK / 40)
                + "\n";
        let prose =
            "RED 09:14 the café's well ran dry; \"boil it\" said Zürich\n".repeat(BULK / 40);
        let controls = "x\u{9b}y\n".repeat(BULK);
        for (text, base64) in [(&lines, true), (&prose, false), (&controls, true)] {
            let b = Bytes::bulk(text.as_bytes());
            assert_eq!(matches!(b, Bytes::B64(_)), base64, "{}", &text[..60]);
            assert_eq!(b.decode().unwrap(), text.as_bytes());
            // Read back from its wire line as it was.
            let report = Report::File {
                id: "c1".into(),
                file: ".self/observations.md".into(),
                op: FileOp::Put {
                    base: 0,
                    size: text.len() as u64,
                    bytes: b.clone(),
                },
            };
            let mut out = Vec::new();
            write_line(&mut out, &report).unwrap();
            let back = parse(std::str::from_utf8(&out).unwrap().trim_end()).unwrap();
            assert_eq!(back, report);
        }
        assert_eq!(Bytes::bulk(b"small"), Bytes::Data("small".into()));
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
