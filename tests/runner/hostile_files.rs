//! The headless runner on a creature whose files are FIFOs, `/dev/zero` or huge: it never
//! hangs, SIGTERM always stops it at once, its memory stays small, and a pending proposal
//! naming files outside its genome's is refused with nothing written.
//!
//! Each run is bounded: the runner is sent SIGTERM after a second and must be gone within
//! [`STOP`], or it is killed and the test fails (a hang fails instead of blocking).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long a runner may take to stop on SIGTERM.
const STOP: Duration = Duration::from_secs(10);
/// Peak RSS allowed (KiB): the runner costs about 25 MiB in a debug build.
const MAX_RSS_KIB: i64 = 150 << 10;
/// A huge file's size (sparse: it costs no disk).
const HUGE: u64 = 200_000_000;

fn runner(dir: &Path, out: File) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_dreamwatch"));
    cmd.arg("run")
        .arg(dir)
        .args(["--provider", "rehearsal", "--headless", "--speed", "1000"])
        .args(["--max-dreams", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::from(out.try_clone().unwrap()))
        .stderr(Stdio::from(out));
    cmd
}

/// A creature that has lived one dream.
fn seed() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c");
    let out = File::create(tmp.path().join("seed.log")).unwrap();
    let status = runner(&dir, out).status().unwrap();
    assert!(status.success());
    (tmp, dir)
}

struct Run {
    /// Peak RSS, KiB.
    rss_kib: i64,
    /// What the runner printed.
    output: String,
}

