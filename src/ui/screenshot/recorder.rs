//! The pictures of the flight recorder: a copy of an OpenSeed fixture creature whose
//! runner's record says dream N wrote its newest observations and the operator restored
//! one, beside a twin that drifted; the blame popup open on the line the dream wrote, and
//! the compare view of the two.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use chrono::{DateTime, Duration, Utc};

use super::changed::copy_dir;
use crate::memory::moments::{After, Store, take};
use crate::ui::headless::Headless;
use crate::ui::state::Settings;
use crate::ui::theme::Theme;

/// What the dream writes, and what the twin learnt instead.
const DREAMT: &str = "[!] The sensor reads low at night: check its battery first";
const TWIN: &str = "[!] Week 3 is low because the sensor was moved indoors";

/// A garden of the copy (`name`) and its twin, the record written; the temporary
/// directory must outlive the screen.
fn stage(creature: &Path, now: DateTime<Utc>) -> anyhow::Result<(tempfile::TempDir, PathBuf)> {
    let tmp = tempfile::tempdir().context("a temporary directory for the picture")?;
    let name = creature
        .parent()
        .and_then(Path::file_name)
        .map_or_else(|| "creature".into(), |n| n.to_string_lossy().into_owned());
    let garden = tmp.path().join("garden");
    let copy = garden.join(&name);
    copy_dir(creature, &copy)?;
    copy_dir(creature, &garden.join(format!("{name}-twin")))?;
    let obs = copy.join(".self/observations.md");
    let twin_obs = garden.join(format!("{name}-twin/.self/observations.md"));
    let store = Store::of_creature(&copy);
    let dreams = std::fs::read_to_string(copy.join(".self/dreams.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count() as u64;
    let moment = |t: DateTime<Utc>, after: After, dreams: u64| -> anyhow::Result<()> {
        let mut m = take(&copy, &store, t, after)?;
        m.dreams = Some(dreams);
        store.append(&m)?;
        Ok(())
    };
    let at = now - Duration::minutes(3);
    moment(at, After::Asleep, dreams)?;
    let heading = format!(
        "\n## {} (dream #{})\n",
        at.format("%Y-%m-%dT%H:%M"),
        dreams + 1
    );
    append(&obs, &format!("{heading}{DREAMT}"))?;
    append(&twin_obs, &format!("{heading}{TWIN}"))?;
    moment(at + Duration::seconds(40), After::Sleep, dreams + 1)?;
    let restored = crate::memory::dream_diff::restored_line(
        "[.] Week 3 data had gaps",
        &at.format("%H:%M").to_string(),
    );
    append(&obs, &restored)?;
    moment(at + Duration::seconds(60), After::Wake, dreams + 1)?;
    Ok((tmp, garden))
}

/// Appends `line` (and a newline) to `path`.
fn append(path: &Path, line: &str) -> anyhow::Result<()> {
    crate::memory::write::append_line(path, line)
        .map(drop)
        .with_context(|| path.display().to_string())
}

/// The blame popup on the line the dream wrote.
pub fn blame(
    creature: &Path,
    theme: Theme,
    now: DateTime<Utc>,
    width: u16,
    height: u16,
) -> anyhow::Result<(Headless, tempfile::TempDir)> {
    staged_after(creature, theme, now, (width, height), &["j", "j", "b"])
}

/// The compare view of the copy and its twin.
pub fn compare(
    creature: &Path,
    theme: Theme,
    now: DateTime<Utc>,
    width: u16,
    height: u16,
) -> anyhow::Result<(Headless, tempfile::TempDir)> {
    staged_after(creature, theme, now, (width, height), &["C", "enter"])
}

/// The staged garden in the observatory, after `keys`.
fn staged_after(
    creature: &Path,
    theme: Theme,
    now: DateTime<Utc>,
    (width, height): (u16, u16),
    keys: &[&str],
) -> anyhow::Result<(Headless, tempfile::TempDir)> {
    let (tmp, garden) = stage(creature, now)?;
    let mut screen = Headless::open(&[garden], Settings::with_theme(theme), now, width, height)
        .map_err(anyhow::Error::msg)?;
    for key in keys {
        screen.press(key).map_err(anyhow::Error::msg)?;
    }
    Ok((screen, tmp))
}
