//! The terminal going away under the observatory (an SSH connection dropped, a terminal
//! window closed): noticed, and the observatory ends as if asked to quit.
//!
//! Written by hand because crossterm 0.29 reads a terminal that went away in a loop that
//! never ends (`read` gives 0 or fails with EIO for ever: crossterm-rs/crossterm#793, its
//! fix #1067 not released): the thread in that loop spins a core and never returns, and
//! when it is the event loop's own (a stream polled from the loop reads there), not even
//! SIGHUP is seen again. A thread of this module waits for the hangup (`POLLHUP` on
//! stdin), puts an empty non-blocking pipe in stdin's place, so that crossterm's next
//! read finds nothing to read and returns, and `/dev/null` in the place of stdout and
//! stderr where they were the same terminal (what is still written on the way out, the
//! terminal's restoring, goes nowhere instead of failing), and tells the event loop the
//! terminal is gone.

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, RawFd};
use std::os::unix::fs::{FileTypeExt, MetadataExt};

use tokio::sync::mpsc;

/// Watches stdin, when it is a terminal, for its hangup; the receiver gets `()` once it
/// happened (and stdin was swapped for an empty pipe), and is closed without it when
/// stdin is no terminal (crossterm then reads `/dev/tty`, which this does not watch) or
/// the thread could not start.
pub fn watch() -> mpsc::UnboundedReceiver<()> {
    let (tx, rx) = mpsc::unbounded_channel();
    // SAFETY: isatty(3) only inspects the descriptor.
    if unsafe { libc::isatty(libc::STDIN_FILENO) } != 1 {
        return rx;
    }
    let terminal = device(io::stdin().as_fd());
    let outputs: Vec<RawFd> = [io::stdout().as_fd(), io::stderr().as_fd()]
        .into_iter()
        .filter(|fd| terminal.is_some() && device(*fd) == terminal)
        .map(|fd| fd.as_raw_fd())
        .collect();
    let spawned = std::thread::Builder::new()
        .name("dreamwatch-hangup".into())
        .spawn(move || {
            if wait_for_hangup().is_ok() {
                if let Err(e) = let_go(&outputs) {
                    tracing::warn!("the terminal went away; its descriptors: {e}");
                }
                let _ = tx.send(());
            }
        });
    if let Err(e) = spawned {
        tracing::warn!("the terminal's hangup is not watched: {e}");
    }
    rx
}

/// Blocks until stdin hangs up (or fails, or is closed).
fn wait_for_hangup() -> io::Result<()> {
    loop {
        // No event asked for: poll(2) reports a hangup, an error and a closed descriptor
        // whatever is asked, and nothing else.
        let mut stdin = libc::pollfd {
            fd: libc::STDIN_FILENO,
            events: 0,
            revents: 0,
        };
        // SAFETY: one valid pollfd, for the length given.
        let n = unsafe { libc::poll(&mut stdin, 1, -1) };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if stdin.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
            return Ok(());
        }
    }
}

/// The character device a descriptor is open on.
fn device(fd: BorrowedFd<'_>) -> Option<u64> {
    let meta = std::fs::File::from(fd.try_clone_to_owned().ok()?)
        .metadata()
        .ok()?;
    meta.file_type().is_char_device().then(|| meta.rdev())
}

/// Puts the read end of a new, empty, non-blocking pipe at descriptor 0 (its write end
/// stays open, so a read finds "nothing yet", never an end), and `/dev/null` at each of
/// `outputs`.
fn let_go(outputs: &[RawFd]) -> io::Result<()> {
    let null = std::fs::OpenOptions::new().write(true).open("/dev/null")?;
    for fd in outputs {
        // SAFETY: dup2(2) onto a standard descriptor of this process; `null` stays ours.
        if unsafe { libc::dup2(null.as_raw_fd(), *fd) } < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    let mut ends = [0; 2];
    // SAFETY: pipe2(2) writes two descriptors into the array given.
    if unsafe { libc::pipe2(ends.as_mut_ptr(), libc::O_NONBLOCK | libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: dup2(2) on descriptors this process owns; the read end's own number is
    // closed once it is at 0, the write end is kept open for the process's life.
    unsafe {
        if libc::dup2(ends[0], libc::STDIN_FILENO) < 0 {
            return Err(io::Error::last_os_error());
        }
        libc::close(ends[0]);
    }
    Ok(())
}
