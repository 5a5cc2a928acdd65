//! `dreamwatch inspect --at MOMENT`: the summary of each creature as it was then, in the
//! same shape as now, with what the flight recorder says of the moment (`as_of`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::memory::creature::Creature;
use crate::memory::cycle::Cycle;
use crate::recorder::{At, Past, Sources, materialize, resolve};
use crate::text::sanitize::sanitize_line;

/// A creature's past written out, to be read as any creature (dropped with it).
pub struct Then {
    pub past: Past,
    /// Holds the directory.
    _dir: tempfile::TempDir,
    pub path: PathBuf,
}

/// The creature at `root` as it was `at`, written out in a temporary directory.
pub fn then(root: &Path, at: At, sources: &Sources, now: DateTime<Utc>) -> Result<Then, String> {
    let past = resolve(root, at, sources, now).map_err(|e| e.to_string())?;
    let dir = tempfile::Builder::new()
        .prefix("dreamwatch-at-")
        .tempdir()
        .map_err(|e| format!("a temporary directory: {e}"))?;
    // Named as the creature is, for a creature named by its directory.
    let name = root
        .file_name()
        .map_or_else(|| "creature".into(), |n| n.to_os_string());
    let path = dir.path().join(name);
    materialize(root, &past, &path).map_err(|e| e.to_string())?;
    Ok(Then {
        past,
        _dir: dir,
        path,
    })
}

/// The summary JSON of `then`, shown as the creature at `root`.
pub fn json_of(root: &Path, then: &Then, k: &Cycle) -> Value {
    let c = Creature::open(&then.path);
    let t = then.past.t.unwrap_or_else(Utc::now);
    let mut value = super::creature_json(&c, t, k);
    if let Value::Object(fields) = &mut value {
        fields.insert("path".into(), Value::String(root.display().to_string()));
        fields.insert(
            "as_of".into(),
            serde_json::to_value(&then.past).unwrap_or(Value::Null),
        );
    }
    value
}

/// The plain summary of `then`, shown as the creature at `root`, with the moment said.
pub fn text_of(root: &Path, then: &Then, k: &Cycle) -> std::io::Result<Vec<u8>> {
    let c = Creature::open(&then.path);
    let t = then.past.t.unwrap_or_else(Utc::now);
    let mut buf = Vec::new();
    super::write_text(&mut buf, &c, t, k)?;
    let text = String::from_utf8_lossy(&buf).replace(
        &sanitize_line(&then.path.display().to_string()),
        &sanitize_line(&root.display().to_string()),
    );
    let mut lines = text.lines();
    let mut out = Vec::new();
    if let Some(first) = lines.next() {
        writeln!(out, "{first}")?;
    }
    let p = &then.past;
    let when =
        p.t.map(|t| t.format("%Y-%m-%d %H:%M:%S UTC").to_string())
            .unwrap_or_default();
    let exact = if p.exact {
        "exact: the runner's record"
    } else {
        "from the logs and what was kept"
    };
    writeln!(
        out,
        "  as of         {} · {when} · {}, {} · {exact}",
        p.at,
        crate::text::count(p.dreams as u64, "dream", "dreams"),
        crate::text::count(p.wakes as u64, "wake", "wakes")
    )?;
    for u in &p.unknown {
        writeln!(out, "  not known     {}", sanitize_line(u))?;
    }
    for l in lines {
        writeln!(out, "{l}")?;
    }
    Ok(out)
}

/// `inspect --at`: each creature of `paths` as it was `at`.
pub fn run(paths: &[PathBuf], at: At, json: bool, k: &Cycle) -> ExitCode {
    let sources = Sources::default_places();
    let now = Utc::now();
    let mut out = std::io::stdout().lock();
    let mut values = Vec::new();
    for root in paths {
        let then = match then(root, at, &sources, now) {
            Ok(t) => t,
            Err(e) => {
                eprintln!(
                    "dreamwatch inspect: {}: {}",
                    sanitize_line(&root.display().to_string()),
                    sanitize_line(&e)
                );
                return ExitCode::from(1);
            }
        };
        if json {
            values.push(json_of(root, &then, k));
        } else {
            let written = text_of(root, &then, k).and_then(|t| out.write_all(&t));
            if let Err(e) = written {
                return super::write_failed(&e);
            }
        }
    }
    if json {
        let line = super::json_line(&serde_json::json!({ "creatures": values }));
        if let Err(e) = writeln!(out, "{line}") {
            return super::write_failed(&e);
        }
    }
    ExitCode::SUCCESS
}
