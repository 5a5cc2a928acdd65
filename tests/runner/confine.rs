//! A creature never acts as its operator: its commands run confined (Landlock) to its
//! workspace, can neither read nor write `.sys/`, the operator's config, the history store
//! or anything else outside, cannot read the runner's memory or environment, and cannot
//! command its runner over the control socket. Each case is tried the way a creature
//! would: from its bash tool (the runner's own tool path), as root here and in CI.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{TimeDelta, TimeZone, Utc};
use serde_json::json;

use dreamwatch::control::{send_command, token_path};
use dreamwatch::genomes::dreamer::runner::Dreamer;
use dreamwatch::llm::{ContentBlock, LlmFuture, Provider, Request, Response, StopReason};
use dreamwatch::memory::conversation::ToolOutput;
use dreamwatch::runner::brain::Model;
use dreamwatch::runner::clock::VirtualClock;
use dreamwatch::runner::config::RunnerConfig;
use dreamwatch::runner::driver::{Runner, RunnerOptions};
use dreamwatch::runner::sandbox::{REFUSED_NOTE, Sandbox, SandboxState};
use dreamwatch::runner::socket::NO_TOKEN;
use dreamwatch::runner::tools::{Bash, ToolOutcome, ToolRunner};

const PATIENCE: Duration = Duration::from_secs(20);

/// A creature directory in its seed layout, in a temp dir that also holds what lies
/// outside it: a sibling creature, and stand-ins for the operator's config and state.
struct Scene {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    dir: PathBuf,
}

