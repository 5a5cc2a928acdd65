//! Whole files (markdown, JSON) of a creature, read again when they change (whole, or
//! streamed line by line for a file that is folded as it is read).
//!
//! A file is read again when its (inode, length, mtime) changed, and only as a regular
//! file of at most [`MAX_DOCUMENT`] bytes ([`read_bounded`]). A streamed file that grew
//! and whose lines handed out last time are as they were hands out only the lines after
//! them ([`Streamed::Appended`]): those before are read and hashed (XXH3, in blocks), not
//! handed out again. In a line-based file a last line without its newline is still being written:
//! it is held back until its newline arrives, or until the file has been left alone for
//! the settle time (a person's editor that saves without a final newline). A held line
//! that is later completed replaces what was shown, since the whole file is read again.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use xxhash_rust::xxh3::Xxh3;

use super::layout::FileKind;
use crate::tail::read_bounded;

/// Whole files larger than this are not read.
pub const MAX_DOCUMENT: u64 = 16 << 20;
/// How long a file must be left alone before its unfinished last line is shown.
pub const DEFAULT_SETTLE: Duration = Duration::from_secs(2);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    ino: u64,
    len: u64,
    mtime_ns: i128,
}

#[derive(Debug)]
struct Seen {
    path: PathBuf,
    stamp: Stamp,
    /// An unfinished last line was left out of what was read.
    held: bool,
    /// A digest of the content handed out last (`None`: it could not be read).
    digest: Option<u64>,
    /// Bytes of the file that content is (up to the end of its last line).
    handed: u64,
}

/// What was handed out of a file last time: where a streamed read may go on from.
#[derive(Debug, Clone, Copy)]
struct Handed {
    /// The same path and inode: the file may have grown in place.
    same_file: bool,
    bytes: u64,
    digest: Option<u64>,
}

/// What [`WholeFiles::read`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum WholeRead {
    /// Nothing new to show.
    Unchanged,
    /// The file is gone (it existed before).
    Gone,
    /// The content to show: the file up to its last newline, or all of it.
    Content(Vec<u8>),
    /// It cannot be read: why.
    Failed(String),
}

/// What [`WholeFiles::stream`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Streamed {
    /// Nothing new to hand out.
    Unchanged,
    /// The file is gone (it existed before).
    Gone,
    /// Every line was handed out, from the file's start.
    Whole,
    /// Only the lines after those handed out last time, which are as they were.
    Appended,
    /// It cannot be read: why.
    Failed(String),
}

/// Whether a file is read again.
enum Check {
    /// Yes: its stamp now, and what was handed out last.
    Read(Stamp, Option<Handed>),
    /// No: nothing new.
    Unchanged,
    /// No: it is gone (it existed before).
    Gone,
    /// No: it cannot be looked at, why.
    Failed(String),
}

impl Seen {
    fn new(path: &Path, stamp: Stamp) -> Self {
        Self {
            path: path.to_path_buf(),
            stamp,
            held: false,
            digest: None,
            handed: 0,
        }
    }
}

/// The whole files of one creature, as last read.
#[derive(Debug)]
pub struct WholeFiles {
    settle: Duration,
    seen: HashMap<FileKind, Seen>,
}

impl WholeFiles {
    pub fn new(settle: Duration) -> Self {
        Self {
            settle,
            seen: HashMap::new(),
        }
    }

    /// Whether an unfinished last line is held back: a later read must settle it.
    pub fn holding(&self) -> bool {
        self.seen.values().any(|s| s.held)
    }

    /// Forgets what was read of `kind`: the next read hands it out again.
    pub fn forget(&mut self, kind: FileKind) {
        self.seen.remove(&kind);
    }

