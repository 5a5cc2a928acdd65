//! Dreams reviewed before they apply (`--review-dreams`), on temp dirs with the rehearsal
//! brain: the dream is held as `.sys/proposal.json`, the memory files untouched, until it
//! is applied (the files change exactly as proposed), rejected (they do not, and the
//! creature wakes), left to time out, or found pending by a restarted runner. Over the
//! control socket (a headless runner) and in-process. Every step waits for the runner to
//! settle on a virtual clock only the test moves, never for a length of real time.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use chrono::{TimeDelta, TimeZone, Utc};
use dreamwatch::control::{Answer, ControlCommand, send_command};
use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::memory::proposal::{self, Proposal};
use dreamwatch::memory::status::Status;
use dreamwatch::runner::brain::rehearsal::{self, Rehearsal};
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{RunReport, Runner, RunnerOptions};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::common::runner::SimulatedShell;

const PATIENCE: Duration = Duration::from_secs(10);
const MEMORY: [&str; 4] = [
    ".self/observations.md",
    ".self/dreams.jsonl",
    ".self/priorities.md",
    ".self/diary.md",
];

struct Run {
    clock: Arc<VirtualClock>,
    stop: oneshot::Sender<()>,
    task: JoinHandle<RunReport>,
    hosted: dreamwatch::control::HostedCreature,
}

fn start(dir: &Path, clock: Arc<VirtualClock>, timeout: &str) -> Run {
    let config = RunnerConfig {
        review_dreams: true,
        review_timeout: timeout.into(),
        ..RunnerConfig::default()
    };
    let mut opts = RunnerOptions::new(
        dir.to_path_buf(),
        config,
        Arc::new(Rehearsal::new()),
        rehearsal::MODEL.into(),
    );
    opts.clock = clock.clone();
    opts.tools = Arc::new(SimulatedShell::default());
    opts.control_socket = true;
    let runner = Runner::open_genome(opts, Dreamer::default()).unwrap();
    let hosted = runner.hosted();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(runner.run(async {
        let _ = stopped.await;
    }));
    Run {
        clock,
        stop,
        task,
        hosted,
    }
}

impl Run {
    async fn settle(&self, what: &str) {
        assert!(
            tokio::time::timeout(PATIENCE, self.clock.settled())
                .await
                .is_ok(),
            "never settled {what}"
        );
    }

    fn status(&self) -> Status {
        self.hosted.status.borrow().status
    }

    async fn stop(self) {
        let _ = self.stop.send(());
        tokio::time::timeout(PATIENCE, self.task)
            .await
            .unwrap()
            .unwrap();
    }
}

fn held_clock() -> Arc<VirtualClock> {
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    Arc::new(VirtualClock::held(start, TimeDelta::seconds(2)))
}

fn creature() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    (tmp, dir)
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_default()
}

fn memory(dir: &Path) -> Vec<String> {
    MEMORY.iter().map(|f| read(dir, f)).collect()
}

/// The memory files as the proposal would leave them.
fn proposed(dir: &Path, p: &Proposal) -> Vec<String> {
    MEMORY
        .iter()
        .map(|f| {
            let now = read(dir, f);
            p.files
                .iter()
                .find(|pf| pf.path == *f)
                .map_or(now.clone(), |pf| pf.after(&now))
        })
        .collect()
}

async fn pending(dir: &Path) -> Proposal {
    match send_command(dir, &ControlCommand::Proposal).await.unwrap() {
        Some(Answer::Proposal { proposal }) => *proposal,
        other => panic!("no proposal: {other:?}"),
    }
}

/// Born, it lives until its first sleep; the dream is held, nothing of it written.
async fn first_dream_held(run: &Run, dir: &Path) -> (Proposal, Vec<String>) {
    run.settle("held").await;
    assert_eq!(run.status(), Status::Dreaming);
    let before = memory(dir);
    assert_eq!(before[1], "", "no dream written yet");
    let p = pending(dir).await;
    assert_eq!(Proposal::read(dir).unwrap().as_ref(), Some(&p));
    let files: Vec<&str> = p.files.iter().map(|f| f.path.as_str()).collect();
    assert!(files.contains(&".self/dreams.jsonl"), "{files:?}");
    assert!(files.contains(&".self/observations.md"), "{files:?}");
    assert_eq!(p.deadline, Some(run.clock_now() + TimeDelta::minutes(10)));
    assert!(read(dir, ".sys/events.jsonl").contains(proposal::HELD_EVENT));
    (p, before)
}

