//! The bash tool: process groups, timeouts, output caps, scrubbed environment.

use std::time::Duration;

use dreamwatch::memory::conversation::ToolOutput;
use dreamwatch::runner::tools::{Bash, ToolRunner};

/// The runner's bash tool, confined as in real life: commands work in `workspace/`.
fn bash(timeout_ms: u64, cap: usize) -> Bash {
    Bash::new(Duration::from_millis(timeout_ms), cap)
}

/// Live (not zombie) processes of a process group, from /proc. Zombies are dead: where
/// PID 1 does not reap orphans they linger, but they run nothing.
fn live_members(pgid: i32) -> Vec<i32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some((pid, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 2 && fields[2] == pgid.to_string() && fields[0] != "Z" {
            out.extend(
                pid.split_whitespace()
                    .next()
                    .and_then(|p| p.parse::<i32>().ok()),
            );
        }
    }
    out
}

/// Waits until each of `pids` has ended, on the event itself: a pidfd (pidfd_open(2))
/// becomes readable when its process exits, however long that takes. A process already
/// gone (reaped) has ended.
fn wait_until_ended(pids: &[i32]) {
    use rustix::event::{PollFd, PollFlags, poll};
    use rustix::io::Errno;
    use rustix::process::{Pid, PidfdFlags, pidfd_open};
    for pid in pids.iter().filter_map(|p| Pid::from_raw(*p)) {
        let fd = match pidfd_open(pid, PidfdFlags::empty()) {
            Ok(fd) => fd,
            Err(Errno::SRCH) => continue,
            Err(e) => panic!("pidfd_open({pid:?}): {e}"),
        };
        let mut fds = [PollFd::new(&fd, PollFlags::IN)];
        while let Err(e) = poll(&mut fds, None) {
            assert_eq!(e, Errno::INTR, "poll on the pidfd of {pid:?}");
        }
    }
}

#[tokio::test]
async fn runs_in_the_creature_dir_and_reports_success() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("PURPOSE.md"), "grow").unwrap();
    let o = bash(5_000, 1_000)
        .run(dir.path(), "cat PURPOSE.md; echo oops >&2")
        .await;
    assert!(o.ok);
    let parsed = ToolOutput::parse(&o.content);
    assert_eq!(parsed.stdout, "grow");
    assert_eq!(parsed.stderr, "oops\n");
    assert_eq!(o.display, "grow");
}

#[tokio::test]
async fn failures_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let o = bash(5_000, 1_000).run(dir.path(), "cat missing.txt").await;
    assert!(!o.ok);
    assert!(
        o.content
            .starts_with("Error: exit code 1: cat: missing.txt"),
        "{}",
        o.content
    );
    assert!(o.content.contains("missing.txt"));
    assert!(ToolOutput::parse(&o.content).error.is_some());
}

#[tokio::test]
async fn timeout_kills_the_whole_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let o = bash(400, 1_000)
        .run(
            dir.path(),
            "echo $$ > workspace/pgid; (sleep 30; touch workspace/survived) & sleep 30",
        )
        .await;
    // Ended by the timeout, not by the command (which would have succeeded).
    assert!(!o.ok);
    assert!(o.content.contains("timeout"), "{}", o.content);
    let pgid: i32 = std::fs::read_to_string(dir.path().join("workspace/pgid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // The group was sent SIGKILL; its members end as the kernel gets to them. Had the
    // signal missed the background job, it would end only after its `sleep 30`, having
    // touched `survived` first.
    let members = live_members(pgid);
    tokio::task::spawn_blocking(move || wait_until_ended(&members))
        .await
        .unwrap();
    assert_eq!(
        live_members(pgid),
        Vec::<i32>::new(),
        "process group {pgid}"
    );
    assert!(
        !dir.path().join("workspace/survived").exists(),
        "the background job outlived the timeout"
    );
}

#[tokio::test]
async fn a_background_job_holding_the_pipe_does_not_block() {
    let dir = tempfile::tempdir().unwrap();
    // The job holds the pipe until the test releases it (or for a minute at most).
    let o = bash(10_000, 1_000)
        .run(
            dir.path(),
            "(for i in $(seq 1200); do [ -e workspace/release ] && break; sleep 0.05; done; touch workspace/finished) & echo started",
        )
        .await;
    assert!(o.ok, "{}", o.content);
    assert!(
        !dir.path().join("workspace/finished").exists(),
        "the run waited for the background job"
    );
    assert_eq!(ToolOutput::parse(&o.content).stdout, "started\n");
    std::fs::write(dir.path().join("workspace/release"), "").unwrap();
}

#[tokio::test]
async fn output_is_capped_and_marked() {
    let dir = tempfile::tempdir().unwrap();
    let o = bash(5_000, 100)
        .run(dir.path(), "head -c 200000 /dev/zero | tr '\\0' x")
        .await;
    assert!(o.ok);
    let parsed = ToolOutput::parse(&o.content);
    assert_eq!(parsed.stdout.len(), 100);
    let note = parsed.truncated_note.expect("cut output is marked");
    assert!(note.contains("200000 bytes"), "{note}");
    let small = bash(5_000, 100).run(dir.path(), "echo short").await;
    assert!(ToolOutput::parse(&small.content).truncated_note.is_none());
}
