//! SIGKILL the headless runner at random moments, many times: every file still parses and
//! the creature goes on where it was (dreams never lost, conversation only grows).

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use dreamwatch::memory::conversation::ConversationEntry;
use dreamwatch::memory::creature::Creature;
use dreamwatch::memory::documents::Priorities;
use dreamwatch::memory::dreams::Dream;
use dreamwatch::memory::events::Event;
use dreamwatch::memory::identity::{Birth, SleepFile};
use dreamwatch::memory::iterations::Iteration;
use dreamwatch::memory::json::LineError;
use dreamwatch::memory::observations::{ObsItem, parse_item};

const KILLS: u32 = 20;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Valid lines of a JSON-lines file; panics on a bad or partial one.
fn parse_all(path: &Path, parse: fn(&[u8]) -> Result<(), LineError>) -> usize {
    let Ok(bytes) = std::fs::read(path) else {
        return 0;
    };
    assert!(
        bytes.is_empty() || bytes.ends_with(b"\n"),
        "{}: a partial last line",
        path.display()
    );
    let mut n = 0;
    for (i, line) in bytes.split(|b| *b == b'\n').enumerate() {
        if line.is_empty() {
            continue;
        }
        if let Err(e) = parse(line) {
            panic!(
                "{} line {}: {e}: {}",
                path.display(),
                i + 1,
                String::from_utf8_lossy(line)
            );
        }
        n += 1;
    }
    n
}

/// Every file of the creature parses; returns (dreams, conversation lines, boots).
fn check(dir: &Path) -> (usize, usize, usize) {
    let dreams = parse_all(&dir.join(".self/dreams.jsonl"), |l| {
        Dream::parse(l).map(drop)
    });
    let conversation = parse_all(&dir.join(".self/conversation.jsonl"), |l| {
        ConversationEntry::parse(l).map(drop)
    });
    parse_all(&dir.join(".self/iterations.jsonl"), |l| {
        Iteration::parse(l).map(drop)
    });
    parse_all(&dir.join(".self/memory.jsonl"), |l| {
        Event::parse(l).map(drop)
    });
    parse_all(&dir.join(".sys/events.jsonl"), |l| {
        Event::parse(l).map(drop)
    });
    let boots = std::fs::read_to_string(dir.join(".sys/events.jsonl"))
        .unwrap_or_default()
        .matches("\"type\":\"creature.boot\"")
        .count();
    if let Ok(text) = std::fs::read_to_string(dir.join(".self/observations.md")) {
        for line in text.lines() {
            assert!(
                matches!(
                    parse_item(line),
                    None | Some(ObsItem::Title | ObsItem::Header { .. } | ObsItem::Observation(_))
                ),
                "observations.md: {line:?}"
            );
        }
    }
    if let Ok(text) = std::fs::read_to_string(dir.join(".self/priorities.md")) {
        let p = Priorities::parse(&text);
        assert!(
            (3..=5).contains(&p.items.len()) && p.updated.is_some(),
            "priorities.md: {text:?}"
        );
    }
    if let Ok(bytes) = std::fs::read(dir.join(".sys/sleep.json")) {
        assert!(SleepFile::parse(&bytes).unwrap().wake_at.is_some());
    }
    Birth::parse(&std::fs::read(dir.join("BIRTH.json")).unwrap()).unwrap();
    let c = Creature::open(dir);
    assert!(c.problems().is_empty(), "{:?}", c.problems());
    (dreams, conversation, boots)
}

fn runner(dir: &Path, extra: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_dreamwatch"));
    cmd.arg("run")
        .arg(dir)
        .args(["--provider", "rehearsal", "--headless", "--speed", "1000"])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

/// Waits for boot #`boots`, however long a slow machine takes; fails if the runner exits
/// first.
fn wait_for_boots(dir: &Path, child: &mut Child, boots: usize) {
    loop {
        let n = std::fs::read_to_string(dir.join(".sys/events.jsonl"))
            .unwrap_or_default()
            .matches("\"type\":\"creature.boot\"")
            .count();
        if n >= boots {
            return;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the runner exited ({status}) before boot #{boots}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn sigkill_at_random_moments_never_breaks_the_files() {
    let seed = std::env::var("CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
                | 1
        });
    eprintln!("CRASH_SEED={seed}");
    let mut rng = Rng(seed);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("crashy");
    let began = Instant::now();
    let (mut dreams, mut conversation, mut boots) = (0, 0, 0);
    for kill in 1..=KILLS {
        let mut child = runner(&dir, &[]).spawn().unwrap();
        wait_for_boots(&dir, &mut child, boots + 1);
        std::thread::sleep(Duration::from_millis(rng.below(400)));
        child.kill().unwrap();
        child.wait().unwrap();
        let (d, c, b) = check(&dir);
        assert!(d >= dreams, "kill {kill}: dreams went from {dreams} to {d}");
        assert!(
            c >= conversation,
            "kill {kill}: conversation shrank from {conversation} to {c}"
        );
        assert_eq!(b, boots + 1, "kill {kill}: one boot per run");
        (dreams, conversation, boots) = (d, c, b);
    }
    assert!(
        conversation > KILLS as usize,
        "the conversation kept growing: {conversation}"
    );
    assert!(dreams > 0, "dreams were made between kills");
    // And the creature still lives a normal life afterwards.
    let status = runner(&dir, &["--max-dreams", "2"]).status().unwrap();
    assert!(status.success());
    let (d, c, _) = check(&dir);
    assert_eq!(d, dreams + 2);
    assert!(c > conversation);
    eprintln!(
        "{KILLS} kills, {dreams} dreams before the last run, took {:?}",
        began.elapsed()
    );
}
