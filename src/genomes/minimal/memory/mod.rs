//! What a `minimal` creature's files say: its cycle count (`.sys/cycle-count`) and its
//! cycles as the events log tells them (a wake or boot begins one; `creature.sleep`
//! ends it).

mod cycles;

use std::any::Any;
use std::io::Write;
use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::memory::creature::Creature;
use crate::memory::events::Event;
use crate::memory::figures::counted;
use crate::memory::genome::{
    GenomeFile, GenomeFileSpec, GenomeMemory, GenomeSpec, LoadError, parse_count,
};
use crate::memory::json::LineError;
use crate::memory::layout::FileKind;
pub use cycles::{Cycle, Cycles, Step};

/// The genome's name, as BIRTH.json writes it.
pub const NAME: &str = "minimal";

/// `.sys/cycle-count`: the number of the cycle under way, a bare decimal integer (the
/// dreamer writes one too: it tells nothing of the genome, BIRTH.json does).
pub const CYCLE_COUNT: FileKind = FileKind::Genome(GenomeFile(&GenomeFileSpec {
    genome: NAME,
    paths: &[".sys/cycle-count"],
    whole: true,
}));

/// The files of this genome.
pub const FILES: [FileKind; 1] = [CYCLE_COUNT];

/// The genome as the memory model knows it.
pub static SPEC: GenomeSpec = GenomeSpec {
    name: NAME,
    aliases: &[],
    files: &FILES,
    marks: &[],
    memory: Some(|| Box::new(MinimalMemory::default())),
};

/// Everything a `minimal` creature's files say.
#[derive(Debug, Clone, Default)]
pub struct MinimalMemory {
    /// `.sys/cycle-count` (`None`: no file, or not a number).
    pub cycle_count: Option<u64>,
    /// Its cycles, from the events log.
    pub cycles: Cycles,
}

/// What a creature's `minimal` files say: nothing for a creature of another genome.
pub fn of(c: &Creature) -> &MinimalMemory {
    static EMPTY: LazyLock<MinimalMemory> = LazyLock::new(Default::default);
    c.genome_memory_as::<MinimalMemory>().unwrap_or(&EMPTY)
}

impl GenomeMemory for MinimalMemory {
    fn fold(&mut self, _file: FileKind, _line_no: u64, _bytes: &[u8]) -> Result<(), LineError> {
        Ok(())
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
            CYCLE_COUNT => self.cycle_count = None,
            FileKind::Events => self.cycles = Cycles::default(),
            _ => {}
        }
    }

    fn on_event(&mut self, event: &Event) {
        self.cycles.push(event);
    }

    fn last_t(&self) -> Option<DateTime<Utc>> {
        self.cycles.last_t()
    }

    fn figures(&self, _now: DateTime<Utc>) -> Value {
        json!({
            "cycle_count": self.cycle_count,
            "cycles": self.cycles.figures(),
        })
    }

    fn write_text(&self, out: &mut dyn Write, _now: DateTime<Utc>) -> std::io::Result<()> {
        cycles::write_text(out, self.cycle_count, &self.cycles)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `n` cycles as `inspect` says it.
fn cycles_label(n: u64) -> String {
    counted(n, "cycle", "cycles")
}
