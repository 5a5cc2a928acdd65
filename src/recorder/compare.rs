//! Two creatures' memories side by side (`dreamwatch diff A B`): each memory file's lines
//! only one of them has, and how far apart they drifted dream by dream (the experiment
//! "same life, other model": a fork and its parent).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::Path;

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::at::At;
use super::past::{Past, PastError, Sources, resolve};
use super::side;

/// One memory file of both.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FileDiff {
    pub file: String,
    pub same: usize,
    pub only_a: Vec<String>,
    pub only_b: Vec<String>,
}

/// How far apart the two were after dream N: lines only one of them has, by file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Drift {
    pub dream: u64,
    pub files: BTreeMap<String, usize>,
    pub total: usize,
    /// A file of either was not known after that dream (no record of it then): the total
    /// counts only what was known, and is shown as not known.
    pub partial: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Comparison {
    pub a: String,
    pub b: String,
    pub files: Vec<FileDiff>,
    pub drift: Vec<Drift>,
    /// What could not be known of either (a moment without a record of a file).
    pub unknown: Vec<String>,
    /// Each memory file's lines now, of `a` and of `b` (for showing them side by side).
    #[serde(skip)]
    pub lines: BTreeMap<String, (Vec<String>, Vec<String>)>,
}

/// The memory of `past` of the creature at `root`, by file: each line of its `.self/`
/// documents, and of its `.self/` logs without their time (what was written, not when).
pub fn memory_lines(root: &Path, past: &Past) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for (name, doc) in &past.docs {
        if let Some(text) = &doc.text {
            let text = String::from_utf8_lossy(text);
            let lines = text
                .lines()
                .map(str::trim_end)
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string)
                .collect();
            out.insert(name.clone(), lines);
        }
    }
    for (name, len) in &past.logs {
        if !name.starts_with(".self/") {
            continue;
        }
        let mut bytes = Vec::new();
        let read = crate::tail::open_regular(&root.join(name))
            .and_then(|f| f.take((*len).min(64 << 20)).read_to_end(&mut bytes));
        if read.is_err() {
            continue;
        }
        let lines = bytes
            .split(|b| *b == b'\n')
            .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
            .map(timeless)
            .collect();
        out.insert(name.clone(), lines);
    }
    out
}

/// A log line without its `t` (and `id`, which each creature makes its own).
fn timeless(line: &[u8]) -> String {
    match serde_json::from_slice::<serde_json::Value>(line) {
        Ok(serde_json::Value::Object(mut map)) => {
            map.remove("t");
            map.remove("id");
            serde_json::Value::Object(map).to_string()
        }
        _ => String::from_utf8_lossy(line).into_owned(),
    }
}

/// Lines of each file only one side has (as multisets: a line twice in one, once in the
/// other, is once different).
pub fn files(
    a: &BTreeMap<String, Vec<String>>,
    b: &BTreeMap<String, Vec<String>>,
) -> Vec<FileDiff> {
    let names: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let empty = Vec::new();
    names
        .into_iter()
        .map(|name| {
            let (la, lb) = (a.get(name).unwrap_or(&empty), b.get(name).unwrap_or(&empty));
            let mut counts: BTreeMap<&str, i64> = BTreeMap::new();
            for l in la {
                *counts.entry(l).or_default() += 1;
            }
            for l in lb {
                *counts.entry(l).or_default() -= 1;
            }
            let mut d = FileDiff {
                file: name.clone(),
                ..FileDiff::default()
            };
            let mut left = counts.clone();
            for l in la {
                match left.get_mut(l.as_str()) {
                    Some(c) if *c > 0 => {
                        *c -= 1;
                        d.only_a.push(l.clone());
                    }
                    _ => {}
                }
            }
            for l in lb {
                match left.get_mut(l.as_str()) {
                    Some(c) if *c < 0 => {
                        *c += 1;
                        d.only_b.push(l.clone());
                    }
                    _ => {}
                }
            }
            d.same = la.len() - d.only_a.len();
            d
        })
        .collect()
}

