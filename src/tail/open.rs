//! Opening creature files safely: a creature controls its directory, so any of its files
//! may be a symlink to `/dev/zero`, a FIFO, a socket or a directory. Only regular files
//! are read, and the type checked is the opened file's (`fstat`), never the path's, so a
//! swap between a check and the open changes nothing. FIFOs are opened without blocking
//! (`O_NONBLOCK`), so an open never waits for a writer that will not come.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// Opens `path` for reading when it is a regular file (symlinks to one are followed).
pub fn open_regular(path: &Path) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    ensure_regular(&file)?;
    Ok(file)
}

/// Opens `path` to append to it (created when missing) when it is a regular file: a FIFO
/// in its place opens at once (`O_NONBLOCK`; without a reader the open fails) and is
/// refused, as is a device, so a write never waits for a reader that will not come.
pub fn open_append(path: &Path) -> io::Result<File> {
    open_for_writing(path, OpenOptions::new().append(true).create(true))
}

/// Opens an existing regular file for writing (no append, no create), never waiting.
pub fn open_write(path: &Path) -> io::Result<File> {
    open_for_writing(path, OpenOptions::new().write(true))
}

/// Opens `path` with `options` without blocking, refusing what is not a regular file.
fn open_for_writing(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    let file = options
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            // A FIFO without a reader.
            Some(libc::ENXIO) => refused("a FIFO", "not written"),
            _ => e,
        })?;
    if let Some(what) = not_regular(&file)? {
        return Err(refused(what, "not written"));
    }
    Ok(file)
}

fn refused(what: &str, done: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("not a regular file ({what}): {done}"),
    )
}

/// Opens `path` for reading when it is a regular file and not a symlink: a symlink is
/// refused ([`io::ErrorKind::InvalidInput`], saying so), never followed.
pub fn open_regular_nofollow(path: &Path) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| {
            if e.raw_os_error() == Some(libc::ELOOP) {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a symbolic link: not read (never followed)",
                )
            } else {
                e
            }
        })?;
    ensure_regular(&file)?;
    Ok(file)
}

/// Fails with [`io::ErrorKind::InvalidInput`] unless `file` is a regular file; the message
/// says what it is instead.
pub fn ensure_regular(file: &File) -> io::Result<()> {
    match not_regular(file)? {
        None => Ok(()),
        Some(what) => Err(refused(what, "not read")),
    }
}

/// What `file` is when it is not a regular file.
fn not_regular(file: &File) -> io::Result<Option<&'static str>> {
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        return Ok(None);
    }
    let what = if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_dir() {
        "a directory"
    } else {
        "not a file"
    };
    Ok(Some(what))
}

/// Reads a whole regular file of at most `max` bytes; `None` when it does not exist. A
/// larger file (or one that grows past `max` while read) is an error, never read whole.
pub fn read_bounded(path: &Path, max: u64) -> io::Result<Option<Vec<u8>>> {
    let file = match open_regular(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let len = file.metadata()?.len();
    if len > max {
        return Err(too_large(len));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(Some(bytes))
}

/// The error for a file of `len` bytes, larger than a read may take.
pub fn too_large(len: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("{len} bytes or more: too large to read"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mkfifo(path: &Path) {
        let status = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .unwrap();
        assert!(status.success());
    }

    #[test]
    fn regular_files_and_symlinks_to_them_open() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a");
        std::fs::write(&p, "text").unwrap();
        std::os::unix::fs::symlink(&p, dir.path().join("link")).unwrap();
        assert_eq!(read_bounded(&p, 10).unwrap().unwrap(), b"text");
        assert_eq!(
            read_bounded(&dir.path().join("link"), 10).unwrap().unwrap(),
            b"text"
        );
        assert!(
            read_bounded(&dir.path().join("missing"), 10)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn devices_fifos_and_directories_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let zero = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let err = read_bounded(&zero, 1 << 30).unwrap_err();
        assert!(err.to_string().contains("character device"), "{err}");
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        let err = open_regular(&fifo).unwrap_err();
        assert!(err.to_string().contains("FIFO"), "{err}");
        let err = open_regular(dir.path()).unwrap_err();
        assert!(err.to_string().contains("directory"), "{err}");
    }

    #[test]
    fn appends_never_wait_on_a_fifo_and_refuse_devices() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        let err = open_append(&fifo).unwrap_err();
        assert!(err.to_string().contains("FIFO"), "{err}");
        // With a reader the open succeeds, and the type check refuses it.
        let _reader = open_regular(&fifo).unwrap_err();
        let reader = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
            .unwrap();
        let err = open_append(&fifo).unwrap_err();
        assert!(err.to_string().contains("FIFO"), "{err}");
        drop(reader);
        let err = open_write(&fifo).unwrap_err();
        assert!(err.to_string().contains("not written"), "{err}");
        let null = dir.path().join("null");
        std::os::unix::fs::symlink("/dev/null", &null).unwrap();
        let err = open_append(&null).unwrap_err();
        assert!(err.to_string().contains("character device"), "{err}");
        let p = dir.path().join("a");
        open_append(&p).unwrap();
        assert!(p.is_file());
    }

    #[test]
    fn files_over_the_bound_are_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a");
        std::fs::write(&p, "0123456789").unwrap();
        assert!(read_bounded(&p, 10).is_ok());
        let err = read_bounded(&p, 9).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::FileTooLarge);
    }
}
