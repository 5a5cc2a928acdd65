//! End to end: the real binary in a tmux pane of fixed size ([`support`](crate::support)), driven
//! with send-keys and read with capture-pane. Each test skips (saying why) when tmux is not installed, except
//! under `CI=true`, where a missing tmux fails the test: CI must run them. Waits
//! poll the pane against a deadline, never a fixed sleep, for slow CI machines.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::common::http::openseed::{Creature, StandIn};
use crate::common::ui::{Garden, append};
use crate::support::{DEADLINE, Pane, tmux_available};
use serde_json::json;

#[test]
fn shows_a_fixture_creatures_observations() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let pane = Pane::start(&[garden.dir.path()]);
    let screen = pane.wait_text("WORKFLOW Check MESSAGES.md after every wake");
    assert!(screen.contains("Garden · 2"), "{screen}");
    assert!(screen.contains("ember"));
}

#[test]
fn a_line_appended_by_another_process_appears() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let pane = Pane::start(&[&garden.creature("ember")]);
    pane.wait_text("Observations");
    append(
        &garden.creature("ember").join(".self/observations.md"),
        "YLW 17:59 appended by another process during the e2e test\n",
    );
    pane.wait_text("appended by another process");
    append(
        &garden.creature("ember").join(".self/conversation.jsonl"),
        "{\"t\":\"2026-11-22T17:59:00.000Z\",\"role\":\"user\",\"content\":\"a brand new line in total recall\"}\n",
    );
    pane.keys(&["4"]);
    pane.wait_text("a brand new line in total recall");
}

#[test]
fn question_mark_opens_the_help() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let pane = Pane::start(&[garden.dir.path()]);
    pane.wait_text("Observations");
    pane.keys(&["?"]);
    let screen = pane.wait_text("Help: keys");
    assert!(screen.contains("show or hide this help"), "{screen}");
    pane.keys(&["Escape"]);
    pane.wait_for("help closed", |s| !s.contains("Help: keys"));
}

#[test]
fn a_message_sent_with_ctrl_s_lands_in_messages_md() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let pip = garden.creature("pip");
    let before = std::fs::read_to_string(pip.join("MESSAGES.md")).expect("pip's inbox");
    let pane = Pane::start(&[&pip]);
    pane.wait_text("Observations");
    pane.keys(&["m"]);
    pane.wait_text("Message to pip");
    pane.type_text("hello from the e2e test");
    pane.keys(&["Enter"]);
    pane.type_text("second line");
    pane.keys(&["C-s"]);
    pane.wait_text("message appended to");
    let after = std::fs::read_to_string(pip.join("MESSAGES.md")).expect("pip's inbox");
    assert!(
        after.starts_with(&before),
        "the file was rewritten:\n{after}"
    );
    assert!(
        after[before.len()..].contains("hello from the e2e test\nsecond line\n"),
        "{after}"
    );
}

#[test]
fn under_the_c_locale_the_screen_is_ascii() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let pane = Pane::start_with(&[("LC_ALL", Path::new("C"))], &[garden.dir.path()]);
    let screen = pane.wait_text("+ Garden . 2");
    assert!(screen.contains("Observations"), "{screen}");
    assert!(screen.is_ascii(), "{screen}");
}

#[test]
fn lines_pasted_with_cr_ends_stay_lines() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let pip = garden.creature("pip");
    let before = std::fs::read_to_string(pip.join("MESSAGES.md")).expect("pip's inbox");
    let pane = Pane::start(&[&pip]);
    pane.wait_text("Observations");
    pane.keys(&["m"]);
    pane.wait_text("Message to pip");
    // tmux pastes as terminals do: each line ending in CR, inside bracketed paste.
    let set = pane.tmux(&["set-buffer", "line one\nline two\nline three"]);
    assert!(set.status.success());
    let paste = pane.tmux(&["paste-buffer", "-p", "-t", "e2e"]);
    assert!(paste.status.success());
    pane.wait_text("line three");
    pane.keys(&["C-s"]);
    pane.wait_text("message appended to");
    let after = std::fs::read_to_string(pip.join("MESSAGES.md")).expect("pip's inbox");
    assert!(
        after[before.len()..].contains("line one\nline two\nline three\n"),
        "{after}"
    );
}

