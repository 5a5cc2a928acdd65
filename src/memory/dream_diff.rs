//! What a dream changed in the memory files, as pure functions of the text before and
//! after: observations added, pruned, moved between date headers, duplicated, given
//! another priority; other files (rules, priorities, briefing, diary) as lines removed
//! and added. Computed from the files, never from the consolidator's account of itself.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use similar::{ChangeTag, TextDiff};

use super::observations::{ObsItem, Priority, parse_item};

/// A line of `observations.md` with the date header it stood under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObsLine {
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub under: Option<String>,
}

/// A line that changed header, same text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moved {
    pub text: String,
    pub from: Option<String>,
    pub to: Option<String>,
}

/// An observation whose text stayed and whose priority changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reprioritised {
    /// The line as it was.
    pub before: String,
    /// The line as it is.
    pub after: String,
}

/// What changed in `observations.md`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObservationChanges {
    /// New lines (their text was nowhere in the file).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<ObsLine>,
    /// Lines whose text is gone from the file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pruned: Vec<ObsLine>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moved: Vec<Moved>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reprioritised: Vec<Reprioritised>,
    /// Another copy of a line already in the file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub duplicated: Vec<ObsLine>,
    /// A copy removed; the same line is still in the file, so nothing was lost.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deduplicated: Vec<ObsLine>,
}

impl ObservationChanges {
    pub fn is_empty(&self) -> bool {
        self == &Self::default()
    }
}

/// Lines removed and added in a file read as text (rules, priorities, briefing, diary).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineChanges {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<String>,
}

impl LineChanges {
    pub fn is_empty(&self) -> bool {
        self.removed.is_empty() && self.added.is_empty()
    }
}

/// The changes of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum FileChanges {
    Observations(ObservationChanges),
    Lines(LineChanges),
}

impl FileChanges {
    /// The changes between two texts of the file named `file` (`observations.md` is read
    /// as observations, any other as lines).
    pub fn between(file: &str, before: &str, after: &str) -> Self {
        if file == "observations.md" {
            FileChanges::Observations(diff_observations(before, after))
        } else {
            FileChanges::Lines(diff_lines(before, after))
        }
    }

    pub fn is_empty(&self) -> bool {
        match self {
            FileChanges::Observations(o) => o.is_empty(),
            FileChanges::Lines(l) => l.is_empty(),
        }
    }
}

/// What identifies an observation across a rewrite: its priority and its text, not its
/// time nor its list marker; any other line is itself, trimmed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    priority: Option<Priority>,
    text: String,
}

/// One content line (no title, no header, no blank) with its header.
struct Content {
    key: Key,
    line: ObsLine,
}

/// The content lines of `text`, the first under `under` until a header says otherwise.
fn contents(text: &str, mut under: Option<String>) -> Vec<Content> {
    let mut out = Vec::new();
    for line in text.lines() {
        match parse_item(line) {
            Some(ObsItem::Header { date, .. }) => under = Some(date),
            item => out.extend(key_of(item).map(|key| Content {
                key,
                line: ObsLine {
                    text: line.trim().to_string(),
                    under: under.clone(),
                },
            })),
        }
    }
    out
}

/// What identifies a content line (none for a title, a header or a blank).
fn key_of(item: Option<ObsItem>) -> Option<Key> {
    match item? {
        ObsItem::Title | ObsItem::Header { .. } => None,
        ObsItem::Observation(o) => Some(Key {
            priority: Some(o.priority),
            text: o.text.trim().to_string(),
        }),
        ObsItem::Prose(p) => Some(Key {
            priority: None,
            text: p.trim().to_string(),
        }),
    }
}

/// Classifies what changed between two texts of `observations.md`. Lines are compared
/// by priority and text as multisets: a line gone everywhere is pruned, a new text is
/// added, the same text under another header moved, an extra or a missing copy of a text
/// still present is a duplicate added or removed. A pruned and an added line of the same
/// text are one line given another priority.
pub fn diff_observations(before: &str, after: &str) -> ObservationChanges {
    match appended(before, after) {
        Some(tail) => diff_appended(before, tail),
        None => diff_whole(before, after),
    }
}

