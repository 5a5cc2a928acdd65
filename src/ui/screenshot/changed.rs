//! The picture of what a dream changed: a copy of an OpenSeed fixture creature, watched
//! with a history in a temporary store, whose deep sleep prunes its observations the way
//! an OpenSeed consolidator does (rewritten with bash, then the dream line).

use std::path::Path;

use anyhow::Context as _;
use chrono::{DateTime, Duration, Utc};

use crate::history::{DEFAULT_LIMIT, History};
use crate::memory::observations::{ObsItem, Priority, parse_item};
use crate::memory::time::format_time;
use crate::ui::headless::Headless;
use crate::ui::state::Settings;
use crate::ui::theme::Theme;

/// The observatory after the pruning was seen, on the Dreams view, a pruned line picked.
/// The temporary directory must outlive the screen.
pub fn screen(
    creature: &Path,
    theme: Theme,
    now: DateTime<Utc>,
    width: u16,
    height: u16,
) -> anyhow::Result<(Headless, tempfile::TempDir)> {
    let tmp = tempfile::tempdir().context("a temporary directory for the picture")?;
    let copy = tmp.path().join("creature");
    copy_dir(creature, &copy)?;
    let settings = Settings {
        history: Some(History::new(tmp.path().join("history"), DEFAULT_LIMIT)),
        ..Settings::with_theme(theme)
    };
    let mut screen = Headless::open(std::slice::from_ref(&copy), settings, now, width, height)
        .map_err(anyhow::Error::msg)?;
    // The first frame, the watched history's first look after it: the sleep is seen.
    screen.render().map_err(anyhow::Error::msg)?;
    deep_sleep(&copy, now - Duration::seconds(20))?;
    screen.refresh();
    // The frame that shows the sleep; the watched history's look at it comes after.
    screen.render().map_err(anyhow::Error::msg)?;
    screen.press("2").map_err(anyhow::Error::msg)?;
    screen.press("x").map_err(anyhow::Error::msg)?;
    Ok((screen, tmp))
}

/// `text` (observations) pruned as the seed's deep sleep prunes (never RED; the GRN
/// lines, prose go), with a line of its own at `at`.
pub(super) fn pruned(text: &str, at: DateTime<Utc>) -> String {
    let mut kept: String = text
        .lines()
        .filter(|l| match parse_item(l) {
            Some(ObsItem::Observation(o)) => o.priority != Priority::Grn,
            Some(ObsItem::Prose(_)) => false,
            _ => true,
        })
        .map(|l| format!("{l}\n"))
        .collect();
    kept.push_str(&format!(
        "YLW {} Pruned the minor notes at deep sleep\n",
        at.format("%H:%M")
    ));
    kept
}

/// Prunes as the seed's deep sleep does (never RED; the GRN lines, prose), adds a line,
/// then writes the deep dream.
fn deep_sleep(creature: &Path, at: DateTime<Utc>) -> anyhow::Result<()> {
    let obs = creature.join(".self/observations.md");
    let text = std::fs::read_to_string(&obs).with_context(|| obs.display().to_string())?;
    let kept = pruned(&text, at);
    std::fs::write(&obs, kept).with_context(|| obs.display().to_string())?;
    let dream = serde_json::json!({
        "t": format_time(at), "actions": 9, "reflection": "Pruned the repeated notes.",
        "priority": "Keep notes short.", "observations": 1, "deep": true,
    });
    let dreams = creature.join(".self/dreams.jsonl");
    crate::memory::write::append_json(&dreams, &dream)
        .with_context(|| dreams.display().to_string())?;
    Ok(())
}

/// A recursive copy (a fixture is a few small files: no crate needed for it).
pub fn copy_dir(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to).with_context(|| to.display().to_string())?;
    for entry in std::fs::read_dir(from).with_context(|| from.display().to_string())? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target).with_context(|| target.display().to_string())?;
        }
    }
    Ok(())
}
