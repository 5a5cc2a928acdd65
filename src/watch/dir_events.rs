//! Linux's inotify asked for changes only: the watcher's backend where there is one.
//!
//! notify's inotify watcher (which this replaces on Linux) also asks for `IN_OPEN`, so
//! every read of a watched file, ours and the creature's, wakes its thread and ours, and
//! it adds each watch through its own thread, a round trip for each directory (a garden
//! of 1000 creatures has 2000). notify has no setting for either, so this backend asks
//! the kernel itself, through the inotify crate, in the calling thread, and hands the
//! events on as notify's, to the same batching.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use inotify::{EventMask, Inotify, WatchDescriptor, WatchMask, Watches};
use notify::event::{AccessKind, AccessMode, CreateKind, Flag, ModifyKind, RemoveKind};
use notify::{Event, EventKind};

use super::watcher::DirWatch;

/// What is asked of each directory: its entries made, written, closed after writing,
/// changed, moved and removed, and it itself removed or moved. No opens, no reads.
fn mask() -> WatchMask {
    WatchMask::CREATE
        | WatchMask::MODIFY
        | WatchMask::ATTRIB
        | WatchMask::CLOSE_WRITE
        | WatchMask::MOVED_FROM
        | WatchMask::MOVED_TO
        | WatchMask::DELETE
        | WatchMask::DELETE_SELF
        | WatchMask::MOVE_SELF
}

/// The directories watched, both ways (the reader names an event's directory by its
/// descriptor; a directory watched again may get a new one).
#[derive(Default)]
struct Dirs {
    by_wd: HashMap<WatchDescriptor, PathBuf>,
    by_dir: HashMap<PathBuf, WatchDescriptor>,
}

/// Watches directories (not recursively); their events go to the sender given at start.
pub struct DirEvents {
    watches: Watches,
    dirs: Arc<Mutex<Dirs>>,
    /// Closed when this goes: the reader's poll sees the hang-up and it ends.
    _stop: io::PipeWriter,
}

fn lock(dirs: &Mutex<Dirs>) -> std::sync::MutexGuard<'_, Dirs> {
    dirs.lock().unwrap_or_else(PoisonError::into_inner)
}

impl DirEvents {
    /// Starts the reader thread; events (and an overflowed queue, as a rescan) go to `tx`.
    pub fn start(tx: Sender<notify::Result<Event>>) -> io::Result<Self> {
        let inotify = Inotify::init()?;
        let watches = inotify.watches();
        let dirs = Arc::new(Mutex::new(Dirs::default()));
        let (stopped, _stop) = io::pipe()?;
        let read_dirs = dirs.clone();
        thread::Builder::new()
            .name("dreamwatch-inotify".into())
            .spawn(move || read(inotify, &read_dirs, &stopped, &tx))?;
        Ok(Self {
            watches,
            dirs,
            _stop,
        })
    }
}

impl DirWatch for DirEvents {
    fn watch(&mut self, dir: &Path) -> notify::Result<()> {
        let wd = self.watches.add(dir, mask()).map_err(|e| {
            // As notify says it: "no space" here is the limit of watches a user may hold.
            let error = match e.raw_os_error() {
                Some(libc::ENOSPC) => notify::Error::new(notify::ErrorKind::MaxFilesWatch),
                _ => notify::Error::io(e),
            };
            error.add_path(dir.to_path_buf())
        })?;
        let mut dirs = lock(&self.dirs);
        dirs.by_wd.insert(wd.clone(), dir.to_path_buf());
        if let Some(old) = dirs.by_dir.insert(dir.to_path_buf(), wd.clone())
            && old != wd
        {
            // The directory was made again: the old one's watch ends with it.
            dirs.by_wd.remove(&old);
        }
        Ok(())
    }

    fn unwatch(&mut self, dir: &Path) -> notify::Result<()> {
        let wd = {
            let mut dirs = lock(&self.dirs);
            let wd = dirs.by_dir.remove(dir).ok_or_else(|| {
                notify::Error::new(notify::ErrorKind::WatchNotFound).add_path(dir.to_path_buf())
            })?;
            dirs.by_wd.remove(&wd);
            wd
        };
        // Gone already when the directory went (its watch went with it).
        self.watches
            .remove(wd)
            .map_err(|e| notify::Error::io(e).add_path(dir.to_path_buf()))
    }
}

