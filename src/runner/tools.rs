//! The creature's tools: `bash` (run by the driver through a [`ToolRunner`]) and
//! `set_sleep` (handled by the state machine itself).

use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncReadExt};

use crate::llm::ToolSpec;

use super::config::RunnerConfig;
use super::sandbox::{
    Confinement, REFUSED_NOTE, Sandbox, SandboxState, TMP, confined_path, looks_refused,
};

pub const BASH: &str = "bash";
pub const SET_SLEEP: &str = "set_sleep";

/// After the shell exits, how long its output pipes may stay open (a background job may
/// hold them) before the runner stops reading.
const DRAIN_GRACE: Duration = Duration::from_millis(300);

/// `bash` and `set_sleep`; `sleep` is the genome's sentence on what a long sleep does.
pub fn specs(cfg: &RunnerConfig, sleep: &str) -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: BASH.into(),
            description: format!(
                "Run a shell command in your home directory (the creature directory) and see its \
                 output. Commands are killed after {}s; there is no terminal, so interactive \
                 prompts fail. Long output is cut.",
                cfg.bash_timeout_s
            ),
            input_schema: json!({
                "type": "object",
                "properties": {
                    "command": {"type": "string", "description": "The command to run"}
                },
                "required": ["command"]
            }),
        },
        ToolSpec {
            name: SET_SLEEP.into(),
            description: format!(
                "Sleep for N seconds ({}-{}). {sleep} You continue this conversation when you \
                 wake.",
                cfg.min_sleep_s, cfg.max_sleep_s,
            ),
            input_schema: json!({
                "type": "object",
                "properties": {
                    "seconds": {"type": "number", "description": "Seconds to sleep"}
                },
                "required": ["seconds"]
            }),
        },
    ]
}

/// `set_sleep`'s seconds: a number or numeric string, 30 when missing, clamped.
pub fn sleep_seconds(input: &Value, min: f64, max: f64) -> f64 {
    let raw = match input.get("seconds") {
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    raw.filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or(30.0)
        .clamp(min, max)
}

/// What a tool run gave.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutcome {
    pub ok: bool,
    /// The `tool_result` text for the model: `{"stdout","stderr"}` JSON on success,
    /// `Error: ...` on failure, then a `[TRUNCATED ...]` note when output was cut.
    pub content: String,
    /// Plain output for the event log and the summary.
    pub display: String,
    pub ms: u64,
}

pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = ToolOutcome> + Send + 'a>>;

/// Runs the creature's commands. [`Bash`] in real life; tests and benchmarks may swap it.
pub trait ToolRunner: Send + Sync {
    fn run<'a>(&'a self, dir: &'a Path, command: &'a str) -> ToolFuture<'a>;

    /// How the commands are confined, for the runner's log and `.sys/runner.json`
    /// (`None`: this runner starts no process).
    fn sandbox(&self) -> Option<SandboxState> {
        None
    }
}

/// Runs commands through `bash -c` (or `sh -c` where bash is missing), in their own process
/// group, confined by the [`Sandbox`] (see `runner::sandbox`), with an environment of a
/// few known variables only, a timeout that kills the whole group, and capped output.
#[derive(Debug, Clone)]
pub struct Bash {
    pub timeout: Duration,
    /// Characters kept per stream.
    pub cap: usize,
    pub sandbox: Sandbox,
}

impl Bash {
    /// Confined by Landlock (refused where the kernel has none).
    pub fn new(timeout: Duration, cap: usize) -> Self {
        Self {
            timeout,
            cap,
            sandbox: Sandbox::Landlock,
        }
    }
}

impl ToolRunner for Bash {
    fn run<'a>(&'a self, dir: &'a Path, command: &'a str) -> ToolFuture<'a> {
        Box::pin(run_bash(dir.to_path_buf(), command, self))
    }

    fn sandbox(&self) -> Option<SandboxState> {
        Some(self.sandbox.state())
    }
}

/// Whether an environment variable holds a secret the creature must not see.
pub fn is_secret(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    n.ends_with("API_KEY")
        || n.ends_with("_TOKEN")
        || n == "TOKEN"
        || n.ends_with("_SECRET")
        || n.ends_with("_PASSWORD")
}

