//! Telling what needs a person: the terminal's sequences written between frames (never in
//! the middle of one), and the `[notify]` hook run off the UI thread: the notice as JSON
//! on its stdin, no terminal (its own process group), killed after its timeout. A hook
//! that fails is said once on the status line, and again only after it has worked.

use std::io::Write;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

use crate::ui::notify::HookRun;
use crate::ui::notify::config::HookCommand;
use crate::ui::prepare::inert;
use crate::ui::state::App;
use crate::ui::update::Outcome;

/// Writes the terminal's sequences that [`App::scan_needs`] queued to `out`; returns the
/// hook's runs to start.
pub fn tell(app: &mut App, out: &mut impl Write) -> std::io::Result<Vec<HookRun>> {
    let (sequences, runs) = app.take_notifications();
    if !sequences.is_empty() {
        for seq in sequences {
            out.write_all(&seq)?;
        }
        out.flush()?;
    }
    Ok(runs)
}

/// Runs the hook in the background; its failure (the first since it last worked) comes
/// back as an outcome for the status line.
#[derive(Debug, Clone, Default)]
pub struct Hooks {
    failing: Arc<AtomicBool>,
}

impl Hooks {
    pub fn start(&self, run: HookRun, outcomes: &mpsc::UnboundedSender<Outcome>) {
        let hooks = self.clone();
        let outcomes = outcomes.clone();
        tokio::spawn(async move {
            if let Some(text) = hooks.ended(run_hook(&run).await) {
                let _ = outcomes.send((text, true).into());
            }
        });
    }

    /// What the status line says of a run that ended so: its failure, the first since
    /// the hook last worked.
    fn ended(&self, result: Result<(), String>) -> Option<String> {
        match result {
            Ok(()) => {
                self.failing.store(false, Ordering::Relaxed);
                None
            }
            Err(why) => (!self.failing.swap(true, Ordering::Relaxed)).then(|| {
                format!(
                    "notify: the [notify] command failed: {why} (said once, until it works again)"
                )
            }),
        }
    }
}

/// Runs the hook to its end (or its timeout); why it failed.
pub async fn run_hook(run: &HookRun) -> Result<(), String> {
    let mut command = match &run.command {
        HookCommand::Argv(argv) => {
            let mut c = tokio::process::Command::new(argv.first().map_or("", String::as_str));
            c.args(argv.iter().skip(1));
            c
        }
        HookCommand::Shell(line) => {
            let mut c = tokio::process::Command::new("sh");
            c.arg("-c").arg(line);
            c
        }
    };
    command
        .envs(run.payload.env())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let mut child = command.spawn().map_err(|e| format!("not run: {e}"))?;
    let json = run.payload.json();
    let work = async {
        if let Some(mut stdin) = child.stdin.take() {
            // A hook that does not read its stdin is no failure.
            let _ = stdin.write_all(json.as_bytes()).await;
            let _ = stdin.write_all(b"\n").await;
        }
        let err = match child.stderr.take() {
            Some(stderr) => tail(stderr).await,
            None => Vec::new(),
        };
        (child.wait().await, err)
    };
    match tokio::time::timeout(run.timeout, work).await {
        Err(_) => Err(format!(
            "still running after {} s: killed",
            run.timeout.as_secs()
        )),
        Ok((Err(e), _)) => Err(e.to_string()),
        Ok((Ok(status), _)) if status.success() => Ok(()),
        Ok((Ok(status), err)) => {
            let how = status.code().map_or_else(
                || "ended by a signal".to_string(),
                |c| format!("exited with status {c}"),
            );
            let said = String::from_utf8_lossy(&err);
            let last = said.lines().rev().find(|l| !l.trim().is_empty());
            Err(match last {
                Some(line) => format!("{how}: {}", inert(line.trim())),
                None => how,
            })
        }
    }
}

/// The last [`TAIL`] bytes of `reader`, read to its end.
async fn tail(mut reader: impl AsyncRead + Unpin) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n) = reader.read(&mut buf).await {
        if n == 0 {
            break;
        }
        kept.extend_from_slice(&buf[..n]);
        if kept.len() > TAIL {
            kept.drain(..kept.len() - TAIL);
        }
    }
    kept
}

/// How much of the hook's stderr is kept (its last line is said when it fails).
const TAIL: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::notify::hook::Payload;
    use crate::ui::notify::need::{Need, Notice};
    use std::path::PathBuf;
    use std::time::Duration;

    fn run(command: HookCommand, timeout: Duration) -> HookRun {
        let notice = Notice {
            need: Need::Budget,
            path: PathBuf::from("/g/sprout"),
            name: "sprout".into(),
            at: chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap(),
            text: "sprout is past its budget: held: cost cap $0.50".into(),
        };
        HookRun {
            command,
            payload: Payload::of(&notice, 0),
            timeout,
        }
    }

    #[tokio::test]
    async fn the_hook_gets_the_json_on_its_stdin_and_the_variables() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("got");
        let line = format!(
            "cat > {}; echo \"$DREAMWATCH_KIND $DREAMWATCH_CREATURE\" >> {}",
            out.display(),
            out.display()
        );
        run_hook(&run(HookCommand::Shell(line), Duration::from_secs(10)))
            .await
            .unwrap();
        let got = std::fs::read_to_string(&out).unwrap();
        let mut lines = got.lines();
        let json: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        assert_eq!(json["kind"], "budget");
        assert_eq!(json["creature"], "sprout");
        assert_eq!(lines.next(), Some("budget sprout"));
        let argv = HookCommand::Argv(vec![
            "sh".into(),
            "-c".into(),
            format!("cat > {}", out.display()),
        ]);
        run_hook(&run(argv, Duration::from_secs(10))).await.unwrap();
        assert!(
            std::fs::read_to_string(&out)
                .unwrap()
                .contains("\"kind\":\"budget\"")
        );
    }

    #[tokio::test]
    async fn a_failure_or_a_timeout_says_why() {
        let why = run_hook(&run(
            HookCommand::Shell("echo 'no topic' >&2; exit 2".into()),
            Duration::from_secs(10),
        ))
        .await
        .unwrap_err();
        assert_eq!(why, "exited with status 2: no topic");
        let why = run_hook(&run(
            HookCommand::Argv(vec!["/no/such/hook".into()]),
            Duration::from_secs(10),
        ))
        .await
        .unwrap_err();
        assert!(why.starts_with("not run: "), "{why}");
        let why = run_hook(&run(
            HookCommand::Shell("sleep 30".into()),
            Duration::from_millis(300),
        ))
        .await
        .unwrap_err();
        assert!(why.starts_with("still running after"), "{why}");
    }

    #[test]
    fn a_failing_hook_is_said_once_until_it_works() {
        let hooks = Hooks::default();
        let first = hooks.ended(Err("exited with status 1".into())).unwrap();
        assert!(first.contains("exited with status 1"), "{first}");
        assert_eq!(hooks.ended(Err("again".into())), None, "said once");
        assert_eq!(hooks.ended(Ok(())), None);
        assert!(
            hooks.ended(Err("later".into())).is_some(),
            "said again after it worked"
        );
    }
}
