//! The writers the runner uses, in the seed layout (DESIGN.md section 2, first shape of
//! each row).
//!
//! Two primitives only: an atomic rewrite (temp file in the same directory, fsync, rename,
//! fsync of the directory) and an append of whole lines (one `write` call holding the line
//! and its newline, on a file opened with `O_APPEND`). A reader therefore never sees half a
//! line or half a file, even when the writer is killed.
//!
//! Records are serialised with the memory model's own types ([`Dream`], [`Iteration`],
//! [`Birth`], [`SleepFile`]) so the parsers read back exactly what was written.

use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Map, Value};

use super::dreams::Dream;
use super::identity::{Birth, SleepFile};
use super::iterations::Iteration;
use super::observations::{ObsItem, parse_item};
use super::time::format_time;

/// Where each seed file lives inside a creature directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedPaths {
    pub root: PathBuf,
}

impl SeedPaths {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }
    pub fn self_dir(&self) -> PathBuf {
        self.root.join(".self")
    }
    pub fn sys_dir(&self) -> PathBuf {
        self.root.join(".sys")
    }
    pub fn conversation(&self) -> PathBuf {
        self.self_dir().join("conversation.jsonl")
    }
    pub fn observations(&self) -> PathBuf {
        self.self_dir().join("observations.md")
    }
    pub fn dreams(&self) -> PathBuf {
        self.self_dir().join("dreams.jsonl")
    }
    pub fn priorities(&self) -> PathBuf {
        self.self_dir().join("priorities.md")
    }
    pub fn diary(&self) -> PathBuf {
        self.self_dir().join("diary.md")
    }
    pub fn iterations(&self) -> PathBuf {
        self.self_dir().join("iterations.jsonl")
    }
    pub fn memory(&self) -> PathBuf {
        self.self_dir().join("memory.jsonl")
    }
    pub fn events(&self) -> PathBuf {
        self.sys_dir().join("events.jsonl")
    }
    pub fn sleep(&self) -> PathBuf {
        self.sys_dir().join("sleep.json")
    }
    pub fn runner(&self) -> PathBuf {
        self.sys_dir().join("runner.json")
    }
    /// How much of `MESSAGES.md` has been delivered: `{"offset": bytes}`.
    pub fn inbox_state(&self) -> PathBuf {
        self.sys_dir().join("inbox.json")
    }
    pub fn birth(&self) -> PathBuf {
        self.root.join("BIRTH.json")
    }
    pub fn purpose(&self) -> PathBuf {
        self.root.join("PURPOSE.md")
    }
    pub fn messages(&self) -> PathBuf {
        self.root.join("MESSAGES.md")
    }
}

/// Replaces `path` with `bytes` atomically: a reader sees the old file or the new one.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = parent_dir(path);
    let mut tmp = tempfile::Builder::new()
        .prefix(".dreamwatch-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    // Keep the replaced file's mode; a new file gets the usual 0644, not the temp file's 0600.
    let mode = match fs::metadata(path) {
        Ok(m) => m.permissions(),
        Err(_) => fs::Permissions::from_mode(0o644),
    };
    tmp.as_file().set_permissions(mode)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    sync_dir(dir);
    Ok(())
}

fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Makes a rename durable. Best effort: some filesystems refuse to fsync a directory.
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Appends one line (a newline is added) in a single write on an `O_APPEND` file.
/// Returns the file length before the append, for [`truncate_to`] on rollback.
pub fn append_line(path: &Path, line: &str) -> io::Result<u64> {
    let mut buf = Vec::with_capacity(line.len() + 1);
    buf.extend_from_slice(line.as_bytes());
    buf.push(b'\n');
    append_bytes(path, &buf)
}

/// Appends `bytes` in one write call; returns the length before the append. Only to a
/// regular file: a FIFO or a device in its place is refused at once, never waited on.
pub fn append_bytes(path: &Path, bytes: &[u8]) -> io::Result<u64> {
    let mut file = crate::tail::open_append(path)?;
    let before = file.metadata()?.len();
    let written = file.write(bytes)?;
    if written != bytes.len() {
        // A short write on a regular file means the disk is full: undo the fragment.
        let _ = file.set_len(before);
        return Err(io::Error::new(
            io::ErrorKind::WriteZero,
            format!("short write to {}", path.display()),
        ));
    }
    Ok(before)
}

/// Serialises `value` as one compact JSON line and appends it.
pub fn append_json<T: Serialize>(path: &Path, value: &T) -> io::Result<u64> {
    let line = serde_json::to_string(value).map_err(io::Error::other)?;
    append_line(path, &line)
}