/// [`diff_observations`] by counting every line of both texts.
fn diff_whole(before: &str, after: &str) -> ObservationChanges {
    let before = contents(before, None);
    let after = contents(after, None);
    let mut count_before: HashMap<&Key, Vec<&ObsLine>> = HashMap::new();
    for c in &before {
        count_before.entry(&c.key).or_default().push(&c.line);
    }
    let mut count_after: HashMap<&Key, Vec<&ObsLine>> = HashMap::new();
    for c in &after {
        count_after.entry(&c.key).or_default().push(&c.line);
    }
    let mut out = ObservationChanges::default();
    let mut done: HashSet<&Key> = HashSet::new();
    // Removals in the order of the old file, then additions in the order of the new.
    for c in &before {
        if !done.insert(&c.key) {
            continue;
        }
        let was = &count_before[&c.key];
        match count_after.get(&c.key) {
            None => out.pruned.extend(was.iter().map(|l| (*l).clone())),
            Some(now) => compare_copies(was, now, &mut out),
        }
    }
    for c in &after {
        if !done.insert(&c.key) {
            continue;
        }
        let now = &count_after[&c.key];
        out.added.push(now[0].clone());
        out.duplicated.extend(now[1..].iter().map(|l| (*l).clone()));
    }
    pair_reprioritised(&mut out);
    out
}

/// The lines `after` adds at the end of `before`, when that is all it does (whole lines).
pub fn appended<'a>(before: &str, after: &'a str) -> Option<&'a str> {
    let whole_lines = before.is_empty() || before.ends_with('\n');
    (whole_lines && after.starts_with(before)).then(|| &after[before.len()..])
}

/// [`diff_observations`] of a file that only grew by `tail`, the same answer without
/// counting every line of both texts: an observation appended to a file of thousands
/// costs a look through it for the appended texts. Nothing is pruned, moved or
/// deduplicated; an appended text already in the file is a duplicate (those ordered by
/// where the text first stood), a new text added once and duplicated after.
fn diff_appended(before: &str, tail: &str) -> ObservationChanges {
    let mut out = ObservationChanges::default();
    let fresh = contents(tail, last_header(before));
    // Each appended text with its copies, in the order each first came.
    let mut copies: Vec<(&Key, Vec<&ObsLine>)> = Vec::new();
    let mut index: HashMap<&Key, usize> = HashMap::new();
    for c in &fresh {
        let i = *index.entry(&c.key).or_insert_with(|| {
            copies.push((&c.key, Vec::new()));
            copies.len() - 1
        });
        copies[i].1.push(&c.line);
    }
    // Where each text first stood in the file before, if it did.
    let first_at: Vec<Option<usize>> = copies
        .iter()
        .map(|(key, _)| first_line_of(before, key))
        .collect();
    let mut old: Vec<(usize, usize)> = first_at
        .iter()
        .enumerate()
        .filter_map(|(i, at)| at.map(|n| (n, i)))
        .collect();
    old.sort_unstable();
    for (_, i) in old {
        out.duplicated
            .extend(copies[i].1.iter().map(|l| (*l).clone()));
    }
    for ((_, lines), at) in copies.iter().zip(&first_at) {
        if let (None, [first, rest @ ..]) = (at, lines.as_slice()) {
            out.added.push((*first).clone());
            out.duplicated.extend(rest.iter().map(|l| (*l).clone()));
        }
    }
    out
}

/// The date of the last header of `text`, looked for from its end. Only a line that
/// begins `## ` can be a header: the text is searched backwards for `## ` (memchr's
/// `memmem`), and only a line it begins is parsed.
fn last_header(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let finder = memchr::memmem::FinderRev::new("## ");
    let mut end = bytes.len();
    while let Some(at) = finder.rfind(&bytes[..end]) {
        let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |n| n + 1);
        let line_end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n);
        let line = &text[start..line_end];
        if line.trim_start().starts_with("## ")
            && let Some(ObsItem::Header { date, .. }) = parse_item(line)
        {
            return Some(date);
        }
        end = start;
    }
    None
}

