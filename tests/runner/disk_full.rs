//! A full disk (injected: every write fails with ENOSPC, as on a full filesystem) stops
//! the cycle's model calls, is said once, and the creature goes on by itself once a probe
//! finds room; what it counts is what is on disk. For the three hosted genomes.
//!
//! The real thing, on a small tmpfs: `tests/disk_full.sh` (root only, not run by CI).

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use chrono::{TimeDelta, TimeZone, Utc};
use tokio::sync::watch;

use dreamwatch::control::HostStatus;
use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::genomes::emergence::runner::Emergence;
use dreamwatch::genomes::evennia::runner::Evennia;
use dreamwatch::llm::{LlmFuture, Request};
use dreamwatch::memory::write::SeedPaths;
use dreamwatch::runner::brain::rehearsal::{self, Rehearsal};
use dreamwatch::runner::brain::task::Task;
use dreamwatch::runner::brain::{Brain, BrainKind};
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::disk::{PROBE_FILE, WriteFaults};
use dreamwatch::runner::driver::{RunReport, Runner, RunnerOptions};
use dreamwatch::runner::genome::Genome;

/// A disk that fills on demand and has room again after `room_after` probes.
struct Disk {
    full: AtomicBool,
    room_after: u32,
    probes: AtomicU32,
    /// Writes refused while full (none of them may have happened).
    refused: AtomicU64,
    /// The runner's status, read at each probe: it must say the disk is full.
    status: OnceLock<watch::Receiver<HostStatus>>,
    /// Each probe saw the status say so.
    told: AtomicBool,
}

impl Disk {
    fn new(room_after: u32) -> Self {
        Self {
            full: AtomicBool::new(false),
            room_after,
            probes: AtomicU32::new(0),
            refused: AtomicU64::new(0),
            status: OnceLock::new(),
            told: AtomicBool::new(true),
        }
    }
}

impl WriteFaults for Disk {
    fn before_write(&self, file: &str) -> io::Result<()> {
        if !self.full.load(Ordering::SeqCst) {
            return Ok(());
        }
        if file == PROBE_FILE {
            let says = self.status.get().is_some_and(|s| {
                s.borrow()
                    .last_error
                    .as_deref()
                    .is_some_and(|e| e.contains("disk full"))
            });
            if !says {
                self.told.store(false, Ordering::SeqCst);
            }
            if self.probes.fetch_add(1, Ordering::SeqCst) + 1 >= self.room_after {
                self.full.store(false, Ordering::SeqCst);
                return Ok(());
            }
        }
        self.refused.fetch_add(1, Ordering::SeqCst);
        Err(io::Error::from_raw_os_error(libc::ENOSPC))
    }
}

/// The rehearsal brain, filling the disk during its `fill_at`-th call, and counting the
/// calls that begin while the disk is full.
struct Filling {
    inner: Rehearsal,
    disk: Arc<Disk>,
    fill_at: u64,
    calls: AtomicU64,
    while_full: AtomicU64,
}

impl Brain for Filling {
    fn kind(&self) -> BrainKind {
        self.inner.kind()
    }

    fn label(&self) -> String {
        self.inner.label()
    }

