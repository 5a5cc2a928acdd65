//! The near side of one far garden: starts the far side (over ssh, bringing this binary
//! when the far side has none and runs the same system), checks its hello, mirrors what
//! it reports, passes requests to it, and starts it again with backoff when the
//! connection drops. Dropping the [`Remote`] ends the child: its stdin closes, and the
//! far side exits when its stdin closes.
//!
//! The far side is not trusted to be kind: each connection runs on a thread of its own
//! (the mirror's writes never hold up the observatory's keys and signals), a far side that
//! does not say hello in time, or stalls before its first snapshot is complete, is
//! dropped and tried again with the backoff, and no more than [`Limits::creatures`]
//! creatures of one far side are followed (those past it are refused, and said so).

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin};
use tokio::sync::{mpsc, oneshot};

use super::lines::ReadAhead;
use super::mirror::{Mirror, MirrorError};
use super::mux;
use super::target::{NEEDS_BINARY, Transport, VERSION};
use super::wire::{PROTOCOL, Report, Request, line};

/// Waits between attempts: doubled after each failure up to the last, reset once a
/// snapshot arrived.
const BACKOFF: [u64; 6] = [1, 2, 4, 8, 16, 30];

/// What one far side may cost the near side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The far side must say hello within this (ssh's own login included).
    pub hello: Duration,
    /// After hello, until the first snapshot is complete, a report line must come
    /// within this.
    pub stall: Duration,
    /// The most creatures followed; the far side's creatures past it are refused.
    pub creatures: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            hello: Duration::from_secs(30),
            stall: Duration::from_secs(30),
            creatures: MAX_CREATURES,
        }
    }
}

/// The most creatures of one far garden followed by default.
pub const MAX_CREATURES: usize = 1000;

/// What a connection reports to the observatory.
#[derive(Debug, Clone, PartialEq)]
pub enum Update {
    /// The first snapshot is mirrored: the copies are current.
    Up,
    /// The connection dropped or could not be made; tried again in `retry_in`.
    Down { error: String, retry_in: Duration },
    /// It cannot work (another protocol, another system and no dreamwatch there): not
    /// tried again.
    Refused { error: String },
    /// What the far machine's OpenSeed orchestrator reports (`openseed::Update` as JSON).
    OpenSeed(serde_json::Value),
    /// Part of what the far side reported was refused (creatures past the cap): what, for
    /// the status line.
    Cut { what: String },
    /// How many conversations' windows are still to come after the first snapshot (their
    /// lines counted, their copies empty): said as it changes, at most a few times a
    /// second, and always when none is left.
    Windows { left: usize },
}

/// What the near side asks of a far creature (by its id there).
#[derive(Debug, Clone, PartialEq)]
pub enum Ask {
    /// A command for its runner, in the control protocol's form (`{"cmd":"wake"}`).
    Control {
        id: String,
        command: serde_json::Value,
    },
    /// A message: to its runner when one listens, else appended to its MESSAGES.md.
    Message { id: String, text: String },
    /// An action of the far machine's OpenSeed orchestrator (`wake`, `stop`, `start`,
    /// `message` with `text`) for the creature it names `name`.
    OpenSeed {
        name: String,
        action: String,
        text: Option<String>,
    },
    /// The creature is looked at: its conversation's window, when still to come, is sent
    /// before the others' (never answered).
    Want { id: String },
    /// Every window still to come may be sent now (never answered).
    Windows,
}

/// How often at most the windows still to come are told.
const WINDOWS_TOLD_EVERY: Duration = Duration::from_millis(200);

/// What became of an [`Ask`].
#[derive(Debug, Clone, PartialEq)]
pub struct Answered {
    pub ok: bool,
    /// For the status line.
    pub text: String,
    /// A runner's answer (the control protocol's `answer`), when one came.
    pub answer: Option<serde_json::Value>,
}

type Asked = (Ask, oneshot::Sender<Answered>);

/// One far garden: where its copy is, and the way to ask it things.
#[derive(Debug)]
pub struct Remote {
    pub transport: Transport,
    /// The mirror root: a garden of the copies.
    pub root: PathBuf,
    requests: mpsc::UnboundedSender<Asked>,
}

impl Remote {
    /// Passes a request on. The answer comes on the receiver; it is closed unanswered
    /// when the connection drops first.
    pub fn ask(&self, ask: Ask) -> oneshot::Receiver<Answered> {
        let (tx, rx) = oneshot::channel();
        // A task that has ended drops `tx`: the receiver says so.
        let _ = self.requests.send((ask, tx));
        rx
    }
}

/// Starts following `transport` into the mirror at `root` (an empty directory), with
/// the default [`Limits`]. Updates arrive on `updates` with the mirror root.
pub fn connect(
    transport: Transport,
    root: PathBuf,
    updates: mpsc::UnboundedSender<(PathBuf, Update)>,
) -> Remote {
    connect_with(transport, root, updates, Limits::default())
}

