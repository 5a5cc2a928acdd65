//! Where each file lives: the seed layout and every OpenSeed variant.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The kinds of file a creature directory holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FileKind {
    Birth,
    Purpose,
    Dreams,
    Observations,
    Priorities,
    Rules,
    Diary,
    Briefing,
    CreatorLog,
    Iterations,
    Events,
    Memory,
    Conversation,
    Sleep,
    Runner,
    /// `.sys/usage.jsonl`: the tokens of each model call (see [`super::usage`]).
    Usage,
    /// `.sys/proposal.json`: a dream held for the operator's review (see
    /// [`super::proposal`]).
    Proposal,
    /// `.sys/guardrail.json`: the morning report of a creature a guardrail put to sleep
    /// (see [`super::guardrail`]).
    Guardrail,
    /// A file of the creature's genome (its plug-in's: [`GenomeFile`]).
    Genome(GenomeFile),
}

/// One file a genome adds to a creature.
#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GenomeFileSpec {
    /// The genome that owns it.
    pub genome: &'static str,
    /// Candidate paths relative to the creature root, preferred first.
    pub paths: &'static [&'static str],
    /// Read whole when it changes (a JSON document rewritten atomically) rather than
    /// followed line by line (an append-only log).
    pub whole: bool,
}

/// A genome's file, as a [`FileKind`] carries it (compared by what it names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GenomeFile(pub &'static GenomeFileSpec);

impl GenomeFile {
    /// The preferred path, relative to the creature root.
    pub fn path(self) -> &'static str {
        self.0.paths.first().copied().unwrap_or_default()
    }

    /// The file name of its preferred path (`journal.jsonl`).
    pub fn file_name(self) -> &'static str {
        let path = self.path();
        path.rsplit('/').next().unwrap_or(path)
    }
}

impl FileKind {
    /// Every kind of the OpenSeed contract, in the order a refresh reads them (dreams
    /// before what is counted against the last dream's time); a genome's own files come
    /// from its spec.
    pub const ALL: [FileKind; 18] = [
        FileKind::Birth,
        FileKind::Purpose,
        FileKind::Dreams,
        FileKind::Observations,
        FileKind::Priorities,
        FileKind::Rules,
        FileKind::Diary,
        FileKind::Briefing,
        FileKind::CreatorLog,
        FileKind::Iterations,
        FileKind::Events,
        FileKind::Memory,
        FileKind::Conversation,
        FileKind::Sleep,
        FileKind::Runner,
        FileKind::Usage,
        FileKind::Proposal,
        FileKind::Guardrail,
    ];

    /// Candidate paths relative to the creature root, preferred first.
    pub fn candidates(self) -> &'static [&'static str] {
        match self {
            FileKind::Birth => &["BIRTH.json"],
            FileKind::Purpose => &["PURPOSE.md"],
            FileKind::Dreams => &[".self/dreams.jsonl"],
            FileKind::Observations => &[".self/observations.md"],
            FileKind::Priorities => &[".self/priorities.md"],
            FileKind::Rules => &[".self/rules.md"],
            FileKind::Diary => &[".self/diary.md", "self/diary.md"],
            FileKind::Briefing => &[".self/briefing.md"],
            FileKind::CreatorLog => &[".self/creator-log.jsonl"],
            FileKind::Iterations => &[".sys/iterations.jsonl", ".self/iterations.jsonl"],
            FileKind::Events => &[".sys/events.jsonl", ".self/events.jsonl"],
            FileKind::Memory => &[".self/memory.jsonl"],
            FileKind::Conversation => &[".self/conversation.jsonl"],
            FileKind::Sleep => &[".sys/sleep.json"],
            FileKind::Runner => &[".sys/runner.json"],
            FileKind::Usage => &[super::usage::USAGE_FILE],
            FileKind::Proposal => &[super::proposal::PROPOSAL],
            FileKind::Guardrail => &[super::guardrail::GUARDRAIL_FILE],
            FileKind::Genome(file) => file.0.paths,
        }
    }

    /// The path this kind uses in `root` now: the first candidate that exists, else the
    /// preferred one.
    pub fn resolve(self, root: &Path) -> PathBuf {
        let candidates = self.candidates();
        candidates
            .iter()
            .map(|c| root.join(c))
            .find(|p| p.exists())
            .unwrap_or_else(|| root.join(candidates[0]))
    }

    /// Which kind of the OpenSeed contract, if any, a path inside `root` belongs to (a
    /// genome's files: [`super::genome::Registry::file_of_path`]).
    pub fn of_path(root: &Path, path: &Path) -> Option<FileKind> {
        let rel = path.strip_prefix(root).ok()?;
        FileKind::ALL
            .into_iter()
            .find(|k| k.candidates().iter().any(|c| Path::new(c) == rel))
    }
}

/// Which of a genome's files are on disk (the genome is known by them when `BIRTH.json`
/// names none).
#[derive(Debug, Clone, Default)]
pub struct FilesPresent(BTreeSet<FileKind>);

impl FilesPresent {
    /// Records whether the file of `kind` is on disk.
    pub fn set(&mut self, kind: FileKind, present: bool) {
        if present {
            self.0.insert(kind);
        } else {
            self.0.remove(&kind);
        }
    }

    /// Whether any is.
    pub fn any(&self) -> bool {
        !self.0.is_empty()
    }
}

/// The runner's own directory in a creature: its files, and its control socket.
pub const SYS_DIR: &str = ".sys";

/// Where a dreamwatch runner listens for commands while it hosts the creature at `root`.
pub fn control_socket(root: &Path) -> PathBuf {
    root.join(SYS_DIR).join("control.sock")
}

/// The directories a watcher must watch for one creature.
pub fn watched_dirs(root: &Path) -> Vec<PathBuf> {
    vec![
        root.to_path_buf(),
        root.join(".self"),
        root.join(SYS_DIR),
        root.join("self"),
    ]
}

/// A directory is a creature when it has `.self/` or `BIRTH.json`.
pub fn is_creature(path: &Path) -> bool {
    path.join(".self").is_dir() || path.join("BIRTH.json").is_file()
}
