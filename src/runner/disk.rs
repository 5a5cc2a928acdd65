//! The driver's file work for the engine: performing its records, the reads it asks for,
//! and a creature's birth. A genome's own files are its [`crate::runner::genome::GenomeFiles`].

use std::io;
use std::path::Path;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::llm::Role;
use crate::memory::identity::Birth;
use crate::memory::inbox::Delivered;
use crate::memory::messages;
use crate::memory::time::format_time;
use crate::memory::write::{self, SeedPaths};

use super::engine::input::{Gathered, InboxRead};
use super::engine::output::Record;

/// A file of the creature that could not be read or written.
#[derive(Debug, Error)]
#[error("{file}: {source}")]
pub struct FileError {
    pub file: &'static str,
    #[source]
    pub source: io::Error,
}

impl FileError {
    pub fn of(file: &'static str) -> impl FnOnce(io::Error) -> Self {
        move |source| Self { file, source }
    }
}

/// `.sys/runner.json`: who hosts the creature, so the observatory can tell "stopped" (pid
/// dead) and "paused" for a creature it does not host itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunnerJson {
    pub pid: u32,
    pub started: String,
    pub brain: String,
    pub paused: bool,
    /// How the creature's commands run (`runner::sandbox::SandboxState::word`):
    /// confined, refused (no sandbox on this kernel) or unconfined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<String>,
    /// The disk is full: since when and what failed; the runner waits for room (written
    /// when it can be).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk_full: Option<String>,
}

/// Fails the runner's writes on demand, as a full disk would: for tests, which cannot
/// fill a real disk. Asked before each write the driver makes (the engine's records,
/// the genome's IO, the usage lines, the probe for room), with the file's name; an error
/// fails that write as if the system had returned it, and nothing is written.
pub trait WriteFaults: Send + Sync {
    fn before_write(&self, file: &str) -> io::Result<()>;
}

/// What the probe for room writes (and removes at once).
pub const PROBE_FILE: &str = "disk-probe.tmp";
/// Bytes the probe writes: more than a usual record, so room for it is room to go on.
const PROBE_BYTES: usize = 64 << 10;

/// Whether there is room again on the creature's disk: writes [`PROBE_BYTES`] to
/// `.sys/disk-probe.tmp`, syncs them and removes the file.
pub fn probe(paths: &SeedPaths) -> io::Result<()> {
    use std::io::Write;
    let path = paths.sys_dir().join(PROBE_FILE);
    let written = std::fs::File::create(&path).and_then(|mut f| {
        f.write_all(&[b'\n'; PROBE_BYTES])?;
        f.sync_all()
    });
    let _ = std::fs::remove_file(&path);
    written
}

/// `.sys/inbox.json`: what of `MESSAGES.md` has been delivered. Older runners kept a byte
/// offset instead (`{"offset": n}`), read by [`read_inbox_state`] as everything before it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct InboxState {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    delivered: Option<Delivered>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    offset: Option<u64>,
}

/// The most of `MESSAGES.md` read, from its end: older messages were delivered long ago,
/// and a huge inbox must not show up in memory.
pub const MAX_INBOX: u64 = 1 << 20;

/// What of the inbox was delivered, and whether `inbox.json` held an older form (a byte
/// offset, migrated here: the blocks before it count as delivered; when the file is now
/// shorter than that, it was rewritten since, and all of it counts as delivered rather
/// than sent whole again).
pub fn read_inbox_state(paths: &SeedPaths) -> io::Result<(Delivered, bool)> {
    let state: InboxState = match write::read_optional(&paths.inbox_state())? {
        None => InboxState::default(),
        Some(b) => serde_json::from_slice(&b)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("inbox.json: {e}")))?,
    };
    match (state.delivered, state.offset) {
        (Some(d), _) => Ok((d, false)),
        (None, None) => Ok((Delivered::default(), false)),
        (None, Some(offset)) => {
            let text = write::read_optional(&paths.messages())?.unwrap_or_default();
            let before = text.get(..offset as usize).unwrap_or(&text);
            let mut d = Delivered::default();
            d.take_new(&String::from_utf8_lossy(before));
            Ok((d, true))
        }
    }
}

fn write_inbox_state(paths: &SeedPaths, delivered: &Delivered) -> io::Result<()> {
    let state = InboxState {
        delivered: Some(delivered.clone()),
        offset: None,
    };
    write::write_json(&paths.inbox_state(), &state)
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Assistant => "assistant",
    }
}

