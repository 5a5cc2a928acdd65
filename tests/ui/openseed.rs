//! The observatory attached to an OpenSeed orchestrator: the status, costs and live
//! events it reports, merged into what the files say; the creature keys going through its
//! API (and `s` saying there is no such thing); the orchestrator going away and coming
//! back; and the jobs performed against the stand-in orchestrator.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use crate::common::http::openseed::{Creature, StandIn};
use crate::common::ui::{Garden, filters};
use dreamwatch::openseed::{
    AttachOptions, Budget, Costs, CreatureInfo, LiveEvent, Target, Tokens, Update, Usage,
    UsageEntry, attach,
};
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::runtime::jobs::Jobs;
use dreamwatch::ui::update::{Job, OpenSeedAction};
use serde_json::{Value, json};

const W: u16 = 120;
const H: u16 = 36;

fn creature(name: &str, status: &str, reason: Option<&str>) -> CreatureInfo {
    serde_json::from_value(
        json!({"name": name, "status": status, "sleepReason": reason, "model": "claude-opus-4-6"}),
    )
    .unwrap()
}

fn event(v: Value) -> Update {
    Update::Event(LiveEvent::parse(&v, None).unwrap())
}

fn costs() -> Costs {
    let budget = |spent: f64| Budget {
        daily_cap_usd: 20.0,
        daily_spent_usd: spent,
        remaining_usd: Some(20.0 - spent),
        resets_at: Some("2026-11-23T00:00:00.000Z".into()),
        action: "sleep".into(),
        status: Some("ok".into()),
    };
    let entry = |today: f64| UsageEntry {
        cost_usd: today * 3.0,
        daily_cost_usd: today,
        ..UsageEntry::default()
    };
    Costs {
        usage: Usage {
            usage: BTreeMap::from([("ember".into(), entry(17.25)), ("pip".into(), entry(1.5))]),
            total: 56.25,
        },
        budgets: BTreeMap::from([("ember".into(), budget(17.25)), ("pip".into(), budget(1.5))]),
    }
}

/// The garden's screen attached, ember (the modern genome) selected and sleeping.
fn attached(garden: &Garden) -> Headless {
    let mut screen = garden.screen("dark", W, H);
    screen.attach_openseed("http://127.0.0.1:7770");
    screen.openseed(Update::Up {
        base: "http://127.0.0.1:7770".into(),
    });
    screen.openseed(Update::Creatures(vec![
        creature("ember", "sleeping", Some("fatigue")),
        creature("pip", "running", None),
    ]));
    screen.openseed(Update::Costs(costs()));
    for e in [
        json!({"creature": "ember", "t": "2026-11-22T17:40:00.000Z", "type": "creature.thought", "text": "The forecast API answers slowly \u{1b}[31mtoday."}),
        json!({"creature": "ember", "t": "2026-11-22T17:40:05.000Z", "type": "creature.tool_call", "tool": "bash", "input": "curl -s wttr.in", "ok": false, "output": "timeout", "ms": 5000}),
        json!({"creature": "ember", "t": "2026-11-22T17:41:00.000Z", "type": "creature.message", "text": "Try the other mirror.", "source": "user"}),
        json!({"creature": "ember", "t": "2026-11-22T17:42:00.000Z", "type": "creature.sleep", "text": "resting", "seconds": 600, "actions": 12}),
        json!({"creature": "pip", "t": "2026-11-22T17:43:00.000Z", "type": "creature.thought", "text": "pip's own"}),
    ] {
        screen.openseed(event(e));
    }
    assert_eq!(screen.app.selected_ui().unwrap().name, "ember");
    screen
}

fn notice(screen: &Headless) -> String {
    screen
        .app
        .notice
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

#[test]
fn an_attached_creature_shows_its_live_events_status_and_costs() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = attached(&garden);
    screen.press("5").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("OpenSeed sleeping (fatigue)"), "{text}");
    assert!(
        text.contains("$17.25/$20 ⚠"),
        "the header's short form at this width: {text}"
    );
    assert!(text.contains("OpenSeed $18.75 today"), "{text}");
    assert!(text.contains("^[[31m"), "the creature's text is inert");
    assert!(!text.contains("pip's own"));
    filters(&garden).bind(|| insta::assert_snapshot!("openseed_live", text));
}

