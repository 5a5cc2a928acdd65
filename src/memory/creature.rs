//! A live model of one creature directory: every file read once, then followed.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Deserialize;

use super::documents::{DiaryEntry, Priorities, Rule, parse_diary, parse_rules};
use super::dream_log::{DreamLog, DreamRow};
use super::dreams::Dream;
use super::events::Event;
use super::genome::{Genome, GenomeMemory, Registry};
use super::guardrail::MorningReport;
use super::identity::{Birth, SleepFile};
use super::iterations::{CreatorLogEntry, Iteration};
use super::json::LineError;
use super::layout::{FileKind, SYS_DIR, control_socket};
use super::observation_log::{ObservationFold, ObservationLog};
use super::observations::{ObsCounts, Observation, Observations};
use super::problem::{Problem, Problems};
use super::proposal::Proposal;
use super::recent::Recent;
use super::streams::{ConversationLog, CountGate, EventLog, HeadProblems, MemoryLog};
use super::usage::UsageLog;
use super::whole_files::{DEFAULT_SETTLE, Streamed, WholeFiles, WholeRead};
use crate::tail::{TailEvent, Tailer};

/// Iterations kept in memory.
const RECENT_ITERATIONS: usize = 1000;
/// Self-evaluations kept in memory.
pub const RECENT_CREATOR_LOG: usize = 1000;

/// What changed in a creature during one refresh.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// New observation lines appended at the end of the file.
    ObservationsAdded(Vec<Observation>),
    /// The file was rewritten (deep-sleep pruning) or edited.
    ObservationsRewritten,
    Dream(Dream),
    Conversation {
        new_entries: u64,
    },
    Events {
        new: u64,
    },
    Iteration,
    Diary,
    Priorities,
    Rules,
    Briefing,
    CreatorLog,
    Identity,
    Sleep,
    Runner,
    /// A file of the creature's genome changed (lines folded, or the file rewritten).
    Genome(FileKind),
    /// New lines in `.sys/usage.jsonl`.
    Usage,
    /// `.sys/proposal.json` appeared, changed or went: a dream held for review.
    Proposal,
    /// `.sys/guardrail.json` appeared, changed or went: a guardrail's morning report.
    Guardrail,
    /// A log was truncated or replaced and has been read again.
    Reset(FileKind),
    /// The background count of a large conversation is done: totals are complete and
    /// line numbers are now absolute.
    ConversationCounted,
    /// The background count of a large dream log's head is done: every dream is counted
    /// and its rows are all there.
    DreamsCounted,
    Problem(Problem),
}

/// `.sys/runner.json`, written by dreamwatch's own runner while it hosts the creature.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RunnerFile {
    pub pid: u32,
    #[serde(default)]
    pub brain: Option<String>,
    #[serde(default)]
    pub paused: bool,
}

/// Whether the creature's runner runs and listens on its control socket: looked up when a
/// hint names something in `.sys/` and on a full refresh, never when a status is derived
/// (a tick derives every creature's status again).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunnerProbe {
    /// A runner holds the creature's lock ([`super::runner_lock`]).
    pub alive: bool,
    /// ... and its control socket exists.
    pub listening: bool,
}

/// Counts of what one log refresh folded.
#[derive(Debug, Default)]
struct LogFold {
    conversation: u64,
    events: u64,
    dreams: u64,
    iterations: u64,
    creator_log: u64,
    genome: u64,
    usage: u64,
}

/// A creature, as its files describe it.
#[derive(Debug)]
pub struct Creature {
    root: PathBuf,
    dir_name: String,
    birth: Option<Birth>,
    purpose: Option<String>,
    observations: ObservationLog,
    dreams: DreamLog,
    priorities: Priorities,
    rules: Vec<Rule>,
    diary_text: String,
    diary: Vec<DiaryEntry>,
    briefing: Option<String>,
    creator_log: Recent<CreatorLogEntry>,
    iterations: VecDeque<Iteration>,
    pub(crate) events: EventLog,
    memory: MemoryLog,
    pub(crate) conversation: ConversationLog,
    pub(crate) sleep: Option<SleepFile>,
    pub(crate) runner: Option<RunnerFile>,
    runner_probe: RunnerProbe,
    usage: UsageLog,
    /// The dream held for the operator's review, if any.
    proposal: Option<Proposal>,
    /// The morning report of a guardrail that tripped, if any.
    guardrail: Option<MorningReport>,
    /// The genomes it may live by ([`Registry::installed`] unless opened with another).
    genomes: Registry,
    /// The genome it lives by: BIRTH.json's, else the one whose files are on disk.
    genome: Genome,
    /// What its genome's own files say (none for a genome without files of its own).
    genome_memory: Option<Box<dyn GenomeMemory>>,
    problems: Problems,
    whole: WholeFiles,
    tailers: HashMap<FileKind, Tailer>,
    /// Set by [`Creature::open_deferred`]: called when a large log's background count is done.
    on_counted: Option<Notifier>,
    /// Where background counts wait while a test holds them back.
    count_gate: CountGate,
}

