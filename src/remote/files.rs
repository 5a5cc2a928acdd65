//! The far side's view of one file: what was sent of it, and what to send now.
//!
//! A small file (up to [`SMALL`]) is read whole at each look: when what was sent is
//! still its beginning (same inode, same digest) only the rest goes, else the whole
//! file. A larger one is a log: its appends go as they come, checked against the last
//! bytes sent ([`TAIL`]); a shrink, another inode or other bytes there send its last
//! [`WINDOW`] again, as does a mirror grown past twice the window. A conversation of
//! more than [`COUNT_ABOVE`] bytes goes as its last lines with the far side's count of the
//! rest ([`look_conversation`]), then by appends. In a garden's first snapshot such a
//! conversation goes as the count of all its lines alone ([`FileOp::Later`]), its last
//! lines after the snapshot ([`window_of_conversation`]): every creature's figures first.

use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::head_cache::{HeadCache, Made};
use super::wire::{Bytes, FileOp, WINDOW};
use crate::memory::far_head::{FarHead, last_dream_in};
use crate::memory::streams::{count_far_head, count_far_head_from};
use crate::tail::open_regular;

/// Files up to this size are read whole at each look.
pub const SMALL: u64 = 256 << 10;
/// Bytes before the end of what was sent that a large file must still hold.
const TAIL: u64 = 4 << 10;
/// A conversation larger than this goes as its last lines and its head's count.
pub const COUNT_ABOVE: u64 = 64 << 10;
/// Bytes of a conversation's end sent at least (from the start of the line they begin in).
pub const KEEP: u64 = 32 << 10;

/// What was sent of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    identity: (u64, u64),
    /// Where the near side's copy starts in the file (0 unless windowed).
    base: u64,
    /// Where it ends.
    end: u64,
    mtime: (i64, i64),
    /// A small file: the digest of bytes `0..end`; a large one: bytes `end - TAIL..end`.
    check: Vec<u8>,
}

/// Looks at the file at `path`: the change to send, if any, and what is then sent.
pub fn look(path: &Path, sent: Option<&Sent>) -> io::Result<(Option<FileOp>, Option<Sent>)> {
    look_shaped(path, sent, None).map(|(op, now, _)| (op, now))
}

/// Looks at the conversation at `path` as [`look`] looks at a file, but one of more than
/// [`COUNT_ABOVE`] bytes (up to [`WINDOW`]) that must go whole goes as its last lines
/// (at least [`KEEP`] bytes, from a line start) with the count of the lines before them
/// (counted as `how` says).
pub fn look_conversation(path: &Path, sent: Option<&Sent>, how: Counting) -> io::Result<Looked> {
    look_shaped(path, sent, Some(how))
}

/// How a conversation's lines are counted.
#[derive(Debug, Clone, Copy)]
pub struct Counting<'a> {
    /// Its creature's dreams log: fatigue counts the calls after the last dream.
    pub dreams: &'a Path,
    /// One that would go as its last lines goes as the count of all its lines and
    /// [`FileOp::Later`] instead, its copy empty until [`window_of_conversation`] sends it.
    pub later: bool,
    /// Where counts are kept between runs.
    pub cache: Option<&'a HeadCache>,
}

/// A conversation sent [`FileOp::Later`]: its window now, as a first look sends it (its
/// deletion, when it went meanwhile).
pub fn window_of_conversation(
    path: &Path,
    sent: Option<&Sent>,
    how: Counting,
) -> io::Result<Looked> {
    let how = Counting {
        later: false,
        ..how
    };
    let (op, now, head) = look_shaped(path, None, Some(how))?;
    Ok((op.or_else(|| sent.map(|_| FileOp::Delete)), now, head))
}

/// The change to send, what is then sent, and the count of the lines before a window.
pub type Looked = (Option<FileOp>, Option<Sent>, Option<FarHead>);

