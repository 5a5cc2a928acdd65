//! The creature as it was: a second model, built from the recorder's [`Past`] the way the
//! live one is built from the creature's directory, and drawn by the same views. The past
//! is written out to a scratch directory (never in the creature's): each document's text
//! then, each log cut at its length then; the events log and the conversation, which can
//! be any size, from their last [`WINDOW`] bytes before the cut, so that a move costs a
//! window and not the life.

use std::path::Path;

use chrono::{DateTime, Utc};

use super::cursor::Position;
use crate::memory::creature::Creature;
use crate::memory::cycle::Cycle;
use crate::memory::layout::FileKind;
use crate::recorder::index::TimeIndex;
use crate::recorder::{At, Past, Sources, materialize_window, resolve_indexed};
use crate::ui::state::creature::{CreatureUi, RunnerLink};
use crate::ui::theme::Theme;

/// What the past model reads of the events log and the conversation before the cut.
pub const WINDOW: u64 = 2 << 20;

/// The creature at the cursor: its model and its views' state, and what the moment is.
#[derive(Debug)]
pub struct PastModel {
    /// The scratch directory the past is written to (removed with the model).
    _dir: tempfile::TempDir,
    pub model: Creature,
    pub ui: CreatureUi,
    pub past: Past,
    /// Where the cursor stands, as resolving the moment found.
    pub pos: Position,
}

/// What building the past needs of the observatory.
pub struct Build<'a> {
    pub root: &'a Path,
    pub index: &'a TimeIndex,
    pub sources: &'a Sources,
    /// Now, for a moment no later mark reaches.
    pub now: DateTime<Utc>,
    pub theme: &'a Theme,
    pub cycle: Cycle,
    /// The live view's name for it (a far creature's ends in `@host`).
    pub name: &'a str,
    /// How its runner is reached now: commands from the past go to the creature now.
    pub link: RunnerLink,
    /// The observatory keeps a watched history of it.
    pub watched: bool,
}

impl PastModel {
    /// The creature at `root` as it was `at`.
    pub fn build(at: At, b: &Build) -> Result<Self, String> {
        let past =
            resolve_indexed(b.root, at, b.sources, b.now, b.index).map_err(|e| e.to_string())?;
        let dir = tempfile::Builder::new()
            .prefix("dreamwatch-past-")
            .tempdir()
            .map_err(|e| format!("a scratch directory for the past: {e}"))?;
        let name = b.root.file_name().unwrap_or(b.root.as_os_str());
        let dest = dir.path().join(name);
        let windowed =
            [FileKind::Events, FileKind::Conversation].map(|k| rel(b.root, &k.resolve(b.root)));
        materialize_window(b.root, &past, &dest, |log| {
            if windowed.iter().any(|w| w == log) {
                WINDOW
            } else {
                u64::MAX
            }
        })
        .map_err(|e| e.to_string())?;
        let model = Creature::open(&dest);
        let t = past.t.unwrap_or(b.now);
        let mut ui = CreatureUi::new(&model, b.theme, t, b.cycle, b.link);
        ui.name = b.name.to_string();
        if b.watched {
            watched_records(&mut ui, &model, b, t);
        }
        let events = rel(b.root, &FileKind::Events.resolve(b.root));
        let pos = Position {
            at,
            offset: past.logs.get(&events).copied().unwrap_or(0),
            t: past.t,
            dreams: past.dreams,
        };
        Ok(Self {
            _dir: dir,
            model,
            ui,
            past,
            pos,
        })
    }
}

/// The Dreams view's records of what each sleep changed, from the watched history (a
/// creature that does not record its dreams itself): those seen by `t`.
fn watched_records(ui: &mut CreatureUi, model: &Creature, b: &Build, t: DateTime<Utc>) {
    let Some(history) = b.sources.history.as_ref() else {
        return;
    };
    if crate::memory::dream_diffs::path(b.root).exists() {
        return;
    }
    let records = history
        .records_of(b.root)
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.t.is_some_and(|rt| rt <= t))
        .collect();
    let since = history.since(b.root).filter(|s| *s <= t);
    ui.dreams.add_watched(model, records, since);
}

fn rel(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}
