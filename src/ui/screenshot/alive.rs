//! The fixture creatures alive for the pictures: copies in which the first creature is
//! awake (the recording's end, a last iteration cut short when the recording stopped, is
//! not taken for a stop), the second went to sleep a minute before the pictures and is
//! dreaming, and the others are as recorded.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use chrono::{DateTime, Duration, Utc};

use super::changed::copy_dir;
use crate::memory::time::format_time;

/// What the dreaming creature's last event says.
const SLEEP_TEXT: &str = "Folding the week's counts into my notes.";

/// Copies of `creatures` (each under its fixture's own directory name), the first two
/// alive at `now`; the temporary directory must outlive the pictures.
pub fn stage(
    creatures: &[PathBuf],
    now: DateTime<Utc>,
) -> anyhow::Result<(Vec<PathBuf>, tempfile::TempDir)> {
    let tmp = tempfile::tempdir().context("a temporary directory for the pictures")?;
    let mut copies = Vec::new();
    for (i, creature) in creatures.iter().enumerate() {
        let fixture = creature
            .parent()
            .and_then(Path::file_name)
            .map_or_else(|| format!("creature-{i}").into(), ToOwned::to_owned);
        let copy = tmp.path().join(fixture).join("creature");
        copy_dir(creature, &copy)?;
        match i {
            0 => drop_interrupted_end(&copy.join(".sys/iterations.jsonl"))?,
            1 => fall_asleep(&copy, now - Duration::minutes(1))?,
            _ => {}
        }
        copies.push(copy);
    }
    Ok((copies, tmp))
}

/// Leaves out the last iteration when it was cut short (where the recording stopped).
fn drop_interrupted_end(path: &Path) -> anyhow::Result<()> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(());
    };
    let mut lines: Vec<&str> = text.lines().collect();
    if lines
        .last()
        .is_some_and(|l| l.contains("\"interrupted\":true"))
    {
        lines.pop();
        let kept: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(path, kept).with_context(|| path.display().to_string())?;
    }
    Ok(())
}

/// A sleep of five minutes begun at `at`, with no dream yet: the creature is dreaming.
fn fall_asleep(creature: &Path, at: DateTime<Utc>) -> anyhow::Result<()> {
    let events = creature.join(".sys/events.jsonl");
    let sleep = serde_json::json!({
        "t": format_time(at), "type": "creature.sleep", "seconds": 300,
        "text": SLEEP_TEXT, "actions": 12,
    });
    crate::memory::write::append_json(&events, &sleep)
        .with_context(|| events.display().to_string())?;
    Ok(())
}
