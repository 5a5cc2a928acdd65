//! Blame of an op log's entries (`.self/*.jsonl`: evennia's semantic memories and
//! entities, emergence's soul and long-term entries, any genome's `{"t", "op", ...}`
//! lines): who wrote each line (the stretch of life the runner's record puts it in, else
//! the wake its time falls in), and which later lines changed the same entry (its `id`).

use std::collections::HashMap;
use std::path::Path;

use serde::Serialize;

use crate::memory::moments::{After, Store};

use super::blame::{Author, BlameInputs, Change, between, interval};
use super::index::{TimeIndex, each_line, line_time};

/// A later line about the same entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Later {
    pub n: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub op: Option<String>,
    pub change: Change,
}

/// One line of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub n: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub op: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Its text, first line, clipped.
    pub text: String,
    pub written: Change,
    /// Later lines about the same entry (`id`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub later: Vec<Later>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LogBlame {
    pub file: String,
    pub entries: Vec<Entry>,
}

/// The first text field of an op line, for a glance.
fn text_of(v: &serde_json::Value) -> String {
    for key in [
        "text",
        "content",
        "summary",
        "name",
        "description",
        "insight",
        "entry",
    ] {
        if let Some(s) = v.get(key).and_then(|s| s.as_str()) {
            let line = s.lines().next().unwrap_or_default();
            return match line.char_indices().nth(100) {
                Some((i, _)) => format!("{}…", &line[..i]),
                None => line.to_string(),
            };
        }
    }
    String::new()
}

/// Blames each line of the log `file` (a path in the creature's directory).
pub fn blame_log(root: &Path, file: &str) -> std::io::Result<LogBlame> {
    blame_log_until(root, file, None)
}

/// As [`blame_log`], of the log's first `len` bytes (`None`: all of it): the log as it
/// was at a moment.
pub fn blame_log_until(root: &Path, file: &str, len: Option<u64>) -> std::io::Result<LogBlame> {
    let index = TimeIndex::build(root)?;
    let moments: Vec<_> = Store::of_creature(root)
        .moments()
        .into_iter()
        .filter(|m| m.after != After::Seen)
        .collect();
    let BlameInputs {
        events,
        events_rel,
        reviews,
        name,
    } = BlameInputs::of(root, file);
    let mut out = LogBlame {
        file: file.to_string(),
        ..LogBlame::default()
    };
    let mut by_id: HashMap<String, usize> = HashMap::new();
    each_line(&root.join(file), |start, _, _, bytes| {
        if bytes.iter().all(u8::is_ascii_whitespace) || len.is_some_and(|len| start >= len) {
            return;
        }
        let v: serde_json::Value = serde_json::from_slice(bytes).unwrap_or_default();
        let t = line_time(bytes);
        // The first moment that has this line: it was written since the one before.
        let after = moments
            .iter()
            .position(|m| m.logs.get(file).is_some_and(|len| *len > start));
        let author = match after {
            Some(i) if i > 0 => {
                let (p, m) = (&moments[i - 1], &moments[i]);
                let by_events = || {
                    let from = p.logs.get(&events_rel).copied().unwrap_or(0);
                    let to = m.logs.get(&events_rel).copied().unwrap_or(0);
                    interval(&index, &events, from, to, &name, &reviews)
                };
                between(p, m, by_events, &reviews)
            }
            // Before the first moment or after the last, or no record: the wake its time
            // falls in.
            _ => match t {
                Some(t) => match index
                    .wakes
                    .partition_point(|w| w.t.is_some_and(|wt| wt <= t))
                {
                    0 => Author::Unknown,
                    n => Author::Wake {
                        wake: n as u64,
                        tool_call: None,
                        message: None,
                    },
                },
                None => Author::Unknown,
            },
        };
        let n = out.entries.len() + 1;
        let op = v.get("op").and_then(|o| o.as_str()).map(str::to_string);
        let id = v
            .get("id")
            .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string));
        let change = Change { author, t };
        if let Some(first) = id.as_ref().and_then(|id| by_id.get(id)) {
            let later = Later {
                n,
                op: op.clone(),
                change: change.clone(),
            };
            out.entries[*first].later.push(later);
        } else if let Some(id) = &id {
            by_id.insert(id.clone(), out.entries.len());
        }
        out.entries.push(Entry {
            n,
            op,
            id,
            text: text_of(&v),
            written: change,
            later: Vec::new(),
        });
    })?;
    Ok(out)
}

/// The log's blame as text: who and when, the line number, its op, id and text; the later
/// lines about the same entry under it.
pub fn write_text(out: &mut dyn std::io::Write, b: &LogBlame) -> std::io::Result<()> {
    use crate::text::sanitize::sanitize_line;
    for e in &b.entries {
        let when = e
            .written
            .t
            .map(|t| t.format("%Y-%m-%d %H:%M").to_string())
            .unwrap_or_default();
        writeln!(
            out,
            "{:<28} {when:<16} {:>5}) {} {} {}",
            sanitize_line(&e.written.author.describe()),
            e.n,
            sanitize_line(e.op.as_deref().unwrap_or("-")),
            sanitize_line(e.id.as_deref().unwrap_or("")),
            sanitize_line(&e.text)
        )?;
        for l in &e.later {
            writeln!(
                out,
                "{:<28} {:<16}        then line {}: {} by {}",
                "",
                "",
                l.n,
                sanitize_line(l.op.as_deref().unwrap_or("-")),
                sanitize_line(&l.change.author.describe())
            )?;
        }
    }
    Ok(())
}