/// Appends JSON values as lines in one write (a genome's event-sourced file), creating
/// the file's directory when missing.
pub fn append_json_lines(path: &Path, lines: &[serde_json::Value]) -> io::Result<u64> {
    let mut buf = Vec::new();
    for l in lines {
        serde_json::to_writer(&mut buf, l).map_err(io::Error::other)?;
        buf.push(b'\n');
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    append_bytes(path, &buf)
}

/// Cuts a file back to `len` bytes: the rollback of an append.
pub fn truncate_to(path: &Path, len: u64) -> io::Result<()> {
    crate::tail::open_write(path)?.set_len(len)
}

/// Whether a write failed because the disk (or the user's quota) is full: `ENOSPC`,
/// `EDQUOT`, or a short write ([`append_bytes`]'s, or `write_all`'s).
pub fn is_disk_full(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::ENOSPC | libc::EDQUOT))
        || matches!(
            e.kind(),
            io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded | io::ErrorKind::WriteZero
        )
}

/// [`is_disk_full`] for an error already turned into text (a genome's failed write).
pub fn says_disk_full(text: &str) -> bool {
    [
        "No space left on device",
        "Disk quota exceeded",
        "short write",
        "failed to write whole buffer",
    ]
    .iter()
    .any(|s| text.contains(s))
}

/// Most of a file [`read_optional`] reads whole.
pub const MAX_WHOLE_FILE: u64 = 64 << 20;

/// Reads a regular file of at most [`MAX_WHOLE_FILE`] bytes, `None` when it does not
/// exist. A FIFO, a device or a larger file is an error, never a hang.
pub fn read_optional(path: &Path) -> io::Result<Option<Vec<u8>>> {
    crate::tail::read_bounded(path, MAX_WHOLE_FILE)
}

/// The last `max` bytes of a regular file at most (empty when it does not exist); when
/// that cuts the file, it starts after the first line end in the window, so no line is
/// cut at its start.
pub fn read_tail(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    read_tail_of(crate::tail::open_regular(path), max)
}

/// [`read_tail`] of a file that must not be a symlink: one is refused, never followed
/// (the creature's own files may point anywhere it can name).
pub fn read_tail_nofollow(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    read_tail_of(crate::tail::open_regular_nofollow(path), max)
}

fn read_tail_of(opened: io::Result<std::fs::File>, max: u64) -> io::Result<Vec<u8>> {
    let mut file = match opened {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let len = file.metadata()?.len();
    // One byte more than the window when it cuts the file: the line end before it, if
    // that is where the window starts.
    let start = len.saturating_sub(max).saturating_sub(u64::from(len > max));
    file.seek(SeekFrom::Start(start))?;
    let mut buf = Vec::with_capacity((len - start) as usize);
    Read::by_ref(&mut file)
        .take(len - start)
        .read_to_end(&mut buf)?;
    if start > 0 {
        let cut = memchr::memchr(b'\n', &buf).map_or(buf.len(), |i| i + 1);
        buf.drain(..cut);
    }
    Ok(buf)
}

// ---- seed records ----

/// `.self/conversation.jsonl`: `{"t","role","content"}`, content plain text or the JSON
/// text of a block array.
pub fn append_conversation(
    paths: &SeedPaths,
    t: DateTime<Utc>,
    role: &str,
    content: &str,
) -> io::Result<u64> {
    #[derive(Serialize)]
    struct Line<'a> {
        t: String,
        role: &'a str,
        content: &'a str,
    }
    append_json(
        &paths.conversation(),
        &Line {
            t: format_time(t),
            role,
            content,
        },
    )
}

/// `.sys/events.jsonl`: `{"t","type",...fields}` in OpenSeed's shape, `t` and `type` first.
pub fn append_event(
    paths: &SeedPaths,
    t: DateTime<Utc>,
    kind: &str,
    fields: &Map<String, Value>,
) -> io::Result<u64> {
    let mut line = format!(
        "{{\"t\":{},\"type\":{}",
        json_str(&format_time(t)),
        json_str(kind)
    );
    for (k, v) in fields {
        if k != "t" && k != "type" {
            line.push(',');
            line.push_str(&json_str(k));
            line.push(':');
            line.push_str(&v.to_string());
        }
    }
    line.push('}');
    append_line(&paths.events(), &line)
}