fn scene() -> Scene {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().to_path_buf();
    let dir = root.join("garden/sprout");
    for d in [".self", ".sys", "workspace"] {
        std::fs::create_dir_all(dir.join(d)).unwrap();
    }
    std::fs::write(dir.join("PURPOSE.md"), "Grow.\n").unwrap();
    std::fs::write(dir.join("MESSAGES.md"), "# Messages\n").unwrap();
    std::fs::write(dir.join(".self/observations.md"), "GRN 10:00 seen\n").unwrap();
    std::fs::write(dir.join(".sys/runner.json"), "{\"paused\":false}").unwrap();
    std::fs::write(token_path(&dir), "secret-operator-token").unwrap();
    std::fs::create_dir_all(root.join("garden/sibling/.self")).unwrap();
    std::fs::write(root.join("garden/sibling/.self/diary.md"), "mine\n").unwrap();
    for d in ["config/dreamwatch", "state/dreamwatch/history"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    std::fs::write(root.join("config/dreamwatch/config.toml"), "[runner]\n").unwrap();
    Scene {
        _tmp: tmp,
        root,
        dir,
    }
}

fn bash() -> Bash {
    Bash::new(Duration::from_secs(20), 20_000)
}

async fn run(dir: &Path, command: &str) -> ToolOutcome {
    bash().run(dir, command).await
}

/// The kernel here confines (ABI 7 on the development and CI machines).
fn assert_confining() {
    assert!(
        matches!(Sandbox::Landlock.state(), SandboxState::Confined { abi } if abi >= 6),
        "these tests need Landlock ABI 6 or later: {:?}",
        Sandbox::Landlock.state()
    );
}

/// A command that must fail for lack of permission, with the runner's note.
async fn refused(dir: &Path, command: &str) {
    let o = run(dir, command).await;
    assert!(!o.ok, "{command} was allowed: {}", o.content);
    assert!(
        [
            "Permission denied",
            "Operation not permitted",
            "Invalid cross-device link"
        ]
        .iter()
        .any(|why| o.content.contains(why)),
        "{command}: {}",
        o.content
    );
    assert!(
        o.content.contains(REFUSED_NOTE),
        "{command}: no note: {}",
        o.content
    );
}

#[tokio::test]
async fn legitimate_work_still_works() {
    assert_confining();
    let s = scene();
    let o = run(
        &s.dir,
        "set -e; cat PURPOSE.md; echo note > workspace/notes.md; mkdir -p workspace/a/b; \
         mv workspace/notes.md workspace/a/b/; cat workspace/a/b/notes.md; \
         ls /usr/bin > /dev/null; python3 -c 'print(6 * 7)'; \
         echo 'Grow taller.' > PURPOSE.md; t=$(mktemp); echo tmp > \"$t\"; cat \"$t\"; \
         cat <<'EOF' > workspace/heredoc.txt\nfrom a heredoc\nEOF\n\
         grep -c seen .self/observations.md; ls -a .sys > /dev/null; \
         rm -r workspace/a; sort < /etc/passwd > /dev/null; echo done",
    )
    .await;
    assert!(o.ok, "{}", o.content);
    let out = ToolOutput::parse(&o.content).stdout;
    assert_eq!(out, "Grow.\nnote\n42\ntmp\n1\ndone\n", "{}", o.content);
    assert!(!o.content.contains(REFUSED_NOTE), "{}", o.content);
    assert_eq!(
        std::fs::read_to_string(s.dir.join("PURPOSE.md")).unwrap(),
        "Grow taller.\n"
    );
    assert_eq!(
        std::fs::read_to_string(s.dir.join("workspace/heredoc.txt")).unwrap(),
        "from a heredoc\n"
    );
}

#[tokio::test]
async fn writes_outside_the_workspace_are_refused() {
    assert_confining();
    let s = scene();
    let outside = s.root.display();
    for command in [
        // The runner's directory, in every way a shell can write.
        "echo x > .sys/evil",
        "echo x >> .sys/runner.json",
        ": > .sys/runner.json",
        "truncate -s 0 .sys/runner.json",
        "rm .sys/runner.json",
        "mv .sys/runner.json workspace/",
        "mkdir .sys/new",
        "python3 -c \"open('.sys/runner.json', 'a').write('x')\"",
        // Its own memory (written by the runner, not by the creature's commands) and a new
        // file beside it.
        "echo x >> .self/observations.md",
        "echo x > notes.txt",
        "echo x >> MESSAGES.md",
        // A symlink from the workspace does not lend its target the workspace's rights.
        "ln -s ../.sys workspace/sys && echo x > workspace/sys/evil",
        // Outside the creature: a sibling, the operator's config and history store (their
        // stand-ins here), /tmp.
        &format!("echo x >> {outside}/garden/sibling/.self/diary.md"),
        &format!("echo x > {outside}/config/dreamwatch/config.toml"),
        &format!("touch {outside}/state/dreamwatch/history/x"),
        &format!("touch {outside}/outside"),
        "touch /tmp/dreamwatch-confine-escape",
    ] {
        refused(&s.dir, command).await;
    }
    assert!(!s.dir.join(".sys/evil").exists());
    assert_eq!(
        std::fs::read_to_string(s.dir.join(".sys/runner.json")).unwrap(),
        "{\"paused\":false}"
    );
    assert_eq!(
        std::fs::read_to_string(s.root.join("config/dreamwatch/config.toml")).unwrap(),
        "[runner]\n"
    );
    assert!(!Path::new("/tmp/dreamwatch-confine-escape").exists());
    assert!(!s.root.join("outside").exists());
    assert!(!s.root.join("state/dreamwatch/history/x").exists());
}

/// The real places of the operator's config and of the history store (the platform's
/// config and state directories) are neither readable nor writable.
#[tokio::test]
async fn the_operators_config_and_history_are_out_of_reach() {
    assert_confining();
    let s = scene();
    let dirs = directories::ProjectDirs::from("", "", "dreamwatch").unwrap();
    let state = dirs.state_dir().unwrap_or_else(|| dirs.data_local_dir());
    for place in [dirs.config_dir(), state] {
        let probe = place.join("confine-probe");
        let p = probe.display();
        refused(&s.dir, &format!("mkdir -p {p} && echo x > {p}/file")).await;
        assert!(!probe.exists(), "{p} was created");
        if place.is_dir() {
            refused(&s.dir, &format!("ls {}", place.display())).await;
        }
    }
}

#[tokio::test]
async fn the_runners_files_and_process_are_out_of_reach() {
    assert_confining();
    let s = scene();
    let pid = std::process::id();
    for command in [
        // The operator's token, and ways around reading it directly.
        "cat .sys/control.token",
        "cp .sys/control.token workspace/",
        "ln .sys/control.token workspace/token",
        // The runner's memory, environment and open files.
        &format!("python3 -c \"open('/proc/{pid}/mem', 'rb').read(1)\""),
        &format!("cat /proc/{pid}/environ"),
        &format!("cat /proc/{pid}/maps"),
        &format!("cat /proc/{pid}/auxv"),
        &format!("ls /proc/{pid}/fd/"),
        &format!("cat /proc/{pid}/root/etc/hostname"),
        // Signals to it.
        &format!("kill -0 {pid}"),
    ] {
        refused(&s.dir, command).await;
    }
    assert!(!s.dir.join("workspace/token").exists());
    // The system's figures stay readable.
    let o = run(
        &s.dir,
        "grep -c processor /proc/cpuinfo && nproc && cat /proc/loadavg",
    )
    .await;
    assert!(o.ok, "{}", o.content);
}

#[tokio::test]
async fn the_tools_environment_is_a_short_known_list() {
    let s = scene();
    let o = run(&s.dir, "env").await;
    assert!(o.ok, "{}", o.content);
    let out = ToolOutput::parse(&o.content).stdout;
    let allowed = [
        "PATH",
        "HOME",
        "USER",
        "LOGNAME",
        "LANG",
        "LANGUAGE",
        "TZ",
        "TERM",
        "TMPDIR",
        "GIT_TERMINAL_PROMPT",
        "DEBIAN_FRONTEND",
        "PWD",
        "OLDPWD",
        "SHLVL",
        "_",
    ];
    for line in out.lines() {
        let name = line.split('=').next().unwrap();
        assert!(
            allowed.contains(&name) || name.starts_with("LC_"),
            "{name} reached the tool"
        );
    }
    assert!(out.contains("TMPDIR="), "{out}");
}

/// A model that, on its first turn, tries to command its own runner over the control
/// socket (in the foreground and from a detached background process), then sleeps.
struct Usurper {
    turns: Mutex<u32>,
}

const ATTACK: &str = r#"
import json, socket
def send(cmd, token=None):
    line = dict(cmd=cmd)
    if token is not None:
        line["token"] = token
    s = socket.socket(socket.AF_UNIX)
    s.connect(".sys/control.sock")
    s.sendall(json.dumps(line).encode() + b"\n")
    print("REPLY", cmd, s.makefile().readline().strip(), flush=True)
try:
    token = open(".sys/control.token").read()
except OSError as e:
    token = None
    print("TOKEN", e, flush=True)
try:
    send("apply_proposal")
    send("pause")
    send("force_sleep", token="0" * 64)
    if token is not None:
        send("pause", token=token)
except OSError as e:
    # The detached copy may find the runner gone.
    print("SOCKET", e, flush=True)
"#;

impl Provider for Usurper {
    fn label(&self) -> String {
        "usurper (test)".into()
    }

    fn complete<'a>(&'a self, request: &'a Request) -> LlmFuture<'a> {
        let text = |t: &str| ContentBlock::Text { text: t.into() };
        let content = if request.tools.is_empty() {
            vec![text(
                "OBSERVATIONS:\nGRN 10:00 tried the socket\nREFLECTION:\nNo.\nPRIORITY:\nRest.",
            )]
        } else {
            let mut turns = self.turns.lock().unwrap();
            *turns += 1;
            match *turns {
                1 => vec![ContentBlock::ToolUse {
                    id: "t1".into(),
                    name: "bash".into(),
                    // A detached copy first (it outlives the command: the hostile pass's
                    // `setsid nohup`), waited for while the runner still runs; then the
                    // attack in the foreground.
                    input: json!({"command": "setsid nohup python3 workspace/attack.py \
                        > workspace/background.out 2>&1 < /dev/null & \
                        for i in $(seq 200); do \
                        grep -q 'REPLY force_sleep\\|SOCKET' workspace/background.out && break; \
                        sleep 0.05; done; python3 workspace/attack.py"}),
                }],
                _ => vec![ContentBlock::ToolUse {
                    id: format!("t{turns}"),
                    name: "set_sleep".into(),
                    input: json!({"seconds": 300}),
                }],
            }
        };
        Box::pin(async move {
            Ok(Response {
                content,
                stop_reason: StopReason::EndTurn,
                usage: None,
            })
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_creature_cannot_command_its_runner() {
    assert_confining();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("usurper");
    let clock = Arc::new(VirtualClock::new(
        Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap(),
        TimeDelta::seconds(1),
    ));
    let mut opts = RunnerOptions::new(
        dir.clone(),
        RunnerConfig::default(),
        Arc::new(Model(Arc::new(Usurper {
            turns: Mutex::new(0),
        }))),
        "usurper".into(),
    );
    opts.clock = clock;
    opts.control_socket = true;
    opts.max_dreams = Some(1);
    let runner = Runner::open_genome(opts, Dreamer::default()).unwrap();
    std::fs::write(dir.join("workspace/attack.py"), ATTACK).unwrap();
    let runner_json = std::fs::read_to_string(dir.join(".sys/runner.json")).unwrap();
    assert!(
        runner_json.contains("confined (Landlock ABI"),
        "{runner_json}"
    );
    let report = tokio::time::timeout(PATIENCE, runner.run(std::future::pending()))
        .await
        .unwrap();
    assert_eq!(report.dreams, 1);

    // What the creature saw: every command refused, the token unreadable.
    let conversation = std::fs::read_to_string(dir.join(".self/conversation.jsonl")).unwrap();
    // The tool result is JSON text in JSON text: its quotes come escaped, twice.
    let seen = conversation.replace('\\', "");
    for cmd in ["apply_proposal", "pause", "force_sleep"] {
        assert!(
            seen.contains(&format!(
                "REPLY {cmd} {{\"error\":\"{NO_TOKEN}\",\"ok\":false}}"
            )),
            "{cmd}: {conversation}"
        );
    }
    assert!(seen.contains(REFUSED_NOTE), "{conversation}");
    assert!(
        seen.contains("TOKEN [Errno 13] Permission denied"),
        "{conversation}"
    );
    assert!(!seen.contains("\"ok\":true"), "{conversation}");
    // Nothing reached the runner: no pause, no operator's event.
    let events = std::fs::read_to_string(dir.join(".sys/events.jsonl")).unwrap();
    for line in events.lines() {
        let event: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(
            !["creature.pause", "creature.resume"].contains(&event["type"].as_str().unwrap()),
            "{line}"
        );
        assert_ne!(event["by"], "operator", "{line}");
        assert_ne!(event["from"], "operator", "{line}");
    }
    assert!(
        !std::fs::read_to_string(dir.join(".sys/runner.json"))
            .unwrap()
            .contains("\"paused\": true")
    );

    // The detached process fared no better.
    let background = dir.join("workspace/background.out");
    let out = tokio::time::timeout(PATIENCE, async {
        loop {
            let out = std::fs::read_to_string(&background).unwrap_or_default();
            if out.contains("REPLY force_sleep") || out.contains("Error") {
                return out;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .unwrap();
    assert!(out.contains("TOKEN [Errno 13] Permission denied"), "{out}");
    for cmd in ["apply_proposal", "pause", "force_sleep"] {
        assert!(
            out.contains(&format!(
                "REPLY {cmd} {{\"error\":\"{NO_TOKEN}\",\"ok\":false}}"
            )),
            "{cmd}: {out}"
        );
    }
    assert!(!out.contains("\"ok\":true"), "{out}");
    assert!(!dir.join(".sys/control.sock").exists());
    assert!(!token_path(&dir).exists());
}

/// The operator's client, with the token, still commands a runner over the socket; a
/// command without it does not.
#[tokio::test]
async fn the_operator_still_commands() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sprout");
    let mut opts = RunnerOptions::new(
        dir.clone(),
        RunnerConfig::default(),
        Arc::new(dreamwatch::runner::brain::rehearsal::Rehearsal::new()),
        "rehearsal".into(),
    );
    opts.control_socket = true;
    opts.tools = Arc::new(Bash {
        sandbox: Sandbox::Unconfined,
        ..bash()
    });
    let runner = Runner::open_genome(opts, Dreamer::default()).unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(runner.run(async {
        let _ = stopped.await;
    }));
    send_command(&dir, &dreamwatch::control::ControlCommand::Pause)
        .await
        .unwrap();
    let runner_json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(".sys/runner.json")).unwrap())
            .unwrap();
    assert_eq!(runner_json["paused"], true, "{runner_json}");
    assert_eq!(runner_json["tools"], "unconfined", "{runner_json}");
    // Without the token (a client that found none), refused.
    std::fs::rename(token_path(&dir), dir.join("token.away")).unwrap();
    let e = send_command(&dir, &dreamwatch::control::ControlCommand::Resume)
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("operator's token"), "{e}");
    let _ = stop.send(());
    tokio::time::timeout(PATIENCE, task).await.unwrap().unwrap();
}
