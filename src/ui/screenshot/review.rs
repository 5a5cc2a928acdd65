//! The picture of a dream held for review: a copy of an OpenSeed fixture creature,
//! hosted, whose deep sleep is held as `.sys/proposal.json` (it prunes the GRN lines and
//! the prose, adds a line, writes its dream), the review popup open.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context as _;
use chrono::{DateTime, Duration, Utc};

use super::changed::{copy_dir, pruned};
use crate::memory::cycle::Cycle;
use crate::memory::proposal::{self, Proposal, ProposedFile};
use crate::memory::time::format_time;
use crate::ui::headless::Headless;
use crate::ui::state::Settings;
use crate::ui::theme::Theme;

/// The observatory hosting the copy, its dream held, the popup open. The temporary
/// directory must outlive the screen.
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
    hold(&copy, now - Duration::seconds(20))?;
    let mut screen = Headless::open_hosting(
        std::slice::from_ref(&copy),
        BTreeMap::from([(copy.clone(), Cycle::default())]),
        Settings::with_theme(theme),
        now,
        width,
        height,
    )
    .map_err(anyhow::Error::msg)?;
    screen.press("D").map_err(anyhow::Error::msg)?;
    Ok((screen, tmp))
}

/// Holds a deep sleep made `at`, as the runner does under `--review-dreams`.
fn hold(creature: &Path, at: DateTime<Utc>) -> anyhow::Result<()> {
    let obs = creature.join(".self/observations.md");
    let text = std::fs::read_to_string(&obs).with_context(|| obs.display().to_string())?;
    let kept = pruned(&text, at);
    let dream = serde_json::json!({
        "t": format_time(at), "actions": 9,
        "reflection": "Pruned the repeated notes; the analyser's bug comes first tomorrow.",
        "priority": "Keep notes short.", "observations": 1, "deep": true,
    });
    let files = [
        ProposedFile::between(".self/observations.md", &text, &kept),
        ProposedFile::between(".self/dreams.jsonl", "", &format!("{dream}\n")),
    ]
    .into_iter()
    .flatten()
    .collect();
    let dreams = creature.join(".self/dreams.jsonl");
    let before = std::fs::read_to_string(&dreams).unwrap_or_default();
    let number = before.lines().filter(|l| !l.trim().is_empty()).count() as u64 + 1;
    let p = Proposal {
        created: at,
        deadline: Some(at + Duration::minutes(10)),
        dream: Some(number),
        t: Some(at),
        deep: true,
        edited: false,
        started: at - Duration::seconds(30),
        rest_s: 300.0,
        files,
    };
    let path = proposal::path(creature);
    let sys = creature.join(crate::memory::layout::SYS_DIR);
    std::fs::create_dir_all(&sys).with_context(|| sys.display().to_string())?;
    crate::memory::write::write_json(&path, &p).with_context(|| path.display().to_string())
}
