//! Gardens on other machines in the observatory: far creatures marked with their host, a
//! dropped connection said on them and in the status line, and the creature keys asking
//! the far side (refused in read-only). The copies here stand in for a connection's
//! mirror; the connection itself is tested in `remote_wire.rs` and `remote_ssh.rs`.

use std::time::Duration;

use crate::common::ui::{Garden, filters};
use dreamwatch::control::ControlCommand;
use dreamwatch::remote::Update;
use dreamwatch::ui::update::{Job, RemoteAsk};

fn far_screen(garden: &Garden) -> dreamwatch::ui::headless::Headless {
    let mut screen = garden.screen("dark", 120, 36);
    screen.add_remote(garden.dir.path(), "box");
    screen
}

#[test]
fn far_creatures_carry_their_host_and_a_dropped_connection_is_marked_on_them() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = far_screen(&garden);
    let text = screen.text().unwrap();
    assert!(
        text.contains("ember@box") && text.contains("pip@box"),
        "{text}"
    );
    assert!(text.contains("connecting"), "{text}");
    screen.remote(garden.dir.path(), Update::Up);
    let text = screen.text().unwrap();
    assert!(
        !text.contains("connecting") && !text.contains("disconnected"),
        "{text}"
    );

    screen.remote(
        garden.dir.path(),
        Update::Down {
            error: "ssh: connect to host box port 22: Connection refused".into(),
            retry_in: Duration::from_secs(2),
        },
    );
    let text = screen.text().unwrap();
    assert!(text.contains("⚡ disconnected"), "{text}");
    let notice = screen.app.notice.clone().unwrap();
    assert!(
        notice.error
            && notice
                .text
                .starts_with("box: connection lost (ssh: connect to host box"),
        "{notice:?}"
    );
    filters(&garden).bind(|| insta::assert_snapshot!("remote_disconnected", text));

    screen.remote(garden.dir.path(), Update::Up);
    let text = screen.text().unwrap();
    assert!(!text.contains("disconnected"), "{text}");
    assert!(
        screen
            .app
            .notice
            .clone()
            .unwrap()
            .text
            .contains("box: connected again")
    );
}

#[test]
fn a_far_garden_that_cannot_be_followed_says_why() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = far_screen(&garden);
    screen.remote(
        garden.dir.path(),
        Update::Refused {
            error: "box runs dreamwatch 9.9.9 (wire protocol 99)".into(),
        },
    );
    assert!(screen.text().unwrap().contains("not followed"));
    let notice = screen.app.notice.clone().unwrap();
    assert!(notice.text.contains("wire protocol 99"), "{notice:?}");
}

#[test]
fn the_creature_keys_ask_the_far_side() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = far_screen(&garden);
    screen.remote(garden.dir.path(), Update::Up);
    let selected = screen.app.selected.clone().unwrap();
    for (key, command) in [
        ("s", ControlCommand::ForceSleep),
        ("w", ControlCommand::Wake),
        ("p", ControlCommand::Pause),
    ] {
        let jobs = screen.press(key).unwrap();
        assert_eq!(
            jobs,
            vec![Job::Remote {
                creature: selected.clone(),
                ask: RemoteAsk::Control(command)
            }],
            "{key}"
        );
    }
    screen.press("m").unwrap();
    let text = screen.text().unwrap();
    assert!(
        text.contains("to its runner on box, else appended to MESSAGES.md there"),
        "{text}"
    );
    screen.type_text("hello over there");
    let jobs = screen.press("ctrl-s").unwrap();
    assert_eq!(
        jobs,
        vec![Job::Remote {
            creature: selected.clone(),
            ask: RemoteAsk::Message("hello over there".into())
        }]
    );
    // Nothing is written to the copy: the far side writes.
    assert!(
        !selected.join("MESSAGES.md").exists() || {
            let text = std::fs::read_to_string(selected.join("MESSAGES.md")).unwrap();
            !text.contains("hello over there")
        }
    );
}

