//! The driver: performs the state machine's effects (model calls, tool runs, timers, file
//! writes) and feeds the results back, with the time from an injectable clock.
//!
//! Model calls, tool runs and timers are spawned tasks that send their result back on a
//! channel; file work is done in place, in the order the machine asked for it. Operator
//! commands arrive on another channel (from the observatory in-process, or from the
//! control socket).

use std::fs::File;
use std::future::Future;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use crate::llm::Provider;
use crate::memory::status::Status;
use crate::memory::time::format_time;
use crate::memory::write::{self, SeedPaths};

use super::clock::{Clock, RealClock};
use super::config::RunnerConfig;
use super::disk::{self, Newborn, RunnerJson};
use super::fsm::Fsm;
use super::fsm::effects::{Effect, Write};
use super::fsm::events::Event;
use super::progress;
use super::restore::restore;
use super::socket;
use super::tools::{Bash, ToolRunner};
use crate::control::{ControlCommand, HostStatus, HostedCreature};

/// Prints one line of progress.
pub type ProgressFn = Box<dyn Fn(&str) + Send + Sync>;

pub struct RunnerOptions {
    pub dir: PathBuf,
    pub config: RunnerConfig,
    pub provider: Arc<dyn Provider>,
    /// BIRTH.json's `model` for a new creature.
    pub model: String,
    /// PURPOSE.md for a new creature.
    pub purpose: Option<String>,
    /// Stop cleanly after this many dreams in this run.
    pub max_dreams: Option<u64>,
    pub clock: Arc<dyn Clock>,
    pub tools: Arc<dyn ToolRunner>,
    /// Serve `DIR/.sys/control.sock`.
    pub control_socket: bool,
    /// `--headless`: one line per event.
    pub progress: Option<ProgressFn>,
}