/// Waits for events or the stop, reads what came, hands it on; ends at the stop, a read
/// error, or when no one takes the events.
fn read(
    mut inotify: Inotify,
    dirs: &Mutex<Dirs>,
    stopped: &io::PipeReader,
    tx: &Sender<notify::Result<Event>>,
) {
    let fail = |e: io::Error| {
        tracing::warn!("filesystem events stopped: {e}");
        let _ = tx.send(Err(notify::Error::io(e)));
    };
    let mut buffer = vec![0u8; 64 << 10];
    loop {
        match wait(inotify.as_fd(), stopped.as_fd()) {
            Ok(Woken::Events) => {}
            Ok(Woken::Stop) => return,
            Err(e) => return fail(e),
        }
        let events = match inotify.read_events(&mut buffer) {
            Ok(events) => events,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
            Err(e) => return fail(e),
        };
        let mut out = Vec::new();
        {
            let mut dirs = lock(dirs);
            for event in events {
                out.extend(translate(&mut dirs, &event.wd, event.mask, event.name));
            }
        }
        for event in out {
            if tx.send(Ok(event)).is_err() {
                return;
            }
        }
    }
}

/// notify's event for one of inotify's, if it says anything.
fn translate(
    dirs: &mut Dirs,
    wd: &WatchDescriptor,
    mask: EventMask,
    name: Option<&OsStr>,
) -> Option<Event> {
    if mask.contains(EventMask::Q_OVERFLOW) {
        return Some(Event::new(EventKind::Other).set_flag(Flag::Rescan));
    }
    if mask.contains(EventMask::IGNORED) {
        // The watch ended (its directory went, or it was unwatched).
        if let Some(dir) = dirs.by_wd.remove(wd)
            && dirs.by_dir.get(&dir) == Some(wd)
        {
            dirs.by_dir.remove(&dir);
        }
        return None;
    }
    let dir = dirs.by_wd.get(wd)?;
    let path = name.map_or_else(|| dir.clone(), |name| dir.join(name));
    let kind = if mask.contains(EventMask::CLOSE_WRITE) {
        EventKind::Access(AccessKind::Close(AccessMode::Write))
    } else if mask.contains(EventMask::CREATE) {
        EventKind::Create(CreateKind::Any)
    } else if mask.intersects(EventMask::DELETE | EventMask::DELETE_SELF) {
        EventKind::Remove(RemoveKind::Any)
    } else if mask.intersects(EventMask::MOVED_FROM | EventMask::MOVED_TO | EventMask::MOVE_SELF) {
        EventKind::Modify(ModifyKind::Name(notify::event::RenameMode::Any))
    } else if mask.contains(EventMask::ATTRIB) {
        EventKind::Modify(ModifyKind::Metadata(notify::event::MetadataKind::Any))
    } else {
        EventKind::Modify(ModifyKind::Data(notify::event::DataChange::Any))
    };
    Some(Event::new(kind).add_path(path))
}

enum Woken {
    Events,
    Stop,
}

