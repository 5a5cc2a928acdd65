//! What OpenSeed's web dashboard does, from the observatory's OpenSeed menu, against the
//! stand-in as OpenSeed's orchestrator behaves: restart, rebuild, remount and archive
//! (asked first, a failed build said in words), spawning through a
//! form of the genomes and models it offers, a creature's daily cap and the global one;
//! and a container that rejects a wake.

use crate::common::http::openseed::Creature;
use crate::common::ui::Garden;
use crate::openseed_real::Attached;
use dreamwatch::openseed::{Lifecycle, SpawnRequest};
use dreamwatch::ui::focus::Mode;
use dreamwatch::ui::update::{Job, OpenSeedAction};

fn lifecycle(garden: &Garden, what: Lifecycle) -> Job {
    Job::OpenSeed {
        creature: garden.creature("ember"),
        action: OpenSeedAction::Lifecycle(what),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn restart_rebuild_remount_archive_asked_first() {
    let garden = Garden::new();
    let mut a = Attached::start(&garden, Creature::new("running"), Creature::new("sleeping")).await;
    assert!(a.press("A").is_empty());
    assert_eq!(a.screen.app.mode, Mode::OpenSeedMenu);
    let text = a.screen.text().unwrap();
    for item in [
        "spawn",
        "restart",
        "rebuild",
        "remount",
        "archive",
        "budget",
        "global budget",
    ] {
        assert!(text.contains(item), "{item}: {text}");
    }
    assert!(a.press("r").is_empty(), "asked first");
    assert!(
        a.notice()
            .starts_with("restart ember? This restarts its Docker container"),
        "{}",
        a.notice()
    );
    assert!(a.press("esc").is_empty());
    assert_eq!(a.screen.app.mode, Mode::Normal);
    assert!(a.press("A").is_empty());
    assert!(
        a.press("r").is_empty(),
        "the question was taken back: asked again"
    );
    assert_eq!(a.asked("/api/creatures/ember/restart"), 0);
    assert_eq!(a.press("r"), [lifecycle(&garden, Lifecycle::Restart)]);
    let said = a.outcome().await;
    assert!(!said.error, "{said:?}");
    assert_eq!(
        said.text,
        "ember's container restarted (its environment kept)"
    );
    assert_eq!(a.asked("/api/creatures/ember/restart"), 1);
    a.until(|s| {
        s.app.openseed.as_ref().unwrap().creatures["ember"]
            .status
            .label()
            == "running"
    })
    .await;

    // A failed build's output, whole in the live view.
    a.stand_in
        .fail_next_rebuild("ember", "Command failed: docker build -t creature-ember .\nstep 2/5\nERROR: no space left on device");
    a.press("A");
    a.press("b");
    assert!(
        a.notice()
            .contains("what it installed in the old one is lost"),
        "{}",
        a.notice()
    );
    assert_eq!(a.press("b"), [lifecycle(&garden, Lifecycle::Rebuild)]);
    let said = a.outcome().await;
    assert!(said.error);
    assert!(
        said.text.starts_with("cannot rebuild ember: the orchestrator refused (400): Command failed: docker build -t creature-ember . [and 2 more lines]"),
        "{}",
        said.text
    );

    a.press("A");
    a.press("m");
    assert_eq!(a.press("m"), [lifecycle(&garden, Lifecycle::Remount)]);
    assert!(!a.outcome().await.error);
    assert_eq!(a.asked("/api/creatures/ember/remount"), 1);

    a.press("A");
    a.press("a");
    assert!(
        a.notice().contains("moves its files to OpenSeed's archive"),
        "{}",
        a.notice()
    );
    assert_eq!(a.press("a"), [lifecycle(&garden, Lifecycle::Archive)]);
    let said = a.outcome().await;
    assert!(!said.error, "{said:?}");
    assert_eq!(a.stand_in.archived(), ["ember"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stopped_container_has_nothing_to_restart() {
    let garden = Garden::new();
    let mut a = Attached::start(&garden, Creature::new("stopped"), Creature::new("running")).await;
    a.press("A");
    assert!(a.press("r").is_empty());
    assert_eq!(
        a.notice(),
        "ember's container is stopped, there is nothing to restart: p starts it"
    );
    assert_eq!(a.asked("/api/creatures/ember/archive"), 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn spawn_through_a_form_of_what_the_orchestrator_offers() {
    let garden = Garden::new();
    let mut a = Attached::start(&garden, Creature::new("running"), Creature::new("sleeping")).await;
    a.press("A");
    let jobs = a.press("n");
    assert_eq!(
        jobs,
        [Job::OpenSeed {
            creature: Default::default(),
            action: OpenSeedAction::SpawnChoices
        }]
    );
    assert!(!a.outcome().await.error);
    assert_eq!(a.screen.app.mode, Mode::OpenSeedForm);
    let text = a.screen.text().unwrap();
    assert!(text.contains("OpenSeed: spawn a creature"), "{text}");
    assert!(
        text.contains("‹ (the orchestrator's default) ›") && text.contains("‹ claude-opus-4-6 ›"),
        "{text}"
    );

    a.screen.type_text("Newt");
    assert!(
        a.press("enter").is_empty(),
        "a bad name is said in the form"
    );
    assert!(
        a.screen
            .text()
            .unwrap()
            .contains("the name: lowercase letters"),
        "{}",
        a.screen.text().unwrap()
    );
    a.press("backspace");
    a.press("backspace");
    a.press("backspace");
    a.press("backspace");
    a.screen.type_text("newt");
    a.press("tab");
    a.press("right");
    a.press("right");
    a.press("tab");
    a.press("right");
    a.press("tab");
    a.screen.type_text("to watch the tide");
    let spawn = SpawnRequest {
        name: "newt".into(),
        genome: Some("minimal".into()),
        purpose: Some("to watch the tide".into()),
        model: Some("gpt-5".into()),
    };
    assert_eq!(
        a.press("enter"),
        [Job::OpenSeed {
            creature: Default::default(),
            action: OpenSeedAction::Spawn(Box::new(spawn))
        }]
    );
    let said = a.outcome().await;
    assert_eq!(
        said.text,
        "the orchestrator is spawning newt (minimal): its live view tells how it goes"
    );
    let posted = a
        .stand_in
        .seen()
        .into_iter()
        .find(|s| s.method == "POST" && s.path == "/api/creatures")
        .unwrap();
    assert_eq!(
        posted.body,
        serde_json::json!({"name": "newt", "genome": "minimal", "purpose": "to watch the tide", "model": "gpt-5"})
    );
    a.until(|s| {
        s.app
            .openseed
            .as_ref()
            .unwrap()
            .creatures
            .contains_key("newt")
    })
    .await;

    // Again: the orchestrator's refusal, in words.
    a.press("A");
    a.press("n");
    a.outcome().await;
    a.screen.type_text("newt");
    a.press("enter");
    let said = a.outcome().await;
    assert!(said.error);
    assert_eq!(
        said.text,
        "cannot spawn newt: the orchestrator refused (400): creature \"newt\" already exists"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_creatures_cap_and_the_global_one_are_read_then_set() {
    let garden = Garden::new();
    let mut a = Attached::start(&garden, Creature::new("running"), Creature::new("sleeping")).await;
    a.press("A");
    assert_eq!(
        a.press("c"),
        [Job::OpenSeed {
            creature: garden.creature("ember"),
            action: OpenSeedAction::ReadCap { global: false }
        }]
    );
    a.outcome().await;
    let text = a.screen.text().unwrap();
    assert!(
        text.contains("ember's daily cap") && text.contains("20.00") && text.contains("‹ sleep ›"),
        "{text}"
    );
    for _ in 0..5 {
        a.press("backspace");
    }
    a.screen.type_text("$7.5");
    a.press("tab");
    a.press("right");
    assert_eq!(
        a.press("enter"),
        [Job::OpenSeed {
            creature: garden.creature("ember"),
            action: OpenSeedAction::SetCap {
                global: false,
                cents: 750,
                action: "warn".into()
            }
        }]
    );
    let said = a.outcome().await;
    assert_eq!(
        said.text,
        "the daily cap of ember is now $7.50 (a warning at it)"
    );
    let ember = a.stand_in.creature("ember");
    assert_eq!((ember.daily_cap, ember.cap_action.as_str()), (7.5, "warn"));
    assert_eq!(a.screen.app.mode, Mode::Normal, "a set opens no form again");
    // Shown where the cost is, once the orchestrator is read again.
    a.until(|s| s.app.openseed.as_ref().unwrap().costs.budgets["ember"].action == "warn")
        .await;
    let text = a.screen.text().unwrap();
    assert!(text.contains("of $7.50 today, warns"), "{text}");

    a.press("A");
    a.press("g");
    a.outcome().await;
    assert!(a.screen.text().unwrap().contains("the global daily cap"));
    for _ in 0..5 {
        a.press("backspace");
    }
    a.screen.type_text("3");
    a.press("enter");
    let said = a.outcome().await;
    assert_eq!(
        said.text,
        "the daily cap of every creature (the global cap) is now $3.00 (paused at it)"
    );
    assert_eq!(a.stand_in.global_cap(), (3.0, "sleep".to_owned()));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_container_that_rejects_a_wake_is_said_so() {
    let garden = Garden::new();
    let mut a = Attached::start(&garden, Creature::new("sleeping"), Creature::new("running")).await;
    a.stand_in.reject_wakes("ember");
    assert_eq!(a.press("w").len(), 1);
    let said = a.outcome().await;
    assert!(said.error);
    assert_eq!(
        said.text,
        "cannot wake ember: the orchestrator refused (400): creature rejected wake"
    );
}
