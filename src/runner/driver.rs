//! The driver: performs the engine's outputs (model calls, tool runs, timers, file writes,
//! the genome's IO through its [`GenomeFiles`]) and feeds the results back, with the time
//! from an injectable clock.
//!
//! Model calls and tool runs are spawned tasks that send their result back on a channel;
//! file work is done in place, in the order the machine asked for it. The driver waits for
//! the one timer the engine awaits (an outdated one is dropped) and tells the clock when
//! it is idle, which is when a virtual clock moves. Operator commands arrive on another
//! channel (from the observatory in-process, or from the control socket), each with where
//! its answer goes.

use std::collections::VecDeque;
use std::fs::File;
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::sync::{mpsc, watch};

use crate::llm::prices::Prices;
use crate::llm::{Embedder, HashingEmbedder};
use crate::memory::status::Status;
use crate::memory::time::format_time;
use crate::memory::write::{self, SeedPaths};

use super::brain::Brain;
use super::clock::{Clock, RealClock};
use super::config::RunnerConfig;
use super::disk::{self, Newborn, RunnerJson, WriteFaults};
use super::engine::Engine;
use super::engine::input::{Input, Reviewed};
use super::engine::output::{Output, Record, ReviewIo};
use super::genome::{Genome, GenomeFiles, Incoming, Performed};
use super::mail::{CREATOR, Delivery, Postbox};
use super::open::{OpenError, lock, prepare_dir};
use super::progress;
use super::restore::restore;
use super::review;
use super::sandbox::{Sandbox, SandboxState};
use super::socket;
use super::telemetry::{Reachability, Telemetry, TelemetryOptions};
use super::tools::{Bash, ToolRunner};
use super::usage::UsageBook;
use crate::control::Answer;
use crate::control::hosted::AnswerFn;
use crate::control::{ControlRequest, ControlSender, HostStatus, HostedCreature};
use crate::memory::events::{CreatureEvent, ErrorEvent, EventKind};
use crate::memory::guardrail::{self, MorningReport};
use crate::memory::moments::{self, After};
use crate::memory::proposal::{self, Decision, Proposal};

/// Prints one line of progress.
pub type ProgressFn = Box<dyn Fn(&str) + Send + Sync>;

pub struct RunnerOptions {
    pub dir: PathBuf,
    pub config: RunnerConfig,
    pub brain: Arc<dyn Brain>,
    /// BIRTH.json's `model` for a new creature.
    pub model: String,
    /// PURPOSE.md for a new creature.
    pub purpose: Option<String>,
    /// Stop cleanly after this many dreams in this run.
    pub max_dreams: Option<u64>,
    /// Stop cleanly after this many completed sleeps in this run.
    pub max_sleeps: Option<u64>,
    pub clock: Arc<dyn Clock>,
    pub tools: Arc<dyn ToolRunner>,
    /// Serve `DIR/.sys/control.sock` (commands carrying the token in `.sys/control.token`).
    pub control_socket: bool,
    /// `--headless`: one line per event.
    pub progress: Option<ProgressFn>,
    /// Texts to vectors for a genome's semantic memory (`--embed-model`,
    /// `--embed-base-url`; see [`crate::llm::build_embedder`]). Default: the local
    /// hashing embedding.
    pub embedder: Arc<dyn Embedder>,
    /// The garden this creature lives in, where its messages go (`None`: alone).
    pub postbox: Option<Arc<dyn Postbox>>,
    /// Fails writes on demand, as a full disk would (tests only; `None`: never).
    pub faults: Option<Arc<dyn WriteFaults>>,
    /// Where the creature's life goes as OpenTelemetry spans (`None`: not exported).
    pub telemetry: Option<TelemetryOptions>,
    /// What model calls cost, for the daily cost cap (`[guardrails]`): the built-in
    /// table with the config's `[prices]` over it.
    pub prices: Prices,
}

impl RunnerOptions {
    /// Real clock, real bash, no socket, no progress lines, the local embedding.
    pub fn new(dir: PathBuf, config: RunnerConfig, brain: Arc<dyn Brain>, model: String) -> Self {
        let mut bash = Bash::new(
            Duration::from_secs_f64(config.bash_timeout_s),
            config.tool_output_cap,
        );
        if config.unconfined_tools {
            bash.sandbox = Sandbox::Unconfined;
        }
        let tools = Arc::new(bash);
        Self {
            dir,
            config,
            brain,
            model,
            purpose: None,
            max_dreams: None,
            max_sleeps: None,
            clock: Arc::new(RealClock),
            tools,
            control_socket: false,
            progress: None,
            embedder: Arc::new(HashingEmbedder::default()),
            postbox: None,
            faults: None,
            telemetry: None,
            prices: Prices::builtin(),
        }
    }
}

