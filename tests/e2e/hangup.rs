//! The terminal going away under the observatory without a signal (its pseudo-terminal
//! closed, no controlling terminal to send SIGHUP): the observatory ends, it does not
//! spin on a terminal that is gone.

use std::fs::File;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::process::{Pid, PidfdFlags, pidfd_open};
use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
use rustix::termios::{Winsize, tcsetwinsize};

use crate::common::ui::Garden;

/// The end of a frame: frames are wrapped in synchronized updates.
const FRAME_END: &[u8] = b"\x1b[?2026l";

fn timespec(d: Duration) -> Timespec {
    Timespec {
        tv_sec: d.as_secs() as i64,
        tv_nsec: i64::from(d.subsec_nanos()),
    }
}

/// Reads `master` until a frame has ended, for at most `within`.
fn read_a_frame(master: &mut File, within: Duration) -> Vec<u8> {
    let deadline = Instant::now() + within;
    let mut seen = Vec::new();
    let mut buf = [0u8; 65536];
    while !seen.windows(FRAME_END.len()).any(|w| w == FRAME_END) {
        let left = deadline.saturating_duration_since(Instant::now());
        assert!(!left.is_zero(), "no frame within {within:?}: {seen:?}");
        let mut fds = [PollFd::new(master, PollFlags::IN)];
        if poll(&mut fds, Some(&timespec(left))).unwrap_or(0) == 0 {
            continue;
        }
        let n = master.read(&mut buf).expect("read the pseudo-terminal");
        seen.extend_from_slice(&buf[..n]);
    }
    seen
}

#[test]
fn a_terminal_that_goes_away_ends_the_observatory() {
    let garden = Garden::new();
    let home = tempfile::tempdir().unwrap();
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC).unwrap();
    grantpt(&master).unwrap();
    unlockpt(&master).unwrap();
    let name = ptsname(&master, Vec::new()).unwrap();
    let size = Winsize {
        ws_row: 36,
        ws_col: 120,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    tcsetwinsize(&master, size).unwrap();
    let slave = File::options()
        .read(true)
        .write(true)
        .open(name.to_str().unwrap())
        .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_dreamwatch"))
        .arg(garden.creature("ember"))
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_STATE_HOME", home.path().join("state"))
        .env("TERM", "xterm-256color")
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    let mut master = File::from(master);
    read_a_frame(&mut master, Duration::from_secs(30));
    let pid = Pid::from_raw(child.id() as i32).unwrap();
    let ended = pidfd_open(pid, PidfdFlags::empty()).unwrap();
    drop(master);
    // Ended within 10 s of the terminal going away (a spinning one never ends).
    let mut fds = [PollFd::new(&ended, PollFlags::IN)];
    let ready = poll(&mut fds, Some(&timespec(Duration::from_secs(10)))).unwrap_or(0);
    if ready == 0 {
        let _ = child.kill();
        let _ = child.wait();
        panic!("the observatory was still running 10 s after its terminal went away");
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}
