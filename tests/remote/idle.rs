//! At rest the far side does no filesystem work: once its snapshot is sent and nothing
//! changes, not one read (counted by the kernel in `/proc/PID/io`) in a window where its
//! poller, were it ticking, would have ticked many times; a change is still sent at once.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::proc_io::reads_of;

const BIN: &str = env!("CARGO_BIN_EXE_dreamwatch");

/// Reads reports until one satisfies `wanted` (bounded by the caller's deadline).
fn until(out: &mut BufReader<ChildStdout>, wanted: impl Fn(&str) -> bool) -> String {
    let mut line = String::new();
    loop {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "the far side ended");
        if wanted(&line) {
            return line;
        }
    }
}

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn an_idle_far_side_reads_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let garden = dir.path().join("garden");
    for name in ["ada", "bob", "cy"] {
        let c = garden.join(name);
        std::fs::create_dir_all(c.join(".self")).unwrap();
        std::fs::write(c.join("BIRTH.json"), format!(r#"{{"name":"{name}"}}"#)).unwrap();
        std::fs::write(c.join(".self/observations.md"), "RED 10:00 first\n").unwrap();
    }
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let child = Command::new(BIN)
        .args(["inspect", "--follow", "--wire", "--poll-ms", "50"])
        .arg(&garden)
        .env("HOME", &home)
        .env("OPENSEED_HOME", home.join(".openseed"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut far = Killed(child);
    let pid = far.0.id();
    let mut out = BufReader::new(far.0.stdout.take().unwrap());
    until(&mut out, |l| l.starts_with(r#"{"t":"ready""#));
    // Whatever the start left to do is done within a moment; then nothing changes.
    std::thread::sleep(Duration::from_millis(500));
    let before = reads_of(pid);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        reads_of(pid),
        before,
        "the far side read something in 1.5 s where nothing changed (its poller ticks every 50 ms)"
    );
    // Still following: an append is sent as it comes.
    let started = Instant::now();
    let obs = garden.join("bob/.self/observations.md");
    let mut f = std::fs::OpenOptions::new().append(true).open(obs).unwrap();
    f.write_all(b"RED 10:01 second\n").unwrap();
    let sent = until(&mut out, |l| l.contains(r#""t":"file""#));
    assert!(sent.contains(r#""id":"bob""#), "{sent}");
    assert!(started.elapsed() < Duration::from_secs(30));
    drop(far.0.stdin.take());
}
