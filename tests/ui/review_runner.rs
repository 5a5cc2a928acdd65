//! A hosted dreamer with `--review-dreams` on the rehearsal brain, decided through the
//! observatory's own action path: the held dream appears in the headless observatory
//! hosting it, its keys become jobs, the jobs go to the runner in-process as the event
//! loop sends them, and the runner's answer comes back as the status line. Applied, the
//! memory files change exactly as proposed; rejected, they do not; an edit read back is
//! held as edited, and one the runner refuses is kept for the next edit. Every step waits
//! for the runner to settle on a virtual clock.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use chrono::{TimeDelta, TimeZone, Utc};
use dreamwatch::control::HostedCreature;
use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::memory::proposal::{self, Proposal, ProposedFile};
use dreamwatch::runner::brain::rehearsal::{self, Rehearsal};
use dreamwatch::runner::clock::{Clock, VirtualClock};
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{RunReport, Runner, RunnerOptions};
use dreamwatch::ui::focus::Mode;
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::runtime::jobs::{Jobs, Outcome};
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;
use dreamwatch::ui::update::Job;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::common::runner::SimulatedShell;

const PATIENCE: Duration = Duration::from_secs(10);
const MEMORY: [&str; 4] = [
    ".self/observations.md",
    ".self/dreams.jsonl",
    ".self/priorities.md",
    ".self/diary.md",
];

struct Hosted {
    clock: Arc<VirtualClock>,
    stop: oneshot::Sender<()>,
    task: JoinHandle<RunReport>,
    hosted: HostedCreature,
    screen: Headless,
    jobs: Jobs,
    told: mpsc::UnboundedReceiver<Outcome>,
}

/// The runner hosting `sprout`, held at its first dream, and the observatory hosting it.
async fn host() -> (tempfile::TempDir, PathBuf, Hosted) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    let clock = Arc::new(VirtualClock::held(start, TimeDelta::seconds(2)));
    let config = RunnerConfig {
        review_dreams: true,
        review_timeout: "10m".into(),
        ..RunnerConfig::default()
    };
    let mut opts = RunnerOptions::new(
        dir.clone(),
        config,
        Arc::new(Rehearsal::new()),
        rehearsal::MODEL.into(),
    );
    opts.clock = clock.clone();
    opts.tools = Arc::new(SimulatedShell::default());
    let runner = Runner::open_genome(opts, Dreamer::default()).unwrap();
    let hosted = runner.hosted();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(runner.run(async {
        let _ = stopped.await;
    }));
    settle(&clock, "held").await;
    assert!(proposal::path(&dir).exists(), "the dream is held");
    let (theme, _) = Theme::load("dark", None, false);
    let screen = Headless::open_hosting(
        std::slice::from_ref(&dir),
        BTreeMap::from([(dir.clone(), hosted.cycle)]),
        Settings::with_theme(theme),
        clock.now(),
        120,
        40,
    )
    .unwrap();
    let (outcomes, told) = mpsc::unbounded_channel();
    let jobs = Jobs::new(
        HashMap::from([(dir.clone(), hosted.control.clone())]),
        outcomes,
    );
    let run = Hosted {
        clock,
        stop,
        task,
        hosted,
        screen,
        jobs,
        told,
    };
    (tmp, dir, run)
}

async fn settle(clock: &VirtualClock, what: &str) {
    assert!(
        tokio::time::timeout(PATIENCE, clock.settled())
            .await
            .is_ok(),
        "never settled {what}"
    );
}

impl Hosted {
    /// Performs the jobs as the event loop does, and shows the runner's answer.
    async fn perform(&mut self, jobs: Vec<Job>) -> String {
        assert_eq!(jobs.len(), 1, "{jobs:?}");
        for job in jobs {
            self.jobs.perform(&mut self.screen.app, job);
        }
        let outcome = tokio::time::timeout(PATIENCE, self.told.recv())
            .await
            .expect("the runner answers")
            .expect("an outcome");
        self.screen.outcome(outcome);
        settle(&self.clock, "decided").await;
        self.screen.refresh();
        self.screen
            .app
            .notice
            .as_ref()
            .map(|n| n.text.clone())
            .unwrap_or_default()
    }

    async fn stop(self) {
        let _ = self.stop.send(());
        tokio::time::timeout(PATIENCE, self.task)
            .await
            .unwrap()
            .unwrap();
    }
}

fn memory(dir: &Path) -> Vec<String> {
    MEMORY
        .iter()
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap_or_default())
        .collect()
}

