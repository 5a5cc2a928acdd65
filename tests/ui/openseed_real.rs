//! The observatory against the stand-in orchestrator as OpenSeed's own behaves (issue 22's
//! six findings): Esc takes the stop question back; the day's cost counts today's entries
//! of the creatures only (the narrator apart); a creature paused at its budget is started
//! again through the start route; a stop is seen at once and a second refused while one
//! is under way; Live shows what every kind of event says; refusals read in words, whole.

use std::collections::HashMap;
use std::time::Duration;

use crate::common::http::openseed::{Creature, StandIn};
use crate::common::ui::{Garden, filters};
use dreamwatch::openseed::{AttachOptions, Attachment, EventKind, Target, Tokens, Update, attach};
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::runtime::jobs::{Jobs, Outcome};
use dreamwatch::ui::update::{Job, OpenSeedAction};
use serde_json::json;
use tokio::sync::mpsc::UnboundedReceiver;

const W: u16 = 120;
const H: u16 = 36;
const WAIT: Duration = Duration::from_secs(20);

/// The garden's screen attached to the stand-in, its jobs performed against it.
pub(crate) struct Attached {
    pub(crate) stand_in: StandIn,
    pub(crate) screen: Headless,
    jobs: Jobs,
    updates: UnboundedReceiver<Update>,
    outcomes: UnboundedReceiver<Outcome>,
}

impl Attached {
    /// ember and pip (both with files in the garden) as the stand-in runs them; ember is
    /// selected once the creatures are listed.
    pub(crate) async fn start(garden: &Garden, ember: Creature, pip: Creature) -> Self {
        // The genomes' plug-ins before the screen is opened (its views are theirs).
        dreamwatch::app::genomes::install();
        Self::start_on(ember, pip, garden.screen("dark", W, H)).await
    }

    /// As [`Attached::start`], on `screen` (a read-only one, opened once the genomes'
    /// plug-ins are installed).
    pub(crate) async fn start_on(ember: Creature, pip: Creature, mut screen: Headless) -> Self {
        dreamwatch::app::genomes::install();
        let stand_in = StandIn::start(&[("ember", ember), ("pip", pip)]).await;
        let (attachment, updates) = attach(
            Target::Url(stand_in.base.clone()),
            Tokens::default(),
            AttachOptions {
                backoff_first: Duration::from_millis(10),
                ..AttachOptions::default()
            },
        );
        screen.attach_openseed(&stand_in.base);
        let (tx, outcomes) = tokio::sync::mpsc::unbounded_channel();
        let jobs = Jobs::new(HashMap::new(), tx);
        let mut attached = Self {
            stand_in,
            screen,
            jobs,
            updates,
            outcomes,
        };
        attached.jobs.openseed = Some(attachment);
        attached
            .until(|s| {
                let o = s.app.openseed.as_ref().unwrap();
                o.up() && o.creatures.len() == 2 && o.costs.budgets.len() == 2
            })
            .await;
        assert_eq!(attached.screen.app.selected_ui().unwrap().name, "ember");
        attached
    }

    pub(crate) fn attachment(&self) -> &Attachment {
        self.jobs.openseed.as_ref().unwrap()
    }

    /// Takes in the attachment's reports until `done` says the screen is as wanted.
    pub(crate) async fn until(&mut self, done: impl Fn(&Headless) -> bool) {
        let deadline = tokio::time::Instant::now() + WAIT;
        while !done(&self.screen) {
            let update = tokio::time::timeout_at(deadline, self.updates.recv())
                .await
                .expect("the screen never became as wanted")
                .unwrap();
            self.screen.openseed(update);
        }
    }

    /// Presses `key`; the jobs it asks for are performed against the stand-in.
    pub(crate) fn press(&mut self, key: &str) -> Vec<Job> {
        let jobs = self.screen.press(key).unwrap();
        for job in jobs.clone() {
            self.jobs.perform(&mut self.screen.app, job);
        }
        jobs
    }

