//! Creatures an OpenSeed orchestrator lists whose files are not on this machine (an
//! orchestrator reached through an SSH tunnel): shown from what the API says alone
//! (status, sleep reason, spend, live events), the keys going through the API, the views
//! that need files saying so; and one row, not two, once their files appear here.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use crate::common::http::openseed::{Creature, StandIn};
use crate::common::ui::{Garden, copy_dir, filters};
use dreamwatch::openseed::{
    AttachOptions, Budget, Costs, CreatureInfo, LiveEvent, Target, Tokens, Update, attach,
};
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::runtime::jobs::Jobs;
use dreamwatch::ui::state::openseed::api_only_path;
use dreamwatch::ui::update::{Job, OpenSeedAction};
use serde_json::json;

const W: u16 = 120;
const H: u16 = 36;

fn creature(name: &str, status: &str, reason: Option<&str>) -> CreatureInfo {
    serde_json::from_value(
        json!({"name": name, "status": status, "sleepReason": reason, "model": "claude-sonnet-4-6"}),
    )
    .unwrap()
}

fn notice(screen: &Headless) -> String {
    screen
        .app
        .notice
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

/// Rows of the garden list naming `name` (the first row of each creature starts with
/// its status glyph, then its name).
fn rows_named(text: &str, name: &str) -> usize {
    text.lines()
        .filter(|l| {
            l.split('│')
                .nth(1)
                .is_some_and(|cell| cell.split_whitespace().nth(1) == Some(name))
        })
        .count()
}

/// pip and ember have files here; wren (running) and heron (sleeping on its budget) only
/// the orchestrator knows.
fn attached(garden: &Garden) -> Headless {
    let mut screen = garden.screen("dark", W, H);
    screen.attach_openseed("http://127.0.0.1:7770");
    screen.openseed(Update::Up {
        base: "http://127.0.0.1:7770".into(),
    });
    screen.openseed(Update::Creatures(vec![
        creature("ember", "sleeping", Some("fatigue")),
        creature("heron", "sleeping", Some("budget")),
        creature("pip", "running", None),
        creature("wren", "running", None),
    ]));
    let budget = |spent: f64| Budget {
        daily_cap_usd: 20.0,
        daily_spent_usd: spent,
        action: "sleep".into(),
        ..Budget::default()
    };
    screen.openseed(Update::Costs(Costs {
        budgets: BTreeMap::from([
            ("wren".into(), budget(16.5)),
            ("heron".into(), budget(20.25)),
        ]),
        ..Costs::default()
    }));
    for e in [
        json!({"creature": "wren", "t": "2026-11-22T17:44:00.000Z", "type": "creature.wake", "reason": "a new day", "source": "timer"}),
        json!({"creature": "wren", "t": "2026-11-22T17:45:00.000Z", "type": "creature.thought", "text": "The survey needs a second pass \u{1b}[2J."}),
        json!({"creature": "wren", "t": "2026-11-22T17:46:00.000Z", "type": "creature.tool_call", "tool": "bash", "input": "wc -l survey.csv", "ok": true, "output": "412 survey.csv"}),
        json!({"creature": "heron", "t": "2026-11-22T17:30:00.000Z", "type": "budget.exceeded", "daily_spent": 20.25, "daily_cap": 20}),
    ] {
        screen.openseed(Update::Event(LiveEvent::parse(&e, None).unwrap()));
    }
    screen
}

fn select(screen: &mut Headless, name: &str) {
    for _ in 0..screen.app.creatures.len() {
        screen.press("[").unwrap();
    }
    for _ in 0..screen.app.creatures.len() {
        if screen.app.selected_ui().unwrap().name == name {
            return;
        }
        screen.press("]").unwrap();
    }
    panic!("{name} is not in the garden");
}

#[test]
fn creatures_without_files_are_shown_from_the_api() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = attached(&garden);
    let text = screen.text().unwrap();
    for name in ["ember", "heron", "pip", "wren"] {
        assert_eq!(rows_named(&text, name), 1, "{name}: {text}");
    }
    select(&mut screen, "wren");
    screen.press("5").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("OpenSeed running"), "{text}");
    assert!(
        text.contains("The survey needs a second pass ^[[2J."),
        "{text}"
    );
    assert!(
        text.contains("files are not on this machine"),
        "the side pane: {text}"
    );
    filters(&garden).bind(|| insta::assert_snapshot!("openseed_api_only_live", text));

    // Views that need files say so.
    screen.press("1").unwrap();
    let text = screen.text().unwrap();
    assert!(
        text.contains("wren's files are not on this machine: its observations"),
        "{text}"
    );
    assert!(
        !text.contains("newest first"),
        "no filter of its files: {text}"
    );
    assert!(text.contains("(5 shows them)"), "{text}");

    select(&mut screen, "heron");
    let text = screen.text().unwrap();
    assert!(text.contains("sleeping (budget)"), "{text}");
    assert!(text.contains("⚠"), "past its cap: {text}");
}