impl RunnerOptions {
    /// Real clock, real bash, no socket, no progress lines.
    pub fn new(
        dir: PathBuf,
        config: RunnerConfig,
        provider: Arc<dyn Provider>,
        model: String,
    ) -> Self {
        let tools = Arc::new(Bash {
            timeout: Duration::from_secs_f64(config.bash_timeout_s),
            cap: config.tool_output_cap,
        });
        Self {
            dir,
            config,
            provider,
            model,
            purpose: None,
            max_dreams: None,
            clock: Arc::new(RealClock),
            tools,
            control_socket: false,
            progress: None,
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunReport {
    /// Dreams on disk at the end.
    pub dreams: u64,
    pub dreams_this_run: u64,
}

pub struct Runner {
    paths: SeedPaths,
    name: String,
    fsm: Fsm,
    config: RunnerConfig,
    provider: Arc<dyn Provider>,
    clock: Arc<dyn Clock>,
    tools: Arc<dyn ToolRunner>,
    /// The control socket, bound at open (or why it could not be).
    socket: Option<Result<std::os::unix::net::UnixListener, String>>,
    progress: Option<ProgressFn>,
    runner_json: RunnerJson,
    control_tx: mpsc::UnboundedSender<ControlCommand>,
    control_rx: mpsc::UnboundedReceiver<ControlCommand>,
    status_tx: watch::Sender<HostStatus>,
    /// Held for the runner's life: one runner per creature.
    _lock: File,
}

const DEFAULT_PURPOSE: &str = "Explore your directory, keep notes of what you learn in workspace/, \
and grow your own tools.";

impl Runner {
    /// Creates the creature when `dir` is new, takes the creature's lock, and writes
    /// `.sys/runner.json`. Refuses a directory that holds other things than a creature.
    pub fn open(opts: RunnerOptions) -> Result<Self, String> {
        opts.config.validate().map_err(|e| e.to_string())?;
        let is_new = prepare_dir(&opts.dir)?;
        // Canonical, so the observatory can match the hosted creature with the one it watches.
        let dir = opts.dir.canonicalize().unwrap_or_else(|_| opts.dir.clone());
        let dir = dir.as_path();
        let paths = SeedPaths::new(dir);
        std::fs::create_dir_all(paths.sys_dir())
            .map_err(|e| format!("{}: {e}", paths.sys_dir().display()))?;
        let lock = lock(&paths)?;
        // A creature keeps the name it was born with, wherever its directory is now.
        let name = super::adoption::birth_name(dir)
            .or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "creature".into());
        let now = opts.clock.now();
        if is_new {
            disk::create(
                &paths,
                &Newborn {
                    name: &name,
                    model: &opts.model,
                    purpose: opts.purpose.as_deref().unwrap_or(DEFAULT_PURPOSE),
                    born: now,
                },
            )
            .map_err(|e| format!("cannot create the creature in {}: {e}", dir.display()))?;
        }
        let brain = opts.provider.label();
        let runner_json = RunnerJson {
            pid: std::process::id(),
            started: format_time(now),
            brain: brain.clone(),
            paused: false,
        };
        write::write_json(&paths.runner(), &runner_json)
            .map_err(|e| format!("cannot write {}: {e}", paths.runner().display()))?;
        let socket = opts
            .control_socket
            .then(|| socket::bind(dir).map_err(|e| format!("control socket unavailable: {e}")));
        let (control_tx, control_rx) = mpsc::unbounded_channel();
        let (status_tx, _) = watch::channel(HostStatus {
            status: Status::Unknown,
            fatigue: 0,
            brain,
            last_error: None,
        });
        Ok(Self {
            fsm: Fsm::new(opts.config.clone(), opts.max_dreams),
            paths,
            name,
            config: opts.config,
            provider: opts.provider,
            clock: opts.clock,
            tools: opts.tools,
            socket,
            progress: opts.progress,
            runner_json,
            control_tx,
            control_rx,
            status_tx,
            _lock: lock,
        })
    }

    /// The observatory's handle: commands in, status out.
    pub fn hosted(&self) -> HostedCreature {
        HostedCreature {
            dir: self.paths.root.clone(),
            control: self.control_tx.clone(),
            status: self.status_tx.subscribe(),
            cycle: self.config.cycle,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Lives until `--max-dreams` is reached or `shutdown` completes.
    pub async fn run(mut self, shutdown: impl Future<Output = ()>) -> RunReport {
        let (ev_tx, mut ev_rx) = mpsc::unbounded_channel::<Event>();
        let server = match self.socket.take() {
            Some(Ok(listener)) => match socket::serve(listener, self.control_tx.clone()) {
                Ok(h) => Some(h),
                Err(e) => {
                    self.say(&format!("control socket unavailable: {e}"));
                    None
                }
            },
            Some(Err(e)) => {
                self.say(&e);
                None
            }
            None => None,
        };
        let restored = restore(&self.paths, &self.config);
        let mut effects = self
            .fsm
            .handle(self.clock.now(), Event::Start(Box::new(restored)));
        let start_dreams = self.fsm.dreams();
        tokio::pin!(shutdown);
        let mut stopping = false;
        loop {
            let mut exit = false;
            for e in effects.drain(..) {
                exit |= self.perform(e, &ev_tx);
            }
            if exit {
                break;
            }
            let event = tokio::select! {
                () = &mut shutdown, if !stopping => {
                    stopping = true;
                    Event::Shutdown
                }
                Some(cmd) = self.control_rx.recv() => Event::Control(cmd),
                Some(ev) = ev_rx.recv() => ev,
            };
            effects = self.fsm.handle(self.clock.now(), event);
        }
        if let Some(server) = server {
            server.abort();
            let _ = std::fs::remove_file(crate::control::socket_path(&self.paths.root));
        }
        self.status_tx.send_modify(|s| s.status = Status::Stopped);
        RunReport {
            dreams: self.fsm.dreams(),
            dreams_this_run: self.fsm.dreams() - start_dreams,
        }
    }

    fn say(&self, line: &str) {
        match &self.progress {
            Some(p) => p(line),
            None => tracing::info!(creature = %self.name, "{line}"),
        }
    }

    /// Performs one effect; `true` when the run is over.
    fn perform(&mut self, effect: Effect, tx: &mpsc::UnboundedSender<Event>) -> bool {
        match effect {
            Effect::Llm { id, request, .. } => {
                let (provider, clock, tx) = (self.provider.clone(), self.clock.clone(), tx.clone());
                tokio::spawn(async move {
                    let result = provider.complete(&request).await;
                    clock.work_done();
                    let _ = tx.send(Event::LlmDone { id, result });
                });
            }
            Effect::RunTool { id, command } => {
                let (tools, clock, tx) = (self.tools.clone(), self.clock.clone(), tx.clone());
                let dir = self.paths.root.clone();
                tokio::spawn(async move {
                    let outcome = tools.run(&dir, &command).await;
                    clock.work_done();
                    let _ = tx.send(Event::ToolDone { id, outcome });
                });
            }
            Effect::Timer { id, at } => {
                let (clock, tx) = (self.clock.clone(), tx.clone());
                tokio::spawn(async move {
                    clock.sleep_until(at).await;
                    let _ = tx.send(Event::Timer { id });
                });
            }
            Effect::Gather { id, inbox_from } => {
                let view = disk::gather(&self.paths, inbox_from);
                let _ = tx.send(Event::Gathered { id, view });
            }
            Effect::ReadInbox { id, from } => {
                let result = disk::read_inbox(&self.paths, from);
                let _ = tx.send(Event::Inbox { id, result });
            }
            Effect::CommitDream { id, commit } => {
                let result = disk::commit_dream(&self.paths, &commit);
                let _ = tx.send(Event::DreamCommitted { id, result });
            }
            Effect::LoadObservations { id } => {
                let result = disk::load_observations(&self.paths);
                let _ = tx.send(Event::ObservationsLoaded { id, result });
            }
            Effect::Write(w) => self.write(&w),
            Effect::Status { status, fatigue } => self.status_tx.send_modify(|s| {
                s.status = status;
                s.fatigue = fatigue;
            }),
            Effect::Fault(f) => self.status_tx.send_modify(|s| s.last_error = f),
            Effect::Exit => return true,
        }
        false
    }

    fn write(&mut self, w: &Write) {
        match disk::perform(&self.paths, &mut self.runner_json, w) {
            Ok(()) => {
                if let (Some(p), Write::Event { t, kind, fields }) = (&self.progress, w)
                    && let Some(line) = progress::line(&self.name, *t, kind, fields)
                {
                    p(&line);
                }
            }
            Err(e) => {
                let what = format!("write failed ({}): {e}", write_name(w));
                tracing::warn!(creature = %self.name, "{what}");
                self.say(&format!("error: {what}"));
                self.status_tx.send_modify(|s| s.last_error = Some(what));
            }
        }
    }
}

fn write_name(w: &Write) -> &'static str {
    match w {
        Write::Conversation { .. } => "conversation.jsonl",
        Write::Event { .. } => "events.jsonl",
        Write::Memory { .. } => "memory.jsonl",
        Write::Iteration(_) => "iterations.jsonl",
        Write::SleepFile { .. } | Write::RemoveSleepFile => "sleep.json",
        Write::Observations { .. } => "observations.md",
        Write::Priorities { .. } => "priorities.md",
        Write::Diary { .. } => "diary.md",
        Write::Runner { .. } => "runner.json",
        Write::InboxOffset(_) => "inbox.json",
        Write::AppendInbox { .. } => "MESSAGES.md",
    }
}

/// Whether `dir` is to be born (`true`) or resumed (`false`). A missing or empty directory,
/// or one holding only PURPOSE.md / MESSAGES.md prepared for the creature, is new; one with
/// `.self/` or `BIRTH.json` is a creature; anything else is refused.
fn prepare_dir(dir: &Path) -> Result<bool, String> {
    if !dir.exists() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        return Ok(true);
    }
    if !dir.is_dir() {
        return Err(format!("{} is not a directory", dir.display()));
    }
    if dir.join(".self").is_dir() || dir.join("BIRTH.json").is_file() {
        return Ok(false);
    }
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let name = entry.file_name();
        if !matches!(name.to_str(), Some("PURPOSE.md" | "MESSAGES.md" | ".sys")) {
            return Err(format!(
                "{} is not a creature (no .self/ or BIRTH.json) and is not empty; \
                 refusing to let a creature run commands in it. Use a new directory.",
                dir.display()
            ));
        }
    }
    Ok(true)
}

/// Takes `.sys/runner.lock` (an advisory lock released when the process dies).
fn lock(paths: &SeedPaths) -> Result<File, String> {
    let path = paths.sys_dir().join("runner.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    // SAFETY: flock on a file descriptor we own, for the life of `file`.
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if rc != 0 {
        return Err(format!(
            "another dreamwatch runner is hosting {}",
            paths.root.display()
        ));
    }
    Ok(file)
}