#[test]
fn keys_go_through_the_orchestrator() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = attached(&garden);
    let ember = garden.creature("ember");
    assert!(screen.press("s").unwrap().is_empty());
    assert!(
        notice(&screen).starts_with("OpenSeed has no endpoint to force a sleep"),
        "{}",
        notice(&screen)
    );

    assert_eq!(
        screen.press("w").unwrap(),
        [Job::OpenSeed {
            creature: ember.clone(),
            action: OpenSeedAction::Wake
        }]
    );

    // Stopping asks first; any other key takes the question back.
    assert!(screen.press("p").unwrap().is_empty());
    assert!(
        notice(&screen).contains("stops its Docker container"),
        "{}",
        notice(&screen)
    );
    assert!(screen.press("j").unwrap().is_empty());
    screen.press("k").unwrap();
    assert!(screen.press("p").unwrap().is_empty());
    assert_eq!(
        screen.press("p").unwrap(),
        [Job::OpenSeed {
            creature: ember.clone(),
            action: OpenSeedAction::Stop
        }]
    );

    // A stopped container: `w` says how to start it, `p` starts it without asking.
    screen.openseed(Update::Creatures(vec![
        creature("ember", "stopped", Some("user")),
        creature("pip", "running", None),
    ]));
    assert!(screen.press("w").unwrap().is_empty());
    assert!(
        notice(&screen).contains("container is stopped: p starts it"),
        "{}",
        notice(&screen)
    );
    screen.press("m").unwrap();
    screen.type_text("wake up");
    assert!(screen.press("ctrl-s").unwrap().is_empty());
    assert!(
        notice(&screen).contains("the message waits in its box"),
        "{}",
        notice(&screen)
    );
    screen.press("esc").unwrap();
    assert_eq!(
        screen.press("p").unwrap(),
        [Job::OpenSeed {
            creature: ember,
            action: OpenSeedAction::Start
        }]
    );
}

#[test]
fn the_message_box_says_which_way_the_message_goes() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = attached(&garden);
    screen.press("m").unwrap();
    let text = screen.text().unwrap();
    assert!(
        text.contains("through the OpenSeed orchestrator, which wakes ember"),
        "{text}"
    );
    screen.type_text("Try the mirror.");
    assert_eq!(
        screen.press("ctrl-s").unwrap(),
        [Job::OpenSeed {
            creature: garden.creature("ember"),
            action: OpenSeedAction::Message("Try the mirror.".into())
        }]
    );
    // pip's genome (before 13 February 2026) reads MESSAGES.md.
    screen.press("h").unwrap();
    screen.press("j").unwrap();
    screen.press("m").unwrap();
    let text = screen.text().unwrap();
    assert!(
        text.contains("Message to pip: appended to MESSAGES.md"),
        "{text}"
    );
    screen.type_text("hello");
    assert!(matches!(
        screen.press("ctrl-s").unwrap()[..],
        [Job::AppendMessage { .. }]
    ));
}

