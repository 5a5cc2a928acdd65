//! The creature as it was: a second model, built from the recorder's [`Past`] the way the
//! live one is built from the creature's directory, and drawn by the same views. The past
//! is written out to a scratch directory (never in the creature's): each document's text
//! then, each log cut at its length then; the events log and the conversation, which can
//! be any size, from their last [`WINDOW`] bytes before the cut, so that a move costs a
//! window and not the life. The Events and Recall views reach back before their window
//! as the live ones do: their earlier lines are read from the creature's own logs, up to
//! the moment, through the time index's checkpoints.

use std::path::{Path, PathBuf};

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
        let starts = materialize_window(b.root, &past, &dest, |log| {
            if windowed.iter().any(|w| w == log) {
                WINDOW
            } else {
                u64::MAX
            }
        })
        .map_err(|e| e.to_string())?;
        let mut model = Creature::open(&dest);
        if let Some(&start) = starts.get(&windowed[0]).filter(|s| **s > 0) {
            let before: Vec<(u64, u64)> = b
                .index
                .checkpoints
                .iter()
                .map(|c| (c.line, c.start))
                .collect();
            if let Some((path, line)) = reach_back(b.root, FileKind::Events, &before, start) {
                model.reach_events_back(path, &before, line, start);
            }
        }
        if let Some(&start) = starts.get(&windowed[1]).filter(|s| **s > 0)
            && let Some((path, line)) =
                reach_back(b.root, FileKind::Conversation, &b.index.conversation, start)
        {
            model.reach_conversation_back(path, &b.index.conversation, line, start);
        }
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

/// A log's window reaches back as the live view's does: its lines before the window (it
/// begins at byte `start`) are read from the creature's own log, up to the moment, on
/// from `before`, line starts the time index knows of it. Gives the log's path and the
/// window's first line's number (counted on from the line start before it).
fn reach_back(
    root: &Path,
    kind: FileKind,
    before: &[(u64, u64)],
    start: u64,
) -> Option<(PathBuf, u64)> {
    let path = kind.resolve(root);
    let (line, from) = before
        .iter()
        .copied()
        .take_while(|&(_, o)| o < start)
        .last()
        .unwrap_or((0, 0));
    let n = count_lines(&path, from, start).ok()?;
    Some((path, line + n))
}

/// Lines ended between `from` and `to` of the file at `path`.
fn count_lines(path: &Path, from: u64, to: u64) -> std::io::Result<u64> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = crate::tail::open_regular(path)?;
    file.seek(SeekFrom::Start(from))?;
    let mut file = file.take(to.saturating_sub(from));
    let mut buf = vec![0u8; 64 << 10];
    let mut n = 0;
    loop {
        let read = file.read(&mut buf)?;
        if read == 0 {
            return Ok(n);
        }
        n += memchr::memchr_iter(b'\n', &buf[..read]).count() as u64;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recorder::index::TimeIndex;

    /// A life of more than the window: the past's Events view has every event up to the
    /// moment, the first ones read from the creature's own log, none after it.
    #[test]
    fn the_events_reach_back_before_the_window() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("life");
        std::fs::create_dir_all(root.join(".sys")).unwrap();
        std::fs::create_dir_all(root.join(".self")).unwrap();
        let mut log = String::new();
        let mut lines = 0u64;
        let mut cut_lines = 0;
        for wake in 0..40 {
            let t = |s: u64| {
                format!(
                    "2026-03-01T{:02}:{:02}:{:02}.000Z",
                    wake / 2,
                    (wake % 2) * 30 + s / 60,
                    s % 60
                )
            };
            log.push_str(&format!(
                "{{\"t\":\"{}\",\"type\":\"creature.wake\",\"n\":{lines}}}\n",
                t(0)
            ));
            lines += 1;
            for i in 0..200 {
                log.push_str(&format!(
                    "{{\"t\":\"{}\",\"type\":\"creature.tool_call\",\"n\":{lines},\"output\":\"{}\"}}\n",
                    t(1 + i / 10),
                    "x".repeat(500)
                ));
                lines += 1;
            }
            log.push_str(&format!(
                "{{\"t\":\"{}\",\"type\":\"creature.sleep\",\"n\":{lines}}}\n",
                t(25 * 60 / 60)
            ));
            log.push_str(&format!(
                "{{\"t\":\"{}\",\"type\":\"creature.dream\",\"n\":{}}}\n",
                t(26 * 60 / 60),
                lines + 1
            ));
            lines += 2;
            if wake == 29 {
                // Dream 30: the events log is cut before wake 31.
                cut_lines = lines;
            }
        }
        assert!(log.len() as u64 > 2 * WINDOW, "{}", log.len());
        std::fs::write(root.join(".sys/events.jsonl"), &log).unwrap();
        // The conversation: 100 lines a wake, written as it went.
        let mut said = String::new();
        for wake in 0..40u64 {
            for i in 0..100u64 {
                said.push_str(&format!(
                    "{{\"t\":\"2026-03-01T{:02}:{:02}:{:02}.000Z\",\"role\":\"user\",\"content\":\"{}\"}}\n",
                    wake / 2,
                    (wake % 2) * 30,
                    1 + i / 10,
                    "y".repeat(1000)
                ));
            }
        }
        assert!(said.len() as u64 > 2 * WINDOW, "{}", said.len());
        std::fs::write(root.join(".self/conversation.jsonl"), &said).unwrap();
        let index = TimeIndex::build(&root).unwrap();
        let b = Build {
            root: &root,
            index: &index,
            sources: &Sources::default(),
            now: Utc::now(),
            theme: &Theme::default(),
            cycle: Cycle::default(),
            name: "life",
            link: RunnerLink::None,
            watched: false,
        };
        let past = PastModel::build(At::Dream(30), &b).unwrap();
        let events = past.model.events();
        assert_eq!(events.total_lines(), cut_lines);
        let n = |line: u64| {
            let read = events.read_lines(line..line + 1);
            let (_, event) = read.into_iter().next().unwrap();
            event.unwrap().f64("n").map(|v| v as u64)
        };
        assert_eq!(n(0), Some(0));
        assert_eq!(n(1234), Some(1234));
        assert_eq!(n(cut_lines - 1), Some(cut_lines - 1));
        assert!(events.read_lines(cut_lines..cut_lines + 1).is_empty());
        // Recall too: the 30 wakes' lines, the first read from the creature's own log.
        let said = past.model.conversation();
        assert_eq!(said.lines(), 3000);
        let t = |line: u64| {
            let read = said.read_lines(line..line + 1);
            let (_, entry) = read.into_iter().next().unwrap();
            entry.unwrap().t.map(crate::memory::time::format_time)
        };
        assert_eq!(t(0).as_deref(), Some("2026-03-01T00:00:01.000Z"));
        assert_eq!(t(2999).as_deref(), Some("2026-03-01T14:30:10.000Z"));
        assert!(said.recent().iter().all(|(n, _)| *n >= 2900 && *n < 3000));
    }
}
