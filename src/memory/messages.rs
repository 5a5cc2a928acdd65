//! `MESSAGES.md`: the creator's inbox. The observatory appends a message as a new dated
//! section in one `O_APPEND` write and never rewrites the file, so a person editing it at
//! the same time loses nothing. The creature owns its directory, so the inbox is opened
//! without following a symlink and written only when it is a regular file: a creature
//! cannot aim the operator's write at another file.

use std::fs::OpenOptions;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

/// The inbox file of the creature at `root`.
pub fn path(root: &Path) -> PathBuf {
    root.join("MESSAGES.md")
}

/// The section appended for `text` at `now`: a `# Messages` title first in a new file, a
/// newline first when the file's last line is unfinished. Trailing blank lines are dropped.
fn section(text: &str, now: DateTime<Utc>, file_is_empty: bool, ends_with_newline: bool) -> String {
    let mut out = String::new();
    if file_is_empty {
        out.push_str("# Messages\n");
    } else if !ends_with_newline {
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&entry(text, now));
    out
}

/// A message as its section reads in the file: a dated heading, a blank line, the text.
pub fn entry(text: &str, now: DateTime<Utc>) -> String {
    format!(
        "## {}\n\n{}\n",
        now.format("%Y-%m-%d %H:%M UTC"),
        text.trim_end()
    )
}

/// Why a message was not appended.
#[derive(Debug, thiserror::Error)]
pub enum MessageError {
    #[error("the message is empty")]
    Empty,
    #[error(
        "{}: a symbolic link, not written (the creature could aim it at any file)",
        .0.display()
    )]
    Symlink(PathBuf),
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
}

/// Appends `text` to the creature's `MESSAGES.md` (created when missing) as a new section
/// dated `now`. Returns the file's path. An empty message is refused, and so is an inbox
/// that is a symlink or not a regular file.
pub fn append(root: &Path, text: &str, now: DateTime<Utc>) -> Result<PathBuf, MessageError> {
    if text.trim().is_empty() {
        return Err(MessageError::Empty);
    }
    let path = path(root);
    let io = |source: io::Error| MessageError::Io {
        path: path.clone(),
        source,
    };
    // O_NONBLOCK: a FIFO in its place opens at once (and is then refused).
    let mut file = match OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(&path)
    {
        Ok(file) => file,
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(MessageError::Symlink(path));
        }
        Err(e) => return Err(io(e)),
    };
    crate::tail::ensure_regular(&file).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let mut last = [0u8; 1];
    let ends_with_newline = len == 0 || {
        file.seek(SeekFrom::Start(len - 1))
            .and_then(|_| file.read_exact(&mut last))
            .map_err(io)?;
        last[0] == b'\n'
    };
    let section = section(text, now, len == 0, ends_with_newline);
    // One write on an O_APPEND descriptor: the kernel places it at the end of the file as
    // it is at that moment, whatever anyone else appended since we looked.
    file.write_all(section.as_bytes()).map_err(io)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, 18, 5, 0).unwrap()
    }

    #[test]
    fn creates_the_file_with_a_title() {
        let dir = tempfile::tempdir().unwrap();
        append(dir.path(), "hello\nsecond line\n\n", now()).unwrap();
        let text = std::fs::read_to_string(path(dir.path())).unwrap();
        assert_eq!(
            text,
            "# Messages\n\n## 2026-11-22 18:05 UTC\n\nhello\nsecond line\n"
        );
    }

    #[test]
    fn appends_after_existing_text_without_touching_it() {
        let dir = tempfile::tempdir().unwrap();
        let before = "# Messages\n\nPlease keep it short.";
        std::fs::write(path(dir.path()), before).unwrap();
        append(dir.path(), "one", now()).unwrap();
        append(dir.path(), "two", now()).unwrap();
        let text = std::fs::read_to_string(path(dir.path())).unwrap();
        assert!(text.starts_with(before));
        assert_eq!(
            &text[before.len()..],
            "\n\n## 2026-11-22 18:05 UTC\n\none\n\n## 2026-11-22 18:05 UTC\n\ntwo\n"
        );
    }

    #[test]
    fn a_concurrent_writer_loses_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(path(dir.path()), "# Messages\n").unwrap();
        // Another process holds the file open for appending while we append.
        let mut other = OpenOptions::new()
            .append(true)
            .open(path(dir.path()))
            .unwrap();
        other.write_all(b"\nedited by a person\n").unwrap();
        append(dir.path(), "from the observatory", now()).unwrap();
        other.write_all(b"more from the person\n").unwrap();
        let text = std::fs::read_to_string(path(dir.path())).unwrap();
        assert!(text.contains("edited by a person\n"));
        assert!(text.contains("from the observatory\n"));
        assert!(text.ends_with("more from the person\n"));
    }

    #[test]
    fn empty_messages_and_unwritable_dirs_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        assert!(append(dir.path(), "  \n", now()).is_err());
        assert!(append(&dir.path().join("missing"), "x", now()).is_err());
        assert!(!path(dir.path()).exists());
    }

    #[test]
    fn a_symlinked_inbox_is_refused_and_its_target_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("operator-file");
        std::fs::write(&target, "precious\n").unwrap();
        std::os::unix::fs::symlink(&target, path(dir.path())).unwrap();
        let err = append(dir.path(), "hello", now()).unwrap_err().to_string();
        assert!(err.contains("symbolic link"), "{err}");
        assert!(err.contains("MESSAGES.md"), "{err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious\n");
    }

    #[test]
    fn a_fifo_inbox_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let status = std::process::Command::new("mkfifo")
            .arg(path(dir.path()))
            .status()
            .unwrap();
        assert!(status.success());
        let err = append(dir.path(), "hello", now()).unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
    }
}