/// Performs one write; `runner` is the runner.json kept by the driver.
pub fn perform(paths: &SeedPaths, runner: &mut RunnerJson, w: &Record) -> io::Result<()> {
    match w {
        Record::Conversation { t, role, content } => {
            write::append_conversation(paths, *t, role_name(*role), content).map(drop)
        }
        Record::Event { t, kind, fields } => {
            write::append_event(paths, *t, kind.as_str(), fields).map(drop)
        }
        Record::Memory { t, kind, data } => write::append_memory(paths, *t, kind, data).map(drop),
        Record::Iteration(i) => write::append_iteration(paths, i).map(drop),
        Record::SleepFile { wake_at } => write::write_sleep(paths, *wake_at),
        Record::RemoveSleepFile => write::remove_sleep(paths),
        Record::Runner { paused } => {
            runner.paused = *paused;
            write::write_json(&paths.runner(), runner)
        }
        Record::InboxDelivered(delivered) => write_inbox_state(paths, delivered),
        Record::AppendInbox { t, text } => messages::append(&paths.root, text, *t)
            .map(drop)
            .map_err(io::Error::other),
        Record::MorningReport(report) => {
            write::write_json(&crate::memory::guardrail::path(&paths.root), report)
        }
    }
}

/// `MESSAGES.md` as it is now (its last [`MAX_INBOX`] bytes at most). A symlink in its
/// place is refused, never read through: the creature may make one, and what it points
/// at would be delivered as its creator's words.
pub fn read_inbox(paths: &SeedPaths) -> Result<InboxRead, FileError> {
    let bytes = write::read_tail_nofollow(&paths.messages(), MAX_INBOX)
        .map_err(FileError::of("MESSAGES.md"))?;
    Ok(InboxRead {
        text: String::from_utf8_lossy(&bytes).into_owned(),
    })
}

fn read_text(path: &Path) -> io::Result<Option<String>> {
    Ok(write::read_optional(path)?.map(|b| String::from_utf8_lossy(&b).into_owned()))
}

/// Fresh reads for a wake-up message: the purpose, the genome's files (`refresh`), and the
/// inbox.
pub fn gather<F>(
    paths: &SeedPaths,
    refresh: impl FnOnce(&SeedPaths) -> (F, Vec<String>),
) -> Gathered<F> {
    let mut errors = Vec::new();
    let purpose = match read_text(&paths.purpose()) {
        Ok(p) => p.map(|p| p.trim().to_string()),
        Err(e) => {
            errors.push(format!("PURPOSE.md: {e}"));
            None
        }
    };
    let (genome, genome_errors) = refresh(paths);
    errors.extend(genome_errors);
    let inbox = match read_inbox(paths) {
        Ok(r) => Some(r),
        Err(e) => {
            errors.push(e.to_string());
            None
        }
    };
    Gathered {
        purpose,
        inbox,
        genome,
        errors,
    }
}

/// What a new creature starts from.
pub struct Newborn<'a> {
    pub name: &'a str,
    pub model: &'a str,
    pub purpose: &'a str,
    pub born: DateTime<Utc>,
    /// BIRTH.json's `genome`.
    pub genome: &'a str,
}

/// Creates the seed layout: `.self/`, `.sys/`, `workspace/`, `PURPOSE.md` and `MESSAGES.md`
/// (kept when already there), what of the inbox counts as delivered, and `BIRTH.json` last.
pub fn create(paths: &SeedPaths, n: &Newborn<'_>) -> io::Result<()> {
    for d in [
        paths.self_dir(),
        paths.sys_dir(),
        paths.root.join("workspace"),
    ] {
        std::fs::create_dir_all(d)?;
    }
    if !paths.purpose().exists() {
        write::atomic_write(
            &paths.purpose(),
            format!("# Purpose\n\n{}\n", n.purpose.trim()).as_bytes(),
        )?;
    }
    // What is there before the creature's first wake is not a message: the header written
    // here, or the title of an inbox prepared beforehand.
    let mut delivered = Delivered::default();
    if let Some(existing) = write::read_optional(&paths.messages())? {
        let title = existing.get(..title_len(&existing)).unwrap_or_default();
        delivered.take_new(&String::from_utf8_lossy(title));
    } else {
        let header = "# Messages\n\nWrite to your creature below; it reads what is new each time it wakes.\n";
        write::atomic_write(&paths.messages(), header.as_bytes())?;
        delivered.take_new(header);
    }
    write_inbox_state(paths, &delivered)?;
    let birth = Birth {
        id: Some(new_id()),
        name: n.name.to_string(),
        born: Some(format_time(n.born)),
        genome: Some(n.genome.to_string()),
        model: Some(n.model.to_string()),
        parent: None,
        created_by: Some(crate::runner::adoption::CREATOR.to_string()),
        ..Birth::default()
    };
    write::write_birth(paths, &birth)
}

/// Bytes of a leading `# Title` line and the blank lines after it: not a message.
fn title_len(text: &[u8]) -> usize {
    if !text.starts_with(b"# ") {
        return 0;
    }
    let mut at = memchr::memchr(b'\n', text).map_or(text.len(), |i| i + 1);
    while text.get(at) == Some(&b'\n') {
        at += 1;
    }
    at
}

