//! Hostile peers, simulated here: an orchestrator answering bodies and event-stream lines
//! far larger than any real one (read no further than the bounds, and said so), and far
//! sides that never say hello, stall after it, report more creatures than are followed,
//! or append without end (the copy is windowed). Every wait is bounded: a hang fails.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::http::{Reply, Server};
use dreamwatch::openseed::{Client, MAX_BODY, OpenSeedError, Streamed};
use dreamwatch::remote::connect::{Limits, connect_with};
use dreamwatch::remote::wire::WINDOW;
use dreamwatch::remote::{Remote, Transport, Update};
use tokio::sync::mpsc;

const MIB: usize = 1 << 20;

fn flood(status: u16, content_type: &'static str, head: &[u8], count: usize, tail: &[u8]) -> Reply {
    Reply::Flood {
        status,
        content_type,
        head: head.to_vec(),
        piece: vec![b'x'; MIB],
        count,
        tail: tail.to_vec(),
    }
}

fn client(server: &Server) -> Client {
    Client::new(&server.base, Arc::default(), Duration::from_secs(20)).unwrap()
}

/// Bounded: a read that does not stop fails the test instead of stalling it.
async fn within<T>(what: &str, f: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(60), f)
        .await
        .unwrap_or_else(|_| panic!("{what} did not end in time"))
}

#[tokio::test]
async fn an_answer_larger_than_the_bound_is_refused_unread_and_said() {
    // Four times the bound, with no length: read up to the bound, then dropped.
    let server = Server::start(vec![flood(
        200,
        "application/json",
        b"[",
        4 * MAX_BODY / MIB,
        b"]",
    )])
    .await;
    let error = within("a 64 MiB answer", client(&server).creatures())
        .await
        .unwrap_err();
    assert!(
        matches!(error, OpenSeedError::TooLarge { ref what, limit_mib } if what == "api/creatures" && limit_mib == MAX_BODY / MIB),
        "{error:?}"
    );
    assert!(error.to_string().contains("larger than 16 MiB"), "{error}");
}

#[tokio::test]
async fn a_huge_error_answer_is_cut_and_says_so() {
    let server = Server::start(vec![flood(500, "text/plain", b"broken: ", 64, b"")]).await;
    let error = within("a 64 MiB error", client(&server).wake("finch"))
        .await
        .unwrap_err();
    let OpenSeedError::Refused { status, body } = &error else {
        panic!("{error:?}")
    };
    assert_eq!(*status, 500);
    assert!(body.starts_with("broken: xxx"), "{body}");
    assert!(body.contains("[cut:") && body.len() < 17 << 10, "{body}");
    assert!(
        error.to_string().len() < 400,
        "the message is short: {error}"
    );
}

const EVENT: &str = r#"data: {"creature":"finch","t":"2026-03-01T10:00:00Z","type":"creature.thought","text":"after the flood"}"#;

/// The stream's next item (bounded).
async fn streamed(stream: &mut dreamwatch::openseed::EventStream) -> Streamed {
    within("the next streamed item", stream.next())
        .await
        .unwrap()
        .expect("the stream is open")
}

#[tokio::test]
async fn an_endless_stream_line_is_cut_said_and_the_stream_goes_on() {
    // 32 MiB of one line, then its end and a real event.
    let tail = format!("\n\n{EVENT}\n\n");
    let server = Server::start(vec![flood(
        200,
        "text/event-stream",
        b"data: ",
        32,
        tail.as_bytes(),
    )])
    .await;
    let mut stream = within("opening", client(&server).events()).await.unwrap();
    assert_eq!(streamed(&mut stream).await, Streamed::Cut(1));
    let Streamed::Event(event) = streamed(&mut stream).await else {
        panic!("the event after the cut")
    };
    assert_eq!(event.creature, "finch");
}

#[tokio::test]
async fn data_lines_that_never_end_their_event_are_cut_and_the_stream_goes_on() {
    // 32 data lines of 1 MiB each in one event: more than an event may hold.
    let mut line = b"data: ".to_vec();
    line.extend(std::iter::repeat_n(b'y', MIB));
    line.push(b'\n');
    let server = Server::start(vec![Reply::Flood {
        status: 200,
        content_type: "text/event-stream",
        head: Vec::new(),
        piece: line,
        count: 32,
        tail: format!("\n{EVENT}\n\n").into_bytes(),
    }])
    .await;
    let mut stream = within("opening", client(&server).events()).await.unwrap();
    assert_eq!(streamed(&mut stream).await, Streamed::Cut(1));
    assert!(matches!(
        streamed(&mut stream).await,
        Streamed::Event(e) if e.creature == "finch"
    ));
}

// ---- far sides ----------------------------------------------------------------------

struct Far {
    dir: tempfile::TempDir,
    mirror: PathBuf,
}

fn far() -> Far {
    let dir = tempfile::tempdir().unwrap();
    let mirror = dir.path().join("mirror");
    std::fs::create_dir_all(&mirror).unwrap();
    Far { dir, mirror }
}

const HELLO: &str = r#"{"t":"hello","protocol":4,"version":"0.0.0","system":"Linux x86_64"}"#;

/// A far side that sends the lines of `reports` (written to a file first), then waits
/// for its stdin to close.
fn far_side(far: &Far, reports: &str) -> PathBuf {
    let file = far.dir.path().join("reports.jsonl");
    std::fs::write(&file, reports).unwrap();
    script(far, &format!("cat '{}'; cat >/dev/null", file.display()))
}