    /// Reads `path` (the file of `kind`) if it changed since the last call, or if an
    /// unfinished line held back then has now been idle for the settle time.
    pub fn read(&mut self, kind: FileKind, path: &Path) -> WholeRead {
        let (stamp, previous_digest) = match self.check(kind, path) {
            Check::Read(stamp, handed) => (stamp, handed.and_then(|h| h.digest)),
            Check::Unchanged => return WholeRead::Unchanged,
            Check::Gone => return WholeRead::Gone,
            Check::Failed(why) => return WholeRead::Failed(why),
        };
        let mut seen = Seen::new(path, stamp);
        let result = match read_bounded(path, MAX_DOCUMENT) {
            Ok(Some(mut bytes)) => {
                if is_line_based(kind) && !self.idle(stamp) {
                    let complete = memchr::memrchr(b'\n', &bytes).map_or(0, |nl| nl + 1);
                    seen.held = complete < bytes.len();
                    bytes.truncate(complete);
                }
                let digest = digest(&bytes);
                seen.digest = Some(digest);
                seen.handed = bytes.len() as u64;
                if previous_digest == Some(digest) {
                    WholeRead::Unchanged
                } else {
                    WholeRead::Content(bytes)
                }
            }
            Ok(None) => {
                self.seen.remove(&kind);
                return WholeRead::Gone;
            }
            Err(e) => WholeRead::Failed(format!("cannot read: {e}")),
        };
        self.seen.insert(kind, seen);
        result
    }

    /// Like [`WholeFiles::read`], but hands what it reads to `each_line` one line at a
    /// time (line end included), never holding the file whole: for a file folded line by
    /// line. When the file grew in place and the lines handed out last time are as they
    /// were, only the lines after them are handed out ([`Streamed::Appended`]: the caller
    /// folds them onto what it folded before); else all of them ([`Streamed::Whole`]).
    /// `Unchanged` when nothing new was handed out (the caller drops what it folded).
    pub fn stream(
        &mut self,
        kind: FileKind,
        path: &Path,
        each_line: &mut dyn FnMut(&[u8]),
    ) -> Streamed {
        let (stamp, handed) = match self.check(kind, path) {
            Check::Read(stamp, handed) => (stamp, handed),
            Check::Unchanged => return Streamed::Unchanged,
            Check::Gone => return Streamed::Gone,
            Check::Failed(why) => return Streamed::Failed(why),
        };
        let mut seen = Seen::new(path, stamp);
        let resume = handed.filter(|h| h.same_file && h.bytes <= stamp.len);
        let result = match self.stream_lines(kind, path, stamp, resume, &mut seen, each_line) {
            Ok(_) if seen.digest == handed.and_then(|h| h.digest) => Streamed::Unchanged,
            Ok(true) => Streamed::Appended,
            Ok(false) => Streamed::Whole,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                self.seen.remove(&kind);
                return Streamed::Gone;
            }
            Err(e) => Streamed::Failed(format!("cannot read: {e}")),
        };
        self.seen.insert(kind, seen);
        result
    }

    /// Reads the lines of `path` up to its stamped length, after those handed out last
    /// time when they are as they were (`resume`; the answer is then `true`), else from
    /// the start. Notes in `seen` their digest and where they end.
    fn stream_lines(
        &self,
        kind: FileKind,
        path: &Path,
        stamp: Stamp,
        resume: Option<Handed>,
        seen: &mut Seen,
        each_line: &mut dyn FnMut(&[u8]),
    ) -> io::Result<bool> {
        let file = crate::tail::open_regular(path)?;
        if stamp.len > MAX_DOCUMENT {
            return Err(crate::tail::too_large(stamp.len));
        }
        let mut reader = BufReader::with_capacity(64 << 10, file);
        let mut hasher = Xxh3::new();
        let mut at = 0;
        let appended = match resume {
            Some(before) => {
                // The bytes handed out, hashed as they are read (in the reader's blocks:
                // the lines are not looked for).
                let mut last = b'\n';
                let mut prefix = (&mut reader).take(before.bytes);
                loop {
                    let block = prefix.fill_buf()?;
                    let Some(&end) = block.last() else { break };
                    hasher.update(block);
                    last = end;
                    let n = block.len();
                    at += n as u64;
                    prefix.consume(n);
                }
                // They end a line (a line shown unfinished that grew is shown again).
                at == before.bytes
                    && Some(hasher.digest()) == before.digest
                    && (last == b'\n' || stamp.len == at)
            }
            None => false,
        };
        if !appended {
            reader.seek(SeekFrom::Start(0))?;
            hasher.reset();
            at = 0;
        }
        let mut line = Vec::new();
        let hold = is_line_based(kind) && !self.idle(stamp);
        let mut reader = reader.take(stamp.len - at);
        loop {
            line.clear();
            if reader.read_until(b'\n', &mut line)? == 0 {
                break;
            }
            if hold && line.last() != Some(&b'\n') {
                seen.held = true;
                break;
            }
            hasher.update(&line);
            at += line.len() as u64;
            each_line(&line);
        }
        seen.digest = Some(hasher.digest());
        seen.handed = at;
        Ok(appended)
    }

    /// Whether `path` is to be read: its stamp and the last digest, or what to answer.
    fn check(&mut self, kind: FileKind, path: &Path) -> Check {
        let stamp = match std::fs::metadata(path) {
            Ok(m) => Stamp {
                ino: m.ino(),
                len: m.len(),
                mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
            },
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return match self.seen.remove(&kind) {
                    Some(_) => Check::Gone,
                    None => Check::Unchanged,
                };
            }
            Err(e) => return Check::Failed(format!("cannot stat: {e}")),
        };
        let previous = self.seen.get(&kind);
        if let Some(seen) = previous
            && seen.path == path
            && seen.stamp == stamp
            && !(seen.held && self.idle(stamp))
        {
            return Check::Unchanged;
        }
        Check::Read(
            stamp,
            previous.map(|seen| Handed {
                same_file: seen.path == path && seen.stamp.ino == stamp.ino,
                bytes: seen.handed,
                digest: seen.digest,
            }),
        )
    }

    /// Whether a file with this stamp has been left alone for the settle time.
    fn idle(&self, stamp: Stamp) -> bool {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as i128);
        now.saturating_sub(stamp.mtime_ns) >= self.settle.as_nanos() as i128
    }
}