    /// The next outcome, taken in by the screen.
    pub(crate) async fn outcome(&mut self) -> Outcome {
        let outcome = tokio::time::timeout(WAIT, self.outcomes.recv())
            .await
            .unwrap()
            .unwrap();
        self.screen.outcome(outcome.clone());
        outcome
    }

    pub(crate) fn notice(&self) -> String {
        self.screen
            .app
            .notice
            .as_ref()
            .map(|n| n.text.clone())
            .unwrap_or_default()
    }

    pub(crate) fn asked(&self, route: &str) -> usize {
        self.stand_in
            .seen()
            .iter()
            .filter(|s| s.method == "POST" && s.path == route)
            .count()
    }
}

fn stop(garden: &Garden) -> Job {
    Job::OpenSeed {
        creature: garden.creature("ember"),
        action: OpenSeedAction::Stop,
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn esc_takes_the_stop_question_back() {
    let garden = Garden::new();
    let mut a = Attached::start(&garden, Creature::new("running"), Creature::new("sleeping")).await;
    assert!(a.press("p").is_empty());
    assert!(a.notice().starts_with("stop ember?"), "{}", a.notice());
    assert!(a.press("esc").is_empty());
    assert_eq!(a.notice(), "cancelled: nothing was done");
    assert!(a.press("p").is_empty(), "asked again, not stopped");
    assert!(a.notice().starts_with("stop ember?"), "{}", a.notice());
    assert_eq!(a.asked("/api/creatures/ember/stop"), 0);
    assert_eq!(a.press("p"), [stop(&garden)]);
    assert!(!a.outcome().await.error);
    assert_eq!(a.asked("/api/creatures/ember/stop"), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_days_cost_counts_the_creatures_today_and_the_narrator_apart() {
    let garden = Garden::new();
    let ember = Creature {
        daily_spent: 4.73,
        cost_total: 9.0,
        ..Creature::new("running")
    };
    // pip's entry is yesterday's: the orchestrator keeps it until pip's next call.
    let pip = Creature {
        daily_spent: 5.01,
        cost_total: 5.01,
        daily_date: "2026-03-08".into(),
        ..Creature::new("sleeping")
    };
    let mut a = Attached::start(&garden, ember, pip).await;
    a.stand_in.set_narrator(0.25);
    a.attachment().refresh();
    a.until(|s| s.app.openseed.as_ref().unwrap().costs.usage.total > 14.2)
        .await;
    let text = a.screen.text().unwrap();
    assert!(
        text.contains("OpenSeed $4.73 today, narrator $0.25"),
        "{text}"
    );
    assert!(
        text.contains("Garden · 2 · $4.73 today"),
        "the garden's title says the same: {text}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_creature_paused_at_its_budget_is_started_again() {
    let garden = Garden::new();
    let mut a = Attached::start(
        &garden,
        Creature::paused_for_budget(20.5, 20.0),
        Creature::new("running"),
    )
    .await;
    // What a wake would meet: its container is stopped.
    let client = a.attachment().client().unwrap();
    let refused = client.wake("ember").await.unwrap_err().to_string();
    assert_eq!(refused, "the orchestrator refused (400): fetch failed");

    let text = a.screen.text().unwrap();
    assert!(text.contains("OpenSeed sleeping (budget)"), "{text}");
    a.press("m");
    a.screen.type_text("are you there?");
    assert!(a.press("ctrl-s").is_empty());
    assert!(
        a.notice()
            .contains("paused at its daily budget, its container stopped (p starts it again)"),
        "{}",
        a.notice()
    );
    a.press("esc");

    assert!(a.press("w").is_empty(), "asked first: it costs");
    assert_eq!(
        a.notice(),
        "start ember again? The orchestrator paused it at its daily budget ($20.50 of $20.00): unless its cap is raised, it is paused again at its next model call. w again starts its container, any other key leaves it paused"
    );
    assert_eq!(
        a.press("w"),
        [Job::OpenSeed {
            creature: garden.creature("ember"),
            action: OpenSeedAction::Start
        }]
    );
    let said = a.outcome().await;
    assert!(!said.error, "{said:?}");
    assert_eq!(
        a.asked("/api/creatures/ember/wake"),
        1,
        "ours above: the start route only"
    );
    assert_eq!(a.asked("/api/creatures/ember/start"), 1);
    // Seen at once, and once its health gate has passed, promoted.
    assert!(
        a.screen.text().unwrap().contains("OpenSeed starting"),
        "{}",
        a.screen.text().unwrap()
    );
    a.until(|s| {
        s.app.openseed.as_ref().unwrap().creatures["ember"]
            .status
            .label()
            == "running"
    })
    .await;
    a.screen.press("5").unwrap();
    let text = a.screen.text().unwrap();
    assert!(
        text.contains("promoted healthy: it runs · abc1234"),
        "{text}"
    );

    // `p` asks the same way.
    a.stand_in.pause_for_budget("ember");
    a.until(|s| {
        s.app.openseed.as_ref().unwrap().creatures["ember"]
            .sleep_reason
            .is_some()
    })
    .await;
    assert!(a.press("p").is_empty());
    assert!(
        a.notice().contains("p again starts its container"),
        "{}",
        a.notice()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stop_is_seen_at_once_and_a_second_is_refused_in_words() {
    let garden = Garden::new();
    let mut a = Attached::start(&garden, Creature::new("running"), Creature::new("sleeping")).await;
    a.press("p");
    assert_eq!(a.press("p"), [stop(&garden)]);
    // Under way: nothing more is asked.
    assert!(a.screen.press("p").unwrap().is_empty());
    assert_eq!(
        a.notice(),
        "ember: the orchestrator has not answered the stop yet, wait for it"
    );
    let creatures_read = |a: &Attached| {
        a.stand_in
            .seen()
            .iter()
            .filter(|s| s.path == "/api/creatures")
            .count()
    };
    let before = creatures_read(&a);
    let said = a.outcome().await;
    assert_eq!(said.text, "ember's container stopped");
    // The orchestrator emits nothing on a stop: the header says it at once.
    let text = a.screen.text().unwrap();
    assert!(text.contains("OpenSeed stopped"), "{text}");
    assert!(!text.contains("OpenSeed stopped (user)"), "{text}");
    // And the status is read again straight away, not at the next poll (15 s).
    let deadline = tokio::time::Instant::now() + WAIT;
    while creatures_read(&a) == before {
        assert!(tokio::time::Instant::now() < deadline, "never read again");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(a.stand_in.creature("ember").sleep_reason, None);
    // Stopped: `p` starts it (no second stop).
    assert_eq!(
        a.press("p"),
        [Job::OpenSeed {
            creature: garden.creature("ember"),
            action: OpenSeedAction::Start
        }]
    );
    assert!(!a.outcome().await.error);
    assert_eq!(a.asked("/api/creatures/ember/stop"), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn live_shows_what_every_kind_of_event_says() {
    let garden = Garden::new();
    let mut a = Attached::start(&garden, Creature::new("running"), Creature::new("sleeping")).await;
    let events = [
        json!({"type": "host.spawn", "pid": 4242, "sha": "9f8e7d6c5b"}),
        json!({"type": "host.promote", "sha": "9f8e7d6c5b"}),
        json!({"type": "creature.boot", "sha": "9f8e7d6c5b"}),
        json!({"type": "creature.progress_check", "actions": 40}),
        json!({"type": "creature.subconscious", "memory": "The mirror answered faster at night.", "surfaced": true, "candidateCount": 3}),
        json!({"type": "creature.dream", "deep": false, "observations": 12, "priority": "Fix the cron job", "reflection": "I kept retrying the slow API \u{1b}[31minstead of caching."}),
        json!({"type": "creature.self_evaluation", "trigger": "every 10 dreams", "reasoning": "The retry loop wastes calls.", "changed": true}),
        json!({"type": "creature.request_restart", "reason": "new tool installed"}),
        json!({"type": "host.rollback", "from": "9f8e7d6c5b", "to": "1a2b3c4d5e", "reason": "crashed on boot"}),
        json!({"type": "host.infra_failure", "reason": "Docker unavailable"}),
        json!({"type": "genome.memory_compacted", "kept": 120, "dropped": 30}),
    ];
    for event in events {
        // As the creature's own code posts them.
        let client = reqwest::Client::new();
        let posted = client
            .post(format!("{}/api/creatures/ember/event", a.stand_in.base))
            .json(&event)
            .send()
            .await
            .unwrap();
        assert_eq!(posted.status(), 200);
    }
    a.until(|s| {
        s.app.openseed.as_ref().unwrap().events
            .get("ember")
            .into_iter()
            .flatten()
            .any(|e| matches!(&e.kind, EventKind::Other { kind, .. } if kind == "genome.memory_compacted"))
    })
    .await;
    a.screen.press("5").unwrap();
    let text = a.screen.text().unwrap();
    for said in [
        "spawn a fresh container, pid 4242 · 9f8e7d6",
        "promoted healthy: it runs · 9f8e7d6",
        "boot the creature's process started at 9f8e7d6",
        "progress check 40 actions",
        "subconscious The mirror answered faster at night.",
        "dream 12 observations · priority: Fix the cron job",
        "· reflection: I kept retrying the slow API",
        "self-evolved code modified · trigger: every 10",
        "dreams · The retry loop wastes calls.",
        "restart requested new tool installed",
        "rollback crashed on boot 9f8e7d6 → 1a2b3c4",
        "infra failure Docker unavailable",
        "genome.memory_compacted dropped=30, kept=120",
    ] {
        assert!(text.contains(said), "{said:?} in {text}");
    }
    assert!(text.contains("^[[31m"), "the creature's text is inert");
    filters(&garden).bind(|| insta::assert_snapshot!("openseed_real_live", text));
    // Only the creatures it lists are asked for their stored events (asking for another
    // name makes its directory).
    assert_eq!(a.stand_in.asked_of_unknown(), Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread")]
async fn refusals_read_in_words_and_whole() {
    let garden = Garden::new();
    let mut a = Attached::start(&garden, Creature::new("stopped"), Creature::new("sleeping")).await;
    // Degraded: the 503's JSON said in words.
    a.stand_in
        .set_down("docker", Some("Cannot connect to the Docker daemon"));
    a.until(|s| !s.app.openseed.as_ref().unwrap().degraded.is_empty())
        .await;
    a.press("p");
    let said = a.outcome().await;
    assert!(said.error);
    assert_eq!(
        said.text,
        "cannot start ember: the orchestrator refused (503): Orchestrator degraded — cannot start creatures (docker down: Cannot connect to the Docker daemon)"
    );

    // A start that fails: the command's output, every line, in the live view.
    a.stand_in.set_down("docker", None);
    a.until(|s| s.app.openseed.as_ref().unwrap().degraded.is_empty())
        .await;
    a.stand_in.fail_next_start(
        "ember",
        "Command failed: docker build -t creature-ember .\nStep 1/4 : FROM node:22-slim\nERROR: failed to solve: no space left on device\n",
    );
    a.press("p");
    let said = a.outcome().await;
    assert!(said.error);
    let notice = a.notice();
    assert_eq!(
        notice,
        "cannot start ember: the orchestrator refused (400): Command failed: docker build -t creature-ember . [and 2 more lines] (the whole answer: 5, its live view)"
    );
    assert!(!notice.contains("^J"));
    a.screen.press("5").unwrap();
    let text = a.screen.text().unwrap();
    for line in [
        "start refused the orchestrator answered:",
        "         Command failed: docker build -t creature-ember .",
        "         Step 1/4 : FROM node:22-slim",
        "         ERROR: failed to solve: no space left on device",
    ] {
        assert!(text.contains(line), "{line:?} in {text}");
    }
    assert!(!text.contains("^J"), "{text}");

    // The ghost the failed start left: listed stopped, and the orchestrator says it runs.
    a.attachment().refresh();
    a.until(|s| s.app.openseed.as_ref().unwrap().busy.is_empty())
        .await;
    a.press("p");
    let said = a.outcome().await;
    assert_eq!(
        said.text,
        "cannot start ember: the orchestrator refused (400): creature \"ember\" is already running"
    );
}