#[test]
fn an_injected_escape_sequence_leaves_the_terminal_untouched() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let pane = Pane::start(&[&ember]);
    pane.wait_text("Observations");
    let title_before = pane.display("#{pane_title}");
    // A title change (OSC 2), a clipboard write (OSC 52), a screen clear, a colour.
    append(
        &ember.join(".self/observations.md"),
        "RED 17:59 evil \u{1b}]2;PWNED\u{7}\u{1b}]52;c;aGk=\u{7}\u{1b}[2J\u{1b}[31mred end\n",
    );
    let screen = pane.wait_text("evil ^[]2;PWNED^G");
    assert!(screen.contains("^[[2J^[[31mred end"), "{screen}");
    // The rest of the screen is still there, and the pane's title did not change.
    assert!(screen.contains("Priorities & rules"), "{screen}");
    assert_eq!(pane.display("#{pane_title}"), title_before);
}

#[test]
fn q_exits_and_restores_the_terminal() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let pane = Pane::start(&[garden.dir.path()]);
    pane.wait_text("Observations");
    pane.wait_for("the alternate screen", |_| {
        pane.display("#{alternate_on}") == "1"
    });
    pane.keys(&["q"]);
    let screen = pane.wait_text("EXITED 0");
    assert!(!screen.contains("Observations"), "{screen}");
    assert_eq!(pane.display("#{alternate_on}"), "0");
    assert_eq!(pane.display("#{cursor_flag}"), "1");
    assert_eq!(pane.display("#{mouse_any_flag}"), "0");
}

/// The pid of the observatory: the child of the pane's shell.
pub fn observatory_pid(pane: &Pane) -> Option<u32> {
    let shell = pane.display("#{pane_pid}");
    let children = std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children")).ok()?;
    children.split_whitespace().next()?.parse().ok()
}

#[test]
fn sigterm_and_sighup_restore_the_terminal() {
    if !tmux_available() {
        return;
    }
    for signal in ["TERM", "HUP"] {
        let garden = Garden::new();
        let pane = Pane::start(&[garden.dir.path()]);
        pane.wait_text("Observations");
        let pid = observatory_pid(&pane).expect("the observatory's pid");
        let killed = Command::new("kill")
            .args([format!("-{signal}"), pid.to_string()])
            .status()
            .expect("kill");
        assert!(killed.success());
        pane.wait_text("EXITED");
        assert_eq!(pane.display("#{alternate_on}"), "0", "after SIG{signal}");
        assert_eq!(pane.display("#{cursor_flag}"), "1");
        assert_eq!(pane.display("#{mouse_any_flag}"), "0");
    }
}

/// A headless `dreamwatch run` on the rehearsal brain; killed when dropped.
struct Runner(std::process::Child);