/// A string as JSON text, for hand-built lines.
fn json_str(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

/// `.self/memory.jsonl`: `{"t","type","data"}`.
pub fn append_memory(
    paths: &SeedPaths,
    t: DateTime<Utc>,
    kind: &str,
    data: &Value,
) -> io::Result<u64> {
    #[derive(Serialize)]
    struct Line<'a> {
        t: String,
        #[serde(rename = "type")]
        kind: &'a str,
        data: &'a Value,
    }
    append_json(
        &paths.memory(),
        &Line {
            t: format_time(t),
            kind,
            data,
        },
    )
}

pub fn append_iteration(paths: &SeedPaths, iteration: &Iteration) -> io::Result<u64> {
    append_json(&paths.iterations(), iteration)
}

pub fn append_dream(paths: &SeedPaths, dream: &Dream) -> io::Result<u64> {
    append_json(&paths.dreams(), dream)
}

/// The text to append to `observations.md` so that `lines` land under the `## date`
/// header: the header is added unless it is the file's last header, and a new file gets
/// the `# Observations` title.
pub fn observations_append_text(existing: Option<&str>, date: &str, lines: &[String]) -> String {
    let mut out = String::new();
    let last_header = existing.and_then(|text| {
        text.lines().rev().find_map(|l| match parse_item(l) {
            Some(ObsItem::Header { date, .. }) => Some(date),
            _ => None,
        })
    });
    match existing {
        None | Some("") => out.push_str("# Observations\n"),
        Some(text) if !text.ends_with('\n') => out.push('\n'),
        Some(_) => {}
    }
    if last_header.as_deref() != Some(date) {
        out.push_str("\n## ");
        out.push_str(date);
        out.push_str("\n\n");
    }
    for line in lines {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Appends observation lines under today's header; returns the length before, for rollback.
pub fn append_observations(paths: &SeedPaths, date: &str, lines: &[String]) -> io::Result<u64> {
    let path = paths.observations();
    let existing = read_optional(&path)?.map(|b| String::from_utf8_lossy(&b).into_owned());
    let text = observations_append_text(existing.as_deref(), date, lines);
    append_bytes(&path, text.as_bytes())
}

/// `priorities.md`: `# Priorities`, `Updated: YYYY-MM-DDTHH:MM`, then `- x` lines.
pub fn priorities_text(updated: DateTime<Utc>, items: &[String]) -> String {
    let mut out = format!(
        "# Priorities\n\nUpdated: {}\n\n",
        updated.format("%Y-%m-%dT%H:%M")
    );
    for item in items {
        out.push_str("- ");
        out.push_str(item.trim());
        out.push('\n');
    }
    out
}

pub fn write_priorities(
    paths: &SeedPaths,
    updated: DateTime<Utc>,
    items: &[String],
) -> io::Result<()> {
    atomic_write(
        &paths.priorities(),
        priorities_text(updated, items).as_bytes(),
    )
}

/// Appends a diary entry headed `## YYYY-MM-DDTHH:MM - Deep Sleep`.
pub fn append_diary(paths: &SeedPaths, at: DateTime<Utc>, body: &str) -> io::Result<u64> {
    append_bytes(&paths.diary(), diary_entry(at, body).as_bytes())
}

/// The text of a diary entry as appended.
pub fn diary_entry(at: DateTime<Utc>, body: &str) -> String {
    format!(
        "\n## {} - Deep Sleep\n\n{}\n",
        at.format("%Y-%m-%dT%H:%M"),
        body.trim()
    )
}

pub fn write_sleep(paths: &SeedPaths, wake_at: DateTime<Utc>) -> io::Result<()> {
    let file = SleepFile {
        wake_at: Some(wake_at),
    };
    let json = serde_json::to_vec(&file).map_err(io::Error::other)?;
    atomic_write(&paths.sleep(), &json)
}

/// Removes `.sys/sleep.json`; a missing file is not an error.
pub fn remove_sleep(paths: &SeedPaths) -> io::Result<()> {
    match fs::remove_file(paths.sleep()) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

pub fn write_birth(paths: &SeedPaths, birth: &Birth) -> io::Result<()> {
    let mut json = serde_json::to_vec_pretty(birth).map_err(io::Error::other)?;
    json.push(b'\n');
    atomic_write(&paths.birth(), &json)
}

/// Writes any serialisable value as pretty JSON, atomically.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> io::Result<()> {
    let mut json = serde_json::to_vec_pretty(value).map_err(io::Error::other)?;
    json.push(b'\n');
    atomic_write(path, &json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::documents::{Priorities, parse_diary};
    use crate::memory::observations::{Observations, Priority, format_observation};
    use chrono::TimeZone;

    fn at(h: u32, m: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 1, h, m, 0).unwrap()
    }

    #[test]
    fn append_line_adds_exactly_one_line() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.jsonl");
        assert_eq!(append_line(&p, "one").unwrap(), 0);
        assert_eq!(append_line(&p, "two").unwrap(), 4);
        assert_eq!(fs::read_to_string(&p).unwrap(), "one\ntwo\n");
        truncate_to(&p, 4).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "one\n");
    }

    #[test]
    fn a_full_disk_is_told_from_other_failures() {
        let full = io::Error::from_raw_os_error(libc::ENOSPC);
        assert!(is_disk_full(&full));
        assert!(says_disk_full(&full.to_string()));
        let quota = io::Error::from_raw_os_error(libc::EDQUOT);
        assert!(is_disk_full(&quota));
        assert!(says_disk_full(&quota.to_string()));
        let short = io::Error::new(io::ErrorKind::WriteZero, "short write to x");
        assert!(is_disk_full(&short));
        assert!(says_disk_full(&short.to_string()));
        let denied = io::Error::from_raw_os_error(libc::EACCES);
        assert!(!is_disk_full(&denied));
        assert!(!says_disk_full(&denied.to_string()));
    }

    #[test]
    fn appends_and_rollbacks_refuse_a_fifo_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("events.jsonl");
        let made = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .unwrap();
        assert!(made.success());
        let err = append_line(&p, "x").unwrap_err();
        assert!(err.to_string().contains("FIFO"), "{err}");
        assert!(truncate_to(&p, 0).is_err());
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.md");
        atomic_write(&p, b"old").unwrap();
        atomic_write(&p, b"new").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "new");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o644
        );
        fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).unwrap();
        atomic_write(&p, b"newer").unwrap();
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o600,
            "mode kept"
        );
    }

    #[test]
    fn observations_get_title_and_one_header_per_day() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join(".self")).unwrap();
        let paths = SeedPaths::new(dir.path());
        let l = |p, t: &str| format_observation(p, "10:00", t);
        append_observations(&paths, "2026-03-01", &[l(Priority::Red, "a")]).unwrap();
        append_observations(&paths, "2026-03-01", &[l(Priority::Grn, "b")]).unwrap();
        append_observations(&paths, "2026-03-02", &[l(Priority::Ylw, "c")]).unwrap();
        let text = fs::read_to_string(paths.observations()).unwrap();
        assert_eq!(
            text,
            "# Observations\n\n## 2026-03-01\n\nRED 10:00 a\nGRN 10:00 b\n\n## 2026-03-02\n\nYLW 10:00 c\n"
        );
        let doc = Observations::parse(&text);
        assert_eq!(doc.counts().red + doc.counts().grn + doc.counts().ylw, 3);
    }

    #[test]
    fn observations_after_a_file_without_final_newline() {
        let text = observations_append_text(
            Some("## 2026-03-01\nRED 10:00 a"),
            "2026-03-01",
            &["GRN 10:01 b".into()],
        );
        assert_eq!(text, "\nGRN 10:01 b\n");
    }

    #[test]
    fn priorities_and_diary_read_back() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join(".self")).unwrap();
        let paths = SeedPaths::new(dir.path());
        write_priorities(&paths, at(10, 5), &["a".into(), "b".into(), "c".into()]).unwrap();
        let p = Priorities::parse(&fs::read_to_string(paths.priorities()).unwrap());
        assert_eq!(p.updated.as_deref(), Some("2026-03-01T10:05"));
        assert_eq!(p.items, vec!["a", "b", "c"]);
        append_diary(&paths, at(10, 6), "first").unwrap();
        append_diary(&paths, at(11, 0), "second\n").unwrap();
        let d = parse_diary(&fs::read_to_string(paths.diary()).unwrap());
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].heading, "2026-03-01T10:06 - Deep Sleep");
        assert_eq!(d[1].body, "second");
    }

    #[test]
    fn read_tail_reads_whole_lines_of_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("MESSAGES.md");
        assert_eq!(read_tail(&p, 8).unwrap(), b"");
        fs::write(&p, "hello\n").unwrap();
        assert_eq!(read_tail(&p, 8).unwrap(), b"hello\n");
        fs::write(&p, "hello\nworld\n").unwrap();
        assert_eq!(read_tail(&p, 8).unwrap(), b"world\n");
        assert_eq!(read_tail(&p, 6).unwrap(), b"world\n");
        assert_eq!(read_tail(&p, 5).unwrap(), b"", "no whole line fits");
    }
}