#[test]
fn read_only_refuses_the_far_side_too() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let (theme, _) = dreamwatch::ui::theme::Theme::load("dark", None, false);
    let mut settings = dreamwatch::ui::state::Settings::with_theme(theme);
    settings.read_only = true;
    let mut screen = dreamwatch::ui::headless::Headless::open(
        &[garden.dir.path().to_path_buf()],
        settings,
        crate::common::ui::clock(),
        120,
        36,
    )
    .unwrap();
    screen.add_remote(garden.dir.path(), "box");
    screen.remote(garden.dir.path(), Update::Up);
    for key in ["s", "p", "w", "m"] {
        assert!(screen.press(key).unwrap().is_empty(), "{key}");
        let notice = screen.app.notice.clone().unwrap();
        assert!(notice.text.starts_with("read-only"), "{notice:?}");
    }
}

#[test]
fn a_far_garden_never_reached_says_it_cannot_connect() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = far_screen(&garden);
    screen.remote(
        garden.dir.path(),
        Update::Down {
            error: "ssh: Could not resolve hostname box".into(),
            retry_in: Duration::from_secs(1),
        },
    );
    let notice = screen.app.notice.clone().unwrap();
    assert!(
        notice
            .text
            .starts_with("box: cannot connect (ssh: Could not resolve hostname box)"),
        "{notice:?}"
    );
    assert!(screen.text().unwrap().contains("⚡ disconnected"));
}

/// What the far machine's orchestrator says, as its connection passes it on.
fn far_openseed(update: dreamwatch::openseed::Update) -> Update {
    Update::OpenSeed(serde_json::to_value(update).unwrap())
}

#[test]
fn a_far_orchestrator_is_shown_and_asked_through_the_connection() {
    dreamwatch::app::genomes::install();
    use dreamwatch::openseed::{LiveEvent, Update as OpenSeed};
    use dreamwatch::ui::update::OpenSeedAction;
    let garden = Garden::new();
    let mut screen = far_screen(&garden);
    let root = garden.dir.path();
    screen.remote(root, Update::Up);
    screen.remote(
        root,
        far_openseed(OpenSeed::Up {
            base: "http://127.0.0.1:7770".into(),
        }),
    );
    let list = serde_json::from_value(serde_json::json!([
        {"name": "ember", "status": "sleeping", "sleepReason": "fatigue"},
        {"name": "pip", "status": "running"}
    ]))
    .unwrap();
    screen.remote(root, far_openseed(OpenSeed::Creatures(list)));
    let event = serde_json::json!({"creature": "ember", "t": "2026-11-22T17:45:00.000Z",
        "type": "creature.thought", "text": "Thinking on box"});
    screen.remote(
        root,
        far_openseed(OpenSeed::Event(LiveEvent::parse(&event, None).unwrap())),
    );
    // The connection made anew, the far side sends its stored events again: kept once.
    for _ in 0..2 {
        screen.remote(
            root,
            far_openseed(OpenSeed::Stored(LiveEvent::parse(&event, None).unwrap())),
        );
    }
    assert_eq!(screen.app.selected_ui().unwrap().name, "ember@box");
    screen.press("5").unwrap();
    let text = screen.text().unwrap();
    assert!(text.contains("OpenSeed sleeping (fatigue)"), "{text}");
    assert_eq!(text.matches("Thinking on box").count(), 1, "{text}");

    let ember = garden.creature("ember");
    assert_eq!(
        screen.press("w").unwrap(),
        [Job::Remote {
            creature: ember.clone(),
            ask: RemoteAsk::OpenSeed(OpenSeedAction::Wake)
        }]
    );
    screen.press("m").unwrap();
    assert!(
        screen
            .text()
            .unwrap()
            .contains("through the OpenSeed orchestrator on box"),
    );
    screen.type_text("From afar.");
    assert_eq!(
        screen.press("ctrl-s").unwrap(),
        [Job::Remote {
            creature: ember.clone(),
            ask: RemoteAsk::OpenSeed(OpenSeedAction::Message("From afar.".into()))
        }]
    );
    assert!(screen.press("p").unwrap().is_empty(), "asked first");
    assert_eq!(
        screen.press("p").unwrap(),
        [Job::Remote {
            creature: ember,
            ask: RemoteAsk::OpenSeed(OpenSeedAction::Stop)
        }]
    );
    assert!(screen.press("s").unwrap().is_empty());

    // The connection down: its orchestrator is out of reach with it.
    screen.remote(
        root,
        Update::Down {
            error: "ssh: connection reset".into(),
            retry_in: Duration::from_secs(2),
        },
    );
    assert!(screen.press("w").unwrap().is_empty());
    let notice = screen.app.notice.clone().unwrap().text;
    assert!(notice.contains("cannot be reached now"), "{notice}");
}