#[derive(Default)]
struct Capture {
    kept: Vec<u8>,
    total: usize,
}

async fn read_into<R: AsyncRead + Unpin>(mut r: R, sink: Arc<Mutex<Capture>>, max_bytes: usize) {
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                let mut c = sink.lock().unwrap_or_else(|e| e.into_inner());
                c.total += n;
                let room = max_bytes.saturating_sub(c.kept.len());
                c.kept.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
}

/// The runner's environment variables a command gets (with `LC_*`); every other one,
/// whatever its name (an API key under a name nobody guessed), stays with the runner.
const PASSED_ENV: &[&str] = &[
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TERM",
];

/// Whether the runner's variable `name` is handed to the creature's commands.
pub fn passed_to_tools(name: &str) -> bool {
    (PASSED_ENV.contains(&name) || name.starts_with("LC_")) && !is_secret(name)
}

fn spawn_shell(
    shell: &str,
    dir: &Path,
    command: &str,
    confinement: Option<&Confinement>,
) -> std::io::Result<tokio::process::Child> {
    let mut cmd = tokio::process::Command::new(shell);
    cmd.arg("-c")
        .arg(command)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true)
        .env_clear()
        .envs(std::env::vars_os().filter(|(name, _)| passed_to_tools(&name.to_string_lossy())))
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("DEBIAN_FRONTEND", "noninteractive");
    if let Some(confinement) = confinement {
        cmd.env("TMPDIR", dir.join(TMP));
        cmd.env(
            "PATH",
            confined_path(&std::env::var_os("PATH").unwrap_or_default()),
        );
        confinement.install(&mut cmd);
    }
    cmd.spawn()
}

struct GroupGuard(Option<u32>);

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if let Some(pid) = self.0 {
            kill_group(pid);
        }
    }
}

fn kill_group(pid: u32) {
    if let Ok(pid) = i32::try_from(pid) {
        // SAFETY: kill(2) with a negative pid signals the process group we created.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

async fn run_bash(dir: PathBuf, command: &str, bash: &Bash) -> ToolOutcome {
    let (timeout, cap) = (bash.timeout, bash.cap);
    let started = Instant::now();
    let confinement = match bash.sandbox {
        Sandbox::Unconfined => None,
        Sandbox::Landlock => match Confinement::build(&dir) {
            Ok(c) => Some(c),
            Err(e) => {
                return failure(
                    format!(
                        "refused: the runner runs your commands only in a sandbox, and {e}. \
                         No command can run until the operator changes this: do not retry"
                    ),
                    "",
                    "",
                    started,
                );
            }
        },
    };
    let spawned = match spawn_shell("bash", &dir, command, confinement.as_ref()) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            spawn_shell("sh", &dir, command, confinement.as_ref())
        }
        other => other,
    };
    drop(confinement);
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => return failure(format!("cannot start the shell: {e}"), "", "", started),
    };
    let pid = child.id();
    // Kills the group if this future is dropped mid-run (the runner is shutting down).
    let mut guard = GroupGuard(pid);
    let max_bytes = cap.saturating_mul(4);
    let out = Arc::new(Mutex::new(Capture::default()));
    let err = Arc::new(Mutex::new(Capture::default()));
    let readers = [
        child
            .stdout
            .take()
            .map(|s| tokio::spawn(read_into(s, out.clone(), max_bytes))),
        child
            .stderr
            .take()
            .map(|s| tokio::spawn(read_into(s, err.clone(), max_bytes))),
    ];
    let waited = tokio::time::timeout(timeout, child.wait()).await;
    let status: Result<ExitStatus, String> = match waited {
        Ok(Ok(s)) => Ok(s),
        Ok(Err(e)) => Err(format!("waiting for the shell failed: {e}")),
        Err(_) => {
            if let Some(pid) = pid {
                kill_group(pid);
            }
            let _ = child.wait().await;
            Err(format!("killed after {}s (timeout)", timeout.as_secs_f64()))
        }
    };
    // The shell is gone; background jobs it started may live on.
    guard.0 = None;
    for r in readers.into_iter().flatten() {
        let abort = r.abort_handle();
        if tokio::time::timeout(DRAIN_GRACE, r).await.is_err() {
            abort.abort();
        }
    }
    let (stdout, out_cut) = take_text(&out, cap);
    let (stderr, err_cut) = take_text(&err, cap);
    let failed = match status {
        Ok(s) if s.success() => None,
        Ok(s) => Some(match s.code() {
            Some(code) => format!("exit code {code}"),
            None => "killed by a signal".to_string(),
        }),
        Err(reason) => Some(reason),
    };
    let mut outcome = match failed {
        None => {
            let display = if stdout.trim().is_empty() {
                &stderr
            } else {
                &stdout
            };
            ToolOutcome {
                ok: true,
                content: json!({"stdout": stdout, "stderr": stderr}).to_string(),
                display: display.trim().to_string(),
                ms: elapsed_ms(started),
            }
        }
        Some(reason) => failure(reason, &stderr, &stdout, started),
    };
    if out_cut || err_cut {
        outcome.content.push_str(&cut_note(&out, &err, cap));
    }
    if bash.sandbox == Sandbox::Landlock && (looks_refused(&stderr) || looks_refused(&stdout)) {
        outcome.content.push('\n');
        outcome.content.push_str(REFUSED_NOTE);
        outcome.display.push('\n');
        outcome.display.push_str(REFUSED_NOTE);
    }
    outcome
}