/// [`connect`] within `limits`. The connection runs on a thread of its own (with its
/// own runtime), so that what the far side sends never holds up the caller's.
pub fn connect_with(
    transport: Transport,
    root: PathBuf,
    updates: mpsc::UnboundedSender<(PathBuf, Update)>,
    limits: Limits,
) -> Remote {
    let (tx, rx) = mpsc::unbounded_channel();
    let task = Task {
        transport: transport.clone(),
        mirror: Mirror::new(root.clone()),
        updates,
        requests: rx,
        next_req: 0,
        limits,
        shared: Vec::new(),
    };
    let spawned = std::thread::Builder::new()
        .name("dreamwatch-remote".into())
        .spawn(move || {
            match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(rt) => rt.block_on(task.run()),
                Err(e) => task.tell(Update::Refused {
                    error: format!("cannot start the connection's runtime: {e}"),
                }),
            }
        });
    if let Err(e) = spawned {
        tracing::warn!("cannot start a thread for {}: {e}", transport.describe());
    }
    Remote {
        transport,
        root,
        requests: tx,
    }
}

struct Task {
    transport: Transport,
    mirror: Mirror,
    updates: mpsc::UnboundedSender<(PathBuf, Update)>,
    requests: mpsc::UnboundedReceiver<Asked>,
    /// Numbers the requests.
    next_req: u64,
    limits: Limits,
    /// ssh's options sharing one connection to the host (see [`mux`]).
    shared: Vec<String>,
}

/// How one attempt ended.
enum End {
    /// The far side went away; `reached` says whether a snapshot had arrived.
    Dropped {
        error: String,
        reached: bool,
    },
    Refused(String),
    /// The observatory is gone.
    Closed,
}

impl Task {
    async fn run(mut self) {
        if let Some(key) = self.transport.host_key() {
            self.shared = mux::options_for(&key, self.limits.hello).await;
        }
        let mut failures = 0usize;
        loop {
            let end = self.attempt().await;
            let error = match end {
                End::Closed => return,
                End::Refused(error) => {
                    self.tell(Update::Refused { error });
                    // Requests are refused plainly until the observatory goes.
                    while let Some(r) = self.requests.recv().await {
                        self.refuse(r, "this far garden cannot be followed");
                    }
                    return;
                }
                End::Dropped { error, reached } => {
                    if reached {
                        failures = 0;
                    }
                    error
                }
            };
            let wait = Duration::from_secs(BACKOFF[failures.min(BACKOFF.len() - 1)]);
            failures += 1;
            self.tell(Update::Down {
                error,
                retry_in: wait,
            });
            let sleep = tokio::time::sleep(wait);
            tokio::pin!(sleep);
            loop {
                tokio::select! {
                    () = &mut sleep => break,
                    r = self.requests.recv() => match r {
                        Some(r) => self.refuse(r, "the connection is down (it is tried again by itself)"),
                        None => return,
                    },
                }
            }
        }
    }

    fn tell(&self, update: Update) {
        let _ = self
            .updates
            .send((self.mirror.root().to_path_buf(), update));
    }

    /// What is said of creatures refused past the cap: at the first, and with their
    /// count once the snapshot is complete.
    fn over_cap(&self, refused: Option<usize>) -> String {
        let cap = self.limits.creatures;
        let host = self.transport.label();
        match refused {
            None => format!(
                "{host} reports more than {cap} creatures: only {cap} are followed, the others are refused"
            ),
            Some(n) => format!(
                "{host}: {n} creatures past the cap of {cap} refused (only {cap} are followed)"
            ),
        }
    }

    fn refuse(&self, (_, tx): Asked, why: &str) {
        let _ = tx.send(Answered {
            ok: false,
            text: why.to_string(),
            answer: None,
        });
    }

