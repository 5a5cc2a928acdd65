//! The picture of a garden talking: copies of the emergence fixture creatures, each with
//! the garden messages its own dialogues say it sent recorded in its events the way the
//! runner records them (`creature.message_sent` on the sender's side, `creature.message`
//! on the recipient's), on the Talk view.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde_json::json;

use crate::genomes::emergence::memory::dialogues::Dialogues;
use crate::memory::time::format_time;
use crate::ui::headless::Headless;
use crate::ui::screenshot::changed::copy_dir;
use crate::ui::state::Settings;
use crate::ui::theme::Theme;

/// The observatory on the copies, the second creature selected, on its Talk view. The
/// temporary directory must outlive the screen.
pub fn screen(
    creatures: &[PathBuf],
    theme: Theme,
    now: DateTime<Utc>,
    width: u16,
    height: u16,
) -> anyhow::Result<(Headless, tempfile::TempDir)> {
    let tmp = tempfile::tempdir().context("a temporary directory for the picture")?;
    let mut copies = BTreeMap::new();
    for creature in creatures {
        let name = fixture_name(creature)?;
        let copy = tmp.path().join(&name);
        copy_dir(creature, &copy)?;
        copies.insert(name, copy);
    }
    let mut events: BTreeMap<String, Vec<(DateTime<Utc>, String)>> = BTreeMap::new();
    for (name, copy) in &copies {
        for (t, to, text) in sent_by(name, copy)? {
            let at = format_time(t);
            let sent = json!({"t": at, "type": "creature.message_sent", "to": to, "text": text, "delivery": "delivered"});
            events
                .entry(name.clone())
                .or_default()
                .push((t, sent.to_string()));
            if copies.contains_key(&to) {
                let got = json!({"t": at, "type": "creature.message", "from": name, "source": "garden", "text": text});
                events.entry(to).or_default().push((t, got.to_string()));
            }
        }
    }
    for (name, mut lines) in events {
        let Some(copy) = copies.get(&name) else {
            continue;
        };
        lines.sort();
        let path = copy.join(".sys/events.jsonl");
        std::fs::create_dir_all(copy.join(".sys")).with_context(|| path.display().to_string())?;
        let text: String = lines.into_iter().map(|(_, l)| l + "\n").collect();
        std::fs::write(&path, text).with_context(|| path.display().to_string())?;
    }
    let paths: Vec<PathBuf> = copies.into_values().collect();
    let mut screen = Headless::open(&paths, Settings::with_theme(theme), now, width, height)
        .map_err(anyhow::Error::msg)?;
    for key in ["]", "8"] {
        screen.press(key).map_err(anyhow::Error::msg)?;
    }
    Ok((screen, tmp))
}

/// A fixture `NAME/creature` is named by its parent directory.
fn fixture_name(creature: &Path) -> anyhow::Result<String> {
    creature
        .parent()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .with_context(|| format!("{} has no fixture name", creature.display()))
}

/// What `name` said to whom, and when, by its own dialogues.
fn sent_by(name: &str, creature: &Path) -> anyhow::Result<Vec<(DateTime<Utc>, String, String)>> {
    let path = creature.join(".self/dialogues.jsonl");
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| path.display().to_string()),
    };
    let mut dialogues = Dialogues::default();
    for (n, line) in bytes.split(|b| *b == b'\n').enumerate() {
        if !line.is_empty() {
            dialogues
                .push(n as u64, line)
                .map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), n + 1))?;
        }
    }
    Ok(dialogues
        .all()
        .filter(|s| s.from == name)
        .filter_map(|s| Some((s.t?, s.with.clone(), s.text.clone())))
        .collect())
}