impl Runner {
    fn start(dir: &Path, home: &Path) -> Self {
        let child = Command::new(env!("CARGO_BIN_EXE_dreamwatch"))
            .args([
                "run",
                "--provider",
                "rehearsal",
                "--headless",
                "--speed",
                "30",
            ])
            .arg(dir)
            .env("HOME", home)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("dreamwatch run");
        let start = Instant::now();
        while !dir.join(".sys/control.sock").exists() {
            assert!(
                start.elapsed() < DEADLINE,
                "the runner never opened its socket"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Self(child)
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_headless_runner_is_controlled_over_its_socket() {
    if !tmux_available() {
        return;
    }
    let home = tempfile::tempdir().expect("temp home");
    let dir = home.path().join("robin");
    let _runner = Runner::start(&dir, home.path());
    let pane = Pane::start(&[&dir]);
    pane.wait_text("REHEARSAL");
    pane.keys(&["p"]);
    pane.wait_text("asked robin to pause");
    pane.wait_for("the paused status", |s| s.contains("‖ paused"));
    pane.keys(&["p"]);
    pane.wait_text("asked robin to resume");
    pane.keys(&["m"]);
    pane.wait_text("Message to robin");
    pane.type_text("through the socket");
    pane.keys(&["C-s"]);
    pane.wait_text("message sent to the runner");
    let start = Instant::now();
    loop {
        let inbox = std::fs::read_to_string(dir.join("MESSAGES.md")).unwrap_or_default();
        if inbox.contains("through the socket") {
            assert_eq!(inbox.matches("through the socket").count(), 1, "{inbox}");
            break;
        }
        assert!(
            start.elapsed() < DEADLINE,
            "the message never reached MESSAGES.md"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A sleeping creature's countdown keeps ticking while its files change several times a
/// second: each change used to restart the one-second clock, so the countdown froze.
#[test]
fn the_countdown_ticks_while_the_creature_writes() {
    if !tmux_available() {
        return;
    }
    let garden = Garden::new();
    let ember = garden.creature("ember");
    let wake = chrono::Utc::now() + chrono::Duration::seconds(50);
    std::fs::create_dir_all(ember.join(".sys")).expect("mkdir");
    std::fs::write(
        ember.join(".sys/sleep.json"),
        format!(
            "{{\"wake_at\":\"{}\"}}",
            wake.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
        ),
    )
    .expect("sleep.json");
    let pane = Pane::start(&[&ember]);
    let shown = |screen: &str| -> Option<i64> {
        let at = screen.find("wakes in ")? + "wakes in ".len();
        let digits: String = screen[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    };
    let first = shown(&pane.wait_for("a countdown", |s| shown(s).is_some())).expect("a countdown");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let stop = stop.clone();
        let log = ember.join(".self/observations.md");
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                append(&log, "GRN 17:59 busy\n");
                std::thread::sleep(Duration::from_millis(150));
            }
        })
    };
    pane.wait_for("the countdown to move on by 3 s while files change", |s| {
        shown(s).is_some_and(|n| n <= first - 3)
    });
    stop.store(true, Ordering::Relaxed);
    let _ = writer.join();
}

#[test]
fn the_evennia_demo_shows_its_journal_and_entities() {
    if !tmux_available() {
        return;
    }
    let garden = tempfile::tempdir().expect("temp garden");
    let dir = garden.path().join("demo");
    let pane = Pane::start(&[
        Path::new("demo"),
        Path::new("--genome"),
        Path::new("evennia"),
        Path::new("--dir"),
        &dir,
    ]);
    // The journal fills as the rehearsal creature writes; its first sleep scores it.
    pane.wait_text("1 Journal");
    pane.wait_for("a scored entry", |s| s.contains(" llm "));
    pane.keys(&["2"]);
    let screen = pane.wait_text("wren");
    assert!(screen.contains("2 Entities"), "{screen}");
    pane.keys(&["q"]);
    pane.keys(&["q"]);
    pane.wait_text("EXITED 0");
}

/// With no path, on a machine where OpenSeed's orchestrator runs (its run file in
/// `$OPENSEED_HOME`), the observatory watches its garden and attaches: the orchestrator's
/// status, costs and live events show, and `w` goes through its API.
#[test]
fn dreamwatch_alone_attaches_to_the_openseed_orchestrator() {
    if !tmux_available() {
        return;
    }
    let rt = tokio::runtime::Runtime::new().unwrap();
    let stand_in = rt.block_on(StandIn::start(&[
        ("ember", Creature::new("sleeping")),
        ("pip", Creature::new("running")),
    ]));
    stand_in.set_spending("ember", 19.0, 20.0);
    stand_in.emit(
        "ember",
        json!({"type": "creature.thought", "text": "told by the orchestrator"}),
    );
    let garden = Garden::new();
    let home = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(garden.dir.path(), home.path().join("creatures")).unwrap();
    std::fs::write(
        home.path().join("orchestrator.json"),
        json!({"port": stand_in.port, "pid": std::process::id(), "started_at": "2026-11-22T17:00:00.000Z"}).to_string(),
    )
    .unwrap();
    let pane = Pane::start_with(&[("OPENSEED_HOME", home.path())], &[]);
    // Its thought woke it, as far as the orchestrator knows.
    let screen = pane.wait_text("OpenSeed running");
    assert!(
        screen.contains("$19.00 of $20.00 today ⚠ near cap"),
        "{screen}"
    );
    assert!(screen.contains("OpenSeed $19.00 today"), "{screen}");
    pane.keys(&["5"]);
    pane.wait_text("told by the orchestrator");
    stand_in.emit(
        "ember",
        json!({"type": "creature.thought", "text": "said while you watch"}),
    );
    pane.wait_text("said while you watch");
    stand_in.emit(
        "ember",
        json!({"type": "creature.sleep", "text": "resting", "seconds": 600, "actions": 4}),
    );
    pane.wait_text("OpenSeed sleeping (fatigue)");
    pane.keys(&["w"]);
    pane.wait_text("asked the orchestrator to wake ember");
    assert!(
        stand_in
            .seen()
            .iter()
            .any(|s| s.path == "/api/creatures/ember/wake")
    );
    drop(pane);
    drop(rt);
}

/// `--openseed URL` on a machine with no OpenSeed garden (the orchestrator of another
/// machine through an SSH tunnel): every creature it runs is shown from its API, with its
/// live events, and `m` reaches it through the API.
#[test]
fn an_orchestrator_through_a_tunnel_shows_all_its_creatures() {
    if !tmux_available() {
        return;
    }
    let rt = tokio::runtime::Runtime::new().unwrap();
    let stand_in = rt.block_on(StandIn::start(&[
        ("heron", Creature::new("sleeping")),
        ("wren", Creature::new("running")),
    ]));
    stand_in.emit(
        "wren",
        json!({"type": "creature.thought", "text": "only the orchestrator knows me"}),
    );
    let empty_home = tempfile::tempdir().unwrap();
    let url = stand_in.base.clone();
    let pane = Pane::start_with(
        &[("OPENSEED_HOME", empty_home.path())],
        &[Path::new("--openseed"), Path::new(&url)],
    );
    let screen = pane.wait_for("both creatures", |s| {
        s.contains("heron") && s.contains("wren") && s.contains("no files here")
    });
    assert!(screen.contains("Garden · 2"), "{screen}");
    // wren is the second row.
    pane.keys(&["]", "5"]);
    pane.wait_text("only the orchestrator knows me");
    pane.keys(&["m"]);
    pane.wait_text("through the OpenSeed orchestrator, which wakes wren");
    pane.type_text("Hello through the tunnel.");
    pane.keys(&["C-s"]);
    pane.wait_text("message delivered to wren");
    let message = stand_in
        .seen()
        .into_iter()
        .find(|s| s.path == "/api/creatures/wren/message")
        .expect("the message reached the orchestrator");
    assert_eq!(message.body, json!({"text": "Hello through the tunnel."}));
    pane.keys(&["q"]);
    pane.wait_text("EXITED 0");
    drop(pane);
    drop(rt);
}

/// `dreamwatch demo`: its three creatures write to each other, and the Talk view shows a
/// message pass between two of them as it happens.
#[test]
fn the_demo_garden_talks_on_screen() {
    if !tmux_available() {
        return;
    }
    let garden = tempfile::tempdir().expect("temp garden");
    let dir = garden.path().join("demo");
    let pane = Pane::start(&[Path::new("demo"), Path::new("--dir"), &dir]);
    // Several creatures hosted here: the Talk view is offered before anyone spoke (its
    // tab is `8`, its title once shown).
    pane.wait_text("Garden · 3");
    // It opens on the dreamer, the creature the README's headline describes.
    pane.wait_text("1 Observations");
    pane.keys(&["8"]);
    pane.wait_text("8 Talk");
    let names = ["sprout", "fern", "moss"];
    let screen = pane.wait_for("a message between two creatures", |s| {
        s.lines().any(|l| {
            names.iter().any(|from| {
                names
                    .iter()
                    .any(|to| from != to && l.contains(&format!("{from} → {to}")))
            })
        }) && s.contains("newest first") // the frame written to its bottom border
    });
    assert!(screen.contains("newest first"), "{screen}");
    pane.keys(&["q"]);
    pane.keys(&["q"]);
    pane.wait_text("EXITED 0");
    // Where the garden was kept, and how to watch it again.
    pane.wait_text("the garden is kept in");
}