    /// One connection, from its start to its end.
    async fn attempt(&mut self) -> End {
        let mut installed = false;
        loop {
            let (mut child, stdout) = match spawn(&self.transport, &self.shared) {
                Ok(c) => c,
                Err(e) => {
                    return End::Dropped {
                        error: format!("cannot start {}: {e}", program_of(&self.transport)),
                        reached: false,
                    };
                }
            };
            let Some(mut stdin) = child.stdin.take() else {
                return End::Dropped {
                    error: "no pipe to the far side".into(),
                    reached: false,
                };
            };
            let stderr = collect_stderr(&mut child);
            let mut reader = match ReadAhead::start(stdout) {
                Ok(r) => r,
                Err(e) => {
                    return End::Dropped {
                        error: format!("cannot start a thread to read the far side: {e}"),
                        reached: false,
                    };
                }
            };
            let hello = line(&Request::Hello { protocol: PROTOCOL });
            let _ = write_line(&mut stdin, &hello).await;
            let first = match tokio::time::timeout(self.limits.hello, reader.next()).await {
                Ok(first) => first,
                Err(_) => {
                    return End::Dropped {
                        error: format!(
                            "the far side did not say hello within {} s",
                            self.limits.hello.as_secs_f64()
                        ),
                        reached: false,
                    };
                }
            };
            match first {
                Ok(Some(text)) if text.starts_with(NEEDS_BINARY) && !installed => {
                    let system = text[NEEDS_BINARY.len()..].trim().to_string();
                    drop(child);
                    match self.install(&system).await {
                        Ok(()) => {
                            installed = true;
                            continue;
                        }
                        Err(e) => return End::Refused(e),
                    }
                }
                Ok(Some(text)) => match serde_json::from_str::<Report>(&text) {
                    Ok(Report::Hello {
                        protocol: PROTOCOL, ..
                    }) => return self.follow(child, stdin, reader).await,
                    Ok(Report::Hello {
                        protocol, version, ..
                    }) => {
                        return End::Refused(format!(
                            "{} runs dreamwatch {version} (wire protocol {protocol}); this is {VERSION} (protocol {PROTOCOL}): install the same version there",
                            self.transport.label()
                        ));
                    }
                    _ => {
                        return End::Dropped {
                            error: format!("the far side did not say hello: {}", clip(&text)),
                            reached: false,
                        };
                    }
                },
                Ok(None) | Err(_) => {
                    let _ = child.wait().await;
                    let said = stderr.await.unwrap_or_default();
                    let error = if said.trim().is_empty() {
                        "the far side ended at once".to_string()
                    } else {
                        said.trim().to_string()
                    };
                    return End::Dropped {
                        error,
                        reached: false,
                    };
                }
            }
        }
    }