/// Compares the creatures at `a` and `b`: now, and after each dream both have dreamt.
pub fn compare(
    a: &Path,
    b: &Path,
    sources: &Sources,
    now: DateTime<Utc>,
) -> Result<Comparison, PastError> {
    let at_now = |root: &Path| resolve(root, At::Time(now), sources, now);
    let (pa, pb) = (at_now(a)?, at_now(b)?);
    let (mut la, mut lb) = (memory_lines(a, &pa), memory_lines(b, &pb));
    let mut out = Comparison {
        a: a.display().to_string(),
        b: b.display().to_string(),
        files: files(&la, &lb),
        ..Comparison::default()
    };
    for f in &out.files {
        let (left, right) = (la.remove(&f.file), lb.remove(&f.file));
        out.lines.insert(
            f.file.clone(),
            (left.unwrap_or_default(), right.unwrap_or_default()),
        );
    }
    for n in 1..=pa.dreams.min(pb.dreams) as u64 {
        let (da, db) = (
            resolve(a, At::Dream(n), sources, now)?,
            resolve(b, At::Dream(n), sources, now)?,
        );
        for (side, p) in [("a", &da), ("b", &db)] {
            out.unknown.extend(
                p.unknown
                    .iter()
                    .map(|u| format!("{side} at dream {n}: {u}")),
            );
        }
        let mut drift = Drift {
            dream: n,
            partial: !da.unknown.is_empty() || !db.unknown.is_empty(),
            ..Drift::default()
        };
        for f in files(&memory_lines(a, &da), &memory_lines(b, &db)) {
            let apart = f.only_a.len() + f.only_b.len();
            drift.total += apart;
            drift.files.insert(f.file, apart);
        }
        out.drift.push(drift);
    }
    Ok(out)
}

/// Rows both have shown either side of a difference.
pub const CONTEXT: usize = 3;

/// The comparison as text in `width` columns: each file's lines side by side as `diff -y`
/// prints them (`<` only in a, `>` only in b, `|` each its own; a file both have alike by
/// its name only, long runs of lines both have left out), then the drift.
pub fn write_text(
    out: &mut dyn std::io::Write,
    c: &Comparison,
    width: usize,
) -> std::io::Result<()> {
    use crate::text::sanitize::sanitize_line;
    writeln!(out, "a  {}", sanitize_line(&c.a))?;
    writeln!(out, "b  {}", sanitize_line(&c.b))?;
    for f in &c.files {
        writeln!(
            out,
            "\n{}  ({} the same, {} only in a, {} only in b)",
            sanitize_line(&f.file),
            f.same,
            f.only_a.len(),
            f.only_b.len()
        )?;
        if f.only_a.is_empty() && f.only_b.is_empty() {
            continue;
        }
        let empty = (Vec::new(), Vec::new());
        let (la, lb) = c.lines.get(&f.file).unwrap_or(&empty);
        let clean = |l: &Vec<String>| l.iter().map(|s| sanitize_line(s)).collect::<Vec<_>>();
        for shown in side::around_changes(side::rows(&clean(la), &clean(lb)), CONTEXT) {
            match shown {
                side::Shown::Row(r) => writeln!(out, "{}", side::format_row(&r, width))?,
                side::Shown::Same(n) => writeln!(out, "  ⋯ {n} lines both have")?,
            }
        }
    }
    if !c.drift.is_empty() {
        writeln!(out, "\ndrift (lines only one has, after each dream)")?;
        writeln!(out, "  dream  apart")?;
        let most = c.drift.iter().map(|d| d.total).max().unwrap_or(0).max(1);
        for d in &c.drift {
            if d.partial {
                writeln!(out, "  {:>5}  {:>5}  not known then", d.dream, "?")?;
                continue;
            }
            let bar = "#".repeat((d.total * 40).div_ceil(most));
            writeln!(out, "  {:>5}  {:>5}  {bar}", d.dream, d.total)?;
        }
    }
    for u in &c.unknown {
        writeln!(out, "not known: {}", sanitize_line(u))?;
    }
    Ok(())
}