/// Runs the creature for at most `live`, then SIGTERM; fails when it does not stop.
fn run(dir: &Path, live: Duration) -> Run {
    let log = dir.parent().unwrap().join("run.log");
    // Waited for below with wait4, for its peak RSS.
    #[allow(clippy::zombie_processes)]
    let child = runner(dir, File::create(&log).unwrap()).spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let began = Instant::now();
    let mut termed: Option<Instant> = None;
    loop {
        let mut status = 0;
        // SAFETY: rusage is plain old data; all zeroes is a valid value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: a plain syscall on our own child, with valid out-pointers.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            return Run {
                rss_kib: usage.ru_maxrss,
                output: std::fs::read_to_string(&log).unwrap_or_default(),
            };
        }
        match termed {
            None if began.elapsed() >= live => {
                // SAFETY: a signal to our own child.
                unsafe { libc::kill(pid, libc::SIGTERM) };
                termed = Some(Instant::now());
            }
            Some(at) if at.elapsed() > STOP => {
                // SAFETY: a signal to our own child, then reaping it.
                unsafe { libc::kill(pid, libc::SIGKILL) };
                // SAFETY: as above, with a valid out-pointer.
                unsafe { libc::waitpid(pid, &mut status, 0) };
                panic!(
                    "the runner ignored SIGTERM for {STOP:?}: {}",
                    std::fs::read_to_string(&log).unwrap_or_default()
                );
            }
            _ => {}
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn remove(path: &Path) {
    if std::fs::symlink_metadata(path).is_ok() {
        std::fs::remove_file(path).unwrap();
    }
}

fn mkfifo(path: &Path) {
    remove(path);
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

fn dev_zero(path: &Path) {
    remove(path);
    std::os::unix::fs::symlink("/dev/zero", path).unwrap();
}

/// A sparse file of [`HUGE`] bytes: one line without its newline.
fn huge(path: &Path) {
    remove(path);
    File::create(path).unwrap().set_len(HUGE).unwrap();
}

/// The three hostile forms of the file at `rel`: each run stops and stays small.
fn hostile(rel: &str) {
    let (_tmp, dir) = seed();
    let path = dir.join(rel);
    let kept = std::fs::read(&path).ok();
    for (what, make) in [
        ("a FIFO", mkfifo as fn(&Path)),
        ("/dev/zero", dev_zero),
        ("a 200 MB file", huge),
    ] {
        make(&path);
        let r = run(&dir, Duration::from_secs(1));
        assert!(
            r.rss_kib < MAX_RSS_KIB,
            "{rel} as {what}: peak RSS {} KiB\n{}",
            r.rss_kib,
            r.output
        );
        eprintln!("{rel} as {what}: stopped, peak RSS {} KiB", r.rss_kib);
        // Put the file back as it was for the next form.
        remove(&path);
        for aside in ["unreadable", "refused"] {
            remove(&PathBuf::from(format!("{}.{aside}", path.display())));
        }
        if let Some(bytes) = &kept {
            std::fs::write(&path, bytes).unwrap();
        }
    }
}

#[test]
fn dreams_as_a_fifo_dev_zero_or_huge() {
    hostile(".self/dreams.jsonl");
}

#[test]
fn conversation_as_a_fifo_dev_zero_or_huge() {
    hostile(".self/conversation.jsonl");
}

#[test]
fn events_as_a_fifo_dev_zero_or_huge() {
    hostile(".sys/events.jsonl");
}

#[test]
fn memory_as_a_fifo_dev_zero_or_huge() {
    hostile(".self/memory.jsonl");
}

#[test]
fn dream_diffs_as_a_fifo_dev_zero_or_huge() {
    hostile(".sys/dream-diffs.jsonl");
}

#[test]
fn usage_as_a_fifo_dev_zero_or_huge() {
    hostile(".sys/usage.jsonl");
}

/// A pending proposal that is a FIFO, `/dev/zero` or 200 MB is set aside unread, said,
/// and the creature goes on.
#[test]
fn proposal_as_a_fifo_dev_zero_or_huge_is_set_aside() {
    let (_tmp, dir) = seed();
    let path = dir.join(".sys/proposal.json");
    let aside = dir.join(".sys/proposal.json.unreadable");
    for (what, make, says) in [
        ("a FIFO", mkfifo as fn(&Path), "FIFO"),
        ("/dev/zero", dev_zero, "character device"),
        ("a 200 MB file", huge, "too large"),
    ] {
        make(&path);
        let r = run(&dir, Duration::from_secs(1));
        assert!(
            r.rss_kib < MAX_RSS_KIB,
            "proposal as {what}: {} KiB",
            r.rss_kib
        );
        assert!(
            r.output.contains(".sys/proposal.json") && r.output.contains(says),
            "proposal as {what}: {}",
            r.output
        );
        assert!(!path.exists() && std::fs::symlink_metadata(&aside).is_ok());
        remove(&aside);
    }
}

/// A huge unterminated last line of `usage.jsonl` is not read at start, and the next
/// line is not glued to it.
#[test]
fn a_huge_last_usage_line_costs_nothing_and_is_not_glued_to() {
    let (_tmp, dir) = seed();
    let path = dir.join(".sys/usage.jsonl");
    let before = std::fs::metadata(&path).unwrap().len();
    let f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    f.set_len(before + HUGE).unwrap();
    let r = run(&dir, Duration::from_secs(30));
    assert!(r.rss_kib < MAX_RSS_KIB, "{} KiB", r.rss_kib);
    assert!(r.output.contains("usage.jsonl"), "{}", r.output);
    let last = dreamwatch::memory::usage::last_line(&path).unwrap();
    assert!(last.is_some(), "a line after the torn one reads");
}

/// Item 2 of the hardening: a proposal (its deadline passed, so it would apply itself at
/// start) naming `../PWN_rel.txt`, an absolute path and `BIRTH.json` is refused, set
/// aside as `proposal.json.refused`, and nothing of it is written.
#[test]
fn a_proposal_naming_files_outside_the_genome_is_refused() {
    let (tmp, dir) = seed();
    let outside = tmp.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    let abs = outside.join("PWN_abs.txt");
    let birth = std::fs::read(dir.join("BIRTH.json")).unwrap();
    let observations = std::fs::read(dir.join(".self/observations.md")).ok();
    for bad in [
        "../PWN_rel.txt".to_string(),
        abs.display().to_string(),
        "BIRTH.json".to_string(),
    ] {
        let proposal = serde_json::json!({
            "created": "2026-03-01T10:00:00Z", "deadline": "2000-01-01T00:00:00Z",
            "started": "2026-03-01T10:00:00Z", "rest_s": 1.0,
            "files": [
                {"path": ".self/observations.md", "op": "append", "text": "GRN 10:00 x\n"},
                {"path": bad, "op": "replace", "text": "pwned\n"},
            ],
        });
        std::fs::write(
            dir.join(".sys/proposal.json"),
            serde_json::to_vec(&proposal).unwrap(),
        )
        .unwrap();
        let r = run(&dir, Duration::from_secs(30));
        assert!(
            r.output.contains("refused") && r.output.contains(&format!("{bad:?}")),
            "{bad}: {}",
            r.output
        );
        assert!(dir.join(".sys/proposal.json.refused").exists());
        assert!(!tmp.path().join("PWN_rel.txt").exists());
        assert!(!abs.exists());
        assert_eq!(std::fs::read(dir.join("BIRTH.json")).unwrap(), birth);
        let now = std::fs::read(dir.join(".self/observations.md")).ok();
        assert!(
            !String::from_utf8_lossy(now.as_deref().unwrap_or_default()).contains("GRN 10:00 x"),
            "no file of a refused proposal is written"
        );
        std::fs::remove_file(dir.join(".sys/proposal.json.refused")).unwrap();
    }
    // The creature lived on meanwhile: its observations only grew.
    let now = std::fs::read(dir.join(".self/observations.md")).unwrap();
    assert!(now.len() >= observations.map_or(0, |o| o.len()));
}