/// A callback shared with background work.
#[derive(Clone)]
struct Notifier(std::sync::Arc<dyn Fn(FileKind) + Send + Sync>);

impl std::fmt::Debug for Notifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Notifier")
    }
}

impl Creature {
    /// Reads every file of the creature at `root`. Never fails: what cannot be read is
    /// recorded in [`Creature::problems`].
    pub fn open(root: &Path) -> Self {
        Self::open_with(root, DEFAULT_SETTLE, None, CountGate::default())
    }

    /// Like [`Creature::open`], knowing the genomes of `genomes` rather than the
    /// installed ones.
    pub fn open_in(genomes: Registry, root: &Path) -> Self {
        Self::build(genomes, root, DEFAULT_SETTLE, None, CountGate::default())
    }

    /// Like [`Creature::open`], with the time a file must be left alone before an
    /// unfinished last line is shown (see [`WholeFiles`]).
    pub fn with_settle(root: &Path, settle: Duration) -> Self {
        Self::open_with(root, settle, None, CountGate::default())
    }

    /// Like [`Creature::open`], but a conversation log larger than
    /// [`DEFER_ABOVE`](super::streams::DEFER_ABOVE) or a dream log larger than
    /// [`DEFER_DREAMS_ABOVE`](super::dream_log::DEFER_DREAMS_ABOVE) is read tail first and
    /// its head counted on a background thread; `on_counted` runs with the log's kind
    /// when that count is ready, and the next refresh of that log joins it
    /// ([`Change::ConversationCounted`], [`Change::DreamsCounted`]).
    pub fn open_deferred(
        root: &Path,
        settle: Duration,
        on_counted: impl Fn(FileKind) + Send + Sync + 'static,
    ) -> Self {
        Self::open_gated(root, settle, CountGate::default(), on_counted)
    }

    /// Like [`Creature::open_deferred`], the background count waiting at `gate` before it
    /// reports.
    pub fn open_gated(
        root: &Path,
        settle: Duration,
        gate: CountGate,
        on_counted: impl Fn(FileKind) + Send + Sync + 'static,
    ) -> Self {
        let on_counted = Some(Notifier(std::sync::Arc::new(on_counted)));
        Self::open_with(root, settle, on_counted, gate)
    }

    fn open_with(
        root: &Path,
        settle: Duration,
        on_counted: Option<Notifier>,
        count_gate: CountGate,
    ) -> Self {
        Self::build(Registry::installed(), root, settle, on_counted, count_gate)
    }

