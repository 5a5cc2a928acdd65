//! Genomes as the memory model knows them: which memory system a creature lives by, and
//! the seam through which a genome's own files are read.
//!
//! The model reads every file the OpenSeed contract names (DESIGN.md section 2) itself. A
//! genome that keeps files of its own plugs in a [`GenomeSpec`] (its name, its files, a
//! constructor of its [`GenomeMemory`]); the composition root installs the registry of
//! them once ([`install`]), and nothing here names a genome. A creature's genome is
//! BIRTH.json's `genome` when it names one, else the first registered genome whose files
//! are on disk, else the registry's default.

use std::any::Any;
use std::fmt::Debug;
use std::io::Write;
use std::path::Path;
use std::sync::OnceLock;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Map, Value};

use super::events::Event;
use super::json::LineError;
use super::layout::FileKind;
pub use super::layout::{GenomeFile, GenomeFileSpec};
use super::status::Status;

/// Why a genome's whole file could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("invalid JSON: {0}")]
    Json(#[from] LineError),
    #[error("not a number: {0:?}")]
    NotANumber(String),
}

/// What a genome's files say about one creature, folded as they are followed. The
/// observatory's views of the genome downcast it ([`GenomeMemory::as_any`]) to their
/// own type.
pub trait GenomeMemory: Debug + Send + Sync + Any {
    /// Folds line `line_no` (0-based) of the log `file`.
    fn fold(&mut self, file: FileKind, line_no: u64, bytes: &[u8]) -> Result<(), LineError>;

    /// Takes the whole file `file` as it now is (`None`: there is none). An error is a
    /// problem shown for the file; what was loaded before is kept or dropped as the
    /// genome sees fit.
    fn load(&mut self, _file: FileKind, _bytes: Option<&[u8]>) -> Result<(), LoadError> {
        Ok(())
    }

    /// Forgets what was folded from `file` (it is read again from its start): one of its
    /// own files, or the events log.
    fn reset(&mut self, file: FileKind);

    /// An event of the creature's events log, as it is folded (a genome that keeps no
    /// file of its own may read its life from there).
    fn on_event(&mut self, _event: &Event) {}

    /// The latest time written in any of its files.
    fn last_t(&self) -> Option<DateTime<Utc>>;

    /// The creature's status where the genome's files say more than the cycle's
    /// (evennia's operating mode), given the time a sleep file says it wakes and the
    /// status by activity alone. `None`: the cycle's derivation stands.
    fn status(
        &self,
        _now: DateTime<Utc>,
        _sleep_wake_at: Option<DateTime<Utc>>,
        _by_activity: Status,
    ) -> Option<Status> {
        None
    }

    /// The figures `inspect --json` gives under the genome's name.
    fn figures(&self, now: DateTime<Utc>) -> Value;

    /// The figures the file `file` gives, for an `inspect --follow` line: all of them
    /// unless the genome says which.
    fn file_figures(&self, _file: FileKind, now: DateTime<Utc>) -> Map<String, Value> {
        match self.figures(now) {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    /// The genome's lines of plain `inspect` (indented two spaces, inert).
    fn write_text(&self, out: &mut dyn Write, now: DateTime<Utc>) -> std::io::Result<()>;

    fn as_any(&self) -> &dyn Any;
}

/// A counter file as OpenSeed writes it (`.sys/cycle-count`: `5`, no newline); `None`
/// when there is no file or it is blank.
pub fn parse_count(bytes: Option<&[u8]>) -> Result<Option<u64>, LoadError> {
    let text = bytes.map(String::from_utf8_lossy).unwrap_or_default();
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .map_err(|_| LoadError::NotANumber(text.to_string()))
}

/// A genome as the memory model knows it.
#[derive(Debug)]
pub struct GenomeSpec {
    /// As BIRTH.json writes it.
    pub name: &'static str,
    /// Other names BIRTH.json may carry for it (names it had before).
    pub aliases: &'static [&'static str],
    /// Its own files, in the order a refresh reads them.
    pub files: &'static [FileKind],
    /// The files that tell a creature of this genome when its BIRTH.json names none (a
    /// file another genome writes too, such as `.sys/cycle-count`, tells nothing).
    pub marks: &'static [FileKind],
    /// A model of its files for one creature; `None` for a genome with no files of its own.
    pub memory: Option<fn() -> Box<dyn GenomeMemory>>,
}

impl GenomeSpec {
    /// Whether BIRTH.json's `name` means this genome.
    pub fn answers_to(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }
}

/// Which memory system a creature lives by.
#[derive(Debug, Clone, Copy)]
pub enum Genome {
    /// A registered genome.
    Known(&'static GenomeSpec),
    /// A genome nothing here knows, as BIRTH.json names it (shown with what every
    /// creature has).
    Other(&'static str),
}

impl Genome {
    /// As BIRTH.json writes it.
    pub fn name(&self) -> &'static str {
        match self {
            Genome::Known(spec) => spec.name,
            Genome::Other(name) => name,
        }
    }

    /// Its spec, when it is registered.
    pub fn spec(&self) -> Option<&'static GenomeSpec> {
        match self {
            Genome::Known(spec) => Some(spec),
            Genome::Other(_) => None,
        }
    }

    /// Its own files (none for a genome nothing here knows).
    pub fn files(&self) -> &'static [FileKind] {
        self.spec().map_or(&[], |s| s.files)
    }
}

