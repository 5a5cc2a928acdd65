//! The driver's file work for the engine: performing its records, the reads it asks for,
//! and a creature's birth. A genome's own files are its [`crate::runner::genome::GenomeFiles`].

use std::io;
use std::path::Path;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::llm::Role;
use crate::memory::identity::Birth;
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
}

/// `.sys/inbox.json`: how much of `MESSAGES.md` has been delivered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InboxState {
    pub offset: u64,
}

pub fn read_inbox_state(paths: &SeedPaths) -> io::Result<InboxState> {
    match write::read_optional(&paths.inbox_state())? {
        None => Ok(InboxState::default()),
        Some(b) => serde_json::from_slice(&b)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("inbox.json: {e}"))),
    }
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
        Record::InboxOffset(offset) => {
            write::write_json(&paths.inbox_state(), &InboxState { offset: *offset })
        }
        Record::AppendInbox { t, text } => {
            let entry = format!(
                "\n[{} UTC, from the operator] {}\n",
                t.format("%Y-%m-%d %H:%M"),
                text.trim()
            );
            write::append_bytes(&paths.messages(), entry.as_bytes()).map(drop)
        }
    }
}

/// New text of `MESSAGES.md` from byte `from`.
pub fn read_inbox(paths: &SeedPaths, from: u64) -> Result<InboxRead, FileError> {
    let (bytes, offset) =
        write::read_from(&paths.messages(), from).map_err(FileError::of("MESSAGES.md"))?;
    Ok(InboxRead {
        text: String::from_utf8_lossy(&bytes).into_owned(),
        offset,
    })
}

fn read_text(path: &Path) -> io::Result<Option<String>> {
    Ok(write::read_optional(path)?.map(|b| String::from_utf8_lossy(&b).into_owned()))
}

/// Fresh reads for a wake-up message: the purpose, the genome's files (`refresh`), and the
/// inbox from `inbox_from`.
pub fn gather<F>(
    paths: &SeedPaths,
    inbox_from: Option<u64>,
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
    let inbox = inbox_from.and_then(|from| match read_inbox(paths, from) {
        Ok(r) => Some(r),
        Err(e) => {
            errors.push(e.to_string());
            None
        }
    });
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
/// (kept when already there), the inbox offset, and `BIRTH.json` last.
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
    let offset = if let Some(existing) = write::read_optional(&paths.messages())? {
        title_len(&existing)
    } else {
        let header = "# Messages\n\nWrite to your creature below; it reads what is new each time it wakes.\n";
        write::atomic_write(&paths.messages(), header.as_bytes())?;
        header.len() as u64
    };
    write::write_json(&paths.inbox_state(), &InboxState { offset })?;
    let birth = Birth {
        id: Some(new_id()),
        name: n.name.to_string(),
        born: Some(format_time(n.born)),
        genome: Some(n.genome.to_string()),
        model: Some(n.model.to_string()),
        parent: None,
        ..Birth::default()
    };
    write::write_birth(paths, &birth)
}

/// Bytes of a leading `# Title` line and the blank lines after it: not a message.
fn title_len(text: &[u8]) -> u64 {
    if !text.starts_with(b"# ") {
        return 0;
    }
    let mut at = memchr::memchr(b'\n', text).map_or(text.len(), |i| i + 1);
    while text.get(at) == Some(&b'\n') {
        at += 1;
    }
    at as u64
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
                genome: "dreamwatch",
            },
        )
        .unwrap();
        (dir, paths)
    }

    #[test]
    fn birth_files_read_back() {
        let (_d, paths) = setup();
        let b = Birth::parse(&std::fs::read(paths.birth()).unwrap()).unwrap();
        assert_eq!(b.name, "sprout");
        assert_eq!(b.genome.as_deref(), Some("dreamwatch"));
        assert_eq!(b.model.as_deref(), Some("rehearsal"));
        assert_eq!(b.id.as_deref().map(str::len), Some(36));
        assert!(
            std::fs::read_to_string(paths.purpose())
                .unwrap()
                .contains("grow")
        );
        let offset = read_inbox_state(&paths).unwrap().offset;
        assert_eq!(
            read_inbox(&paths, offset).unwrap().text,
            "",
            "the header is not a message"
        );
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
                genome: "dreamwatch",
            },
        )
        .unwrap();
        let offset = read_inbox_state(&paths).unwrap().offset;
        assert_eq!(read_inbox(&paths, offset).unwrap().text, "Welcome.\n");
        assert_eq!(title_len(b"no title"), 0);
        assert_eq!(title_len(b"# only"), 6);
    }

    #[test]
    fn operator_messages_are_appended_and_read_once() {
        let (_d, paths) = setup();
        let mut runner = RunnerJson {
            pid: 1,
            started: String::new(),
            brain: String::new(),
            paused: false,
        };
        let from = read_inbox_state(&paths).unwrap().offset;
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
        let r = read_inbox(&paths, from).unwrap();
        assert_eq!(
            r.text,
            "\n[2026-03-01 10:00 UTC, from the operator] be brief\n"
        );
        assert_eq!(read_inbox(&paths, r.offset).unwrap().text, "");
        perform(&paths, &mut runner, &Record::InboxOffset(r.offset)).unwrap();
        assert_eq!(read_inbox_state(&paths).unwrap().offset, r.offset);
    }
}
