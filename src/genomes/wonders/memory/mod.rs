//! What a `wonders` creature's files say: its subconscious, step by step
//! (`.sys/subconscious.jsonl`), the memories it surfaced (`creature.subconscious`
//! events) and its cycle count (`.sys/cycle-count`).

mod subconscious;

use std::any::Any;
use std::io::Write;
use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::memory::creature::Creature;
use crate::memory::events::{Event, EventKind};
use crate::memory::genome::{
    GenomeFile, GenomeFileSpec, GenomeMemory, GenomeSpec, LoadError, parse_count,
};
use crate::memory::json::LineError;
use crate::memory::layout::FileKind;
use crate::memory::recent::Recent;
pub use subconscious::{Hit, Subconscious, SubconsciousStep};

/// The genome's name, as BIRTH.json writes it.
pub const NAME: &str = "wonders";

/// `.sys/subconscious.jsonl`: one line per step of the subconscious.
pub const SUBCONSCIOUS: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".sys/subconscious.jsonl"],
    whole: false,
}));

/// `.sys/cycle-count`: the number of the cycle under way.
pub const CYCLE_COUNT: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".sys/cycle-count"],
    whole: true,
}));

/// The files of this genome (the subconscious first: it is what tells the genome by its
/// files when BIRTH.json names none).
pub const FILES: [FileKind; 2] = [SUBCONSCIOUS, CYCLE_COUNT];

/// The genome as the memory model knows it.
pub static SPEC: GenomeSpec = GenomeSpec {
    name: NAME,
    aliases: &[],
    files: &FILES,
    marks: &[SUBCONSCIOUS],
    memory: Some(|| Box::new(WondersMemory::default())),
};

/// Memories surfaced kept in memory (the newest).
const SURFACED_KEPT: usize = 200;

/// Everything a `wonders` creature's files say.
#[derive(Debug, Clone)]
pub struct WondersMemory {
    pub subconscious: Subconscious,
    /// `.sys/cycle-count` (`None`: no file, or not a number).
    pub cycle_count: Option<u64>,
    /// The memories surfaced into its conversation (`creature.subconscious` events), the
    /// newest last.
    pub surfaced: Recent<(Option<DateTime<Utc>>, String)>,
    /// All of them.
    pub surfaced_total: u64,
}

impl Default for WondersMemory {
    fn default() -> Self {
        Self {
            subconscious: Subconscious::default(),
            cycle_count: None,
            surfaced: Recent::new(SURFACED_KEPT),
            surfaced_total: 0,
        }
    }
}

/// What a creature's `wonders` files say: nothing for a creature of another genome.
pub fn of(c: &Creature) -> &WondersMemory {
    static EMPTY: LazyLock<WondersMemory> = LazyLock::new(Default::default);
    c.genome_memory_as::<WondersMemory>().unwrap_or(&EMPTY)
}

impl GenomeMemory for WondersMemory {
    fn fold(&mut self, file: FileKind, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        match file {
            SUBCONSCIOUS => self.subconscious.push(line_no, bytes),
            _ => Ok(()),
        }
    }

    fn load(&mut self, file: FileKind, bytes: Option<&[u8]>) -> Result<(), LoadError> {
        if file == CYCLE_COUNT {
            self.cycle_count = None;
            self.cycle_count = parse_count(bytes)?;
        }
        Ok(())
    }

    fn reset(&mut self, file: FileKind) {
        match file {
            SUBCONSCIOUS => self.subconscious = Subconscious::default(),
            CYCLE_COUNT => self.cycle_count = None,
            FileKind::Events => {
                self.surfaced.clear();
                self.surfaced_total = 0;
            }
            _ => {}
        }
    }

    fn on_event(&mut self, event: &Event) {
        if matches!(&event.kind, EventKind::Other(kind) if kind == "creature.subconscious") {
            let memory = event.fields.get("memory").and_then(Value::as_str);
            self.surfaced
                .push((event.t, memory.unwrap_or_default().to_string()));
            self.surfaced_total += 1;
        }
    }

    fn last_t(&self) -> Option<DateTime<Utc>> {
        self.subconscious.last_t
    }

    fn figures(&self, _now: DateTime<Utc>) -> Value {
        let mut figures = self.subconscious.figures();
        if let Value::Object(map) = &mut figures {
            map.insert("cycle_count".into(), json!(self.cycle_count));
            map.insert("memories_surfaced".into(), json!(self.surfaced_total));
        }
        figures
    }

    fn write_text(&self, out: &mut dyn Write, _now: DateTime<Utc>) -> std::io::Result<()> {
        let s = &self.subconscious;
        let cycle = self.cycle_count.map_or("unknown".into(), |n| n.to_string());
        writeln!(out, "  cycle         {cycle}")?;
        writeln!(
            out,
            "  subconscious  {} steps: {} wonder ({} without hypotheses), {} search ({} with hits), {} prepare, {} skip",
            s.steps,
            s.wonders,
            s.no_hypotheses,
            s.searches,
            s.searches_with_hits,
            s.prepares,
            s.skips
        )?;
        writeln!(
            out,
            "  surfaced      {} memories into its conversation ({} prepared, {} nothing)",
            self.surfaced_total, s.surfaced, s.nothing
        )
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