    fn build(
        genomes: Registry,
        root: &Path,
        settle: Duration,
        on_counted: Option<Notifier>,
        count_gate: CountGate,
    ) -> Self {
        let root = root.to_path_buf();
        let dir_name = root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| root.display().to_string());
        let conversation = ConversationLog::new(FileKind::Conversation.resolve(&root));
        let events = EventLog::new(FileKind::Events.resolve(&root));
        let mut creature = Self {
            root,
            dir_name,
            birth: None,
            purpose: None,
            observations: ObservationLog::default(),
            dreams: DreamLog::default(),
            priorities: Priorities::default(),
            rules: Vec::new(),
            diary_text: String::new(),
            diary: Vec::new(),
            briefing: None,
            creator_log: Recent::new(RECENT_CREATOR_LOG),
            iterations: VecDeque::new(),
            events,
            memory: MemoryLog::default(),
            conversation,
            sleep: None,
            runner: None,
            runner_probe: RunnerProbe::default(),
            usage: UsageLog::default(),
            proposal: None,
            guardrail: None,
            genome: genomes.default_genome(),
            genome_memory: None,
            genomes,
            problems: Problems::default(),
            whole: WholeFiles::new(settle),
            tailers: HashMap::new(),
            on_counted,
            count_gate,
        };
        creature.refresh();
        if creature.on_counted.is_none()
            && let Some(problems) = creature.conversation.wait_head()
        {
            let file = creature.relative(creature.conversation.path());
            creature.add_head_problems(file, problems);
        }
        creature
    }

    /// Stats every file and reads what changed.
    pub fn refresh(&mut self) -> Vec<Change> {
        let mut changes = Vec::new();
        // The genome first: its memory follows the events log too.
        self.refresh_kind(FileKind::Birth, &mut changes);
        self.detect_genome(&mut changes);
        for kind in FileKind::ALL.into_iter().filter(|k| *k != FileKind::Birth) {
            self.refresh_kind(kind, &mut changes);
        }
        for kind in self.genome.files() {
            self.refresh_kind(*kind, &mut changes);
        }
        self.probe_runner(&mut changes);
        changes
    }

    /// Looks again which genome the creature lives by (BIRTH.json, else the files on
    /// disk); another one than before is read from the start. Whether it changed.
    fn detect_genome(&mut self, changes: &mut Vec<Change>) -> bool {
        let named = self.birth.as_ref().and_then(|b| b.genome.as_deref());
        let root = &self.root;
        let genome = self.genomes.detect(named, |kind| {
            kind.candidates().iter().any(|c| root.join(c).exists())
        });
        let fresh =
            self.genome_memory.is_none() && genome.spec().is_some_and(|s| s.memory.is_some());
        if genome == self.genome && !fresh {
            return false;
        }
        for kind in self.genome.files() {
            self.tailers.remove(kind);
            self.whole.forget(*kind);
        }
        self.genome = genome;
        self.genome_memory = genome.spec().and_then(|s| s.memory).map(|new| new());
        // The new genome's memory reads the events log from its start.
        if self.tailers.remove(&FileKind::Events).is_some() {
            self.reset_log(FileKind::Events);
        }
        changes.push(Change::Identity);
        true
    }

    /// Looks again whether the runner in runner.json runs (holds the lock) and listens; a
    /// change is a
    /// [`Change::Runner`].
    fn probe_runner(&mut self, changes: &mut Vec<Change>) {
        let probe = match &self.runner {
            Some(_) if super::runner_lock::is_held(&self.root) => RunnerProbe {
                alive: true,
                listening: control_socket(&self.root).exists(),
            },
            _ => RunnerProbe::default(),
        };
        if probe != self.runner_probe {
            self.runner_probe = probe;
            changes.push(Change::Runner);
        }
    }

    /// Reads what changed in the given paths (hints from a watcher). Paths outside this
    /// creature are ignored; a hint on a directory re-stats every file.
    pub fn refresh_paths<P: AsRef<Path>>(&mut self, paths: &[P]) -> Vec<Change> {
        let mut kinds: Vec<FileKind> = Vec::new();
        let sys = self.root.join(SYS_DIR);
        let mut probe = false;
        for path in paths.iter().map(AsRef::as_ref) {
            if !path.starts_with(&self.root) {
                continue;
            }
            probe |= path.starts_with(&sys);
            let kind = FileKind::of_path(&self.root, path)
                .or_else(|| self.genomes.file_of_path(&self.root, path));
            match kind {
                Some(kind @ FileKind::Genome(_)) if !self.genome.files().contains(&kind) => {
                    // Another genome's file: the creature may live by that genome now.
                    return self.refresh();
                }
                Some(kind) => kinds.push(kind),
                None if path.is_dir() || !path.exists() => return self.refresh(),
                None => {}
            }
        }
        kinds.sort();
        kinds.dedup();
        let mut changes = Vec::new();
        for kind in kinds {
            self.refresh_kind(kind, &mut changes);
            // Another genome: its files are read from the start.
            if kind == FileKind::Birth && self.detect_genome(&mut changes) {
                changes.extend(self.refresh());
                return changes;
            }
        }
        if probe {
            self.probe_runner(&mut changes);
        }
        changes
    }

    fn refresh_kind(&mut self, kind: FileKind, changes: &mut Vec<Change>) {
        match kind {
            FileKind::Dreams
            | FileKind::Iterations
            | FileKind::Events
            | FileKind::Memory
            | FileKind::Conversation
            | FileKind::CreatorLog
            | FileKind::Usage => self.refresh_log(kind, changes),
            FileKind::Genome(file) if !file.0.whole => self.refresh_log(kind, changes),
            _ => self.refresh_document(kind, changes),
        }
    }

    fn relative(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .unwrap_or(path)
            .display()
            .to_string()
    }

    fn problem(&mut self, changes: &mut Vec<Change>, path: &Path, line: Option<u64>, what: String) {
        let file = self.relative(path);
        // A file that cannot be read is looked at again on every refresh: one problem.
        let known = self
            .problems
            .list()
            .iter()
            .any(|p| p.file == file && p.line == line && p.what == what);
        if !known {
            self.line_problem(changes, file, line, what);
        }
    }

    /// Lists a problem (and reports it as a change) while the list has room; past that
    /// it is only counted, so a file of bad lines costs no memory per line.
    fn line_problem(
        &mut self,
        changes: &mut Vec<Change>,
        file: String,
        line: Option<u64>,
        what: String,
    ) {
        if self.problems.is_full() {
            self.problems.count_dropped(1);
            return;
        }
        let problem = Problem { file, line, what };
        self.problems.push(problem.clone());
        changes.push(Change::Problem(problem));
    }

    /// The problems found counting a large conversation's head.
    fn add_head_problems(&mut self, file: String, head: HeadProblems) {
        for (line, what) in head.listed {
            self.problems.push(Problem {
                file: file.clone(),
                line: Some(line + 1),
                what,
            });
        }
        self.problems.count_dropped(head.dropped);
    }

    /// A JSON file's content through `parse`; one that does not parse is recorded as a
    /// problem and read as absent.
    fn parse_json_file<T>(
        &mut self,
        content: &Option<(&Path, Vec<u8>)>,
        parse: fn(&[u8]) -> Result<T, LineError>,
        changes: &mut Vec<Change>,
    ) -> Option<T> {
        let (path, bytes) = content.as_ref()?;
        match parse(bytes) {
            Ok(value) => Some(value),
            Err(e) => {
                self.problem(changes, path, None, format!("invalid JSON: {e}"));
                None
            }
        }
    }

    /// Reads a whole file again when it changed (see [`WholeFiles`]).
    fn refresh_document(&mut self, kind: FileKind, changes: &mut Vec<Change>) {
        if kind == FileKind::Observations {
            return self.refresh_observations(changes);
        }
        let path = kind.resolve(&self.root);
        match self.whole.read(kind, &path) {
            WholeRead::Unchanged => {}
            WholeRead::Gone => self.apply_document(kind, None, changes),
            WholeRead::Content(bytes) => {
                self.problems.clear_file(&self.relative(&path));
                self.apply_document(kind, Some((&path, bytes)), changes);
            }
            WholeRead::Failed(what) => {
                self.problems.clear_file(&self.relative(&path));
                self.problem(changes, &path, None, what);
            }
        }
    }

    /// Reads `observations.md` again when it changed, folding it line by line.
    fn refresh_observations(&mut self, changes: &mut Vec<Change>) {
        let path = FileKind::Observations.resolve(&self.root);
        let mut fold = ObservationFold::default();
        let mut each_line = |line: &[u8]| {
            let line = line.strip_suffix(b"\n").unwrap_or(line);
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            fold.push_line(&crate::text::lossy(line));
        };
        match self
            .whole
            .stream(FileKind::Observations, &path, &mut each_line)
        {
            Streamed::Unchanged => {}
            Streamed::Gone => self.set_observations(ObservationLog::default(), changes),
            Streamed::Whole => {
                self.problems.clear_file(&self.relative(&path));
                self.set_observations(fold.finish(), changes);
            }
            Streamed::Appended => {
                self.problems.clear_file(&self.relative(&path));
                report_observations(self.observations.extend(fold), changes);
            }
            Streamed::Failed(what) => {
                self.problems.clear_file(&self.relative(&path));
                self.problem(changes, &path, None, what);
            }
        }
    }

    fn set_observations(&mut self, new: ObservationLog, changes: &mut Vec<Change>) {
        let old = std::mem::replace(&mut self.observations, new);
        report_observations(self.observations.added_since(&old), changes);
    }

    fn apply_document(
        &mut self,
        kind: FileKind,
        content: Option<(&Path, Vec<u8>)>,
        changes: &mut Vec<Change>,
    ) {
        match kind {
            FileKind::Birth => {
                self.birth = self.parse_json_file(&content, Birth::parse, changes);
                changes.push(Change::Identity);
            }
            FileKind::Purpose => {
                self.purpose = into_text(content);
                changes.push(Change::Identity);
            }
            FileKind::Priorities => {
                self.priorities = Priorities::parse(&into_text(content).unwrap_or_default());
                changes.push(Change::Priorities);
            }
            FileKind::Rules => {
                self.rules = parse_rules(&into_text(content).unwrap_or_default());
                changes.push(Change::Rules);
            }
            FileKind::Diary => {
                let text = into_text(content).unwrap_or_default();
                self.diary = parse_diary(&text);
                self.diary_text = text;
                changes.push(Change::Diary);
            }
            FileKind::Briefing => {
                self.briefing = into_text(content);
                changes.push(Change::Briefing);
            }
            FileKind::Sleep => {
                self.sleep = self.parse_json_file(&content, SleepFile::parse, changes);
                changes.push(Change::Sleep);
            }
            FileKind::Runner => {
                self.runner = content.and_then(|(_, bytes)| serde_json::from_slice(&bytes).ok());
                changes.push(Change::Runner);
            }
            FileKind::Proposal => {
                self.proposal = self.parse_json_file(&content, Proposal::parse, changes);
                changes.push(Change::Proposal);
            }
            FileKind::Guardrail => {
                self.guardrail = content.and_then(|(_, bytes)| MorningReport::parse(&bytes));
                changes.push(Change::Guardrail);
            }
            FileKind::Genome(_) => {
                let Some(memory) = self.genome_memory.as_mut() else {
                    return;
                };
                let loaded = memory.load(kind, content.as_ref().map(|(_, b)| b.as_slice()));
                if let (Err(what), Some((path, _))) = (loaded, &content) {
                    self.problem(changes, path, None, what.to_string());
                }
                changes.push(Change::Genome(kind));
            }
            _ => {}
        }
    }

    /// Reads what was appended to an append-only log, folding each line as it streams
    /// (a log may be far larger than memory).
    fn refresh_log(&mut self, kind: FileKind, changes: &mut Vec<Change>) {
        let path = kind.resolve(&self.root);
        if self.tailers.get(&kind).is_some_and(|t| t.path() != path) {
            self.tailers.remove(&kind);
            self.reset_log(kind);
            changes.push(Change::Reset(kind));
        }
        self.join_counted(kind, changes);
        let mut tailer = match self.tailers.remove(&kind) {
            Some(tailer) => tailer,
            None => self.new_tailer(kind, &path),
        };
        let rel = self.relative(&path);
        let mut fold = LogFold::default();
        let poll = tailer.poll(&mut |event| match event {
            TailEvent::Reset => {
                self.reset_log(kind);
                changes.push(Change::Reset(kind));
            }
            TailEvent::Line {
                number,
                offset,
                bytes,
            } => {
                self.fold_line(kind, &rel, number, offset, bytes, &mut fold, changes);
            }
        });
        // A missing file's tailer that never saw it is not kept: in a garden of thousands
        // of creatures that have written nothing yet, they were most of what each cost.
        let keep = !(poll.as_ref().is_ok_and(|p| p.missing) && tailer.is_fresh());
        if keep {
            self.tailers.insert(kind, tailer);
        }
        let poll = match poll {
            Ok(p) => p,
            Err(e) => {
                self.problem(changes, &path, None, format!("cannot read: {e}"));
                return;
            }
        };
        if kind == FileKind::Events {
            self.events.exists = !poll.missing;
            self.events.path = path.clone();
        }
        if poll.oversized > 0 {
            let what = format!("{} line(s) too long to read, skipped", poll.oversized);
            self.problem(changes, &path, None, what);
        }
        // A far side's count of the head is there with the window: joined at once.
        self.join_counted(kind, changes);
        if let Some(t) = self.last_dream_time() {
            self.events.forget_calls_until(t);
            self.conversation.forget_calls_until(t);
        }
        if fold.conversation > 0 {
            if let Err(e) = self.conversation.settle() {
                self.problem(
                    changes,
                    &path,
                    None,
                    format!("cannot read back recent lines: {e}"),
                );
            }
            changes.push(Change::Conversation {
                new_entries: fold.conversation,
            });
        }
        if fold.events > 0 {
            changes.push(Change::Events { new: fold.events });
        }
        // One change for any number of new lines where the views re-read what is kept.
        if fold.iterations > 0 {
            changes.push(Change::Iteration);
        }
        if fold.creator_log > 0 {
            changes.push(Change::CreatorLog);
        }
        if fold.genome > 0 {
            changes.push(Change::Genome(kind));
        }
        if fold.usage > 0 {
            changes.push(Change::Usage);
        }
        // One change per new dream (a huge read reports its last ones).
        if fold.dreams > 0 {
            changes.extend(self.dreams.take_fresh().into_iter().map(Change::Dream));
        }
        if kind == FileKind::Dreams {
            // A dreams reset drops the logs fatigue is counted from: read them again now.
            for log in [FileKind::Events, FileKind::Conversation] {
                if !self.tailers.contains_key(&log) {
                    self.refresh_log(log, changes);
                }
            }
        }
    }

    /// A tailer for a log read for the first time: a large conversation starts at its
    /// tail while background threads count the head (in parallel slices).
    fn new_tailer(&mut self, kind: FileKind, path: &Path) -> Tailer {
        // Its last line says everything: only the file's end is read.
        if kind == FileKind::Usage {
            return Tailer::starting_at(path, super::usage::tail_start(path));
        }
        if kind == FileKind::Dreams
            && let Some(notify) = self.on_counted.clone()
            && let Some(tail_start) = DreamLog::tail_start(path)
        {
            let ready = Box::new(move || (notify.0)(FileKind::Dreams));
            self.dreams
                .count_head(path, tail_start, self.count_gate.clone(), ready);
            if self.dreams.counting() {
                return Tailer::starting_at(path, tail_start);
            }
        }
        if kind != FileKind::Conversation {
            return Tailer::new(path);
        }
        if self.take_far_head(path) {
            return Tailer::new(path);
        }
        let Some(tail_start) = ConversationLog::tail_start(path) else {
            return Tailer::new(path);
        };
        let deferred = self.on_counted.is_some();
        let ready: Box<dyn FnOnce() + Send> = match self.on_counted.clone() {
            Some(notify) => Box::new(move || (notify.0)(FileKind::Conversation)),
            None => Box::new(|| {}),
        };
        let last_dream = self.last_dream_time();
        let gate = self.count_gate.clone();
        self.conversation
            .count_head(tail_start, last_dream, gate, deferred, ready);
        if self.conversation.counting() {
            Tailer::starting_at(path, tail_start)
        } else {
            Tailer::new(path)
        }
    }

    /// Joins the count of the head of the log of `kind` once it has arrived: the
    /// conversation's (a background count, or a far side's), the dreams'.
    fn join_counted(&mut self, kind: FileKind, changes: &mut Vec<Change>) {
        match kind {
            FileKind::Conversation => {
                if let Some(problems) = self.conversation.join_head() {
                    let file = self.relative(self.conversation.path());
                    self.add_head_problems(file, problems);
                    changes.push(Change::ConversationCounted);
                }
            }
            FileKind::Dreams => {
                if let Some(joined) = self.dreams.join_head() {
                    let path = kind.resolve(&self.root);
                    self.add_head_problems(self.relative(&path), joined.problems);
                    if joined.oversized > 0 {
                        let what =
                            format!("{} line(s) too long to read, skipped", joined.oversized);
                        self.problem(changes, &path, None, what);
                    }
                    changes.push(Change::DreamsCounted);
                }
            }
            _ => {}
        }
    }

    /// Whether the conversation file at `path` is a far copy's window whose head was
    /// counted on the far side: then that count is taken (joined after the window's read).
    fn take_far_head(&mut self, path: &Path) -> bool {
        match super::far_head::find(path) {
            Some(head) => {
                self.conversation.take_head(&head);
                true
            }
            None => false,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn fold_line(
        &mut self,
        kind: FileKind,
        rel: &str,
        number: u64,
        offset: u64,
        bytes: &[u8],
        fold: &mut LogFold,
        changes: &mut Vec<Change>,
    ) {
        let result: Result<(), LineError> = match kind {
            FileKind::Conversation => {
                fold.conversation += 1;
                let last_dream = self.last_dream_time();
                self.conversation.push(number, offset, bytes, last_dream)
            }
            FileKind::Dreams => self.dreams.push_line(bytes, offset).map(|t| {
                if let Some(t) = t {
                    self.events.forget_calls_until(t);
                    self.conversation.forget_calls_until(t);
                }
                fold.dreams += 1;
            }),
            FileKind::Iterations => Iteration::parse(bytes).map(|i| {
                if self.iterations.len() == RECENT_ITERATIONS {
                    self.iterations.pop_front();
                }
                self.iterations.push_back(i);
                fold.iterations += 1;
            }),
            FileKind::CreatorLog => CreatorLogEntry::parse(bytes).map(|c| {
                self.creator_log.push(c);
                fold.creator_log += 1;
            }),
            FileKind::Events => {
                // Every line is indexed, good or bad: the Events view reads them back.
                self.events.index.record(number, offset);
                match Event::parse(bytes) {
                    Ok(e) => {
                        fold.events += 1;
                        if let Some(memory) = self.genome_memory.as_mut() {
                            memory.on_event(&e);
                        }
                        self.events.push(e);
                        Ok(())
                    }
                    Err(e) => {
                        self.events.bad_lines += 1;
                        Err(e)
                    }
                }
            }
            FileKind::Memory => match Event::parse(bytes) {
                Ok(e) => {
                    self.memory.lines += 1;
                    if let Some(t) = e.t {
                        self.memory.last_t = Some(self.memory.last_t.map_or(t, |l| l.max(t)));
                    }
                    Ok(())
                }
                Err(e) => {
                    self.memory.bad_lines += 1;
                    Err(e)
                }
            },
            FileKind::Usage => self.usage.push(bytes).map(|()| fold.usage += 1),
            FileKind::Genome(_) => match self.genome_memory.as_mut() {
                Some(memory) => {
                    fold.genome += 1;
                    memory.fold(kind, number, bytes)
                }
                None => Ok(()),
            },
            _ => Ok(()),
        };
        if let Err(what) = result {
            if kind == FileKind::Dreams && self.dreams.hold_tail_problem(number, &what.to_string())
            {
                return;
            }
            if kind == FileKind::Conversation
                && let Some(backfill) = self.conversation.backfill.as_mut()
            {
                if backfill.tail_problems.len() < super::problem::MAX_KEPT {
                    backfill.tail_problems.push((number, what.to_string()));
                } else {
                    self.problems.count_dropped(1);
                }
                return;
            }
            self.line_problem(changes, rel.to_string(), Some(number + 1), what.to_string());
        }
    }

    /// Drops what was derived from a log that is being read again from its start.
    fn reset_log(&mut self, kind: FileKind) {
        let path = kind.resolve(&self.root);
        let rel = self.relative(&path);
        self.problems.clear_file(&rel);
        match kind {
            FileKind::Dreams => {
                self.dreams = DreamLog::default();
                // Fatigue is counted against the last dream: recount the logs.
                self.tailers.remove(&FileKind::Events);
                self.tailers.remove(&FileKind::Conversation);
                self.events = EventLog::new(FileKind::Events.resolve(&self.root));
                self.conversation =
                    ConversationLog::new(FileKind::Conversation.resolve(&self.root));
            }
            FileKind::Iterations => self.iterations.clear(),
            FileKind::CreatorLog => self.creator_log.clear(),
            FileKind::Events => {
                self.events = EventLog::new(path);
                if let Some(memory) = self.genome_memory.as_mut() {
                    memory.reset(kind);
                }
            }
            FileKind::Memory => self.memory = MemoryLog::default(),
            FileKind::Usage => self.usage = UsageLog::default(),
            FileKind::Conversation => {
                self.conversation = ConversationLog::new(path.clone());
                self.take_far_head(&path);
            }
            FileKind::Genome(_) => {
                if let Some(memory) = self.genome_memory.as_mut() {
                    memory.reset(kind);
                }
            }
            _ => {}
        }
    }

    /// Whether a file's unfinished last line is held back until it settles (shown by a
    /// later refresh once the file has been left alone: nothing else will say so).
    pub fn holds_unfinished_line(&self) -> bool {
        self.whole.holding()
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// BIRTH.json's name, else the directory name.
    pub fn name(&self) -> &str {
        self.birth
            .as_ref()
            .map(|b| b.name.as_str())
            .filter(|n| !n.is_empty())
            .unwrap_or(&self.dir_name)
    }

    pub fn birth(&self) -> Option<&Birth> {
        self.birth.as_ref()
    }

    /// The memory system the creature lives by ([`Registry::detect`]).
    pub fn genome(&self) -> Genome {
        self.genome
    }

    /// What its genome's own files say (none for a genome without files of its own).
    pub fn genome_memory(&self) -> Option<&dyn GenomeMemory> {
        self.genome_memory.as_deref()
    }

    /// Its genome's memory as the genome's own type (`None` for a creature of another
    /// genome).
    pub fn genome_memory_as<T: 'static>(&self) -> Option<&T> {
        self.genome_memory()?.as_any().downcast_ref()
    }

    pub fn purpose(&self) -> Option<&str> {
        self.purpose.as_deref()
    }

    /// The last items of `observations.md` (at most
    /// [`RECENT_OBSERVATION_ITEMS`](super::observation_log::RECENT_OBSERVATION_ITEMS)).
    pub fn observations(&self) -> &Observations {
        self.observations.recent()
    }

    /// Items of `observations.md` before the kept ones.
    pub fn observations_not_kept(&self) -> usize {
        self.observations.older()
    }

    /// Counts over the whole of `observations.md`.
    pub fn observation_counts(&self) -> ObsCounts {
        self.observations.counts()
    }

    /// The recent dreams as rows, without their reflections (at most
    /// [`RECENT_DREAMS`](super::dream_log::RECENT_DREAMS)).
    pub fn dreams(&self) -> &[DreamRow] {
        self.dreams.rows()
    }

    /// Dream `i` of [`Creature::dreams`] whole, read back from disk.
    pub fn read_dream(&self, i: usize) -> Result<Dream, LineError> {
        self.dreams.read(&self.path_of(FileKind::Dreams), i)
    }

    /// Every dream counted, and the recent ones.
    pub fn dream_log(&self) -> &DreamLog {
        &self.dreams
    }

    pub fn priorities(&self) -> &Priorities {
        &self.priorities
    }

    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    pub fn diary_text(&self) -> &str {
        &self.diary_text
    }

    pub fn diary(&self) -> &[DiaryEntry] {
        &self.diary
    }

    pub fn briefing(&self) -> Option<&str> {
        self.briefing.as_deref()
    }

    /// The last self-evaluations (at most [`RECENT_CREATOR_LOG`]).
    pub fn creator_log(&self) -> &[CreatorLogEntry] {
        self.creator_log.as_slice()
    }

    pub fn iterations(&self) -> &VecDeque<Iteration> {
        &self.iterations
    }

    pub fn events(&self) -> &EventLog {
        &self.events
    }

    /// Reads the events log's lines from `path`, of which the log read is a part that
    /// begins at line `line`, byte `offset`; its lines before read on from `before`, line
    /// starts known of it (the time cursor's past: its copy is a window of the creature's
    /// own log, and scrolling back reads on into the log).
    pub fn reach_events_back(
        &mut self,
        path: PathBuf,
        before: &[(u64, u64)],
        line: u64,
        offset: u64,
    ) {
        self.events.index = self.events.index.within(before, line, offset);
        self.events.path = path;
    }

    /// As [`Creature::reach_events_back`], of the conversation.
    pub fn reach_conversation_back(
        &mut self,
        path: PathBuf,
        before: &[(u64, u64)],
        line: u64,
        offset: u64,
    ) {
        self.conversation.reach_back(path, before, line, offset);
    }

    pub fn memory_log(&self) -> MemoryLog {
        self.memory
    }

    pub fn conversation(&self) -> &ConversationLog {
        &self.conversation
    }

    /// What `.sys/usage.jsonl` says: the sums of its last line.
    pub fn usage(&self) -> &UsageLog {
        &self.usage
    }

    /// The dream held for review (`.sys/proposal.json`), if one is pending.
    pub fn proposal(&self) -> Option<&Proposal> {
        self.proposal.as_ref()
    }

    /// The morning report of a guardrail that tripped (`.sys/guardrail.json`), if any.
    pub fn guardrail(&self) -> Option<&MorningReport> {
        self.guardrail.as_ref()
    }

    pub fn runner(&self) -> Option<&RunnerFile> {
        self.runner.as_ref()
    }

    /// Whether the runner ran and listened when last probed (no IO).
    pub fn runner_probe(&self) -> RunnerProbe {
        self.runner_probe
    }

    pub fn problems(&self) -> &[Problem] {
        self.problems.list()
    }

    /// Problems beyond the kept list.
    pub fn problems_dropped(&self) -> u64 {
        self.problems.dropped()
    }

    pub(crate) fn last_dream_time(&self) -> Option<DateTime<Utc>> {
        self.dreams.last_time()
    }

    /// The path a file kind resolves to in this creature now.
    pub fn path_of(&self, kind: FileKind) -> PathBuf {
        kind.resolve(&self.root)
    }
}

/// What `observations.md` gained: the observations added (nothing when none), or
/// `None` when they cannot be told (the file was rewritten).
fn report_observations(added: Option<Vec<Observation>>, changes: &mut Vec<Change>) {
    match added {
        Some(added) if added.is_empty() => {}
        Some(added) => changes.push(Change::ObservationsAdded(added)),
        None => changes.push(Change::ObservationsRewritten),
    }
}

/// A document's bytes as text, without a copy when they are valid UTF-8.
fn into_text(content: Option<(&Path, Vec<u8>)>) -> Option<String> {
    content.map(|(_, bytes)| {
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    })
}
