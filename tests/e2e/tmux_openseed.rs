//! The real binary attached to the stand-in orchestrator as OpenSeed's own behaves: Esc
//! takes the stop question back, a stop is seen in the header as soon as it is answered
//! (the orchestrator emits nothing), and a failed start's output reads whole in Live;
//! its dashboard's actions from the OpenSeed menu.

use crate::common::http::openseed::{Creature, StandIn};
use crate::common::ui::Garden;
use crate::support::{Pane, tmux_available};

#[test]
fn a_stop_asked_cancelled_asked_again_and_seen_at_once() {
    if !tmux_available() {
        return;
    }
    let rt = tokio::runtime::Runtime::new().unwrap();
    let stand_in = rt.block_on(ember_running_pip_asleep());
    let garden = Garden::new();
    let home = openseed_home(&garden, &stand_in);
    let pane = Pane::start_with(&[("OPENSEED_HOME", home.path())], &[]);
    pane.wait_text("OpenSeed running");
    pane.keys(&["p"]);
    pane.wait_text("stop ember?");
    pane.keys(&["Escape"]);
    pane.wait_text("cancelled: nothing was done");
    pane.keys(&["p"]);
    pane.wait_text("stop ember?");
    let stops = || {
        stand_in
            .seen()
            .iter()
            .filter(|s| s.path == "/api/creatures/ember/stop")
            .count()
    };
    assert_eq!(stops(), 0, "Esc took the question back");
    pane.keys(&["p"]);
    // Well before the next poll (15 s): the header says it.
    let screen = pane.wait_text("OpenSeed stopped");
    assert!(screen.contains("ember's container stopped"), "{screen}");
    assert_eq!(stops(), 1);

    // A start that fails: its output, every line, in Live.
    stand_in.fail_next_start(
        "ember",
        "Command failed: docker build -t creature-ember .\nERROR: no space left on device",
    );
    pane.keys(&["p"]);
    pane.wait_text("[and 1 ");
    pane.keys(&["5"]);
    let screen = pane.wait_text("ERROR: no space left on device");
    assert!(!screen.contains("^J"), "{screen}");
    drop(pane);
    drop(rt);
}

/// The OpenSeed menu: a restart asked, cancelled, asked again and done; a spawn through
/// its form; an archive.
#[test]
fn the_menu_restarts_spawns_and_archives() {
    if !tmux_available() {
        return;
    }
    let rt = tokio::runtime::Runtime::new().unwrap();
    let stand_in = rt.block_on(ember_running_pip_asleep());
    let garden = Garden::new();
    let home = openseed_home(&garden, &stand_in);
    let pane = Pane::start_with(&[("OPENSEED_HOME", home.path())], &[]);
    pane.wait_text("OpenSeed running");
    pane.keys(&["A"]);
    pane.wait_text("OpenSeed: ember");
    pane.keys(&["r"]);
    pane.wait_text("restart ember?");
    pane.keys(&["Escape"]);
    // Not read as Alt-A with the Escape.
    std::thread::sleep(std::time::Duration::from_millis(400));
    pane.keys(&["A", "r"]);
    pane.wait_text("restart ember?");
    let asked = |route: &str| stand_in.seen().iter().filter(|s| s.path == route).count();
    assert_eq!(asked("/api/creatures/ember/restart"), 0);
    pane.keys(&["r"]);
    pane.wait_text("container restarted");
    assert_eq!(asked("/api/creatures/ember/restart"), 1);

    pane.keys(&["A", "n"]);
    pane.wait_text("spawn a creature");
    pane.keys(&["n", "e", "w", "t", "Enter"]);
    pane.wait_text("the orchestrator is spawning newt");
    pane.wait_text("newt");

    pane.keys(&["A", "a"]);
    pane.wait_text("archive ember?");
    pane.keys(&["a"]);
    pane.wait_text("ember archived");
    assert_eq!(stand_in.archived(), ["ember"]);
    drop(pane);
    drop(rt);
}

/// Mail from the OpenSeed menu: a message read (and marked read), one written as the
/// creator, seen in the creator's sent mail (OpenSeed's files, its home on this machine).
#[test]
fn mail_is_read_and_sent_as_the_creator() {
    if !tmux_available() {
        return;
    }
    let rt = tokio::runtime::Runtime::new().unwrap();
    let stand_in = rt.block_on(ember_running_pip_asleep());
    let garden = Garden::new();
    let home = openseed_home(&garden, &stand_in);
    stand_in.keep_mail_in(&home.path().join("mail"));
    let id = stand_in.mail(
        "ember",
        "creator",
        "the cron job",
        "It ran twice: I fixed the lock.",
    );
    let pane = Pane::start_with(&[("OPENSEED_HOME", home.path())], &[]);
    pane.wait_text("OpenSeed running");
    pane.keys(&["A", "e"]);
    pane.wait_text("creator: inbox");
    pane.wait_text("the cron job");
    pane.keys(&["l", "Enter"]);
    pane.wait_text("It ran twice: I fixed the lock.");
    // Read whole: marked read (the unread count goes).
    pane.wait_for("the message marked read", |screen| {
        !screen.contains("creator (you)     1/1")
    });
    let read = format!("/api/creatures/creator/mail/{id}/read");
    assert_eq!(stand_in.seen().iter().filter(|s| s.path == read).count(), 1);
    assert_eq!(
        stand_in.mail_file("creator", "inbox", &id).unwrap()["read"],
        true
    );

    // Written to pip as the creator: it wakes for it, and it is in the creator's sent.
    pane.keys(&["c"]);
    pane.wait_text("mail as the creator");
    pane.keys(&["Right", "Tab"]);
    pane.type_text("plans");
    pane.keys(&["Tab"]);
    pane.type_text("what comes next?");
    pane.keys(&["Enter"]);
    pane.wait_text("mail sent to pip as the creator");
    assert_eq!(stand_in.creature("pip").status, "running");
    pane.keys(&["h", "Tab"]);
    pane.wait_text("creator: sent");
    let screen = pane.wait_text("→ pip");
    assert!(screen.contains("plans"), "{screen}");
    drop(pane);
    drop(rt);
}

/// The stand-in orchestrator running `ember` with `pip` asleep.
pub(crate) async fn ember_running_pip_asleep() -> StandIn {
    StandIn::start(&[
        ("ember", Creature::new("running")),
        ("pip", Creature::new("sleeping")),
    ])
    .await
}

/// An OpenSeed home whose creatures are the garden's and whose run file names the
/// stand-in (what `OPENSEED_HOME` points the observatory at).
pub(crate) fn openseed_home(garden: &Garden, stand_in: &StandIn) -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(garden.dir.path(), home.path().join("creatures")).unwrap();
    stand_in.write_run_file(&home.path().join("orchestrator.json"));
    home
}