#[test]
fn the_orchestrator_going_away_is_shown_and_its_return_too() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = attached(&garden);
    screen.openseed(Update::Down {
        error: "cannot reach the orchestrator at http://127.0.0.1:7770: connection refused".into(),
        retry_in: Duration::from_secs(4),
    });
    assert!(
        notice(&screen).contains("the files are still watched"),
        "{}",
        notice(&screen)
    );
    screen.text().unwrap();
    screen.press("j").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("OpenSeed unreachable"), "the header: {text}");
    assert!(
        text.contains("OpenSeed unreachable since 17:50 (retry in 4s)"),
        "{text}"
    );
    assert!(screen.press("w").unwrap().is_empty());
    assert!(
        notice(&screen).contains("cannot be reached now"),
        "{}",
        notice(&screen)
    );
    // A message waits in its box.
    screen.press("m").unwrap();
    screen.type_text("still there?");
    assert!(screen.press("ctrl-s").unwrap().is_empty());
    assert!(screen.app.popups.message.text().is_some());
    screen.press("esc").unwrap();

    screen.openseed(Update::Up {
        base: "http://127.0.0.1:7770".into(),
    });
    assert!(notice(&screen).contains("is back"), "{}", notice(&screen));
    assert!(!screen.press("w").unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_jobs_reach_the_stand_in() {
    dreamwatch::app::genomes::install();
    let stand_in = StandIn::start(&[
        ("ember", Creature::new("sleeping")),
        ("pip", Creature::new("running")),
    ])
    .await;
    let garden = Garden::new();
    let (attachment, mut updates) = attach(
        Target::Url(stand_in.base.clone()),
        Tokens::default(),
        AttachOptions {
            backoff_first: Duration::from_millis(10),
            ..AttachOptions::default()
        },
    );
    let mut screen = garden.screen("dark", W, H);
    screen.attach_openseed(&stand_in.base);
    // Until the attachment has listed the creatures.
    while attachment.client().is_none() {
        let update = tokio::time::timeout(Duration::from_secs(20), updates.recv())
            .await
            .unwrap()
            .unwrap();
        screen.openseed(update);
    }
    while !screen.app.openseed.as_ref().unwrap().up()
        || screen.app.openseed.as_ref().unwrap().creatures.is_empty()
    {
        let update = tokio::time::timeout(Duration::from_secs(20), updates.recv())
            .await
            .unwrap()
            .unwrap();
        screen.openseed(update);
    }
    let (tx, mut outcomes) = tokio::sync::mpsc::unbounded_channel();
    let mut jobs = Jobs::new(HashMap::new(), tx);
    jobs.openseed = Some(attachment);
    screen.press("m").unwrap();
    screen.type_text("Look up.");
    for job in screen.press("ctrl-s").unwrap() {
        jobs.perform(&mut screen.app, job);
    }
    let said = tokio::time::timeout(Duration::from_secs(20), outcomes.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(!said.error, "{said:?}");
    assert!(said.text.contains("message delivered to ember"), "{said:?}");
    let message = stand_in
        .seen()
        .into_iter()
        .find(|s| s.path == "/api/creatures/ember/message")
        .unwrap();
    assert_eq!(message.body, json!({"text": "Look up."}));
    assert_eq!(stand_in.creature("ember").status, "running");

    for job in screen.press("w").unwrap() {
        jobs.perform(&mut screen.app, job);
    }
    // ember runs now as far as the stand-in knows, but the screen has not heard yet: the
    // wake goes, and the orchestrator answers.
    let said = tokio::time::timeout(Duration::from_secs(20), outcomes.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(!said.error, "{said:?}");

    // A message the orchestrator refuses comes back as the creature's draft.
    stand_in.require_token("ember", "not-ours");
    screen.press("m").unwrap();
    screen.type_text("Are you there?");
    for job in screen.press("ctrl-s").unwrap() {
        jobs.perform(&mut screen.app, job);
    }
    let said = tokio::time::timeout(Duration::from_secs(20), outcomes.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(said.error, "{said:?}");
    screen.outcome(said);
    let notice = screen.app.notice.clone().unwrap().text;
    assert!(
        notice.contains("cannot message ember") && notice.contains("kept as a draft: m opens it"),
        "{notice}"
    );
    screen.press("m").unwrap();
    assert_eq!(
        screen.app.popups.message.text().unwrap().lines(),
        ["Are you there?"]
    );
}

#[test]
fn errors_are_said_as_they_happen_not_from_the_history() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = attached(&garden);
    screen.press("j").unwrap();
    let old = json!({"creature": "ember", "t": "2026-11-22T17:00:00.000Z", "type": "creature.error", "error": "old trouble"});
    screen.openseed(Update::Stored(LiveEvent::parse(&old, None).unwrap()));
    assert!(
        !notice(&screen).contains("old trouble"),
        "{}",
        notice(&screen)
    );
    screen.openseed(event(json!({"creature": "ember", "t": "2026-11-22T17:49:00.000Z", "type": "budget.exceeded", "daily_spent": 20.5, "daily_cap": 20})));
    assert_eq!(
        notice(&screen),
        "ember reached its daily budget ($20.50 of $20.00): the orchestrator paused it until the day resets"
    );
    screen.press("5").unwrap();
    let text = screen.text().unwrap();
    let old = text.find("error old trouble").expect(&text);
    let first = text.find("The forecast API").expect(&text);
    let budget = text.find("budget $20.50 of $20.00").expect(&text);
    assert!(old < first && first < budget, "in time order: {text}");
}
