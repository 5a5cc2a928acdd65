//! `dreamwatch export PATH [--at MOMENT] --format md|json`: a life or a moment, for a
//! report, an issue or a paper: the summary and its figures, every memory file as it
//! was, and the dreams with what each changed. Every text from the creature is made
//! inert.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use chrono::Utc;
use serde_json::{Value, json};

use crate::memory::cycle::Cycle;
use crate::memory::dream_diff::FileChanges;
use crate::memory::dream_diffs::{self, DiffRecord};
use crate::recorder::index::each_line;
use crate::recorder::{At, Sources};
use crate::text::sanitize::{sanitize, sanitize_line};

/// What `export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Json,
}

/// The dreams' records of what each changed, by dream, up to dream `last`.
fn dream_changes(root: &Path, last: usize) -> BTreeMap<u64, Vec<DiffRecord>> {
    let mut out: BTreeMap<u64, Vec<DiffRecord>> = BTreeMap::new();
    let _ = each_line(&dream_diffs::path(root), |_, _, _, bytes| {
        if let Ok(r) = serde_json::from_slice::<DiffRecord>(bytes)
            && let Some(d) = r.dream.filter(|d| *d as usize <= last)
        {
            out.entry(d).or_default().push(r);
        }
    });
    out
}

/// One record's changes as Markdown list items.
fn changes_md(r: &DiffRecord) -> Vec<String> {
    let file = sanitize_line(&r.file);
    let mut out = Vec::new();
    match &r.changes {
        FileChanges::Observations(o) => {
            out.extend(
                o.added
                    .iter()
                    .map(|l| format!("- {file} + {}", sanitize_line(&l.text))),
            );
            out.extend(
                o.pruned
                    .iter()
                    .map(|l| format!("- {file} − {}", sanitize_line(&l.text))),
            );
            out.extend(
                o.moved
                    .iter()
                    .map(|m| format!("- {file} moved: {}", sanitize_line(&m.text))),
            );
            out.extend(o.reprioritised.iter().map(|p| {
                format!(
                    "- {file} {} → {}",
                    sanitize_line(&p.before),
                    sanitize_line(&p.after)
                )
            }));
        }
        FileChanges::Lines(l) => {
            out.extend(
                l.added
                    .iter()
                    .map(|a| format!("- {file} + {}", sanitize_line(a))),
            );
            out.extend(
                l.removed
                    .iter()
                    .map(|a| format!("- {file} − {}", sanitize_line(a))),
            );
        }
    }
    out
}

/// Writes the export of the creature at `root` (`at`: a moment, else now).
pub fn run(root: &Path, at: Option<At>, format: Format, k: &Cycle) -> ExitCode {
    let now = Utc::now();
    let at = at.unwrap_or(At::Time(now));
    let then = match super::at::then(root, at, &Sources::default_places(), now) {
        Ok(t) => t,
        Err(e) => {
            eprintln!(
                "dreamwatch export: {}: {}",
                sanitize_line(&root.display().to_string()),
                sanitize_line(&e)
            );
            return ExitCode::from(1);
        }
    };
    let dreams = dream_changes(root, then.past.dreams);
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    for (name, doc) in &then.past.docs {
        if let Some(text) = &doc.text {
            files.insert(name.clone(), String::from_utf8_lossy(text).into_owned());
        }
    }
    let mut out = std::io::stdout().lock();
    let written = match format {
        Format::Json => {
            let value = json!({
                "creature": super::at::json_of(root, &then, k),
                "files": files,
                "logs": then.past.logs,
                "dreams": dreams.iter().map(|(n, records)| json!({"dream": n, "changes": records})).collect::<Vec<Value>>(),
            });
            writeln!(out, "{}", super::json_line(&value))
        }
        Format::Markdown => super::at::text_of(root, &then, k).and_then(|summary| {
            let name = root
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            writeln!(out, "# {} as of {}\n", sanitize_line(&name), then.past.at)?;
            writeln!(
                out,
                "## Summary\n\n```\n{}```\n",
                String::from_utf8_lossy(&summary)
            )?;
            writeln!(out, "## Memory\n")?;
            for (name, text) in &files {
                // A fence longer than any run of backticks in the text.
                let ticks = "`".repeat(longest_run(text, '`').max(2) + 1);
                writeln!(
                    out,
                    "### {}\n\n{ticks}\n{}\n{ticks}\n",
                    sanitize_line(name),
                    sanitize(text.trim_end())
                )?;
            }
            if !dreams.is_empty() {
                writeln!(out, "## Dreams\n")?;
                for (n, records) in &dreams {
                    let t = records
                        .first()
                        .and_then(|r| r.t)
                        .map(|t| t.format(" · %Y-%m-%d %H:%M").to_string())
                        .unwrap_or_default();
                    writeln!(out, "### Dream {n}{t}\n")?;
                    for r in records {
                        for line in changes_md(r) {
                            writeln!(out, "{line}")?;
                        }
                    }
                    writeln!(out)?;
                }
            }
            Ok(())
        }),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => super::write_failed(&e),
    }
}

fn longest_run(text: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for ch in text.chars() {
        run = if ch == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}