impl PartialEq for Genome {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Genome {}

impl std::hash::Hash for Genome {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl Serialize for Genome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The genomes this process knows, in the order they are detected by their files; the
/// first is the default.
#[derive(Debug, Clone, Copy)]
pub struct Registry(&'static [&'static GenomeSpec]);

/// A genome named nothing: what a creature lives by when no genome is registered.
static NONE: GenomeSpec = GenomeSpec {
    name: "unknown",
    aliases: &[],
    files: &[],
    marks: &[],
    memory: None,
};

static INSTALLED: OnceLock<Registry> = OnceLock::new();

/// Installs the registry the memory model reads creatures with (the composition root
/// does, before any creature is read). A second call changes nothing.
pub fn install(registry: Registry) {
    let _ = INSTALLED.set(registry);
}

impl Registry {
    pub const fn new(specs: &'static [&'static GenomeSpec]) -> Self {
        Self(specs)
    }

    /// The installed registry ([`install`]), or one that knows no genome.
    pub fn installed() -> Self {
        INSTALLED.get().copied().unwrap_or(Registry(&[]))
    }

    pub fn specs(&self) -> &'static [&'static GenomeSpec] {
        self.0
    }

    /// The genome a creature lives by when nothing says otherwise.
    pub fn default_genome(&self) -> Genome {
        Genome::Known(self.0.first().copied().unwrap_or(&NONE))
    }

    /// The genome BIRTH.json's name means.
    pub fn named(&self, name: &str) -> Genome {
        match self.0.iter().find(|s| s.answers_to(name)) {
            Some(spec) => Genome::Known(spec),
            // Leaked once per distinct unknown name read (a handful at most in practice);
            // the genome is then a plain `Copy` value everywhere.
            None => Genome::Other(intern(name)),
        }
    }

    /// The genome of a creature whose BIRTH.json names `birth` (if any): else the first
    /// genome with a file on disk (`present`), else the default.
    pub fn detect(&self, birth: Option<&str>, present: impl Fn(FileKind) -> bool) -> Genome {
        if let Some(name) = birth.map(str::trim).filter(|g| !g.is_empty()) {
            return self.named(name);
        }
        self.0
            .iter()
            .find(|s| s.marks.iter().any(|f| present(*f)))
            .map_or_else(|| self.default_genome(), |s| Genome::Known(s))
    }

    /// The genome file a path inside `root` is, of any registered genome.
    pub fn file_of_path(&self, root: &Path, path: &Path) -> Option<FileKind> {
        let rel = path.strip_prefix(root).ok()?;
        self.0
            .iter()
            .flat_map(|s| s.files.iter())
            .copied()
            .find(|k| k.candidates().iter().any(|c| Path::new(c) == rel))
    }
}

/// A `'static` copy of `name`, made once per distinct name.
fn intern(name: &str) -> &'static str {
    use std::collections::HashSet;
    use std::sync::Mutex;
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let names = NAMES.get_or_init(Default::default);
    let Ok(mut names) = names.lock() else {
        return "unknown";
    };
    if let Some(known) = names.get(name) {
        return known;
    }
    // Names of unknown genomes are few and live as long as the process.
    let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.insert(leaked);
    leaked
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
        genome: "b",
        paths: &[".self/b.jsonl"],
        whole: false,
    }));
    static A: GenomeSpec = GenomeSpec {
        name: "a",
        aliases: &["old-a"],
        files: &[],
        marks: &[],
        memory: None,
    };
    static B: GenomeSpec = GenomeSpec {
        name: "b",
        aliases: &[],
        files: &[LOG],
        marks: &[LOG],
        memory: None,
    };
    static SPECS: [&GenomeSpec; 2] = [&A, &B];

    #[test]
    fn birth_wins_then_the_files_then_the_default() {
        let r = Registry::new(&SPECS);
        assert_eq!(r.detect(Some("b"), |_| false).name(), "b");
        assert_eq!(r.detect(Some("a"), |_| true).name(), "a");
        assert_eq!(r.detect(Some("old-a"), |_| true).name(), "a");
        assert_eq!(r.detect(Some("openseed"), |_| false).name(), "openseed");
        assert!(r.detect(Some("openseed"), |_| false).spec().is_none());
        assert_eq!(r.detect(Some(" "), |k| k == LOG).name(), "b");
        assert_eq!(r.detect(None, |k| k == LOG).name(), "b");
        assert_eq!(r.detect(None, |_| false).name(), "a");
        assert_eq!(Registry::new(&[]).detect(None, |_| true).name(), "unknown");
    }

    #[test]
    fn a_counter_file_is_a_number_or_nothing() {
        assert_eq!(parse_count(Some(b"5")).unwrap(), Some(5));
        assert_eq!(parse_count(Some(b" 12\n")).unwrap(), Some(12));
        assert_eq!(parse_count(Some(b"")).unwrap(), None);
        assert_eq!(parse_count(None).unwrap(), None);
        assert!(matches!(parse_count(Some(b"x1")), Err(LoadError::NotANumber(t)) if t == "x1"));
    }

    #[test]
    fn a_genome_file_is_found_by_its_path() {
        let r = Registry::new(&SPECS);
        let root = Path::new("/c");
        assert_eq!(
            r.file_of_path(root, Path::new("/c/.self/b.jsonl")),
            Some(LOG)
        );
        assert_eq!(r.file_of_path(root, Path::new("/c/.self/x.jsonl")), None);
    }
}
