//! Gardens on other machines, through the local transport: `dreamwatch inspect --follow
//! --wire` started directly (no ssh), its reports mirrored by the near side. Snapshot,
//! appends, rewrites, deletes, windowing of a large log, creatures coming and going,
//! requests, a protocol mismatch on either side, and a dropped connection resumed.

use std::io::Write;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::time::Duration;

use dreamwatch::remote::wire::{PROTOCOL, WINDOW};
use dreamwatch::remote::{Answered, Ask, Remote, Transport, Update, connect};
use tokio::sync::mpsc;

const BIN: &str = env!("CARGO_BIN_EXE_dreamwatch");

struct Far {
    _dir: tempfile::TempDir,
    garden: PathBuf,
    mirror: PathBuf,
    /// The far side: dreamwatch with a cache directory of the test's own (where it keeps
    /// its counts of conversations).
    program: PathBuf,
}

fn far() -> Far {
    let dir = tempfile::tempdir().unwrap();
    let garden = dir.path().join("garden");
    let sprout = garden.join("sprout");
    std::fs::create_dir_all(sprout.join(".self")).unwrap();
    std::fs::write(sprout.join("BIRTH.json"), r#"{"name":"sprout"}"#).unwrap();
    std::fs::write(sprout.join(".self/observations.md"), "RED 10:00 first\n").unwrap();
    let mirror = dir.path().join("mirror");
    std::fs::create_dir_all(&mirror).unwrap();
    let program = script_named(
        dir.path(),
        "far-dreamwatch.sh",
        &format!("exec '{BIN}' \"$@\""),
    );
    Far {
        _dir: dir,
        garden,
        mirror,
        program,
    }
}

fn start(program: &Path, far: &Far) -> (Remote, mpsc::UnboundedReceiver<(PathBuf, Update)>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let remote = connect(
        Transport::Local {
            program: program.to_path_buf(),
            path: far.garden.clone(),
        },
        far.mirror.clone(),
        tx,
    );
    (remote, rx)
}

/// The next update (bounded: a hang fails the test instead of stalling it).
async fn next(rx: &mut mpsc::UnboundedReceiver<(PathBuf, Update)>) -> Update {
    tokio::time::timeout(Duration::from_secs(30), rx.recv())
        .await
        .expect("an update")
        .expect("the connection task is alive")
        .1
}

/// The answer to a request (bounded).
async fn answer(rx: tokio::sync::oneshot::Receiver<Answered>) -> Answered {
    tokio::time::timeout(Duration::from_secs(30), rx)
        .await
        .expect("an answer in time")
        .expect("answered")
}

/// Waits until `check` holds (bounded; how long it took is not asserted).
async fn eventually(what: &str, check: impl Fn() -> bool) {
    for _ in 0..600 {
        if check() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("never: {what}");
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

fn append(p: &Path, text: &str) {
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(p)
        .unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mirror_follows_snapshot_appends_rewrites_deletes_and_creatures() {
    let far = far();
    let (_remote, mut rx) = start(&far.program, &far);
    assert_eq!(next(&mut rx).await, Update::Up);
    let copy = far.mirror.join("sprout");
    let obs = ".self/observations.md";
    assert_eq!(read(&copy.join(obs)), "RED 10:00 first\n");
    assert_eq!(read(&copy.join("BIRTH.json")), r#"{"name":"sprout"}"#);

    // An append arrives as an append: the copy keeps its inode.
    let inode = std::fs::metadata(copy.join(obs))
        .map(|m| std::os::unix::fs::MetadataExt::ino(&m))
        .unwrap();
    append(&far.garden.join("sprout").join(obs), "YLW 10:01 second\n");
    eventually("the append", || read(&copy.join(obs)).ends_with("second\n")).await;
    assert_eq!(read(&copy.join(obs)), "RED 10:00 first\nYLW 10:01 second\n");
    let same = std::fs::metadata(copy.join(obs))
        .map(|m| std::os::unix::fs::MetadataExt::ino(&m))
        .unwrap();
    assert_eq!(inode, same);

    // Truncated and rewritten: replaced whole.
    std::fs::write(far.garden.join("sprout").join(obs), "GRN 11:00 anew\n").unwrap();
    eventually("the rewrite", || {
        read(&copy.join(obs)) == "GRN 11:00 anew\n"
    })
    .await;

    // Deleted: gone here too.
    std::fs::remove_file(far.garden.join("sprout").join(obs)).unwrap();
    eventually("the delete", || !copy.join(obs).exists()).await;

    // A creature born there appears here; one removed there goes.
    let wren = far.garden.join("wren");
    std::fs::create_dir_all(wren.join(".self")).unwrap();
    std::fs::write(wren.join(".self/priorities.md"), "1. fly\n").unwrap();
    eventually("the new creature", || {
        read(&far.mirror.join("wren/.self/priorities.md")) == "1. fly\n"
    })
    .await;
    std::fs::remove_dir_all(far.garden.join("sprout")).unwrap();
    eventually("the removed creature", || !copy.exists()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_log_arrives_as_its_last_window_then_its_appends() {
    let far = far();
    let conv = far.garden.join("sprout/.self/conversation.jsonl");
    let line = format!(
        "{{\"role\":\"user\",\"content\":\"{}\"}}\n",
        "w".repeat(4000)
    );
    let lines = 3 * WINDOW as usize / line.len();
    std::fs::write(&conv, line.repeat(lines)).unwrap();
    let (_remote, mut rx) = start(&far.program, &far);
    assert_eq!(next(&mut rx).await, Update::Up);
    let copy = far.mirror.join("sprout/.self/conversation.jsonl");
    let held = std::fs::metadata(&copy).unwrap().len();
    assert!(
        held <= WINDOW,
        "{held} bytes held of {}",
        line.len() * lines
    );
    assert_eq!(held % line.len() as u64, 0, "whole lines only");
    append(&conv, "{\"role\":\"assistant\",\"content\":\"latest\"}\n");
    eventually("the append to the large log", || {
        read(&copy).ends_with("\"latest\"}\n")
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_reach_the_far_inbox_and_runner_socket_or_are_refused() {
    let far = far();
    let sprout = far.garden.join("sprout");
    let (remote, mut rx) = start(&far.program, &far);
    assert_eq!(next(&mut rx).await, Update::Up);

    // No runner: a command is refused plainly, a message goes to MESSAGES.md.
    let wake = || Ask::Control {
        id: "sprout".into(),
        command: serde_json::json!({"cmd": "wake"}),
    };
    let refused = answer(remote.ask(wake())).await;
    assert!(
        !refused.ok && refused.text.contains("no dreamwatch runner"),
        "{refused:?}"
    );
    let sent = answer(remote.ask(Ask::Message {
        id: "sprout".into(),
        text: "hello from afar".into(),
    }))
    .await;
    assert!(sent.ok, "{sent:?}");
    assert!(read(&sprout.join("MESSAGES.md")).contains("hello from afar"));

    // A runner there (its lock held, its socket listening): the lock is held on the
    // copy too, and a command reaches the socket.
    let sys = sprout.join(".sys");
    std::fs::create_dir_all(&sys).unwrap();
    let lock = std::fs::File::create(sys.join("runner.lock")).unwrap();
    // SAFETY: flock on a descriptor `lock` owns, for the test's life.
    assert_eq!(unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX) }, 0);
    let listener = tokio::net::UnixListener::bind(sys.join("control.sock")).unwrap();
    std::fs::write(sys.join("runner.json"), r#"{"pid":1}"#).unwrap();
    let copy = far.mirror.join("sprout");
    eventually("the runner's lock held on the copy", || {
        dreamwatch::memory::runner_lock::is_held(&copy)
    })
    .await;
    let runner = tokio::spawn(async move {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
        let (stream, _) = listener.accept().await.unwrap();
        let (read, mut write) = stream.into_split();
        let mut line = String::new();
        BufReader::new(read).read_line(&mut line).await.unwrap();
        write
            .write_all(b"{\"ok\":true,\"answer\":{\"kind\":\"already_awake\"}}\n")
            .await
            .unwrap();
        line
    });
    let accepted = answer(remote.ask(wake())).await;
    assert!(accepted.ok, "{accepted:?}");
    assert_eq!(
        accepted.answer,
        Some(serde_json::json!({"kind": "already_awake"}))
    );
    assert_eq!(runner.await.unwrap().trim(), r#"{"cmd":"wake"}"#);
    drop(lock);
    eventually("the runner's lock released on the copy", || {
        !dreamwatch::memory::runner_lock::is_held(&copy)
    })
    .await;
}

/// A program standing in for the far side: a shell script run with the far side's
/// arguments.
/// A far side's program in `dir` (its cache directory there too).
fn script(dir: &Path, body: &str) -> PathBuf {
    script_named(dir, "far.sh", body)
}

fn script_named(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    let cache = dir.join("far-cache");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nexport XDG_CACHE_HOME='{}'\n{body}\n",
            cache.display()
        ),
    )
    .unwrap();
    let mut perm = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&path, perm).unwrap();
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_far_side_of_another_protocol_is_refused_plainly() {
    let far = far();
    let other = script(
        far.mirror.parent().unwrap(),
        r#"echo '{"t":"hello","protocol":99,"version":"9.9.9","system":"Linux x86_64"}'; cat >/dev/null"#,
    );
    let (remote, mut rx) = start(&other, &far);
    let Update::Refused { error } = next(&mut rx).await else {
        panic!("refused")
    };
    assert!(
        error.contains("9.9.9") && error.contains("protocol 99"),
        "{error}"
    );
    let refused = answer(remote.ask(Ask::Message {
        id: "sprout".into(),
        text: "x".into(),
    }))
    .await;
    assert!(!refused.ok, "{refused:?}");
}

#[test]
fn the_far_side_refuses_a_near_side_of_another_protocol() {
    let far = far();
    let mut child = std::process::Command::new(&far.program)
        .args(["inspect", "--follow", "--wire"])
        .arg(&far.garden)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let hello = format!("{{\"t\":\"hello\",\"protocol\":{}}}\n", PROTOCOL + 1);
    child
        .stdin
        .as_mut()
        .unwrap()
        .write_all(hello.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8(out.stdout).unwrap();
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with(r#"{"t":"error""#) && last.contains("protocol"),
        "{last}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_connection_is_said_retried_and_resumed_with_what_changed_meanwhile() {
    let far = far();
    let pids = far.mirror.parent().unwrap().join("pids");
    let wrapper = script(
        far.mirror.parent().unwrap(),
        &format!("echo $$ >> '{}'; exec '{BIN}' \"$@\"", pids.display()),
    );
    let (_remote, mut rx) = start(&wrapper, &far);
    assert_eq!(next(&mut rx).await, Update::Up);
    let first: i32 = read(&pids).trim().parse().unwrap();
    // SAFETY: a signal to the far side this test started.
    unsafe { libc::kill(first, libc::SIGKILL) };
    let Update::Down { retry_in, .. } = next(&mut rx).await else {
        panic!("down")
    };
    assert_eq!(retry_in, Duration::from_secs(1));
    // Meanwhile, there: a line written, a creature gone.
    append(
        &far.garden.join("sprout/.self/observations.md"),
        "RED 12:00 while away\n",
    );
    assert_eq!(next(&mut rx).await, Update::Up);
    assert_eq!(read(&pids).lines().count(), 2, "started again");
    let obs = far.mirror.join("sprout/.self/observations.md");
    assert!(read(&obs).ends_with("while away\n"), "{}", read(&obs));
    append(
        &far.garden.join("sprout/.self/observations.md"),
        "GRN 12:01 after\n",
    );
    eventually("changes after the resume", || {
        read(&obs).ends_with("after\n")
    })
    .await;
}

/// A conversation of `lines` lines, a tool call on every third, a bad line on every 50th.
fn conversation(lines: usize, from: usize) -> String {
    (from..from + lines)
        .map(|i| {
            let t = format!("2026-03-01T{:02}:{:02}:{:02}Z", i / 3600, i / 60 % 60, i % 60);
            if i % 50 == 7 {
                "{not json\n".to_string()
            } else if i % 3 == 0 {
                format!(
                    "{{\"t\":\"{t}\",\"role\":\"assistant\",\"content\":[{{\"type\":\"tool_use\",\"id\":\"c{i}\",\"name\":\"bash\",\"input\":{{\"cmd\":\"{}\"}}}}]}}\n",
                    "x".repeat(i % 700)
                )
            } else {
                format!("{{\"t\":\"{t}\",\"role\":\"user\",\"content\":\"line {i} {}\"}}\n", "y".repeat(i % 900))
            }
        })
        .collect()
}

/// What the model makes of a creature: counts, fatigue, activity, the last entry.
fn figures(root: &Path) -> (u64, u64, u64, u64, Option<String>, Vec<u32>, Option<String>) {
    use dreamwatch::memory::creature::Creature;
    let mut c = Creature::open(root);
    c.refresh();
    let log = c.conversation();
    let now = chrono::DateTime::parse_from_rfc3339("2026-03-01T00:20:00Z")
        .unwrap()
        .to_utc();
    let last = log
        .recent()
        .back()
        .map(|(n, e)| format!("{n}: {}", e.text(80).0));
    (
        log.lines(),
        log.entries(),
        log.bad_lines(),
        c.fatigue(),
        c.last_activity().map(|t| t.to_rfc3339()),
        c.pulse(now, 48).calls,
        last,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conversation_arrives_counted_first_then_as_its_last_lines_when_asked() {
    let far = far();
    let sprout = far.garden.join("sprout");
    let conv = sprout.join(".self/conversation.jsonl");
    std::fs::write(&conv, conversation(900, 0)).unwrap();
    // A dream in the middle: fatigue counts the calls after it, some in the head.
    std::fs::write(
        sprout.join(".self/dreams.jsonl"),
        "{\"t\":\"2026-03-01T00:10:00Z\",\"reflection\":\"r\",\"deep\":false}\n",
    )
    .unwrap();
    // A second creature with a large conversation, whose window is not wanted.
    let moss = far.garden.join("moss");
    std::fs::create_dir_all(moss.join(".self")).unwrap();
    std::fs::write(moss.join(".self/conversation.jsonl"), conversation(300, 0)).unwrap();
    let size = std::fs::metadata(&conv).unwrap().len();
    assert!(size > 256 << 10, "{size}");
    let (remote, mut rx) = start(&far.program, &far);
    assert_eq!(next(&mut rx).await, Update::Up);
    assert_eq!(next(&mut rx).await, Update::Windows { left: 2 });
    // The snapshot: every figure the whole log's, no line of it held yet.
    let copy = far.mirror.join("sprout");
    let conv_copy = copy.join(".self/conversation.jsonl");
    assert_eq!(std::fs::metadata(&conv_copy).unwrap().len(), 0);
    let (mut here, mut there) = (figures(&copy), figures(&sprout));
    assert_eq!((here.6.take(), here.1 + here.2), (None, 900));
    there.6 = None;
    assert_eq!(here, there, "every figure but the last entry");
    assert!(here.3 > 0, "fatigue counted");
    assert!(
        here.5.iter().filter(|n| **n > 0).count() > 2,
        "{:?}",
        here.5
    );

    // Wanted: its window comes, with the count of the lines before it; the other's waits.
    drop(remote.ask(Ask::Want {
        id: "sprout".into(),
    }));
    assert_eq!(next(&mut rx).await, Update::Windows { left: 1 });
    let held = std::fs::metadata(&conv_copy).unwrap().len();
    assert!(held > 0 && held < 64 << 10, "{held} bytes of {size} held");
    let here = figures(&copy);
    assert_eq!(here, figures(&sprout));
    assert!(here.6.is_some(), "the last entry read");
    let moss_copy = far.mirror.join("moss/.self/conversation.jsonl");
    assert_eq!(
        std::fs::metadata(&moss_copy).unwrap().len(),
        0,
        "not wanted"
    );

    // Appended there: the copy goes on from its window, the figures still the whole log's.
    append(&conv, &conversation(30, 900));
    eventually("the appended lines", || figures(&copy) == figures(&sprout)).await;
    assert_eq!(figures(&copy).1 + figures(&copy).2, 930);

    // Every window asked for: the rest come.
    drop(remote.ask(Ask::Windows));
    assert_eq!(next(&mut rx).await, Update::Windows { left: 0 });
    assert!(std::fs::metadata(&moss_copy).unwrap().len() > 0);
    assert_eq!(figures(&far.mirror.join("moss")), figures(&moss));
}