    /// Copies this binary to the far side when it runs the same system.
    async fn install(&self, far: &str) -> Result<(), String> {
        let host = self.transport.label();
        let here = local_system().await;
        if here.as_deref() != Some(far) {
            return Err(format!(
                "{host} has no dreamwatch, and it runs {far} while this binary is for {}: install dreamwatch {VERSION} on {host}",
                here.unwrap_or_else(|| "another system".into())
            ));
        }
        let exe = self
            .transport
            .binary()
            .map_err(|e| format!("cannot find this binary: {e}"))?;
        let bytes = tokio::fs::read(&exe)
            .await
            .map_err(|e| format!("cannot read {}: {e}", exe.display()))?;
        let Some(mut cmd) = self.transport.install_command(&self.shared) else {
            return Err(format!("{host} has no dreamwatch to run"));
        };
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start ssh: {e}"))?;
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(&bytes).await;
        }
        let out = child
            .wait_with_output()
            .await
            .map_err(|e| format!("copying dreamwatch to {host}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "copying dreamwatch to {host} failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    }

    /// Mirrors the far side's reports and passes requests on until either side ends.
    async fn follow(
        &mut self,
        mut child: Child,
        mut stdin: ChildStdin,
        mut reader: ReadAhead,
    ) -> End {
        let mut stale: std::collections::HashSet<String> =
            self.mirror.begin_snapshot().into_iter().collect();
        let mut reached = false;
        // Creatures refused past the cap (their reports are dropped), in this connection.
        let mut refused = 0usize;
        // Dropped with the connection: their askers hear it went unanswered.
        let mut waiting: std::collections::HashMap<u64, oneshot::Sender<Answered>> =
            std::collections::HashMap::new();
        let stall = self.limits.stall;
        // The windows still to come, as last told, and when; when a change is next told.
        let mut told = (0usize, tokio::time::Instant::now());
        let mut tell_at: Option<tokio::time::Instant> = None;
        loop {
            // Until the first snapshot is complete, a silent far side is a stalled one.
            let deadline = (!reached).then(|| tokio::time::Instant::now() + stall);
            tokio::select! {
                () = until(tell_at) => {
                    tell_at = None;
                    told = (self.mirror.windows_left(), tokio::time::Instant::now());
                    self.tell(Update::Windows { left: told.0 });
                }
                () = until(deadline) => {
                    return End::Dropped {
                        error: format!(
                            "the far side stalled: no report for {} s before its first snapshot was complete",
                            stall.as_secs_f64()
                        ),
                        reached,
                    };
                }
                read = reader.next() => {
                    let text = match read {
                        Ok(Some(text)) => text,
                        Ok(None) => {
                            let _ = child.wait().await;
                            return End::Dropped { error: "the connection closed".into(), reached };
                        }
                        Err(e) => return End::Dropped { error: e.to_string(), reached },
                    };
                    let report = match super::wire::parse(&text) {
                        Ok(r) => r,
                        Err(e) => return End::Dropped { error: format!("a line that is not the protocol ({e}): {}", clip(&text)), reached },
                    };
                    if let Report::Creature { id, .. } = &report {
                        // Those of the last connection not announced again are not counted.
                        let followed = self.mirror.len().saturating_sub(stale.len());
                        if !self.mirror.has(id) && followed >= self.limits.creatures {
                            refused += 1;
                            if refused == 1 {
                                tracing::warn!("{}", self.over_cap(None));
                                self.tell(Update::Cut { what: self.over_cap(None) });
                            }
                            continue;
                        }
                        stale.remove(id);
                    }
                    match self.mirror.apply(&report) {
                        // A report of a creature refused past the cap.
                        Err(MirrorError::Unknown(_)) if refused > 0 => continue,
                        Err(e) => return End::Dropped { error: e.to_string(), reached },
                        Ok(()) => {}
                    }
                    match report {
                        Report::Ready => {
                            let stale: Vec<String> = std::mem::take(&mut stale).into_iter().collect();
                            if let Err(e) = self.mirror.end_snapshot(&stale) {
                                return End::Dropped { error: e.to_string(), reached };
                            }
                            if refused > 1 && !reached {
                                self.tell(Update::Cut { what: self.over_cap(Some(refused)) });
                            }
                            reached = true;
                            self.tell(Update::Up);
                        }
                        Report::Reply { req, ok, text, answer } => {
                            if let Some(tx) = waiting.remove(&req) {
                                let _ = tx.send(Answered { ok, text, answer });
                            }
                        }
                        Report::Error { text } => return End::Refused(text),
                        Report::OpenSeed { update } => self.tell(Update::OpenSeed(update)),
                        _ => {}
                    }
                    let left = self.mirror.windows_left();
                    if reached && left != told.0 {
                        if left == 0 || told.1.elapsed() >= WINDOWS_TOLD_EVERY {
                            tell_at = None;
                            told = (left, tokio::time::Instant::now());
                            self.tell(Update::Windows { left });
                        } else {
                            tell_at.get_or_insert(told.1 + WINDOWS_TOLD_EVERY);
                        }
                    }
                }
                request = self.requests.recv() => {
                    let Some((ask, tx)) = request else {
                        return End::Closed;
                    };
                    self.next_req += 1;
                    let req = self.next_req;
                    let request = match ask {
                        Ask::Control { id, command } => Request::Control { req, id, command },
                        Ask::Message { id, text } => Request::Message { req, id, text },
                        Ask::OpenSeed { name, action, text } => Request::OpenSeed { req, name, action, text },
                        Ask::Want { id } => Request::Want { id },
                        Ask::Windows => Request::Windows,
                    };
                    let answered = !matches!(request, Request::Want { .. } | Request::Windows);
                    if let Err(e) = write_line(&mut stdin, &line(&request)).await {
                        return End::Dropped { error: e.to_string(), reached };
                    }
                    // A want is not answered: its `tx` is dropped.
                    if answered {
                        waiting.insert(req, tx);
                    }
                }
            }
        }
    }
}

/// Waits until the deadline; for ever without one.
async fn until(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// The far side's process, and its stdout: a pipe of blocking reads, for [`ReadAhead`].
fn spawn(
    transport: &Transport,
    shared: &[String],
) -> std::io::Result<(Child, std::io::PipeReader)> {
    let (stdout, written) = std::io::pipe()?;
    let child = transport
        .follow_command(shared)
        .stdin(Stdio::piped())
        .stdout(written)
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()?;
    Ok((child, stdout))
}

fn program_of(transport: &Transport) -> String {
    match transport {
        Transport::Ssh { ssh, .. } => ssh.first().cloned().unwrap_or_else(|| "ssh".into()),
        Transport::Local { program, .. } => program.display().to_string(),
    }
}

/// The child's stderr, its last 2 KiB, once it closes.
fn collect_stderr(child: &mut Child) -> tokio::task::JoinHandle<String> {
    let stderr = child.stderr.take();
    tokio::spawn(async move {
        let Some(mut stderr) = stderr else {
            return String::new();
        };
        let mut all = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = stderr.read(&mut buf).await {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&buf[..n]);
            if all.len() > 2048 {
                all.drain(..all.len() - 2048);
            }
        }
        String::from_utf8_lossy(&all).into_owned()
    })
}

/// This machine's `uname -s -m`, as the far side reports its own.
async fn local_system() -> Option<String> {
    let out = tokio::process::Command::new("uname")
        .args(["-s", "-m"])
        .output()
        .await
        .ok()?;
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

async fn write_line(stdin: &mut ChildStdin, text: &str) -> std::io::Result<()> {
    stdin.write_all(format!("{text}\n").as_bytes()).await?;
    stdin.flush().await
}

/// The start of a line, for a message.
fn clip(text: &str) -> String {
    crate::text::sanitize::sanitize_line(&text.chars().take(200).collect::<String>())
}