fn look_shaped(path: &Path, sent: Option<&Sent>, counting: Option<Counting>) -> io::Result<Looked> {
    let mut file = match open_regular(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok((sent.map(|_| FileOp::Delete), None, None));
        }
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    let identity = (meta.dev(), meta.ino());
    let mtime = (meta.mtime(), meta.mtime_nsec());
    let len = meta.len();
    let same = sent.filter(|s| s.identity == identity && s.end <= len);
    if let Some(s) = same
        && s.end == len
        && s.mtime == mtime
    {
        return Ok((None, Some(s.clone()), None));
    }
    let counted = counting.filter(|_| len > COUNT_ABOVE && len <= WINDOW);
    // A window sent with its head's count goes on by appends, whatever its size.
    let windowed = same.is_some_and(|s| s.base > 0);
    if len <= SMALL && !windowed {
        let mut bytes = Vec::with_capacity(len as usize);
        file.by_ref().take(SMALL).read_to_end(&mut bytes)?;
        let end = bytes.len() as u64;
        let digest = |b: &[u8]| Sha256::digest(b).to_vec();
        let op = match same.filter(|s| s.base == 0 && s.end <= end) {
            Some(s) if digest(&bytes[..s.end as usize]) == s.check => {
                (s.end < end).then(|| FileOp::Append {
                    bytes: Bytes::of(&bytes[s.end as usize..]),
                })
            }
            _ => match counted {
                Some(how) => {
                    return counted_put(&mut file, path, &meta, how);
                }
                None => Some(FileOp::Put {
                    base: 0,
                    size: end,
                    bytes: Bytes::bulk(&bytes),
                }),
            },
        };
        let now = Sent {
            identity,
            base: 0,
            end,
            mtime,
            check: digest(&bytes),
        };
        return Ok((op, Some(now), None));
    }
    if let Some(s) = same
        && s.base + 2 * WINDOW >= len
        && tail_of(&mut file, s.end)? == s.check
    {
        let added = read_range(&mut file, s.end, len)?;
        let end = s.end + added.len() as u64;
        let now = Sent {
            end,
            mtime,
            check: tail_of(&mut file, end)?,
            ..s.clone()
        };
        let op = (!added.is_empty()).then(|| FileOp::Append {
            bytes: Bytes::of(&added),
        });
        return Ok((op, Some(now), None));
    }
    if let Some(how) = counted {
        return counted_put(&mut file, path, &meta, how);
    }
    let window = read_range(&mut file, len.saturating_sub(WINDOW), len)?;
    // The window starts after the first line break in it: no half line.
    let cut = memchr::memchr(b'\n', &window).map_or(0, |i| i + 1);
    let end = len.saturating_sub(WINDOW) + window.len() as u64;
    let base = end - (window.len() - cut) as u64;
    let now = Sent {
        identity,
        base,
        end,
        mtime,
        check: tail_of(&mut file, end)?,
    };
    let op = FileOp::Put {
        base,
        size: len,
        bytes: Bytes::bulk(&window[cut..]),
    };
    Ok((Some(op), Some(now), None))
}

/// The conversation's last lines (at least [`KEEP`] bytes) and the count of the ones
/// before them; the whole file when no line starts early enough. [`Counting::later`]: the
/// count of every whole line and [`FileOp::Later`] (a line still being written goes as an
/// append).
fn counted_put(
    file: &mut std::fs::File,
    path: &Path,
    meta: &std::fs::Metadata,
    how: Counting,
) -> io::Result<Looked> {
    let (len, identity) = (meta.len(), (meta.dev(), meta.ino()));
    let mtime = (meta.mtime(), meta.mtime_nsec());
    let last_dream = last_dream_in(how.dreams);
    let count = |end: u64| match how.cache {
        Some(cache) => cache.count(path, &Made::of(meta), end, last_dream),
        None => count_far_head(path, end, last_dream),
    };
    if how.later {
        let base = line_start_before(file, len)?;
        if base > 0 {
            // Counted in two: the lines before the window that goes later (the count it
            // goes with, kept: not made again then), and on from there.
            let window_base = line_start_before(file, len.saturating_sub(KEEP))?;
            let before = (window_base > 0 && window_base < base).then(|| count(window_base));
            let head = match before.filter(|b| !b.stopped()) {
                Some(before) => count_far_head_from(path, &before, window_base, base, last_dream),
                None => count(base),
            };
            let now = Sent {
                identity,
                base,
                end: base,
                mtime,
                check: tail_of(file, base)?,
            };
            return Ok((Some(FileOp::Later { size: len }), Some(now), Some(head)));
        }
    }
    let base = line_start_before(file, len.saturating_sub(KEEP))?;
    let window = read_range(file, base, len)?;
    let end = base + window.len() as u64;
    let head = (base > 0).then(|| count(base));
    let now = Sent {
        identity,
        base,
        end,
        mtime,
        // As the next look checks it: a small file by its digest, a log by its tail.
        check: if base == 0 && end <= SMALL {
            Sha256::digest(&window).to_vec()
        } else {
            tail_of(file, end)?
        },
    };
    let op = FileOp::Put {
        base,
        size: len,
        bytes: Bytes::bulk(&window),
    };
    Ok((Some(op), Some(now), head))
}

