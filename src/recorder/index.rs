//! A life's time index: where each wake, sleep and dream is in the events log (its time
//! and byte offsets), one checkpoint every [`CHECKPOINT`] events, and the RED
//! observations the dreams added. Built in one pass over the log, a line at a time, in
//! bounded memory: a 1 GiB life costs its wakes and dreams, not its events.

use std::io::{self, Read};
use std::path::Path;

use chrono::{DateTime, Utc};
use memchr::memmem;
use serde::Serialize;

use crate::memory::dream_diff::FileChanges;
use crate::memory::dream_diffs;
use crate::memory::layout::FileKind;
use crate::memory::time::parse_time;

/// One checkpoint every this many events.
pub const CHECKPOINT: u64 = 4096;

/// A line of the events log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Mark {
    #[serde(with = "crate::memory::dreams::opt_time")]
    pub t: Option<DateTime<Utc>>,
    /// Where the line begins.
    pub start: u64,
    /// Where the next line begins.
    pub end: u64,
    /// Its 0-based line number.
    pub line: u64,
}

/// A RED observation a dream added.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Red {
    pub dream: Option<u64>,
    #[serde(with = "crate::memory::dreams::opt_time")]
    pub t: Option<DateTime<Utc>>,
    pub text: String,
}

/// The time index of one creature.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TimeIndex {
    pub wakes: Vec<Mark>,
    pub sleeps: Vec<Mark>,
    /// Consolidations (`creature.dream`), in order: dream N is `dreams[N - 1]`.
    pub dreams: Vec<Mark>,
    /// Every [`CHECKPOINT`]th event.
    pub checkpoints: Vec<Mark>,
    pub events: u64,
    /// Bytes of the events log indexed.
    pub bytes: u64,
    pub red: Vec<Red>,
    /// Every [`CHECKPOINT`]th line start of the conversation `(line, offset)`: the time
    /// cursor's Recall reads back before its window through them.
    pub conversation: Vec<(u64, u64)>,
}

/// Where in the events log a kind of line is told by its type.
const WAKE: &[u8] = b"\"creature.wake\"";
const SLEEP: &[u8] = b"\"creature.sleep\"";
const DREAM: &[u8] = b"\"creature.dream\"";

impl TimeIndex {
    /// Indexes the creature at `root`: its events log, and its dreams log when the events
    /// name no dream (an OpenSeed dreamer's).
    pub fn build(root: &Path) -> io::Result<Self> {
        let mut index = TimeIndex::default();
        let events = FileKind::Events.resolve(root);
        index.scan_events(&events)?;
        if index.dreams.is_empty() {
            let dreams = FileKind::Dreams.resolve(root);
            each_line(&dreams, |start, end, line, bytes| {
                if !bytes.iter().all(u8::is_ascii_whitespace) {
                    index.dreams.push(Mark {
                        t: line_time(bytes),
                        start,
                        end,
                        line,
                    });
                }
            })?;
        }
        index.red = red_of(root);
        let conversation = FileKind::Conversation.resolve(root);
        each_line(&conversation, |start, _, line, _| {
            if line % CHECKPOINT == 0 {
                index.conversation.push((line, start));
            }
        })?;
        Ok(index)
    }

    fn scan_events(&mut self, path: &Path) -> io::Result<()> {
        let wake = memmem::Finder::new(WAKE);
        let sleep = memmem::Finder::new(SLEEP);
        let dream = memmem::Finder::new(DREAM);
        let kind = memmem::Finder::new(b"\"creature.");
        let mut events = 0;
        let bytes = each_line(path, |start, end, line, bytes| {
            if bytes.iter().all(u8::is_ascii_whitespace) {
                return;
            }
            let mark = || Mark {
                t: line_time(bytes),
                start,
                end,
                line,
            };
            if events % CHECKPOINT == 0 {
                self.checkpoints.push(mark());
            }
            events += 1;
            // Only a line naming a kind is looked at twice.
            if kind.find(bytes).is_none() {
                return;
            }
            if wake.find(bytes).is_some() {
                self.wakes.push(mark());
            } else if dream.find(bytes).is_some() {
                self.dreams.push(mark());
            } else if sleep.find(bytes).is_some() {
                self.sleeps.push(mark());
            }
        })?;
        self.events = events;
        self.bytes = bytes;
        Ok(())
    }

    /// The dream count at `offset` of the events log (dreams whose line ends by it).
    pub fn dreams_by(&self, offset: u64) -> usize {
        self.dreams.partition_point(|d| d.end <= offset)
    }
}