fn proposed(dir: &Path, p: &Proposal) -> Vec<String> {
    memory(dir)
        .into_iter()
        .zip(MEMORY)
        .map(|(now, f)| {
            p.files
                .iter()
                .find(|pf| pf.path == f)
                .map_or(now.clone(), |pf| pf.after(&now))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_dream_applied_from_the_observatory_is_written_as_proposed() {
    dreamwatch::app::genomes::install();
    let (_tmp, dir, mut run) = host().await;
    let p = Proposal::read(&dir).unwrap().unwrap();
    let expected = proposed(&dir, &p);
    let text = run.screen.text().unwrap();
    assert!(text.contains("◷ review 10m"), "{text}");
    run.screen.press("D").unwrap();
    assert_eq!(run.screen.app.mode, Mode::Review);
    let text = run.screen.text().unwrap();
    assert!(text.contains("What it would change"), "{text}");
    assert!(text.contains("observations.md:"), "{text}");
    let jobs = run.screen.press("a").unwrap();
    let said = run.perform(jobs).await;
    assert_eq!(said, "sprout's dream is applied: it wakes with it");
    assert_eq!(memory(&dir), expected);
    assert!(!proposal::path(&dir).exists());
    let ui = run.screen.app.creatures.get(&dir).unwrap();
    assert!(ui.review.is_none(), "no longer marked");
    assert_eq!(run.screen.app.mode, Mode::Normal);
    assert!(!run.screen.text().unwrap().contains("◷"));
    run.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_dream_rejected_from_the_observatory_writes_nothing() {
    dreamwatch::app::genomes::install();
    let (_tmp, dir, mut run) = host().await;
    let before = memory(&dir);
    run.screen.press("D").unwrap();
    assert!(run.screen.press("x").unwrap().is_empty(), "asked first");
    let jobs = run.screen.press("x").unwrap();
    let said = run.perform(jobs).await;
    assert_eq!(
        said,
        "sprout's dream is rejected: nothing of it was written"
    );
    assert_eq!(memory(&dir), before, "the memory files are untouched");
    assert!(!proposal::path(&dir).exists());
    assert!(run.hosted.status.borrow().status.wakes_at().is_some());
    run.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_read_back_is_held_as_edited_until_applied() {
    dreamwatch::app::genomes::install();
    let (_tmp, dir, mut run) = host().await;
    let p = Proposal::read(&dir).unwrap().unwrap();
    let obs = p
        .files
        .iter()
        .find(|f| f.path == ".self/observations.md")
        .unwrap();
    let text = p.to_text().replace(
        &obs.text,
        &format!("{}RED 09:30 kept by the operator\n", obs.text),
    );
    let file = dir.join("edit.txt");
    let edited = run.screen.app.on_dream_edited(&dir, text, &file);
    assert!(!edited.keep);
    let said = run.perform(edited.jobs).await;
    assert_eq!(said, "sprout's edited dream is held for review");
    let held = Proposal::read(&dir).unwrap().unwrap();
    assert!(held.edited);
    let ui = run.screen.app.creatures.get(&dir).unwrap();
    assert!(ui.review.as_ref().is_some_and(|r| r.proposal.edited));
    run.screen.press("D").unwrap();
    let shown = run.screen.text().unwrap();
    assert!(shown.contains("edited by the operator"), "{shown}");
    assert!(
        shown.contains("+ RED 09:30 kept by the operator"),
        "{shown}"
    );
    let expected = proposed(&dir, &held);
    let jobs = run.screen.press("a").unwrap();
    run.perform(jobs).await;
    assert_eq!(memory(&dir), expected);
    assert!(
        std::fs::read_to_string(dir.join(".self/observations.md"))
            .unwrap()
            .contains("RED 09:30 kept by the operator")
    );
    run.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_the_runner_refuses_is_kept_for_the_next_edit() {
    dreamwatch::app::genomes::install();
    let (_tmp, dir, mut run) = host().await;
    let p = Proposal::read(&dir).unwrap().unwrap();
    // The observatory reads a proposal with a file more than the one the runner holds
    // (as a stale read would): an edit of it passes here, and the runner refuses it.
    let mut seen = p.clone();
    seen.files
        .extend(ProposedFile::between(".self/diary.md", "", "a day\n"));
    std::fs::write(proposal::path(&dir), serde_json::to_vec(&seen).unwrap()).unwrap();
    run.screen.refresh();
    let before = memory(&dir);
    let text = seen.to_text().replace("a day\n", "a day, edited\n");
    let file = dir.join("edit.txt");
    let edited = run.screen.app.on_dream_edited(&dir, text.clone(), &file);
    assert!(!edited.keep, "sent: its file goes");
    let said = run.perform(edited.jobs).await;
    assert!(
        said.starts_with("sprout: cannot hold the edited dream: ")
            && said.ends_with("; the dream stays as it was, your edit is kept: e edits it again"),
        "{said}"
    );
    assert_eq!(memory(&dir), before);
    // The next edit starts from it.
    run.screen.press("D").unwrap();
    let jobs = run.screen.press("e").unwrap();
    assert!(
        matches!(&jobs[..], [Job::EditDream { text: again, .. }] if *again == text),
        "{jobs:?}"
    );
    run.stop().await;
}