impl Run {
    fn clock_now(&self) -> chrono::DateTime<Utc> {
        use dreamwatch::runner::clock::Clock;
        self.clock.now()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_dream_applied_over_the_socket_changes_the_files_exactly_as_proposed() {
    let (_tmp, dir) = creature();
    let run = start(&dir, held_clock(), "10m");
    let (p, _) = first_dream_held(&run, &dir).await;
    let expected = proposed(&dir, &p);
    assert_eq!(
        send_command(&dir, &ControlCommand::ApplyProposal)
            .await
            .unwrap(),
        Some(Answer::Applied)
    );
    run.settle("applied").await;
    assert_eq!(memory(&dir), expected);
    assert!(!proposal::path(&dir).exists());
    assert!(matches!(run.status(), Status::Asleep { .. }));
    let events = read(&dir, ".sys/events.jsonl");
    assert!(events.contains(proposal::DECIDED_EVENT) && events.contains("\"applied\":true"));
    let diffs = read(&dir, ".sys/dream-diffs.jsonl");
    assert!(diffs.contains("\"review\":{\"applied\":true"), "{diffs}");
    // Nothing left to decide.
    let e = send_command(&dir, &ControlCommand::RejectProposal).await;
    assert!(matches!(e, Ok(Some(Answer::NoProposal))), "{e:?}");
    run.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_dream_writes_nothing_and_the_creature_wakes() {
    let (_tmp, dir) = creature();
    let run = start(&dir, held_clock(), "10m");
    let (_, before) = first_dream_held(&run, &dir).await;
    assert_eq!(
        send_command(&dir, &ControlCommand::RejectProposal)
            .await
            .unwrap(),
        Some(Answer::Rejected)
    );
    run.settle("rejected").await;
    assert_eq!(memory(&dir), before, "the memory files are untouched");
    assert!(read(&dir, ".sys/dream-diffs.jsonl").contains("\"applied\":false"));
    let wake_at = run.status().wakes_at().expect("it rests after the sleep");
    run.clock.advance(wake_at - run.clock_now());
    run.settle("woken").await;
    let events = read(&dir, ".sys/events.jsonl");
    let decided = events.find(proposal::DECIDED_EVENT).unwrap();
    assert!(events[decided..].contains("\"type\":\"creature.wake\""));
    run.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_dream_is_validated_then_applied_as_edited() {
    let (_tmp, dir) = creature();
    let run = start(&dir, held_clock(), "10m");
    let (p, _) = first_dream_held(&run, &dir).await;
    let e = send_command(
        &dir,
        &ControlCommand::ReplaceProposal {
            text: "not a proposal".into(),
        },
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(e.contains("before the first"), "{e}");
    let obs = p
        .files
        .iter()
        .find(|f| f.path == ".self/observations.md")
        .unwrap();
    let text = p.to_text().replace(
        &obs.text,
        &format!("{}RED 09:30 kept by the operator\n", obs.text),
    );
    assert_eq!(
        send_command(&dir, &ControlCommand::ReplaceProposal { text })
            .await
            .unwrap(),
        Some(Answer::Replaced)
    );
    let edited = pending(&dir).await;
    assert!(edited.edited);
    let expected = proposed(&dir, &edited);
    // In-process, as the observatory hosting it does.
    assert_eq!(
        run.hosted
            .control
            .ask(ControlCommand::ApplyProposal)
            .await
            .unwrap(),
        Some(Answer::Applied)
    );
    run.settle("applied").await;
    assert_eq!(memory(&dir), expected);
    assert!(read(&dir, ".self/observations.md").contains("RED 09:30 kept by the operator"));
    run.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dream_left_alone_applies_itself_when_its_time_runs_out() {
    let (_tmp, dir) = creature();
    let run = start(&dir, held_clock(), "10m");
    let (p, _) = first_dream_held(&run, &dir).await;
    let expected = proposed(&dir, &p);
    run.clock.advance(TimeDelta::minutes(9));
    run.settle("nine minutes later").await;
    assert_eq!(run.status(), Status::Dreaming, "still held");
    run.clock.advance(TimeDelta::minutes(1));
    run.settle("ten minutes later").await;
    assert_eq!(memory(&dir), expected);
    assert!(read(&dir, ".sys/events.jsonl").contains("\"timed_out\":true"));
    run.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_runner_keeps_the_dream_pending() {
    let (_tmp, dir) = creature();
    let clock = held_clock();
    let run = start(&dir, clock.clone(), "never");
    run.settle("held").await;
    let p = pending(&dir).await;
    assert_eq!(p.deadline, None);
    let before = memory(&dir);
    run.stop().await;
    assert_eq!(memory(&dir), before);
    assert!(proposal::path(&dir).exists(), "still pending on disk");

    let run = start(&dir, clock, "never");
    run.settle("restarted").await;
    assert_eq!(run.status(), Status::Dreaming);
    assert_eq!(pending(&dir).await, p);
    let expected = proposed(&dir, &p);
    assert_eq!(
        send_command(&dir, &ControlCommand::ApplyProposal)
            .await
            .unwrap(),
        Some(Answer::Applied)
    );
    run.settle("applied").await;
    assert_eq!(memory(&dir), expected);
    run.stop().await;
}
