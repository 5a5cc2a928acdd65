//! The time cursor: the selected creature's whole life, stepped through by event, wake,
//! dream or RED observation, jumped to a dream or a time, played at 1x to 64x. While it
//! is on, every view draws the creature as it was ([`past::PastModel`], a second model
//! built from the flight recorder's past), the header says so and shows the life's strip
//! with the cursor on it; the live model goes on taking the files' changes meanwhile,
//! shown again on return (Esc).
//!
//! A life's time index is built once per creature, off the UI thread
//! ([`crate::ui::update::Job::IndexLife`]), and kept.

pub mod build;
pub mod cursor;
mod keys;
pub mod past;
pub mod strip;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::recorder::index::TimeIndex;
use cursor::Position;
use past::PastModel;

/// A creature's time index: being built, built, or failed.
#[derive(Debug, Clone)]
pub enum Indexed {
    Building,
    Ready(Arc<TimeIndex>),
    Failed(String),
}

/// A life's time index built in the background, for [`crate::ui::update::Outcome`].
#[derive(Debug, Clone)]
pub struct IndexDone {
    pub creature: PathBuf,
    pub index: Result<Arc<TimeIndex>, String>,
}

impl IndexDone {
    /// Indexes the creature at `creature` (the work of [`crate::ui::update::Job::IndexLife`]).
    pub fn build(creature: PathBuf) -> Self {
        let index = TimeIndex::build(&creature)
            .map(Arc::new)
            .map_err(|e| e.to_string());
        Self { creature, index }
    }
}

/// Outcomes are compared by what they are about: an index by its creature and identity.
impl PartialEq for IndexDone {
    fn eq(&self, other: &Self) -> bool {
        self.creature == other.creature
            && match (&self.index, &other.index) {
                (Ok(a), Ok(b)) => Arc::ptr_eq(a, b),
                (Err(a), Err(b)) => a == b,
                _ => false,
            }
    }
}

impl Eq for IndexDone {}

/// The time cursor's state: the indexes kept, the cursor while it is on.
#[derive(Debug, Default)]
pub struct TimeTravel {
    indexes: HashMap<PathBuf, Indexed>,
    pub cursor: Option<Cursor>,
    /// What is typed in the jump prompt.
    pub jump: String,
    /// The cursor's moves so far (each build is told by its number).
    moves: u64,
    /// Jobs asked for where no job can be returned (a play's tick, an answer taken in):
    /// the runtime takes them ([`crate::ui::state::App::take_time_jobs`]).
    jobs: Vec<crate::ui::update::Job>,
}

/// The cursor over one creature's life.
#[derive(Debug)]
pub struct Cursor {
    pub creature: PathBuf,
    /// Where it stands (none while the life is indexed): the newest move's moment, at
    /// once (from the index), then as its past's build found it.
    pub pos: Option<Position>,
    /// The creature then: the last past built, drawn while the next one builds.
    pub past: Option<PastModel>,
    /// The move whose past is being built, if one is.
    pub building: Option<u64>,
    /// The newest move (built once the build under way is over, if it is not that one).
    pub newest: u64,
    /// Playing: the time of the life reached, and the clock's time it was reached at
    /// (none until the clock's first tick).
    pub play: Option<(DateTime<Utc>, Option<DateTime<Utc>>)>,
    /// The play speed (1 to 64).
    pub speed: u32,
}

impl TimeTravel {
    /// The index of `creature`, if one is built or being built.
    pub fn index(&self, creature: &Path) -> Option<&Indexed> {
        self.indexes.get(creature)
    }

    pub(in crate::ui) fn set_index(&mut self, creature: PathBuf, index: Indexed) {
        self.indexes.insert(creature, index);
    }

    /// The cursor, when it is over `creature`'s life.
    pub fn cursor_of(&self, creature: Option<&Path>) -> Option<&Cursor> {
        self.cursor
            .as_ref()
            .filter(|c| Some(c.creature.as_path()) == creature)
    }

    /// The creature as it was, when the cursor over `creature`'s life has one.
    pub fn past_of(&self, creature: Option<&Path>) -> Option<&PastModel> {
        self.cursor_of(creature)?.past.as_ref()
    }

    /// As [`TimeTravel::past_of`], to change its views' state.
    pub fn past_of_mut(&mut self, creature: Option<&Path>) -> Option<&mut PastModel> {
        self.cursor
            .as_mut()
            .filter(|c| Some(c.creature.as_path()) == creature)?
            .past
            .as_mut()
    }

    /// A new move's number.
    pub(in crate::ui) fn next_move(&mut self) -> u64 {
        self.moves += 1;
        self.moves
    }

    /// Queues a job for the runtime.
    pub(in crate::ui) fn ask(&mut self, job: crate::ui::update::Job) {
        self.jobs.push(job);
    }

    /// The jobs queued, taken.
    pub(in crate::ui) fn take_jobs(&mut self) -> Vec<crate::ui::update::Job> {
        std::mem::take(&mut self.jobs)
    }

    /// Whether a play is under way (the clock then ticks often).
    pub fn playing(&self) -> bool {
        self.cursor.as_ref().is_some_and(|c| c.play.is_some())
    }
}
