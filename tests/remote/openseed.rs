//! A far machine's OpenSeed orchestrator over the same connection as its garden: the far
//! `inspect --follow --wire` (started through the local transport, with its OpenSeed home
//! naming the orchestrator stand-in) passes on what the orchestrator reports (status,
//! costs, live events) and performs the near side's actions (wake, message, stop, start)
//! against it; a far side with no orchestrator says so.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::Duration;

use crate::common::http::openseed::{Creature, StandIn};
use dreamwatch::openseed::{EventKind, Update as OpenSeedUpdate};
use dreamwatch::remote::{Answered, Ask, Remote, Transport, Update, connect};
use serde_json::json;
use tokio::sync::mpsc;

const BIN: &str = env!("CARGO_BIN_EXE_dreamwatch");

/// A far garden with `sprout`, and the far side's program: dreamwatch with its OpenSeed
/// home in the temp dir (naming the orchestrator at `port`, when given).
struct Far {
    dir: tempfile::TempDir,
    program: PathBuf,
}

fn far(port: Option<u16>) -> Far {
    let dir = tempfile::tempdir().unwrap();
    let sprout = dir.path().join("garden/sprout");
    std::fs::create_dir_all(sprout.join(".sys")).unwrap();
    std::fs::write(sprout.join("BIRTH.json"), r#"{"name":"sprout"}"#).unwrap();
    std::fs::write(sprout.join(".sys/events.jsonl"), "").unwrap();
    let home = dir.path().join("openseed-home");
    std::fs::create_dir_all(&home).unwrap();
    if let Some(port) = port {
        std::fs::write(
            home.join("orchestrator.json"),
            json!({"port": port, "pid": 1, "started_at": "2026-03-09T10:00:00Z"}).to_string(),
        )
        .unwrap();
    }
    let program = dir.path().join("far-dreamwatch");
    std::fs::write(
        &program,
        format!(
            "#!/bin/sh\nOPENSEED_HOME='{}' XDG_CACHE_HOME='{}' exec '{BIN}' \"$@\"\n",
            home.display(),
            dir.path().join("far-cache").display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::create_dir_all(dir.path().join("mirror")).unwrap();
    Far { dir, program }
}

fn start(far: &Far) -> (Remote, mpsc::UnboundedReceiver<(PathBuf, Update)>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let remote = connect(
        Transport::Local {
            program: far.program.clone(),
            path: far.dir.path().join("garden"),
        },
        far.dir.path().join("mirror"),
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

/// The orchestrator's reports passed on, until one satisfies `done`.
async fn until(
    rx: &mut mpsc::UnboundedReceiver<(PathBuf, Update)>,
    done: impl Fn(&OpenSeedUpdate) -> bool,
) -> Vec<OpenSeedUpdate> {
    let mut seen = Vec::new();
    loop {
        if let Update::OpenSeed(v) = next(rx).await {
            let update: OpenSeedUpdate = serde_json::from_value(v).unwrap();
            let stop = done(&update);
            seen.push(update);
            if stop {
                return seen;
            }
        }
    }
}

async fn ask(remote: &Remote, action: &str, text: Option<&str>) -> Answered {
    let rx = remote.ask(Ask::OpenSeed {
        name: "sprout".into(),
        action: action.into(),
        text: text.map(str::to_owned),
    });
    tokio::time::timeout(Duration::from_secs(30), rx)
        .await
        .expect("an answer in time")
        .expect("answered")
}

fn thought(update: &OpenSeedUpdate, text: &str) -> bool {
    matches!(update, OpenSeedUpdate::Event(e) | OpenSeedUpdate::Stored(e)
        if e.creature == "sprout" && e.kind == EventKind::Thought { text: text.into() })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_far_orchestrator_reports_and_acts_through_the_connection() {
    let stand_in = StandIn::start(&[("sprout", Creature::new("sleeping"))]).await;
    stand_in.emit(
        "sprout",
        json!({"type": "creature.thought", "text": "before the observatory came"}),
    );
    let far = far(Some(stand_in.port));
    let (remote, mut rx) = start(&far);

    // Its status and its stored events come with the connection.
    let first = until(&mut rx, |u| thought(u, "before the observatory came")).await;
    assert!(
        first.iter().any(|u| matches!(u, OpenSeedUpdate::Up { .. })),
        "{first:?}"
    );
    let listed = first
        .iter()
        .find_map(|u| match u {
            OpenSeedUpdate::Creatures(list) => Some(list.clone()),
            _ => None,
        })
        .expect("the creatures listed");
    assert_eq!(listed[0].name, "sprout");
    // Its thought woke it, as the supervisor has it.
    assert_eq!(listed[0].status.label(), "running");
    assert!(first.iter().any(|u| matches!(u, OpenSeedUpdate::Costs(_))));

    // A live event as it happens.
    stand_in.emit("sprout", json!({"type": "creature.thought", "text": "now"}));
    until(&mut rx, |u| thought(u, "now")).await;

    let said = ask(&remote, "message", Some("Hello from the near side.")).await;
    assert!(said.ok, "{said:?}");
    let message = stand_in
        .seen()
        .into_iter()
        .find(|s| s.path == "/api/creatures/sprout/message")
        .expect("the message reached the orchestrator");
    assert_eq!(message.body, json!({"text": "Hello from the near side."}));

    assert!(ask(&remote, "stop", None).await.ok);
    assert_eq!(stand_in.creature("sprout").status, "stopped");
    // The orchestrator's refusal comes back as it said it.
    let refused = ask(&remote, "wake", None).await;
    assert!(
        !refused.ok && refused.text.contains("not running"),
        "{refused:?}"
    );
    assert!(ask(&remote, "start", None).await.ok);
    assert_ne!(stand_in.creature("sprout").status, "stopped");
    let odd = ask(&remote, "sleep", None).await;
    assert!(
        !odd.ok && odd.text.contains("not an OpenSeed action"),
        "{odd:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_far_side_without_an_orchestrator_says_so() {
    let far = far(None);
    let (remote, mut rx) = start(&far);
    assert_eq!(next(&mut rx).await, Update::Up);
    let said = ask(&remote, "wake", None).await;
    assert!(
        !said.ok && said.text.contains("no OpenSeed orchestrator runs there"),
        "{said:?}"
    );
}

/// The whole way: a key in the observatory, the job through the connection, the far side
/// asking its orchestrator, and the answer back in the status line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_on_a_far_openseed_creature_reaches_its_orchestrator() {
    use dreamwatch::ui::headless::Headless;
    use dreamwatch::ui::runtime::jobs::Jobs;
    use dreamwatch::ui::state::Settings;
    use dreamwatch::ui::theme::Theme;

    let stand_in = StandIn::start(&[("sprout", Creature::new("sleeping"))]).await;
    let far = far(Some(stand_in.port));
    let (remote, mut rx) = start(&far);
    let root = far.dir.path().join("mirror");
    let mut pending = Vec::new();
    loop {
        match next(&mut rx).await {
            Update::Up => break,
            other => pending.push(other),
        }
    }
    let (theme, _) = Theme::load("dark", None, false);
    let mut screen = Headless::open(
        std::slice::from_ref(&root),
        Settings::with_theme(theme),
        chrono::Utc::now(),
        120,
        36,
    )
    .unwrap();
    screen.add_remote(&root, "far");
    screen.remote(&root, Update::Up);
    for update in pending {
        screen.remote(&root, update);
    }
    while !screen
        .app
        .selected
        .as_deref()
        .is_some_and(|p| screen.app.openseed_route(p))
    {
        let update = next(&mut rx).await;
        screen.remote(&root, update);
    }
    let (tx, mut outcomes) = mpsc::unbounded_channel();
    let mut jobs = Jobs::new(std::collections::HashMap::new(), tx);
    jobs.remotes = vec![remote];
    screen.press("m").unwrap();
    screen.type_text("Across the wire.");
    for job in screen.press("ctrl-s").unwrap() {
        jobs.perform(&mut screen.app, job);
    }
    let said = tokio::time::timeout(Duration::from_secs(30), outcomes.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(!said.error, "{said:?}");
    assert!(
        said.text
            .starts_with("far: message delivered to sprout@far through the OpenSeed orchestrator"),
        "{said:?}"
    );
    let message = stand_in
        .seen()
        .into_iter()
        .find(|s| s.path == "/api/creatures/sprout/message")
        .expect("the message reached the far orchestrator");
    assert_eq!(message.body, json!({"text": "Across the wire."}));
}