/// Where the first line of `text` whose key is `key` begins (its byte offset), if one
/// does: the text is searched for the key's words (memchr's `memmem`, at memory speed),
/// and only a line they are found in is parsed.
fn first_line_of(text: &str, key: &Key) -> Option<usize> {
    let bytes = text.as_bytes();
    let finder = memchr::memmem::Finder::new(key.text.as_bytes());
    let mut from = 0;
    while let Some(found) = finder.find(&bytes[from..]) {
        let at = from + found;
        let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |n| n + 1);
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n);
        // The line parsed trimmed: a `\r` before its `\n` is no part of it.
        if key_of(parse_item(&text[start..end])).as_ref() == Some(key) {
            return Some(start);
        }
        from = end + 1;
        if from > bytes.len() {
            break;
        }
    }
    None
}

/// The copies of one text before and after: headers that differ pair up as moves, what
/// is left over is a copy removed or added.
fn compare_copies(was: &[&ObsLine], now: &[&ObsLine], out: &mut ObservationChanges) {
    let mut gone: Vec<&ObsLine> = Vec::new();
    let mut remaining: Vec<&ObsLine> = now.to_vec();
    for line in was {
        match remaining.iter().position(|n| n.under == line.under) {
            Some(i) => {
                remaining.remove(i);
            }
            None => gone.push(line),
        }
    }
    let mut gone = gone.into_iter();
    let mut fresh = remaining.into_iter();
    loop {
        match (gone.next(), fresh.next()) {
            (Some(g), Some(f)) => out.moved.push(Moved {
                text: f.text.clone(),
                from: g.under.clone(),
                to: f.under.clone(),
            }),
            (Some(g), None) => out.deduplicated.push(g.clone()),
            (None, Some(f)) => out.duplicated.push(f.clone()),
            (None, None) => break,
        }
    }
}

/// A pruned observation whose text comes back with another priority.
fn pair_reprioritised(out: &mut ObservationChanges) {
    let text_of = |l: &ObsLine| {
        super::observations::parse_observation(&l.text).map(|o| o.text.trim().to_string())
    };
    let mut i = 0;
    while i < out.pruned.len() {
        let Some(text) = text_of(&out.pruned[i]) else {
            i += 1;
            continue;
        };
        match out
            .added
            .iter()
            .position(|a| text_of(a).as_deref() == Some(text.as_str()))
        {
            Some(j) => {
                let before = out.pruned.remove(i);
                let after = out.added.remove(j);
                out.reprioritised.push(Reprioritised {
                    before: before.text,
                    after: after.text,
                });
            }
            None => i += 1,
        }
    }
}

/// A pruned line as it is put back into `observations.md` (under today's header): its
/// priority and text with the time `hhmm`, marked as restored; a legacy `[!]`/`[.]` line
/// becomes RED/GRN, prose stays prose.
pub fn restored_line(line: &str, hhmm: &str) -> String {
    let mark = "(restored by the operator)";
    match super::observations::parse_observation(line) {
        Some(o) => format!(
            "{} {mark}",
            super::observations::format_observation(o.priority, hhmm, &o.text)
        ),
        None => format!("{} {mark}", line.trim()),
    }
}

/// Lines removed and added between two texts, blank lines and trailing spaces ignored
/// (`similar`'s diff of the lines, so a rewritten paragraph shows its old and new lines).
pub fn diff_lines(before: &str, after: &str) -> LineChanges {
    fn lines(t: &str) -> Vec<&str> {
        t.lines()
            .map(str::trim_end)
            .filter(|l| !l.trim().is_empty())
            .collect()
    }
    let (before, after) = (lines(before), lines(after));
    let mut out = LineChanges::default();
    let diff = TextDiff::configure().diff_slices(&before, &after);
    for change in diff.iter_all_changes() {
        match change.tag() {
            ChangeTag::Delete => out.removed.push(change.value().to_string()),
            ChangeTag::Insert => out.added.push(change.value().to_string()),
            ChangeTag::Equal => {}
        }
    }
    out
}

#[cfg(test)]
mod tests;