/// The start of the line that holds byte `at` (0 when no line break comes before it).
fn line_start_before(file: &mut std::fs::File, at: u64) -> io::Result<u64> {
    let mut end = at;
    // A line is most often short: its last 4 KiB looked at first, then 64 KiB at a time.
    let mut step = 4 << 10;
    while end > 0 {
        let start = end.saturating_sub(step);
        step = 64 << 10;
        let chunk = read_range(file, start, end)?;
        if let Some(i) = memchr::memrchr(b'\n', &chunk) {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// Bytes `start..end` of the file (fewer when it is shorter now).
fn read_range(file: &mut std::fs::File, start: u64, end: u64) -> io::Result<Vec<u8>> {
    file.seek(SeekFrom::Start(start))?;
    let mut out = Vec::with_capacity(end.saturating_sub(start) as usize);
    file.by_ref()
        .take(end.saturating_sub(start))
        .read_to_end(&mut out)?;
    Ok(out)
}

/// The last [`TAIL`] bytes before `end`.
fn tail_of(file: &mut std::fs::File, end: u64) -> io::Result<Vec<u8>> {
    read_range(file, end.saturating_sub(TAIL), end)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn text_of(op: &FileOp) -> (String, Option<(u64, u64)>) {
        match op {
            FileOp::Put { base, size, bytes } => (
                String::from_utf8(bytes.decode().unwrap()).unwrap(),
                Some((*base, *size)),
            ),
            FileOp::Append { bytes } => (String::from_utf8(bytes.decode().unwrap()).unwrap(), None),
            FileOp::Delete => ("<deleted>".into(), None),
            FileOp::Later { size } => ("<later>".into(), Some((*size, *size))),
        }
    }

    #[test]
    fn a_line_start_is_found_however_long_the_line_and_wherever_the_reads_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        for (head, line) in [
            (10, 5),
            (100, (4 << 10) - 1),
            (100, 4 << 10),
            (100, (4 << 10) + 1),
            (7, (68 << 10) + 3),
            (0, 200 << 10),
        ] {
            let mut text = "h".repeat(head);
            if head > 0 {
                text.push('\n');
            }
            let start = text.len() as u64;
            text.push_str(&"x".repeat(line));
            std::fs::write(&path, &text).unwrap();
            let mut file = std::fs::File::open(&path).unwrap();
            let end = text.len() as u64;
            assert_eq!(
                line_start_before(&mut file, end).unwrap(),
                start,
                "{head} {line}"
            );
            // Byte `at` itself not looked at: a line break there starts no line before it.
            assert_eq!(
                line_start_before(&mut file, start).unwrap(),
                if head > 0 { start } else { 0 }
            );
        }
    }

    #[test]
    fn a_small_file_goes_whole_then_its_appends_then_whole_again_when_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("obs.md");
        assert_eq!(look(&p, None).unwrap(), (None, None));
        std::fs::write(&p, "a\n").unwrap();
        let (op, sent) = look(&p, None).unwrap();
        assert_eq!(text_of(&op.unwrap()), ("a\n".into(), Some((0, 2))));
        let (op, again) = look(&p, sent.as_ref()).unwrap();
        assert_eq!((op, again.as_ref()), (None, sent.as_ref()));
        let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(b"b\npartial").unwrap();
        let (op, sent) = look(&p, sent.as_ref()).unwrap();
        assert_eq!(text_of(&op.unwrap()), ("b\npartial".into(), None));
        // Rewritten in place, longer: the whole file again.
        std::fs::write(&p, "x\nb\npartial and more\n").unwrap();
        let (op, sent) = look(&p, sent.as_ref()).unwrap();
        assert_eq!(text_of(&op.unwrap()).1, Some((0, 21)));
        std::fs::remove_file(&p).unwrap();
        let (op, sent) = look(&p, sent.as_ref()).unwrap();
        assert_eq!((op, sent), (Some(FileOp::Delete), None));
    }

    #[test]
    fn a_large_log_goes_as_its_last_window_from_a_line_start_then_its_appends() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("conversation.jsonl");
        let line = format!(
            "{{\"role\":\"user\",\"content\":\"{}\"}}\n",
            "x".repeat(1000)
        );
        let lines = (WINDOW as usize / line.len()) + 100;
        std::fs::write(&p, line.repeat(lines)).unwrap();
        let size = (line.len() * lines) as u64;
        let (op, sent) = look(&p, None).unwrap();
        let (window, at) = text_of(&op.unwrap());
        let (base, total) = at.unwrap();
        assert_eq!(total, size);
        assert!(window.len() as u64 <= WINDOW && window.starts_with("{\"role\""));
        assert_eq!(base + window.len() as u64, size);
        assert_eq!(base % line.len() as u64, 0, "cut at a line start");
        let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(b"{\"role\":\"assistant\"}\n").unwrap();
        let (op, sent) = look(&p, sent.as_ref()).unwrap();
        assert_eq!(
            text_of(&op.unwrap()),
            ("{\"role\":\"assistant\"}\n".into(), None)
        );
        // Truncated and written again: the window (here the whole short file) again.
        std::fs::write(&p, line.repeat(lines)).unwrap();
        let (op, _) = look(&p, sent.as_ref()).unwrap();
        assert!(text_of(&op.unwrap()).1.is_some());
    }

    fn counting(dreams: &Path, later: bool) -> Counting<'_> {
        Counting {
            dreams,
            later,
            cache: None,
        }
    }

    /// A conversation line of about 560 bytes.
    fn line(i: usize) -> String {
        format!(
            "{{\"t\":\"2026-03-01T00:00:{:02}Z\",\"role\":\"user\",\"content\":\"{i} {}\"}}\n",
            i % 60,
            "x".repeat(500)
        )
    }

    #[test]
    fn a_conversation_goes_as_its_last_lines_with_the_count_of_the_rest_then_its_appends() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("conversation.jsonl");
        let dreams = dir.path().join("dreams.jsonl");
        // About 100 KiB: under SMALL, over COUNT_ABOVE.
        let text: String = (0..200).map(line).collect();
        std::fs::write(&p, &text).unwrap();
        let (op, sent, head) = look_conversation(&p, None, counting(&dreams, false)).unwrap();
        let (window, at) = text_of(&op.unwrap());
        let (base, size) = at.unwrap();
        let head = head.expect("the rest counted");
        assert_eq!(size, text.len() as u64);
        assert!(window.len() as u64 >= KEEP && base > 0, "{base}");
        assert_eq!(
            &text[base as usize..],
            window,
            "whole lines from a line start"
        );
        assert_eq!(head.lines, text[..base as usize].lines().count() as u64);
        assert_eq!((head.entries, head.bad), (head.lines, 0));
        // Appended: only the appended line goes, though the file is small.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&p)
            .unwrap()
            .write_all(line(200).as_bytes())
            .unwrap();
        let (op, sent, head) =
            look_conversation(&p, sent.as_ref(), counting(&dreams, false)).unwrap();
        assert_eq!(text_of(&op.unwrap()), (line(200), None));
        assert!(head.is_none());
        // Rewritten: its last lines and their count again.
        std::fs::write(&p, &text).unwrap();
        let (op, _, head) = look_conversation(&p, sent.as_ref(), counting(&dreams, false)).unwrap();
        assert!(text_of(&op.unwrap()).1.is_some());
        assert!(head.is_some());
        // Small enough: whole, no count.
        std::fs::write(&p, line(1)).unwrap();
        let (op, _, head) = look_conversation(&p, None, counting(&dreams, false)).unwrap();
        assert_eq!(
            text_of(&op.unwrap()),
            (line(1), Some((0, line(1).len() as u64)))
        );
        assert!(head.is_none());
    }

    #[test]
    fn a_first_snapshot_sends_a_conversations_count_alone_and_its_window_later() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("conversation.jsonl");
        let dreams = dir.path().join("dreams.jsonl");
        let text: String = (0..200).map(line).collect();
        // A line still being written at the end.
        let partial = "{\"t\":\"2026-03-01T00:01:00Z\",\"ro";
        std::fs::write(&p, format!("{text}{partial}")).unwrap();
        let (op, sent, head) = look_conversation(&p, None, counting(&dreams, true)).unwrap();
        let size = (text.len() + partial.len()) as u64;
        assert_eq!(op, Some(FileOp::Later { size }));
        let head = head.expect("every whole line counted");
        assert_eq!((head.lines, head.entries, head.bad), (200, 200, 0));
        // The copy holds nothing yet: the line being written goes as an append.
        let (op, sent, head) =
            look_conversation(&p, sent.as_ref(), counting(&dreams, true)).unwrap();
        assert_eq!(text_of(&op.unwrap()), (partial.to_string(), None));
        assert!(head.is_none());
        // The window, as a first look sends it, with the count of the lines before it.
        let (op, _, head) =
            window_of_conversation(&p, sent.as_ref(), counting(&dreams, true)).unwrap();
        let (window, at) = text_of(&op.unwrap());
        let (base, _) = at.unwrap();
        assert!(window.ends_with(partial) && base > 0);
        assert_eq!(
            head.unwrap().lines,
            text[..base as usize].lines().count() as u64
        );
        // Gone meanwhile: its deletion.
        std::fs::remove_file(&p).unwrap();
        let (op, now, _) =
            window_of_conversation(&p, sent.as_ref(), counting(&dreams, true)).unwrap();
        assert_eq!((op, now), (Some(FileOp::Delete), None));
        // A small one goes whole even in a first snapshot.
        std::fs::write(&p, line(1)).unwrap();
        let (op, _, head) = look_conversation(&p, None, counting(&dreams, true)).unwrap();
        assert_eq!(text_of(&op.unwrap()).0, line(1));
        assert!(head.is_none());
    }

    #[test]
    fn a_first_snapshots_count_is_made_once_for_it_and_for_the_window_after() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("conversation.jsonl");
        let dreams = dir.path().join("dreams.jsonl");
        // Calls over several minutes, a dream among them: fatigue and the pulse counted.
        let call = |i: usize| {
            format!(
                "{{\"t\":\"2026-03-01T00:{:02}:{:02}Z\",\"role\":\"assistant\",\"content\":[{{\"type\":\"tool_use\",\"id\":\"c{i}\",\"name\":\"bash\",\"input\":{{\"command\":\"{}\"}}}}]}}\n",
                i / 60,
                i % 60,
                "y".repeat(300)
            )
        };
        let text: String = (0..400).map(call).collect();
        std::fs::write(&p, &text).unwrap();
        std::fs::write(&dreams, "{\"t\":\"2026-03-01T00:02:30Z\",\"deep\":false}\n").unwrap();
        let last_dream = last_dream_in(&dreams);
        assert!(last_dream.is_some());
        let cache = HeadCache::at(dir.path().join("heads"));
        let how = Counting {
            dreams: &dreams,
            later: true,
            cache: Some(&cache),
        };
        let (op, sent, head) = look_conversation(&p, None, how).unwrap();
        assert!(matches!(op, Some(FileOp::Later { .. })));
        let end = text.len() as u64;
        assert_eq!(
            head.unwrap(),
            count_far_head(&p, end, last_dream),
            "as counted whole"
        );
        // One count kept: the window's, whose lines it goes with.
        cache.keep_some(10);
        let kept = std::fs::read_dir(dir.path().join("heads"))
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let mut entry: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&kept).unwrap()).unwrap();
        assert_eq!(entry["counts"].as_array().unwrap().len(), 1);
        // Made to say other figures: the window's count is that one, not made again.
        entry["counts"][0]["head"]["lines"] = 3.into();
        entry["counts"][0]["head"]["entries"] = 3.into();
        std::fs::write(&kept, serde_json::to_vec(&entry).unwrap()).unwrap();
        let (op, _, head) = window_of_conversation(&p, sent.as_ref(), how).unwrap();
        let (window, at) = text_of(&op.unwrap());
        let (base, _) = at.unwrap();
        assert!(window.len() as u64 >= KEEP && text.ends_with(&window));
        assert_eq!(entry["counts"][0]["end"], base);
        assert_eq!(head.unwrap().lines, 3);
    }
}