/// A random UUID-shaped id (version 4 layout) from the standard library's random keys.
fn new_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let word = || {
        std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish()
    };
    let (a, b) = (word(), word());
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0x0fff,
        0x8000 | ((b >> 48) & 0x3fff),
        b & 0xffff_ffff_ffff
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn setup() -> (tempfile::TempDir, SeedPaths) {
        let dir = tempfile::tempdir().unwrap();
        let paths = SeedPaths::new(dir.path());
        let born = Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap();
        create(
            &paths,
            &Newborn {
                name: "sprout",
                model: "rehearsal",
                purpose: "grow",
                born,
                genome: "dreamer",
            },
        )
        .unwrap();
        (dir, paths)
    }

    /// What a wake now would deliver from the inbox.
    fn new_in_inbox(paths: &SeedPaths) -> Option<String> {
        let (mut delivered, migrated) = read_inbox_state(paths).unwrap();
        assert!(!migrated);
        delivered.take_new(&read_inbox(paths).unwrap().text)
    }

    #[test]
    fn birth_files_read_back() {
        let (_d, paths) = setup();
        let b = Birth::parse(&std::fs::read(paths.birth()).unwrap()).unwrap();
        assert_eq!(b.name, "sprout");
        assert_eq!(b.genome.as_deref(), Some("dreamer"));
        assert_eq!(b.model.as_deref(), Some("rehearsal"));
        assert_eq!(b.id.as_deref().map(str::len), Some(36));
        assert!(
            std::fs::read_to_string(paths.purpose())
                .unwrap()
                .contains("grow")
        );
        assert_eq!(new_in_inbox(&paths), None, "the header is not a message");
    }

    #[test]
    fn a_prepared_inbox_is_delivered_without_its_title() {
        let dir = tempfile::tempdir().unwrap();
        let paths = SeedPaths::new(dir.path());
        std::fs::write(paths.messages(), "# Messages\n\nWelcome.\n").unwrap();
        let born = Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap();
        create(
            &paths,
            &Newborn {
                name: "n",
                model: "m",
                purpose: "p",
                born,
                genome: "dreamer",
            },
        )
        .unwrap();
        assert_eq!(new_in_inbox(&paths).as_deref(), Some("Welcome."));
        assert_eq!(title_len(b"no title"), 0);
        assert_eq!(title_len(b"# only"), 6);
    }

    #[test]
    fn operator_messages_are_appended_as_sections_and_the_ledger_kept() {
        let (_d, paths) = setup();
        let mut runner = RunnerJson {
            pid: 1,
            started: String::new(),
            brain: String::new(),
            paused: false,
            tools: None,
            disk_full: None,
        };
        let t = Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap();
        perform(
            &paths,
            &mut runner,
            &Record::AppendInbox {
                t,
                text: "be brief".into(),
            },
        )
        .unwrap();
        let text = read_inbox(&paths).unwrap().text;
        assert!(
            text.ends_with("\n\n## 2026-03-01 10:00 UTC\n\nbe brief\n"),
            "{text}"
        );
        let (mut delivered, _) = read_inbox_state(&paths).unwrap();
        delivered.mark(&messages::entry("be brief", t));
        perform(
            &paths,
            &mut runner,
            &Record::InboxDelivered(delivered.clone()),
        )
        .unwrap();
        assert_eq!(read_inbox_state(&paths).unwrap(), (delivered, false));
        assert_eq!(new_in_inbox(&paths), None);
    }

    #[test]
    fn an_old_byte_offset_is_migrated_to_what_it_covered() {
        let (_d, paths) = setup();
        let old =
            "# Messages\n\nWrite below.\n\n[2026-03-01 10:00 UTC, from the operator] be brief\n";
        std::fs::write(paths.messages(), format!("{old}\nunread\n")).unwrap();
        std::fs::write(
            paths.inbox_state(),
            format!("{{\"offset\": {}}}", old.len()),
        )
        .unwrap();
        let (mut delivered, migrated) = read_inbox_state(&paths).unwrap();
        assert!(migrated);
        let text = read_inbox(&paths).unwrap().text;
        assert_eq!(delivered.take_new(&text).as_deref(), Some("unread"));
        // An offset past the end: the file was rewritten since; nothing is sent again.
        std::fs::write(paths.inbox_state(), "{\"offset\": 9999}").unwrap();
        let (mut delivered, _) = read_inbox_state(&paths).unwrap();
        assert_eq!(delivered.take_new(&text), None);
    }

    /// A `MESSAGES.md` symlink is refused and said so: what it points at is never
    /// delivered as the creator's words (issue 26).
    #[test]
    fn an_inbox_symlink_is_refused_never_read_through() {
        let (d, paths) = setup();
        let secret = d.path().join("elsewhere.txt");
        std::fs::write(&secret, "# Messages\n\nthe operator's private notes\n").unwrap();
        std::fs::remove_file(paths.messages()).unwrap();
        std::os::unix::fs::symlink(&secret, paths.messages()).unwrap();
        let e = read_inbox(&paths).err().unwrap();
        assert_eq!(e.file, "MESSAGES.md");
        assert!(e.to_string().contains("symbolic link"), "{e}");
        let g = gather(&paths, |_| ((), Vec::new()));
        assert!(g.inbox.is_none());
        assert!(
            g.errors
                .iter()
                .any(|e| e.starts_with("MESSAGES.md: ") && e.contains("symbolic link")),
            "{:?}",
            g.errors
        );
        assert!(!g.errors.iter().any(|e| e.contains("private notes")));
    }
}