/// Markdown files are written line by line (by models, runners and people); JSON files
/// are rewritten whole and have no last line to wait for.
fn is_line_based(kind: FileKind) -> bool {
    !matches!(
        kind,
        FileKind::Birth
            | FileKind::Sleep
            | FileKind::Runner
            | FileKind::Proposal
            | FileKind::Guardrail
    ) && !matches!(kind, FileKind::Genome(file) if file.0.whole)
}

/// The same digest [`WholeFiles::stream`] makes of the lines it hands out.
fn digest(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn unchanged_files_are_not_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("rules.md");
        std::fs::write(&p, "- ALWAYS: x\n").unwrap();
        let mut files = WholeFiles::new(Duration::MAX);
        assert_eq!(
            files.read(FileKind::Rules, &p),
            WholeRead::Content(b"- ALWAYS: x\n".to_vec())
        );
        assert_eq!(files.read(FileKind::Rules, &p), WholeRead::Unchanged);
        std::fs::remove_file(&p).unwrap();
        assert_eq!(files.read(FileKind::Rules, &p), WholeRead::Gone);
        assert_eq!(files.read(FileKind::Rules, &p), WholeRead::Unchanged);
    }

    #[test]
    fn json_files_are_read_whole_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("BIRTH.json");
        std::fs::write(&p, "{\"name\":\"ada\"}").unwrap();
        let mut files = WholeFiles::new(Duration::MAX);
        assert_eq!(
            files.read(FileKind::Birth, &p),
            WholeRead::Content(b"{\"name\":\"ada\"}".to_vec())
        );
    }

    #[test]
    fn a_growing_unfinished_line_changes_nothing_until_complete() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("diary.md");
        std::fs::write(&p, "# Diary\npart").unwrap();
        let mut files = WholeFiles::new(Duration::MAX);
        assert_eq!(
            files.read(FileKind::Diary, &p),
            WholeRead::Content(b"# Diary\n".to_vec())
        );
        let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(b" more").unwrap();
        assert_eq!(files.read(FileKind::Diary, &p), WholeRead::Unchanged);
        f.write_all(b"\n").unwrap();
        assert_eq!(
            files.read(FileKind::Diary, &p),
            WholeRead::Content(b"# Diary\npart more\n".to_vec())
        );
    }

    /// Streams `p` as observations, collecting the lines handed out.
    fn stream(files: &mut WholeFiles, p: &Path) -> (Streamed, Vec<String>) {
        let mut lines = Vec::new();
        let mut collect = |l: &[u8]| lines.push(String::from_utf8_lossy(l).into_owned());
        let read = files.stream(FileKind::Observations, p, &mut collect);
        (read, lines)
    }

    #[test]
    fn a_streamed_file_is_handed_out_line_by_line_and_holds_its_unfinished_line() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("observations.md");
        std::fs::write(&p, "a\nb\npart").unwrap();
        let mut files = WholeFiles::new(Duration::MAX);
        assert_eq!(
            stream(&mut files, &p),
            (Streamed::Whole, vec!["a\n".into(), "b\n".into()])
        );
        assert_eq!(stream(&mut files, &p), (Streamed::Unchanged, vec![]));
        std::fs::write(&p, "a\nb\nparts\n").unwrap();
        assert_eq!(
            stream(&mut files, &p),
            (Streamed::Appended, vec!["parts\n".into()])
        );
        std::fs::remove_file(&p).unwrap();
        assert_eq!(stream(&mut files, &p), (Streamed::Gone, vec![]));
    }

    /// Lines appended in place are handed out alone; a file changed before its old end,
    /// replaced, truncated or grown from a line shown unfinished is handed out whole.
    #[test]
    fn only_appended_lines_are_streamed_and_any_other_change_streams_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("observations.md");
        let append = |text: &str| {
            let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
            f.write_all(text.as_bytes()).unwrap();
        };
        std::fs::write(&p, "RED a\nYLW b\n").unwrap();
        let mut files = WholeFiles::new(Duration::MAX);
        assert_eq!(stream(&mut files, &p).0, Streamed::Whole);
        append("GRN c\nGRN d\n");
        assert_eq!(
            stream(&mut files, &p),
            (Streamed::Appended, vec!["GRN c\n".into(), "GRN d\n".into()])
        );
        // Nothing complete appended: nothing new.
        append("GRN e");
        assert_eq!(stream(&mut files, &p), (Streamed::Unchanged, vec![]));
        append("\n");
        assert_eq!(
            stream(&mut files, &p),
            (Streamed::Appended, vec!["GRN e\n".into()])
        );
        // The same length rewritten in place (a marker changed), then a line appended.
        std::fs::write(&p, "GRN a\nYLW b\nGRN c\nGRN d\nGRN e\nRED f\n").unwrap();
        let (read, lines) = stream(&mut files, &p);
        assert_eq!((read, lines.len()), (Streamed::Whole, 6));
        // Replaced by a new file (a new inode) that only grew.
        let next = dir.path().join("next.md");
        std::fs::write(&next, "GRN a\nYLW b\nGRN c\nGRN d\nGRN e\nRED f\nRED g\n").unwrap();
        std::fs::rename(&next, &p).unwrap();
        let (read, lines) = stream(&mut files, &p);
        assert_eq!((read, lines.len()), (Streamed::Whole, 7));
        // Truncated.
        std::fs::write(&p, "RED g\n").unwrap();
        assert_eq!(
            stream(&mut files, &p),
            (Streamed::Whole, vec!["RED g\n".into()])
        );
        // An unfinished line shown once settled, then completed: handed out whole.
        let mut settled = WholeFiles::new(Duration::ZERO);
        std::fs::write(&p, "RED a\npart").unwrap();
        assert_eq!(stream(&mut settled, &p).1, ["RED a\n", "part"]);
        append("s\n");
        assert_eq!(
            stream(&mut settled, &p),
            (Streamed::Whole, vec!["RED a\n".into(), "parts\n".into()])
        );
    }
}