#[test]
fn keys_reach_a_creature_without_files_through_the_api() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = attached(&garden);
    let wren = api_only_path("wren");
    select(&mut screen, "wren");
    assert!(screen.press("w").unwrap().is_empty());
    assert_eq!(notice(&screen), "wren is already awake");
    screen.press("m").unwrap();
    assert!(
        screen
            .text()
            .unwrap()
            .contains("through the OpenSeed orchestrator, which wakes wren"),
    );
    screen.type_text("Second pass first.");
    assert_eq!(
        screen.press("ctrl-s").unwrap(),
        [Job::OpenSeed {
            creature: wren.clone(),
            action: OpenSeedAction::Message("Second pass first.".into())
        }]
    );
    assert!(screen.press("p").unwrap().is_empty());
    assert_eq!(
        screen.press("p").unwrap(),
        [Job::OpenSeed {
            creature: wren,
            action: OpenSeedAction::Stop
        }]
    );
    assert!(screen.press("s").unwrap().is_empty());
    assert!(notice(&screen).starts_with("OpenSeed has no endpoint to force a sleep"));
    screen.press("/").unwrap();
    screen.type_text("survey");
    screen.press("enter").unwrap();
    assert!(
        notice(&screen).contains("files are not on this machine: nothing of it to search"),
        "{}",
        notice(&screen)
    );
}

#[test]
fn files_appearing_merge_into_the_same_row() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = attached(&garden);
    select(&mut screen, "wren");
    screen.press("m").unwrap();
    screen.type_text("half written");
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/openseed/feb20-wren/creature");
    copy_dir(&fixture, &garden.creature("wren"));
    screen.refresh();
    let text = screen.text().unwrap();
    assert_eq!(rows_named(&text, "wren"), 1, "{text}");
    assert_eq!(screen.app.creatures.len(), 4);
    // The selection and the open message box follow it to its files.
    assert_eq!(screen.app.selected, Some(garden.creature("wren")));
    assert_eq!(
        screen.app.popups.message.to(),
        Some(garden.creature("wren").as_path())
    );
    assert!(!screen.app.creatures.contains_key(&api_only_path("wren")));

    // Its files gone again, the orchestrator's word remains.
    std::fs::remove_dir_all(garden.creature("wren")).unwrap();
    screen.refresh();
    assert!(screen.app.creatures.contains_key(&api_only_path("wren")));
    assert_eq!(screen.app.creatures.len(), 4);

    // The orchestrator no longer lists it: it leaves the garden.
    screen.openseed(Update::Creatures(vec![
        creature("ember", "sleeping", Some("fatigue")),
        creature("pip", "running", None),
    ]));
    assert_eq!(screen.app.creatures.len(), 2);
}

/// An empty garden attached to the stand-in (an orchestrator through a tunnel): every
/// creature it runs is shown, and a message reaches it.
#[tokio::test(flavor = "multi_thread")]
async fn an_orchestrator_alone_shows_all_its_creatures() {
    dreamwatch::app::genomes::install();
    let stand_in = StandIn::start(&[
        ("finch", Creature::new("sleeping")),
        ("moss", Creature::new("running")),
    ])
    .await;
    stand_in.emit(
        "moss",
        json!({"type": "creature.thought", "text": "moss thinks"}),
    );
    let empty = tempfile::tempdir().unwrap();
    let (attachment, mut updates) = attach(
        Target::Url(stand_in.base.clone()),
        Tokens::default(),
        AttachOptions {
            backoff_first: Duration::from_millis(10),
            ..AttachOptions::default()
        },
    );
    let mut screen = Headless::open(
        &[empty.path().to_path_buf()],
        dreamwatch::ui::state::Settings::with_theme(
            dreamwatch::ui::theme::Theme::load("dark", None, false).0,
        ),
        crate::common::ui::clock(),
        W,
        H,
    )
    .unwrap();
    screen.attach_openseed(&stand_in.base);
    while screen.app.creatures.len() < 2
        || !screen
            .app
            .openseed
            .as_ref()
            .unwrap()
            .events
            .contains_key("moss")
    {
        let update = tokio::time::timeout(Duration::from_secs(20), updates.recv())
            .await
            .unwrap()
            .unwrap();
        screen.openseed(update);
    }
    select(&mut screen, "moss");
    screen.press("5").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("moss thinks"), "{text}");
    assert!(text.contains("OpenSeed running"), "{text}");

    let (tx, mut outcomes) = tokio::sync::mpsc::unbounded_channel();
    let mut jobs = Jobs::new(HashMap::new(), tx);
    jobs.openseed = Some(attachment);
    screen.press("m").unwrap();
    screen.type_text("Hello from afar.");
    for job in screen.press("ctrl-s").unwrap() {
        jobs.perform(&mut screen.app, job);
    }
    let said = tokio::time::timeout(Duration::from_secs(20), outcomes.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(!said.error, "{said:?}");
    let message = stand_in
        .seen()
        .into_iter()
        .find(|s| s.path == "/api/creatures/moss/message")
        .unwrap();
    assert_eq!(message.body, json!({"text": "Hello from afar."}));
}