fn script(far: &Far, body: &str) -> PathBuf {
    let path = far.dir.path().join("far.sh");
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    let mut perm = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&path, perm).unwrap();
    path
}

fn start(
    program: &Path,
    far: &Far,
    limits: Limits,
) -> (Remote, mpsc::UnboundedReceiver<(PathBuf, Update)>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let transport = Transport::Local {
        program: program.to_path_buf(),
        path: far.dir.path().join("garden"),
    };
    (connect_with(transport, far.mirror.clone(), tx, limits), rx)
}

async fn next(rx: &mut mpsc::UnboundedReceiver<(PathBuf, Update)>) -> Update {
    within("an update", rx.recv())
        .await
        .expect("the connection is alive")
        .1
}

fn quick() -> Limits {
    Limits {
        hello: Duration::from_millis(500),
        stall: Duration::from_millis(500),
        creatures: 10,
    }
}

#[tokio::test]
async fn a_far_side_that_never_says_hello_is_dropped_and_retried() {
    let far = far();
    let silent = script(&far, "sleep 60");
    let started = Instant::now();
    let (_remote, mut rx) = start(&silent, &far, quick());
    let Update::Down { error, retry_in } = next(&mut rx).await else {
        panic!("down")
    };
    assert!(error.contains("did not say hello within"), "{error}");
    assert_eq!(retry_in, Duration::from_secs(1), "the usual backoff");
    assert!(started.elapsed() < Duration::from_secs(10));
    // Tried again, and dropped again with the next wait of the backoff.
    let Update::Down { retry_in, .. } = next(&mut rx).await else {
        panic!("down again")
    };
    assert_eq!(retry_in, Duration::from_secs(2));
}

#[tokio::test]
async fn a_far_side_stalled_after_hello_is_marked_and_retried() {
    let far = far();
    let stalled = script(&far, &format!("echo '{HELLO}'; sleep 60"));
    let (_remote, mut rx) = start(&stalled, &far, quick());
    let Update::Down { error, retry_in } = next(&mut rx).await else {
        panic!("down")
    };
    assert!(error.contains("stalled"), "{error}");
    assert_eq!(retry_in, Duration::from_secs(1));
}

#[tokio::test]
async fn creatures_past_the_cap_are_refused_and_said() {
    let far = far();
    let mut reports = format!("{HELLO}\n");
    for i in 0..30 {
        reports.push_str(&format!(
            "{{\"t\":\"creature\",\"id\":\"c{i}\",\"path\":\"/far/c{i}\"}}\n\
             {{\"t\":\"file\",\"id\":\"c{i}\",\"file\":\"BIRTH.json\",\"op\":\"put\",\"base\":0,\"size\":2,\"data\":\"{{}}\"}}\n"
        ));
    }
    reports.push_str("{\"t\":\"ready\"}\n");
    let program = far_side(&far, &reports);
    let (_remote, mut rx) = start(&program, &far, quick());
    let Update::Cut { what } = next(&mut rx).await else {
        panic!("the cap said")
    };
    assert!(
        what.contains("more than 10 creatures") && what.contains("refused"),
        "{what}"
    );
    let Update::Cut { what } = next(&mut rx).await else {
        panic!("the count said")
    };
    assert!(what.contains("20 creatures past the cap"), "{what}");
    assert_eq!(next(&mut rx).await, Update::Up);
    let copies = std::fs::read_dir(&far.mirror).unwrap().count();
    assert_eq!(copies, 10);
    assert!(far.mirror.join("c9/BIRTH.json").exists());
    assert!(!far.mirror.join("c10").exists());
}

#[tokio::test]
async fn endless_far_appends_keep_the_copy_windowed() {
    let far = far();
    let line = format!("{{\\\"n\\\":\\\"{}\\\"}}\\n", "z".repeat(1000));
    let chunk = line.repeat(1024);
    let mut reports = format!(
        "{HELLO}\n{{\"t\":\"creature\",\"id\":\"s\",\"path\":\"/far/s\"}}\n{{\"t\":\"ready\"}}\n"
    );
    // 40 MiB of appends to one log, never windowed by this far side.
    for _ in 0..40 {
        reports.push_str(&format!(
            "{{\"t\":\"file\",\"id\":\"s\",\"file\":\".self/conversation.jsonl\",\"op\":\"append\",\"data\":\"{chunk}\"}}\n"
        ));
    }
    reports.push_str(
        r#"{"t":"file","id":"s","file":".self/conversation.jsonl","op":"append","data":"{\"n\":\"last\"}\n"}"#,
    );
    reports.push('\n');
    let program = far_side(&far, &reports);
    let (_remote, mut rx) = start(&program, &far, quick());
    assert_eq!(next(&mut rx).await, Update::Up);
    let copy = far.mirror.join("s/.self/conversation.jsonl");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let len = std::fs::metadata(&copy).map(|m| m.len()).unwrap_or(0);
        assert!(len <= 2 * WINDOW, "the copy holds {len} bytes");
        if std::fs::read(&copy).is_ok_and(|b| b.ends_with(b"{\"n\":\"last\"}\n")) {
            break;
        }
        assert!(Instant::now() < deadline, "the last append never came");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let kept = std::fs::read(&copy).unwrap();
    assert!(kept.starts_with(b"{\"n\":"), "from a line start");
    assert!(kept.len() as u64 <= 2 * WINDOW);
}