/// Where a garden delivers messages to a hosted creature ([`Runner::mailbox`]).
#[derive(Clone)]
pub struct Mailbox {
    tx: mpsc::UnboundedSender<Incoming>,
    /// The creature's clock, told of each message on its way (a virtual clock waits for it).
    clock: Arc<dyn Clock>,
}

impl std::fmt::Debug for Mailbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailbox").finish_non_exhaustive()
    }
}

impl Mailbox {
    pub fn new(tx: mpsc::UnboundedSender<Incoming>, clock: Arc<dyn Clock>) -> Self {
        Self { tx, clock }
    }

    /// Hands `message` to the creature; gives it back when its run is over.
    pub fn send(&self, message: Incoming) -> Result<(), Incoming> {
        self.clock.input_sent();
        self.tx.send(message).map_err(|e| {
            self.clock.input_taken();
            e.0
        })
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunReport {
    /// Dreams on disk at the end.
    pub dreams: u64,
    pub dreams_this_run: u64,
}

pub struct Runner<G: Genome> {
    paths: SeedPaths,
    name: String,
    engine: Engine<G>,
    config: RunnerConfig,
    brain: Arc<dyn Brain>,
    clock: Arc<dyn Clock>,
    tools: Arc<dyn ToolRunner>,
    /// The control socket, bound at open (or why it could not be).
    socket: Option<std::io::Result<socket::Bound>>,
    progress: Option<ProgressFn>,
    runner_json: RunnerJson,
    control_tx: ControlSender,
    control_rx: mpsc::UnboundedReceiver<ControlRequest>,
    /// Where the answer to the command being handled goes.
    answer_to: Option<AnswerFn>,
    /// The timer the engine awaits (id, deadline); an outdated one is dropped.
    timer: Option<(u64, DateTime<Utc>)>,
    /// Model calls and tool runs under way.
    in_flight: usize,
    status_tx: watch::Sender<HostStatus>,
    /// The genome's IO performer.
    files: G::Files,
    embedder: Arc<dyn Embedder>,
    postbox: Option<Arc<dyn Postbox>>,
    mail_tx: mpsc::UnboundedSender<Incoming>,
    mail_rx: mpsc::UnboundedReceiver<Incoming>,
    /// The working copy the genome's IO goes to while a reviewed sleep work runs.
    staged: Option<SeedPaths>,
    /// The dream held for review (`.sys/proposal.json`).
    proposal: Option<Proposal>,
    /// Each model call's tokens, into `.sys/usage.jsonl`.
    usage: UsageBook,
    /// A warning found when opening it, said once the run starts.
    usage_warning: Option<String>,
    /// What model calls cost (the cost cap's reading of the usage).
    prices: Prices,
    faults: Option<Arc<dyn WriteFaults>>,
    /// The disk is full: nothing that writes or calls the model is done until a probe
    /// finds room again.
    full: Option<DiskFull>,
    /// What waits for room, in the order the engine asked for it.
    deferred: VecDeque<Output<G>>,
    /// The creature's OpenTelemetry export, when there is one.
    telemetry: Option<Telemetry>,
    /// Held for the runner's life: one runner per creature.
    _lock: File,
}

/// The first wait before looking for room again, and the longest (creature seconds:
/// the runner's clock).
const FIRST_PROBE_S: f64 = 1.0;
const MAX_PROBE_S: f64 = 60.0;

/// A full disk, while the runner waits for room.
#[derive(Debug)]
struct DiskFull {
    since: DateTime<Utc>,
    /// What was said.
    what: String,
    /// The error event could be written.
    told: bool,
    probe_s: f64,
    probe_at: DateTime<Utc>,
}

/// What the driver's loop woke for.
enum Woken<G: Genome> {
    Input(Input<G>),
    /// Time to look for room on a full disk.
    Probe,
}

/// Whether an output waits while the disk is full: what writes, and model calls, tools
/// and messages (whose results would be written).
fn waits_for_room<G: Genome>(o: &Output<G>) -> bool {
    match o {
        Output::Think { .. }
        | Output::Send { .. }
        | Output::Embed { .. }
        | Output::RunTool { .. }
        | Output::Genome(_)
        | Output::Record(_) => true,
        Output::Review(io) => !matches!(io, ReviewIo::Show),
        Output::Timer { .. }
        | Output::Gather { .. }
        | Output::Status { .. }
        | Output::Answer(_)
        | Output::Fault(_)
        | Output::Exit => false,
    }
}

const DEFAULT_PURPOSE: &str = "Explore your directory, keep notes of what you learn in workspace/, \
and grow your own tools.";

impl<G: Genome> Runner<G> {
    /// Creates the creature when `dir` is new, takes the creature's lock, and writes
    /// `.sys/runner.json`. Refuses a directory that holds other things than a creature.
    pub fn open_genome(opts: RunnerOptions, genome: G) -> Result<Self, OpenError> {
        opts.config.validate()?;
        let is_new = prepare_dir(&opts.dir)?;
        // Canonical, so the observatory can match the hosted creature with the one it watches.
        let dir = opts.dir.canonicalize().unwrap_or_else(|_| opts.dir.clone());
        let dir = dir.as_path();
        let paths = SeedPaths::new(dir);
        std::fs::create_dir_all(paths.sys_dir()).map_err(|source| OpenError::Io {
            what: "create",
            path: paths.sys_dir(),
            source,
        })?;
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
                    genome: G::BIRTH_NAME,
                },
            )
            .map_err(|source| OpenError::Birth {
                dir: dir.to_path_buf(),
                source,
            })?;
        }
        let brain = opts.brain.label();
        let sandbox = opts.tools.sandbox();
        let runner_json = RunnerJson {
            pid: std::process::id(),
            started: format_time(now),
            brain: brain.clone(),
            paused: false,
            tools: sandbox.map(|s| s.word()),
            disk_full: None,
        };
        write::write_json(&paths.runner(), &runner_json).map_err(|source| OpenError::Io {
            what: "write",
            path: paths.runner(),
            source,
        })?;
        let socket = opts.control_socket.then(|| socket::bind(dir));
        let (control_tx, control_rx) = ControlSender::channel();
        let (mail_tx, mail_rx) = mpsc::unbounded_channel();
        let (usage, usage_warning) = UsageBook::open(dir);
        let (status_tx, _) = watch::channel(HostStatus {
            status: Status::Unknown,
            fatigue: 0,
            brain,
            brain_kind: opts.brain.kind(),
            last_error: None,
        });
        let telemetry = opts
            .telemetry
            .map(|t| Telemetry::new(t, &name, &paths.root));
        Ok(Self {
            telemetry,
            engine: Engine::new(opts.config.clone(), genome, opts.max_dreams)
                .with_max_sleeps(opts.max_sleeps),
            paths,
            name,
            config: opts.config,
            brain: opts.brain,
            clock: opts.clock.driver(),
            tools: opts.tools,
            socket,
            progress: opts.progress,
            runner_json,
            control_tx,
            control_rx,
            answer_to: None,
            timer: None,
            in_flight: 0,
            status_tx,
            files: G::Files::default(),
            embedder: opts.embedder,
            postbox: opts.postbox,
            mail_tx,
            mail_rx,
            staged: None,
            proposal: None,
            usage,
            usage_warning,
            prices: opts.prices,
            faults: opts.faults,
            full: None,
            deferred: VecDeque::new(),
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

    /// Where a garden delivers messages to this creature; closed once the run is over.
    pub fn mailbox(&self) -> Mailbox {
        Mailbox::new(self.mail_tx.clone(), self.clock.clone())
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn dir(&self) -> &std::path::Path {
        &self.paths.root
    }

    /// Lives until `--max-dreams` is reached or `shutdown` completes.
    pub async fn run(mut self, shutdown: impl Future<Output = ()>) -> RunReport {
        let (ev_tx, mut ev_rx) = mpsc::unbounded_channel::<Input<G>>();
        let server = match self
            .socket
            .take()
            .map(|bound| bound.and_then(|l| socket::serve(l, self.control_tx.clone())))
        {
            Some(Ok(h)) => Some(h),
            Some(Err(e)) => {
                self.say(&format!("control socket unavailable: {e}"));
                None
            }
            None => None,
        };
        match self.tools.sandbox() {
            Some(state @ SandboxState::Confined { .. }) => self.say(&state.to_string()),
            Some(state) => {
                self.say(&state.to_string());
                tracing::warn!(creature = %self.name, "{state}");
            }
            None => {}
        }
        let mut restored = restore::<G>(&self.paths, &self.config, &mut self.files);
        let (pending, errors) = review::pending(&self.paths, G::REVIEWED);
        restored.errors.extend(errors);
        restored.held = pending.as_ref().map(review::held);
        if pending.is_some() {
            self.say("a dream is held for review (.sys/proposal.json)");
        }
        self.proposal = pending;
        if let Some(warning) = self.usage_warning.take() {
            self.write_failed(crate::memory::usage::USAGE_FILE, &warning);
        }
        let mut outputs = self
            .engine
            .handle(self.clock.now(), Input::Start(Box::new(restored)));
        let start_dreams = self.engine.dreams();
        // The memory as this run finds it, before anything of it is written.
        self.moment(After::Start);
        tokio::pin!(shutdown);
        let mut stopping = false;
        loop {
            let mut exit = false;
            for o in outputs.drain(..) {
                exit |= self.perform(o, &ev_tx);
            }
            if let Some(answer) = self.answer_to.take() {
                answer(None);
            }
            if exit {
                break;
            }
            if self
                .timer
                .is_some_and(|(id, _)| self.engine.awaited_timer() != Some(id))
            {
                self.timer = None;
            }
            let probe_at = self.full.as_ref().map(|f| f.probe_at);
            if self.in_flight == 0
                && ev_rx.is_empty()
                && self.control_rx.is_empty()
                && self.mail_rx.is_empty()
            {
                let timer = self.timer.map(|(_, at)| at);
                let next = match (timer, probe_at) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                self.clock.idle(next);
            }
            let (timer, clock) = (self.timer, self.clock.clone());
            let due = async move {
                match timer {
                    Some((id, at)) => {
                        clock.sleep_until(at).await;
                        id
                    }
                    None => std::future::pending().await,
                }
            };
            let clock = self.clock.clone();
            let probe = async move {
                match probe_at {
                    Some(at) => clock.sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            let woken = tokio::select! {
                () = &mut shutdown, if !stopping => {
                    stopping = true;
                    Woken::Input(Input::Shutdown)
                }
                Some(req) = self.control_rx.recv() => {
                    self.answer_to = Some(req.answer);
                    Woken::Input(Input::Control(req.command))
                }
                Some(message) = self.mail_rx.recv() => {
                    // Busy before the message is counted as taken: never idle between.
                    self.clock.busy();
                    self.clock.input_taken();
                    Woken::Input(Input::Message(message))
                }
                Some(input) = ev_rx.recv() => {
                    if matches!(input, Input::Thought { .. } | Input::ToolDone { .. } | Input::Embedded { .. }) {
                        self.in_flight = self.in_flight.saturating_sub(1);
                    }
                    Woken::Input(input)
                }
                id = due => {
                    self.timer = None;
                    Woken::Input(Input::Timer { id })
                }
                () = probe => Woken::Probe,
            };
            self.clock.busy();
            match woken {
                Woken::Input(input) => {
                    self.meter(&input);
                    let answered = matches!(input, Input::Thought { .. });
                    outputs = self.engine.handle(self.clock.now(), input);
                    if answered && let Some(usd) = self.spent_today() {
                        let more = self.engine.handle(self.clock.now(), Input::Spent { usd });
                        outputs.extend(more);
                    }
                }
                Woken::Probe => {
                    if self.probe() {
                        outputs = std::mem::take(&mut self.deferred).into();
                    }
                }
            }
        }
        self.unwritten_at_exit();
        if let Some(t) = self.telemetry.as_mut() {
            t.finish(self.clock.now());
        }
        if let Some(server) = server {
            server.abort();
            socket::unbind(&self.paths.root);
        }
        self.status_tx.send_modify(|s| s.status = Status::Stopped);
        self.close_mailbox();
        self.clock.done();
        RunReport {
            dreams: self.engine.dreams(),
            dreams_this_run: self.engine.dreams() - start_dreams,
        }
    }

    /// No more messages in: those that came too late to be handed over go to the inbox,
    /// where the next run finds them.
    fn close_mailbox(&mut self) {
        self.mail_rx.close();
        while let Ok(m) = self.mail_rx.try_recv() {
            self.clock.input_taken();
            let entry = super::wake::inbox_entry(&m.from, &m.text);
            if let Err(e) =
                crate::memory::messages::append(&self.paths.root, &entry, self.clock.now())
            {
                self.write_failed("MESSAGES.md", &e.to_string());
            }
        }
    }

    fn say(&self, line: &str) {
        match &self.progress {
            Some(p) => p(line),
            None => tracing::info!(creature = %self.name, "{line}"),
        }
    }

    /// Performs one output; `true` when the run is over. While the disk is full, what
    /// writes or calls the model waits ([`waits_for_room`]).
    fn perform(&mut self, output: Output<G>, tx: &mpsc::UnboundedSender<Input<G>>) -> bool {
        if self.full.is_some() && waits_for_room(&output) {
            self.deferred.push_back(output);
            return false;
        }
        match output {
            Output::Think { id, task, request } => {
                self.in_flight += 1;
                self.usage.asked(id, &request);
                let headers = match self.telemetry.as_mut() {
                    Some(t) => t.think(id, self.clock.now(), task.retries(), &request),
                    None => Vec::new(),
                };
                let (brain, clock, tx) = (self.brain.clone(), self.clock.clone(), tx.clone());
                tokio::spawn(async move {
                    let result =
                        crate::llm::with_headers(headers, brain.think(&task, &request)).await;
                    clock.work_done();
                    let _ = tx.send(Input::Thought { id, result });
                });
            }
            Output::RunTool { id, command } => {
                self.in_flight += 1;
                let (tools, clock, tx) = (self.tools.clone(), self.clock.clone(), tx.clone());
                let dir = self.paths.root.clone();
                tokio::spawn(async move {
                    let outcome = tools.run(&dir, &command).await;
                    clock.work_done();
                    let _ = tx.send(Input::ToolDone { id, outcome });
                });
            }
            Output::Embed { id, texts } => {
                self.in_flight += 1;
                let headers = match self.telemetry.as_mut() {
                    Some(t) => t.embed(id, self.clock.now(), texts.len()),
                    None => Vec::new(),
                };
                let (embedder, clock, tx) = (self.embedder.clone(), self.clock.clone(), tx.clone());
                tokio::spawn(async move {
                    let result = crate::llm::with_headers(headers, embedder.embed(&texts))
                        .await
                        .map_err(|e| e.to_string());
                    clock.work_done();
                    let _ = tx.send(Input::Embedded { id, result });
                });
            }
            Output::Send { id, message } => {
                let delivery = if message.to.eq_ignore_ascii_case(CREATOR) {
                    Delivery::ToCreator
                } else {
                    match &self.postbox {
                        Some(post) => post.post(&self.name, &message, self.clock.now()),
                        None => Delivery::NotInGarden,
                    }
                };
                let _ = tx.send(Input::Sent {
                    id,
                    message,
                    delivery,
                });
            }
            Output::Timer { id, at } => self.timer = Some((id, at)),
            Output::Gather { id } => {
                let view = disk::gather(&self.paths, G::Files::refresh);
                let _ = tx.send(Input::Gathered { id, view });
            }
            Output::Genome(io) => {
                if let Err(e) = self.fault("genome files") {
                    self.disk_failed(Output::Genome(io), "genome files", &e.to_string());
                    return false;
                }
                let again = io.clone();
                match self
                    .files
                    .perform(self.staged.as_ref().unwrap_or(&self.paths), io)
                {
                    Performed::Written => {}
                    Performed::Done(done) => {
                        let _ = tx.send(Input::Genome(done));
                    }
                    Performed::Failed { file, error } if write::says_disk_full(&error) => {
                        self.disk_failed(Output::Genome(again), file, &error);
                    }
                    Performed::Failed { file, error } => self.write_failed(file, &error),
                }
            }
            Output::Record(Record::MorningReport(report)) => self.morning_report(report),
            Output::Record(r) => self.record(r),
            Output::Status { status, fatigue } => {
                if let Some(t) = &self.telemetry {
                    t.fatigue(fatigue);
                }
                self.status_tx.send_modify(|s| {
                    s.status = status;
                    s.fatigue = fatigue;
                });
            }
            Output::Answer(a) => {
                if let Some(answer) = self.answer_to.take() {
                    answer(Some(a));
                }
            }
            // A full disk is the fault shown until there is room.
            Output::Fault(_) if self.full.is_some() => {}
            Output::Fault(f) => self.status_tx.send_modify(|s| s.last_error = f),
            Output::Review(io) => {
                if let Some(done) = self.review(io) {
                    let _ = tx.send(Input::Reviewed(done));
                }
            }
            Output::Exit => {
                self.moment(After::Exit);
                return true;
            }
        }
        false
    }

    /// Answers the operator's command being handled.
    fn answer(&mut self, a: Answer) {
        if let Some(answer) = self.answer_to.take() {
            answer(Some(a));
        }
    }

    /// Does the review's IO; what became of it, for the engine.
    fn review(&mut self, io: ReviewIo) -> Option<Reviewed<G::Restored>> {
        let now = self.clock.now();
        match io {
            ReviewIo::Stage => match review::stage(&self.paths, G::REVIEWED) {
                Ok(stage) => self.staged = Some(stage),
                Err(e) => self.write_failed(
                    "proposal-stage",
                    &format!("{e}: this dream is written without review"),
                ),
            },
            ReviewIo::Propose(sleep) => {
                let Some(stage) = self.staged.take() else {
                    return Some(Reviewed::Proposed { held: false });
                };
                let held = match review::propose(&self.paths, &stage, G::REVIEWED, &sleep, now) {
                    Ok(p) => p,
                    Err(e) => {
                        self.write_failed(
                            "proposal.json",
                            &format!("{e}: the dream stays in {}", stage.root.display()),
                        );
                        None
                    }
                };
                if let Some(p) = &held {
                    let files: Vec<&str> = p.files.iter().map(|f| f.path.as_str()).collect();
                    let mut fields = serde_json::Map::new();
                    fields.insert("files".into(), files.into());
                    if let Some(d) = p.deadline {
                        fields.insert("deadline".into(), format_time(d).into());
                    }
                    self.review_event(now, proposal::HELD_EVENT, fields);
                    let until = p.deadline.map_or_else(
                        || "until the operator decides".to_string(),
                        |d| format!("until {} (then it applies itself)", format_time(d)),
                    );
                    self.say(&format!(
                        "dream held for review: {} file(s) in .sys/proposal.json, {until}",
                        p.files.len()
                    ));
                }
                let done = held.is_some();
                self.proposal = held;
                return Some(Reviewed::Proposed { held: done });
            }
            ReviewIo::Decide { apply, timed_out } => {
                let Some(p) = self.proposal.clone() else {
                    self.answer(Answer::NoProposal);
                    return Some(Reviewed::NotDecided);
                };
                let decision = Decision {
                    applied: apply,
                    timed_out,
                    edited: p.edited,
                };
                if let Err(e) = review::decide(&self.paths, G::REVIEWED, &p, decision) {
                    let why = format!("the dream could not be written ({e}): it stays held");
                    match &e {
                        review::DecideError::Io(io) if write::is_disk_full(io) => {
                            self.enter_full("proposal", &io.to_string());
                        }
                        _ => {}
                    }
                    self.write_failed("proposal", &why);
                    self.proposal = Proposal::read(&self.paths.root).ok().flatten();
                    self.answer(Answer::Refused { why });
                    return Some(Reviewed::NotDecided);
                }
                self.proposal = None;
                let mut fields = serde_json::Map::new();
                fields.insert("applied".into(), apply.into());
                fields.insert("timed_out".into(), timed_out.into());
                fields.insert("edited".into(), p.edited.into());
                fields.insert("text".into(), decision.describe().into());
                self.review_event(now, proposal::DECIDED_EVENT, fields);
                self.say(&format!("reviewed dream {}", decision.describe()));
                self.answer(if apply {
                    Answer::Applied
                } else {
                    Answer::Rejected
                });
                // The genome reads its files as they are now.
                self.files = G::Files::default();
                let restored = self.files.restore(&self.paths);
                for e in restored.errors {
                    self.write_failed("restore", &e);
                }
                return Some(Reviewed::Decided {
                    genome: restored.state,
                });
            }
            ReviewIo::Replace { text, deadline } => {
                let Some(p) = self.proposal.as_ref() else {
                    self.answer(Answer::NoProposal);
                    return Some(Reviewed::Replaced {
                        accepted: false,
                        deadline,
                    });
                };
                let accepted = match review::replace(&self.paths, p, &text, deadline) {
                    Ok(new) => {
                        self.proposal = Some(new);
                        self.answer(Answer::Replaced);
                        true
                    }
                    Err(e) => {
                        self.answer(Answer::Refused { why: e.to_string() });
                        false
                    }
                };
                return Some(Reviewed::Replaced { accepted, deadline });
            }
            ReviewIo::Show => {
                let a = match &self.proposal {
                    Some(p) => Answer::Proposal {
                        proposal: Box::new(p.clone()),
                    },
                    None => Answer::NoProposal,
                };
                self.answer(a);
            }
        }
        None
    }

    /// Writes a guardrail's report; once the sleep is over, with what it changed, and
    /// the `held` event that says it all.
    fn morning_report(&mut self, mut report: MorningReport) {
        let slept = report.slept_at.is_some() && report.held() && report.changes.is_empty();
        if slept {
            report.changes = guardrail::changes_since(&self.paths.root, report.tripped_at);
        }
        self.record(Record::MorningReport(report.clone()));
        if slept {
            let mut fields = serde_json::Map::new();
            fields.insert("phase".into(), "held".into());
            fields.insert("reason".into(), report.reason.clone().into());
            fields.insert("text".into(), report.lines().join("; ").into());
            let t = report.slept_at.unwrap_or(report.tripped_at);
            self.review_event(t, guardrail::GUARDRAIL_EVENT, fields);
            self.say(&format!(
                "{}: asleep and held; press {} to wake it (.sys/guardrail.json)",
                report.headline(),
                report.wake_key
            ));
        }
    }

    fn review_event(
        &mut self,
        t: DateTime<Utc>,
        kind: &str,
        fields: serde_json::Map<String, serde_json::Value>,
    ) {
        self.record(Record::Event {
            t,
            kind: EventKind::Other(kind.into()),
            fields,
        });
    }

    /// Counts the tokens of a model or embeddings call that came back, and appends them.
    fn meter(&mut self, input: &Input<G>) {
        let now = self.clock.now();
        match input {
            Input::Thought { id, result } => {
                let model = self.brain.priced_as();
                self.usage.answered(*id, &model, result.as_ref().ok(), now);
                if let Some(t) = self.telemetry.as_mut() {
                    t.thought(*id, now, &model, result);
                }
            }
            Input::Embedded { id, result } => {
                let model = self.embedder.priced_as();
                if let Ok(embeddings) = result {
                    self.usage.embedded(&model, embeddings.usage, now);
                }
                if let Some(t) = self.telemetry.as_mut() {
                    t.embedded(*id, now, &model, result);
                }
            }
            _ => {}
        }
        self.flush_usage();
    }

    /// What today's model calls cost so far, as far as their price is known, when the
    /// creature has a cost cap.
    fn spent_today(&self) -> Option<f64> {
        self.config.guardrails.daily_cost_usd?;
        let today = self.usage.today_on(self.clock.now().date_naive())?;
        Some(self.prices.cost(today).usd)
    }

    /// Writes the usage lines counted and not written yet (none while the disk is full).
    fn flush_usage(&mut self) {
        if self.full.is_some() || !self.usage.has_unwritten() {
            return;
        }
        let file = crate::memory::usage::USAGE_FILE;
        let Err(e) = self.fault(file).and_then(|()| self.usage.flush()) else {
            return;
        };
        if write::is_disk_full(&e) {
            self.enter_full(file, &e.to_string());
        } else {
            let lost = self.usage.drop_unwritten();
            self.write_failed(file, &format!("{e}: {lost} line(s) not written"));
        }
    }

    fn record(&mut self, r: Record) {
        let done = self
            .fault(r.file())
            .and_then(|()| disk::perform(&self.paths, &mut self.runner_json, &r));
        match done {
            Ok(()) => {
                if let Record::Event { t, kind, fields } = &r {
                    self.export_event(*t, kind, fields);
                }
                match r {
                    Record::SleepFile { .. } => self.moment(After::Sleep),
                    // Every wake, the run's first and one that ends a sleep's work
                    // without a rest too: its wake event written, nothing it did yet.
                    Record::Event {
                        kind: EventKind::Wake,
                        ..
                    } => self.moment(After::Wake),
                    Record::Event {
                        kind: EventKind::Sleep,
                        ..
                    } => self.moment(After::Asleep),
                    _ => {}
                }
                if let (Some(p), Record::Event { t, kind, fields }) = (&self.progress, &r)
                    && let Some(line) = progress::line(&self.name, *t, kind, fields)
                {
                    p(&line);
                }
            }
            Err(e) if write::is_disk_full(&e) => {
                let file = r.file();
                self.disk_failed(Output::Record(r), file, &e.to_string());
            }
            Err(e) => self.write_failed(r.file(), &e.to_string()),
        }
    }

    /// Records the memory as it is now (`.sys/recorder/`, see [`moments`]); a failure is
    /// logged and the life goes on.
    fn moment(&mut self, after: After) {
        if self.full.is_some() {
            return;
        }
        let store = moments::Store::of_creature(&self.paths.root);
        let dreams = self.engine.dreams();
        let taken =
            moments::take(&self.paths.root, &store, self.clock.now(), after).and_then(|m| {
                store.append_bounded(&moments::Moment {
                    dreams: Some(dreams),
                    ..m
                })
            });
        if let Err(e) = taken {
            tracing::warn!(error = %e, "the flight recorder's moment was not recorded");
        }
    }

    /// An event written: to the export, which may have news of its collector (said once:
    /// the log or progress, and the host status when it shows no other error).
    fn export_event(
        &mut self,
        t: DateTime<Utc>,
        kind: &EventKind,
        fields: &serde_json::Map<String, serde_json::Value>,
    ) {
        let Some(telemetry) = self.telemetry.as_mut() else {
            return;
        };
        telemetry.event(t, kind, fields);
        match telemetry.news() {
            Some(Reachability::Unreachable(news)) => {
                self.say(&news);
                self.status_tx.send_if_modified(|s| {
                    let quiet = s.last_error.is_none();
                    if quiet {
                        s.last_error = Some(news);
                    }
                    quiet
                });
            }
            Some(Reachability::Again(said)) => {
                self.say("telemetry: the collector answers again");
                self.status_tx.send_if_modified(|s| {
                    let ours = s.last_error.as_deref() == Some(said.as_str());
                    if ours {
                        s.last_error = None;
                    }
                    ours
                });
            }
            None => {}
        }
    }

    /// The injected failure of a write of `file`, if any ([`WriteFaults`]).
    fn fault(&self, file: &str) -> std::io::Result<()> {
        match &self.faults {
            Some(f) => f.before_write(file),
            None => Ok(()),
        }
    }

    /// A write of `file` failed for want of room: it waits for room (first of what waits:
    /// it came first), and so does everything that writes or calls the model.
    fn disk_failed(&mut self, output: Output<G>, file: &str, error: &str) {
        self.deferred.push_front(output);
        self.enter_full(file, error);
    }

    /// The disk is full: says so once (progress or log, the host status, `runner.json`
    /// and an error event when they can be written), and waits for room.
    fn enter_full(&mut self, file: &str, error: &str) {
        if self.full.is_some() {
            return;
        }
        let now = self.clock.now();
        let what = format!(
            "disk full ({file}: {error}): no model call until there is room; the creature \
             goes on by itself then"
        );
        tracing::warn!(creature = %self.name, "{what}");
        self.say(&format!("error: {what}"));
        self.status_tx
            .send_modify(|s| s.last_error = Some(what.clone()));
        self.runner_json.disk_full = Some(format!("{} {what}", format_time(now)));
        let _ = self
            .fault("runner.json")
            .and_then(|()| write::write_json(&self.paths.runner(), &self.runner_json));
        let mut full = DiskFull {
            since: now,
            what,
            told: false,
            probe_s: FIRST_PROBE_S,
            probe_at: now + chrono::Duration::milliseconds((FIRST_PROBE_S * 1000.0) as i64),
        };
        full.told = self.tell_full(&full);
        self.full = Some(full);
    }

    /// Writes the error event of a full disk; whether it could be.
    fn tell_full(&mut self, full: &DiskFull) -> bool {
        let event = CreatureEvent::Error(ErrorEvent::in_phase("disk", full.what.clone()));
        let record = Record::event(full.since, &event);
        self.fault(record.file())
            .and_then(|()| disk::perform(&self.paths, &mut self.runner_json, &record))
            .is_ok()
    }

    /// Looks for room on a full disk; `true` when there is (what waited is to be done
    /// now), else the next look is later (doubling, at most [`MAX_PROBE_S`]).
    fn probe(&mut self) -> bool {
        let result = self
            .fault(disk::PROBE_FILE)
            .and_then(|()| disk::probe(&self.paths));
        let now = self.clock.now();
        let Some(full) = self.full.as_mut() else {
            return false;
        };
        if let Err(e) = &result
            && write::is_disk_full(e)
        {
            full.probe_s = (full.probe_s * 2.0).min(MAX_PROBE_S);
            full.probe_at = now + chrono::Duration::milliseconds((full.probe_s * 1000.0) as i64);
            return false;
        }
        // Room (or another failure, which the writes themselves will report).
        let Some(full) = self.full.take() else {
            return false;
        };
        if !full.told {
            self.tell_full(&full);
        }
        self.runner_json.disk_full = None;
        let _ = self
            .fault("runner.json")
            .and_then(|()| write::write_json(&self.paths.runner(), &self.runner_json));
        let waited = (now - full.since).num_seconds();
        self.say(&format!(
            "the disk has room again (full for {waited} s): the creature goes on"
        ));
        self.status_tx.send_modify(|s| s.last_error = None);
        self.flush_usage();
        true
    }

    /// At the end of a run on a full disk: what waits is written if there is room now,
    /// else said lost.
    fn unwritten_at_exit(&mut self) {
        if self.full.is_none() {
            return;
        }
        let records: Vec<Record> = std::mem::take(&mut self.deferred)
            .into_iter()
            .filter_map(|o| match o {
                Output::Record(r) => Some(r),
                _ => None,
            })
            .collect();
        let lost = if self.probe() {
            for r in records {
                self.record(r);
            }
            self.deferred
                .iter()
                .filter(|o| matches!(o, Output::Record(_)))
                .count()
        } else {
            records.len()
        };
        if lost > 0 {
            self.say(&format!(
                "stopped on a full disk: {lost} record(s) could not be written"
            ));
        }
    }

    fn write_failed(&mut self, file: &str, error: &str) {
        let what = format!("write failed ({file}): {error}");
        tracing::warn!(creature = %self.name, "{what}");
        self.say(&format!("error: {what}"));
        self.status_tx.send_modify(|s| s.last_error = Some(what));
    }
}