/// Blocks until `events` can be read or `stop`'s other end is closed.
fn wait(events: BorrowedFd<'_>, stop: BorrowedFd<'_>) -> io::Result<Woken> {
    let mut fds = [
        libc::pollfd {
            fd: events.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        },
        libc::pollfd {
            fd: stop.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        },
    ];
    loop {
        // SAFETY: two valid pollfds, for the length given; both descriptors outlive the call.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, -1) };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if fds[1].revents != 0 {
            return Ok(Woken::Stop);
        }
        if fds[0].revents & libc::POLLIN != 0 {
            return Ok(Woken::Events);
        }
        if fds[0].revents != 0 {
            return Err(io::Error::other("the inotify descriptor failed"));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::mpsc::{Receiver, channel};
    use std::time::{Duration, Instant};

    use super::*;

    /// The paths of the events that come within `quiet` of each other (the first within
    /// a second), and whether one asked for a rescan.
    fn heard(rx: &Receiver<notify::Result<Event>>, quiet: Duration) -> (Vec<PathBuf>, bool) {
        let (mut paths, mut rescan) = (Vec::new(), false);
        let mut wait = Duration::from_secs(1);
        while let Ok(event) = rx.recv_timeout(wait) {
            let event = event.unwrap();
            rescan |= event.need_rescan();
            paths.extend(event.paths);
            wait = quiet;
        }
        paths.dedup();
        (paths, rescan)
    }

    fn started() -> (DirEvents, Receiver<notify::Result<Event>>) {
        let (tx, rx) = channel();
        (DirEvents::start(tx).unwrap(), rx)
    }

    type Watching = (
        tempfile::TempDir,
        PathBuf,
        DirEvents,
        Receiver<notify::Result<Event>>,
    );

    /// A directory `c` in a new temporary directory, watched.
    fn watching_a_directory() -> Watching {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("c");
        std::fs::create_dir(&dir).unwrap();
        let (mut events, rx) = started();
        events.watch(&dir).unwrap();
        (tmp, dir, events, rx)
    }

    #[test]
    fn changes_are_heard_and_reads_are_not() {
        let (_tmp, dir, _events, rx) = watching_a_directory();
        let log = dir.join("log.jsonl");
        std::fs::write(&log, "a\n").unwrap();
        assert_eq!(
            heard(&rx, Duration::from_millis(50)).0,
            std::slice::from_ref(&log)
        );
        // Read, again and again: nothing.
        for _ in 0..3 {
            std::fs::read(&log).unwrap();
        }
        assert_eq!(
            rx.recv_timeout(Duration::from_millis(200))
                .ok()
                .map(|e| e.unwrap().paths),
            None
        );
        // An append, a rename over it, a removal: each heard, by the file's path.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&log)
            .unwrap()
            .write_all(b"b\n")
            .unwrap();
        assert_eq!(
            heard(&rx, Duration::from_millis(50)).0,
            std::slice::from_ref(&log)
        );
        let next = dir.join(".log.tmp");
        std::fs::write(&next, "c\n").unwrap();
        std::fs::rename(&next, &log).unwrap();
        let (paths, _) = heard(&rx, Duration::from_millis(50));
        assert!(
            paths.contains(&next) && paths.ends_with(std::slice::from_ref(&log)),
            "{paths:?}"
        );
        std::fs::remove_file(&log).unwrap();
        assert_eq!(
            heard(&rx, Duration::from_millis(50)).0,
            std::slice::from_ref(&log)
        );
    }

    #[test]
    fn a_directory_removed_and_made_again_is_watched_again_by_its_path() {
        let (_tmp, dir, mut events, rx) = watching_a_directory();
        std::fs::remove_dir(&dir).unwrap();
        assert_eq!(
            heard(&rx, Duration::from_millis(50)).0,
            std::slice::from_ref(&dir)
        );
        // Its watch went with it.
        assert!(lock(&events.dirs).by_dir.is_empty());
        std::fs::create_dir(&dir).unwrap();
        events.watch(&dir).unwrap();
        std::fs::write(dir.join("x"), "1").unwrap();
        assert_eq!(heard(&rx, Duration::from_millis(50)).0, [dir.join("x")]);
        events.unwatch(&dir).unwrap();
        std::fs::write(dir.join("y"), "1").unwrap();
        assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
        assert!(events.unwatch(&dir).is_err());
    }

    #[test]
    fn an_overflowed_queue_asks_for_a_rescan() {
        let limit: usize = std::fs::read_to_string("/proc/sys/fs/inotify/max_queued_events")
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(16384);
        let tmp = tempfile::tempdir().unwrap();
        let (tx, rx) = channel();
        let mut events = DirEvents::start(tx).unwrap();
        events.watch(tmp.path()).unwrap();
        let mut files = ["a", "b"].map(|n| std::fs::File::create(tmp.path().join(n)).unwrap());
        let start = Instant::now();
        {
            // The reader is held up at its next read's naming of directories while the
            // kernel's queue fills. Two files by turns: the kernel merges an event only
            // with the same one just before it.
            let _held = lock(&events.dirs);
            for i in 0..(2 * limit + 64) {
                files[i % 2].write_all(b"x").unwrap();
            }
        }
        let mut rescan = false;
        while let Ok(event) = rx.recv_timeout(Duration::from_millis(500)) {
            rescan |= event.unwrap().need_rescan();
        }
        assert!(rescan, "no rescan after {:?}", start.elapsed());
    }

    #[test]
    fn it_ends_when_dropped() {
        let (events, rx) = started();
        drop(events);
        // The reader ends and drops its sender.
        assert!(matches!(
            rx.recv_timeout(Duration::from_secs(5)),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected)
        ));
    }
}