/// A creature the far machine's orchestrator runs whose files are not in the far garden
/// followed: shown from what that orchestrator says, asked through the connection, and
/// one row once its files arrive.
#[test]
fn a_far_orchestrators_creature_without_files_there_is_shown_and_merges() {
    dreamwatch::app::genomes::install();
    use dreamwatch::openseed::Update as OpenSeed;
    use dreamwatch::ui::update::OpenSeedAction;
    let garden = Garden::new();
    let mut screen = far_screen(&garden);
    let root = garden.dir.path();
    screen.remote(root, Update::Up);
    screen.remote(
        root,
        far_openseed(OpenSeed::Up {
            base: "http://127.0.0.1:7770".into(),
        }),
    );
    let list = serde_json::from_value(serde_json::json!([
        {"name": "ember", "status": "sleeping", "sleepReason": "fatigue"},
        {"name": "heron", "status": "running"},
        {"name": "../escape", "status": "running"},
        {"name": "pip", "status": "running"}
    ]))
    .unwrap();
    screen.remote(root, far_openseed(OpenSeed::Creatures(list)));
    assert_eq!(
        screen.app.creatures.len(),
        3,
        "no row for a name that is a path"
    );
    let heron = garden.creature("heron");
    while screen.app.selected.as_ref() != Some(&heron) {
        screen.press("]").unwrap();
    }
    let text = screen.text().unwrap();
    assert!(text.contains("heron@box"), "{text}");
    assert!(text.contains("OpenSeed running"), "{text}");
    assert!(text.contains("no files here"), "{text}");
    screen.press("m").unwrap();
    screen.type_text("Are you out there?");
    assert_eq!(
        screen.press("ctrl-s").unwrap(),
        [Job::Remote {
            creature: heron.clone(),
            ask: RemoteAsk::OpenSeed(OpenSeedAction::Message("Are you out there?".into()))
        }]
    );

    // Its files arrive in the copy: one row, the same one.
    crate::common::ui::copy_dir(&garden.creature("pip"), &heron);
    screen.refresh();
    assert_eq!(screen.app.creatures.len(), 3);
    assert_eq!(screen.app.selected.as_ref(), Some(&heron));
    assert!(!screen.app.without_files(&heron));
    let text = screen.text().unwrap();
    assert!(!text.contains("no files here"), "{text}");

    // No longer listed, and no files: it leaves.
    std::fs::remove_dir_all(&heron).unwrap();
    screen.refresh();
    assert_eq!(
        screen.app.creatures.len(),
        3,
        "listed still: from the API again"
    );
    let list = serde_json::from_value(serde_json::json!([
        {"name": "ember", "status": "sleeping"},
        {"name": "pip", "status": "running"}
    ]))
    .unwrap();
    screen.remote(root, far_openseed(OpenSeed::Creatures(list)));
    assert_eq!(screen.app.creatures.len(), 2);
}

