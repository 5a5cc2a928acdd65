//! A move of the time cursor, built off the UI thread ([`crate::ui::update::Job::BuildPast`],
//! as the index and blame are): the past resolved, written out, opened as a creature and
//! its views prepared. The UI thread only asks and takes the answer in; the newest move
//! wins (a build under way is let finish, the moves meanwhile merged into the newest,
//! built next: [`super::keys`]).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};

use super::past::{Build, PastModel};
use crate::history::History;
use crate::memory::cycle::Cycle;
use crate::recorder::index::TimeIndex;
use crate::recorder::{At, Sources};
use crate::ui::state::creature::RunnerLink;
use crate::ui::theme::Theme;

/// What building the past at a moment needs, owned (it goes to another thread).
#[derive(Debug, Clone)]
pub struct PastAsk {
    pub creature: PathBuf,
    /// Which move of the cursor this is (a later one makes it stale).
    pub seq: u64,
    pub at: At,
    pub index: Arc<TimeIndex>,
    pub history: Option<History>,
    pub now: DateTime<Utc>,
    pub theme: Theme,
    pub cycle: Cycle,
    pub name: String,
    pub link: RunnerLink,
    /// The observatory keeps a watched history of it (its Dreams view shows what each
    /// sleep changed from there).
    pub watched: bool,
}

/// Asks are told apart by what they are about: a creature's move.
impl PartialEq for PastAsk {
    fn eq(&self, other: &Self) -> bool {
        (&self.creature, self.seq, self.at) == (&other.creature, other.seq, other.at)
    }
}

impl Eq for PastAsk {}

impl PastAsk {
    /// Builds the creature as it was (the work of the job).
    pub fn build(self) -> PastDone {
        let sources = Sources {
            history: self.history,
        };
        let b = Build {
            root: &self.creature,
            index: &self.index,
            sources: &sources,
            now: self.now,
            theme: &self.theme,
            cycle: self.cycle,
            name: &self.name,
            link: self.link,
            watched: self.watched,
        };
        let past = PastModel::build(self.at, &b).map(|p| Built(Arc::new(Mutex::new(Some(p)))));
        PastDone {
            creature: self.creature,
            seq: self.seq,
            at: self.at,
            past,
        }
    }
}

/// A move built (or failed), for [`crate::ui::update::Recorded::Past`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PastDone {
    pub creature: PathBuf,
    pub seq: u64,
    pub at: At,
    pub past: Result<Built, String>,
}

/// A past built, handed over once: outcomes can be cloned, the model is taken.
#[derive(Debug, Clone)]
pub struct Built(Arc<Mutex<Option<PastModel>>>);

impl Built {
    /// The model, the first time it is asked for.
    pub fn take(&self) -> Option<PastModel> {
        self.0.lock().ok()?.take()
    }
}

/// The same build is equal to itself only.
impl PartialEq for Built {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Built {}