    fn think<'a>(&'a self, task: &'a Task, request: &'a Request) -> LlmFuture<'a> {
        if self.disk.full.load(Ordering::SeqCst) {
            self.while_full.fetch_add(1, Ordering::SeqCst);
        }
        if self.calls.fetch_add(1, Ordering::SeqCst) + 1 == self.fill_at {
            self.disk.full.store(true, Ordering::SeqCst);
        }
        self.inner.think(task, request)
    }
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Lives `genome` on a disk that fills during model call `fill_at` and has room again
/// after 4 probes; checks what the module doc says.
async fn fill_and_go_on<G: Genome + Default>(fill_at: u64, sleeps: u64) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    let clock = Arc::new(VirtualClock::new(start, TimeDelta::seconds(1)));
    let disk = Arc::new(Disk::new(4));
    let brain = Arc::new(Filling {
        inner: Rehearsal::new(),
        disk: disk.clone(),
        fill_at,
        calls: AtomicU64::new(0),
        while_full: AtomicU64::new(0),
    });
    let said = Arc::new(Mutex::new(Vec::<String>::new()));
    let mut opts = RunnerOptions::new(
        dir.clone(),
        RunnerConfig::default(),
        brain.clone(),
        rehearsal::MODEL.into(),
    );
    opts.clock = clock.clone();
    opts.tools = Arc::new(crate::common::runner::SimulatedShell::default());
    opts.max_sleeps = Some(sleeps);
    opts.faults = Some(disk.clone());
    let sink = said.clone();
    opts.progress = Some(Box::new(move |l: &str| {
        sink.lock().unwrap().push(l.to_string())
    }));
    let runner = Runner::open_genome(opts, G::default()).unwrap();
    let _ = disk.status.set(runner.hosted().status);
    let report: RunReport =
        tokio::time::timeout(Duration::from_secs(120), runner.run(std::future::pending()))
            .await
            .expect("the runner went on after the disk had room again");

    let said = said.lock().unwrap().clone();
    let name = std::any::type_name::<G>();
    eprintln!(
        "{name}: {} calls, {} writes refused while full, {:?}",
        brain.calls.load(Ordering::SeqCst),
        disk.refused.load(Ordering::SeqCst),
        report
    );
    // It filled, and had room again after the probes.
    assert!(disk.refused.load(Ordering::SeqCst) > 0, "{name}: it filled");
    assert_eq!(disk.probes.load(Ordering::SeqCst), 4, "{name}");
    assert!(!disk.full.load(Ordering::SeqCst));
    // No model call while full.
    assert_eq!(brain.while_full.load(Ordering::SeqCst), 0, "{name}");
    // Said once, and its end once; the status said it at every probe.
    let full_lines = said.iter().filter(|l| l.contains("disk full")).count();
    assert_eq!(full_lines, 1, "{name}: {said:#?}");
    assert_eq!(
        said.iter().filter(|l| l.contains("room again")).count(),
        1,
        "{name}"
    );
    assert!(
        disk.told.load(Ordering::SeqCst),
        "{name}: the status said so"
    );
    let events = lines(&dir.join(".sys/events.jsonl"));
    let disk_events: Vec<&String> = events
        .iter()
        .filter(|l| l.contains("\"phase\":\"disk\""))
        .collect();
    assert_eq!(
        disk_events.len(),
        1,
        "{name}: one error event, written late"
    );
    assert!(disk_events[0].contains("disk full"));
    // It went on: all the sleeps asked for.
    assert!(report.dreams_this_run <= sleeps);
    // What is counted is what is on disk: the genome restored from the files counts as
    // many consolidations as the run reported.
    let paths = SeedPaths::new(&dir);
    let mut files = G::Files::default();
    let restored =
        dreamwatch::runner::restore::restore::<G>(&paths, &RunnerConfig::default(), &mut files);
    let mut again = G::default();
    again.restore(restored.genome);
    assert_eq!(again.dreams(), report.dreams, "{name}: counted = written");
    // Every call answered has its usage line (one more may have been in flight at the
    // end); every line of every log is whole.
    let calls = brain.calls.load(Ordering::SeqCst) as usize;
    let usage = lines(&dir.join(".sys/usage.jsonl"));
    assert!(
        usage.len() <= calls && usage.len() + 1 >= calls,
        "{name}: {} usage lines, {calls} calls",
        usage.len()
    );
    for file in [
        ".sys/events.jsonl",
        ".self/conversation.jsonl",
        ".sys/usage.jsonl",
    ] {
        for l in lines(&dir.join(file)) {
            serde_json::from_str::<serde_json::Value>(&l)
                .unwrap_or_else(|e| panic!("{name} {file}: {e}: {l}"));
        }
    }
    assert!(!dir.join(".sys").join(PROBE_FILE).exists());
    let runner_json = std::fs::read_to_string(dir.join(".sys/runner.json")).unwrap();
    assert!(!runner_json.contains("disk_full"), "{runner_json}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dreamer_waits_on_a_full_disk_and_goes_on() {
    fill_and_go_on::<Dreamer>(5, 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn evennia_waits_on_a_full_disk_and_goes_on() {
    fill_and_go_on::<Evennia>(12, 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn emergence_waits_on_a_full_disk_and_goes_on() {
    fill_and_go_on::<Emergence>(8, 2).await;
}