#[test]
fn a_far_garden_that_failed_has_a_row_not_the_empty_garden_text() {
    dreamwatch::app::genomes::install();
    let mirror = tempfile::tempdir().unwrap();
    let (theme, _) = dreamwatch::ui::theme::Theme::load("dark", None, false);
    let mut screen = dreamwatch::ui::headless::Headless::open(
        &[mirror.path().to_path_buf()],
        dreamwatch::ui::state::Settings::with_theme(theme),
        crate::common::ui::clock(),
        120,
        30,
    )
    .unwrap();
    screen.add_remote(mirror.path(), "box");
    let text = screen.text().unwrap();
    assert!(text.contains("ssh://box/garden"), "{text}");
    assert!(text.contains("connecting…"), "{text}");
    assert!(!text.contains("No creatures yet"), "{text}");
    screen.remote(
        mirror.path(),
        Update::Down {
            error: "ssh: Could not resolve hostname box".into(),
            retry_in: Duration::from_secs(4),
        },
    );
    let text = screen.text().unwrap();
    assert!(text.contains("ssh://box/garden ⚡ ssh:"), "{text}");
    assert!(text.contains("(tried again in 4s)"), "{text}");
    assert!(!text.contains("No creatures yet"), "{text}");
}

#[test]
fn far_logs_still_arriving_are_said_and_asked_for_once_every_far_garden_is_in() {
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    let mut screen = far_screen(&garden);
    // A second far garden, still connecting.
    let other = tempfile::tempdir().unwrap();
    screen.add_remote(other.path(), "far");
    let root = garden.dir.path().to_path_buf();
    screen.remote(&root, Update::Up);
    screen.remote(&root, Update::Windows { left: 2 });
    let text = screen.text().unwrap();
    assert!(text.contains("2 logs arriving · "), "{text}");
    // The shown creature's log is asked for at once; the others wait for every garden.
    let selected = screen.app.selected.clone().unwrap();
    assert_eq!(
        screen.app.take_remote_jobs(),
        vec![Job::Remote {
            creature: selected,
            ask: RemoteAsk::Want
        }]
    );
    assert_eq!(screen.app.take_remote_jobs(), vec![], "asked once");
    screen.remote(other.path(), Update::Up);
    screen.text().unwrap();
    assert_eq!(
        screen.app.take_remote_jobs(),
        vec![Job::RemoteWindows { root: root.clone() }]
    );
    assert_eq!(screen.app.take_remote_jobs(), vec![], "asked once");
    screen.remote(&root, Update::Windows { left: 0 });
    let text = screen.text().unwrap();
    assert!(!text.contains("arriving"), "{text}");
}

#[test]
fn a_far_creature_whose_log_is_arriving_says_so_in_recall() {
    use std::os::unix::fs::MetadataExt;
    dreamwatch::app::genomes::install();
    let garden = Garden::new();
    // The copy as a first snapshot leaves it: no line held, all of them counted there.
    let conv = garden.creature("pip").join(".self/conversation.jsonl");
    std::fs::write(&conv, "").unwrap();
    let inode = std::fs::metadata(&conv).unwrap().ino();
    let head = dreamwatch::memory::far_head::FarHead {
        lines: 325,
        entries: 325,
        ..Default::default()
    };
    dreamwatch::memory::far_head::offer(&conv, inode, head);
    let mut screen = far_screen(&garden);
    let root = garden.dir.path().to_path_buf();
    screen.remote(&root, Update::Up);
    screen.remote(&root, Update::Windows { left: 1 });
    let pip = screen
        .app
        .creatures
        .keys()
        .find(|p| p.ends_with("pip"))
        .cloned()
        .unwrap();
    screen.app.selected = Some(pip);
    screen.press("4").unwrap();
    let text = screen.text().unwrap();
    assert!(
        text.contains("Its last lines are on their way from box"),
        "{text}"
    );
    // Its window came (the count of the lines before it, then the lines).
    screen.remote(&root, Update::Windows { left: 0 });
    let text = screen.text().unwrap();
    assert!(!text.contains("on their way"), "{text}");
}