/// `Error: exit code 2: <stderr, then stdout>`: the first line says what went wrong.
fn failure(reason: String, stderr: &str, stdout: &str, started: Instant) -> ToolOutcome {
    let detail: Vec<&str> = [stderr.trim(), stdout.trim()]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect();
    let mut content = format!("Error: {reason}");
    if !detail.is_empty() {
        content.push_str(": ");
        content.push_str(&detail.join("\n"));
    }
    ToolOutcome {
        ok: false,
        display: content.clone(),
        content,
        ms: elapsed_ms(started),
    }
}

/// The kept text of a stream, at most `cap` characters, and whether anything was cut.
fn take_text(c: &Mutex<Capture>, cap: usize) -> (String, bool) {
    let c = c.lock().unwrap_or_else(|e| e.into_inner());
    let text = String::from_utf8_lossy(&c.kept);
    let mut chars = text.char_indices();
    match chars.nth(cap) {
        Some((at, _)) => (text[..at].to_string(), true),
        None => (text.into_owned(), c.total > c.kept.len()),
    }
}

fn cut_note(out: &Mutex<Capture>, err: &Mutex<Capture>, cap: usize) -> String {
    let total = |c: &Mutex<Capture>| c.lock().unwrap_or_else(|e| e.into_inner()).total;
    format!(
        "\n[TRUNCATED: the output was {} bytes (stdout) and {} bytes (stderr); the first {cap} characters of each are shown]",
        total(out),
        total(err)
    )
}

fn elapsed_ms(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sleep_seconds_table() {
        for (input, want) in [
            (json!({"seconds": 10}), 10.0),
            (json!({"seconds": "45"}), 45.0),
            (json!({"seconds": 1}), 2.0),
            (json!({"seconds": 9999}), 300.0),
            (json!({}), 30.0),
            (json!({"seconds": -5}), 30.0),
            (json!({"seconds": "soon"}), 30.0),
        ] {
            assert_eq!(sleep_seconds(&input, 2.0, 300.0), want, "{input}");
        }
    }

    #[test]
    fn secret_names() {
        for n in [
            "ANTHROPIC_API_KEY",
            "OPENAI_API_KEY",
            "my_api_key",
            "GITHUB_TOKEN",
            "DB_PASSWORD",
            "AWS_SECRET",
        ] {
            assert!(is_secret(n), "{n}");
        }
        for n in ["PATH", "HOME", "TOKENIZER_PATH", "KEYBOARD"] {
            assert!(!is_secret(n), "{n}");
        }
    }
}