/// Calls `f(start, end, line_no, bytes)` for each line of `path` (none when it does not
/// exist), the line without its newline; a line longer than 16 MiB is passed cut. Gives
/// the bytes read.
pub fn each_line(path: &Path, mut f: impl FnMut(u64, u64, u64, &[u8])) -> io::Result<u64> {
    const MAX_LINE: usize = 16 << 20;
    let mut file = match crate::tail::open_regular(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    let mut buf = vec![0u8; 1 << 20];
    // Bytes of `buf` holding the start of a line not ended yet.
    let mut held = 0usize;
    let mut at = 0u64;
    let mut line_no = 0u64;
    // A too-long line's start, passed on once cut.
    let mut long: Option<u64> = None;
    loop {
        if held == buf.len() {
            if buf.len() < MAX_LINE {
                buf.resize(buf.len() * 2, 0);
            } else {
                let start = long.unwrap_or(at);
                if long.is_none() {
                    f(start, start + held as u64, line_no, &buf[..held]);
                    line_no += 1;
                }
                long = Some(start);
                at += held as u64;
                held = 0;
            }
        }
        let n = file.read(&mut buf[held..])?;
        if n == 0 {
            if held > 0 && long.is_none() {
                f(at, at + held as u64, line_no, &buf[..held]);
            }
            return Ok(at + held as u64);
        }
        let filled = held + n;
        let mut from = 0usize;
        for nl in memchr::memchr_iter(b'\n', &buf[held..filled]) {
            let end = held + nl;
            let start = at + from as u64;
            if long.take().is_none() {
                f(
                    start,
                    start + (end - from) as u64 + 1,
                    line_no,
                    &buf[from..end],
                );
                line_no += 1;
            }
            from = end + 1;
        }
        at += from as u64;
        buf.copy_within(from..filled, 0);
        held = filled - from;
    }
}

/// The `t` of a JSON line, read without parsing the line (`"t":"..."` as writers write
/// it, spaces allowed).
pub fn line_time(line: &[u8]) -> Option<DateTime<Utc>> {
    let key = memmem::find(line, b"\"t\"")?;
    let rest = &line[key + 3..];
    let rest = rest
        .trim_ascii_start()
        .strip_prefix(b":")?
        .trim_ascii_start();
    let rest = rest.strip_prefix(b"\"")?;
    let end = memchr::memchr(b'"', rest)?;
    parse_time(std::str::from_utf8(&rest[..end]).ok()?)
}

/// The RED observations the runner's dreams added (`.sys/dream-diffs.jsonl`).
fn red_of(root: &Path) -> Vec<Red> {
    let mut out = Vec::new();
    let _ = each_line(&dream_diffs::path(root), |_, _, _, bytes| {
        let Ok(record) = serde_json::from_slice::<dream_diffs::DiffRecord>(bytes) else {
            return;
        };
        if let FileChanges::Observations(o) = &record.changes {
            for line in &o.added {
                if line
                    .text
                    .trim_start_matches(['-', '*', ' '])
                    .starts_with("RED")
                {
                    out.push(Red {
                        dream: record.dream,
                        t: record.t,
                        text: line.text.clone(),
                    });
                }
            }
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wakes_sleeps_and_dreams_are_found_with_their_offsets() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join(".sys")).unwrap();
        let lines = [
            r#"{"t":"2026-03-01T10:00:00Z","type":"creature.boot"}"#,
            r#"{"t":"2026-03-01T10:01:00Z","type":"creature.wake"}"#,
            r#"{"t": "2026-03-01T10:02:00Z", "type": "creature.sleep"}"#,
            r#"{"t":"2026-03-01T10:03:00Z","type":"creature.dream"}"#,
            "",
            r#"{"t":"2026-03-01T10:04:00Z","type":"creature.wake"}"#,
        ];
        let text = lines.join("\n");
        std::fs::write(root.join(".sys/events.jsonl"), &text).unwrap();
        let index = TimeIndex::build(root).unwrap();
        assert_eq!(index.events, 5);
        assert_eq!(index.wakes.len(), 2);
        assert_eq!(index.sleeps.len(), 1);
        let d = index.dreams[0];
        assert_eq!(&text[d.start as usize..d.end as usize - 1], lines[3]);
        assert_eq!(d.t, parse_time("2026-03-01T10:03:00Z"));
        assert_eq!(index.sleeps[0].t, parse_time("2026-03-01T10:02:00Z"));
        let last = index.wakes[1];
        assert_eq!(last.end, text.len() as u64);
        assert_eq!(index.dreams_by(d.end), 1);
        assert_eq!(index.dreams_by(d.start), 0);
        assert_eq!(index.checkpoints.len(), 1);
    }
}
