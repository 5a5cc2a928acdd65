//! Who wrote each line of a memory document: the versions of the file in the runner's
//! record (and the watched history, and git), compared in turn. A line is blamed on the
//! stretch of life between the two versions where it first appears: a dream's
//! consolidation (a sleep that dreamt), a wake (and the last tool call of it that named
//! the file), the operator (a line restored, a dream edited in review), or a commit. A
//! line whose text leaves its place and comes back elsewhere is moved, not rewritten; one
//! that goes is pruned, by the stretch that dropped it. Before the first version nothing
//! can be known, and that is said.

use std::collections::HashMap;
use std::path::Path;

use chrono::{DateTime, Utc};
use serde::Serialize;
use similar::{ChangeTag, TextDiff};

use crate::memory::dream_diff::appended;
use crate::memory::dream_diffs::{self, DiffRecord};
use crate::memory::layout::FileKind;
use crate::memory::moments::{After, Moment, Store};

use super::git;
use super::index::{TimeIndex, each_line};
use super::past::Sources;

/// Who made a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Author {
    /// A sleep's consolidation: dream N.
    Dream {
        dream: u64,
        /// The operator edited the dream in review.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        edited: bool,
    },
    /// A sleep that did not dream.
    Sleep,
    /// Wake N, and the last tool call of it that named the file.
    Wake {
        wake: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        tool_call: Option<String>,
        /// The operator's message that wake answered.
        #[serde(skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// The operator put a pruned line back (the observatory's restore).
    Restore,
    /// A commit of the creature's git history.
    Commit { commit: String },
    /// Seen changed by the observatory, made by whatever ran meanwhile.
    Seen,
    /// Already there when the record begins: before it, nothing can be known.
    Unknown,
}

impl Author {
    /// As `git blame` would say it, in a few words.
    pub fn describe(&self) -> String {
        match self {
            Author::Dream {
                dream,
                edited: false,
            } => format!("dream {dream}"),
            Author::Dream {
                dream,
                edited: true,
            } => format!("dream {dream} (edited by the operator)"),
            Author::Sleep => "sleep".into(),
            Author::Wake {
                wake,
                tool_call,
                message,
            } => {
                // Before any wake event: the waking the creature was born or started into.
                let mut s = match wake {
                    0 => "first waking".to_string(),
                    _ => format!("wake {wake}"),
                };
                if let Some(c) = tool_call {
                    s.push_str(&format!(" · {c}"));
                }
                if message.is_some() {
                    s.push_str(" · after the operator's message");
                }
                s
            }
            Author::Restore => "operator (restore)".into(),
            Author::Commit { commit } => format!("commit {}", &commit[..commit.len().min(8)]),
            Author::Seen => "seen changed".into(),
            Author::Unknown => "before the record".into(),
        }
    }
}

/// A change, and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    #[serde(flatten)]
    pub author: Author,
    #[serde(with = "crate::memory::dreams::opt_time")]
    pub t: Option<DateTime<Utc>>,
}

/// One line of the file now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    pub n: usize,
    pub text: String,
    pub written: Change,
    /// The lines it replaced.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<String>,
    /// Where it was moved since.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub moved: Vec<Change>,
}

/// A line that is gone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Gone {
    pub text: String,
    pub written: Change,
    pub removed: Change,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Blame {
    pub file: String,
    pub lines: Vec<Line>,
    pub gone: Vec<Gone>,
    /// When the first version recorded was seen: what came before cannot be known.
    #[serde(with = "crate::memory::dreams::opt_time")]
    pub since: Option<DateTime<Utc>>,
    /// Versions compared.
    pub versions: usize,
}

/// One version of the file, and who made it from the one before.
struct Version {
    t: Option<DateTime<Utc>>,
    text: String,
    by: Author,
}

/// The file's path in the creature's directory: as given, else in `.self/`.
pub fn resolve_file(root: &Path, file: &str) -> String {
    let given = Path::new(file);
    if let Ok(rel) = given.strip_prefix(root) {
        return rel.to_string_lossy().into_owned();
    }
    if root.join(file).is_file() || file.contains('/') {
        return file.to_string();
    }
    format!(".self/{file}")
}

/// Blames each line of `file` (a path in the creature's directory) of the creature at
/// `root`.
pub fn blame(root: &Path, file: &str, sources: &Sources) -> std::io::Result<Blame> {
    blame_until(root, file, sources, None)
}

/// As [`blame`], of the file as it was at `until` (`None`: now): only the versions
/// recorded by then count.
pub fn blame_until(
    root: &Path,
    file: &str,
    sources: &Sources,
    until: Option<DateTime<Utc>>,
) -> std::io::Result<Blame> {
    let index = TimeIndex::build(root)?;
    let mut versions = runner_versions(root, file, &index);
    versions.extend(other_versions(root, file, sources));
    versions.sort_by_key(|v| v.t);
    if let Some(until) = until {
        versions.retain(|v| v.t.is_some_and(|t| t <= until));
    }
    // The file now, when it changed since the last version.
    let now = match until {
        Some(_) => None,
        None => crate::tail::read_bounded(&root.join(file), crate::memory::moments::MAX_DOC)?
            .map(|b| String::from_utf8_lossy(&b).into_owned()),
    };
    if let Some(now) = now
        && versions.last().is_none_or(|v| v.text != now)
    {
        versions.push(Version {
            t: None,
            text: now,
            by: if versions.is_empty() {
                Author::Unknown
            } else {
                Author::Seen
            },
        });
    }
    let mut out = Blame {
        file: file.to_string(),
        since: versions.first().and_then(|v| v.t),
        versions: versions.len(),
        ..Blame::default()
    };
    let name = Path::new(file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut lines: Vec<Line> = Vec::new();
    let mut prev = String::new();
    for v in &versions {
        let change = Change {
            author: v.by.clone(),
            t: v.t,
        };
        // A file that only grew (an observations.md the watched history kept hundreds of
        // versions of) keeps its lines and adds the new ones, without a diff of them all.
        match appended(&prev, &v.text) {
            Some(tail) => lines.extend(appended_lines(tail, &change, &name)),
            None => step(&mut lines, &mut out.gone, &prev, &v.text, &change, &name),
        }
        prev.clone_from(&v.text);
    }
    for (n, l) in lines.iter_mut().enumerate() {
        l.n = n + 1;
    }
    out.lines = lines;
    Ok(out)
}

/// The lines of `tail`, appended by `change`: as [`step`] blames them.
fn appended_lines<'a>(
    tail: &'a str,
    change: &'a Change,
    name: &'a str,
) -> impl Iterator<Item = Line> + 'a {
    tail.split_inclusive('\n').map(|l| {
        new_line(
            l.trim_end_matches('\n').to_string(),
            Vec::new(),
            change,
            name,
        )
    })
}

/// Moves the blamed lines from `before` to `after`.
fn step(
    lines: &mut Vec<Line>,
    gone: &mut Vec<Gone>,
    before: &str,
    after: &str,
    change: &Change,
    name: &str,
) {
    let diff = TextDiff::from_lines(before, after);
    let old = std::mem::take(lines);
    let mut removed: HashMap<String, Vec<Line>> = HashMap::new();
    let mut next: Vec<Option<Line>> = Vec::new();
    let mut pending_removed: Vec<String> = Vec::new();
    let mut added: Vec<(usize, String, Vec<String>)> = Vec::new();
    for c in diff.iter_all_changes() {
        let text = c.value().trim_end_matches('\n').to_string();
        match c.tag() {
            ChangeTag::Equal => {
                pending_removed.clear();
                if let Some(l) = c.old_index().and_then(|i| old.get(i)) {
                    next.push(Some(l.clone()));
                }
            }
            ChangeTag::Delete => {
                if let Some(l) = c.old_index().and_then(|i| old.get(i)) {
                    removed.entry(key(&text)).or_default().push(l.clone());
                }
                pending_removed.push(text);
            }
            ChangeTag::Insert => {
                added.push((next.len(), text, pending_removed.clone()));
                next.push(None);
            }
        }
    }
    for (at, text, replaced) in added {
        let line = match removed.get_mut(&key(&text)).and_then(Vec::pop) {
            Some(mut l) if !key(&text).is_empty() => {
                l.moved.push(change.clone());
                l.text = text;
                l
            }
            _ => new_line(text, replaced, change, name),
        };
        next[at] = Some(line);
    }
    for l in removed.into_values().flatten() {
        if !l.text.trim().is_empty() {
            gone.push(Gone {
                text: l.text,
                written: l.written,
                removed: change.clone(),
            });
        }
    }
    *lines = next.into_iter().flatten().collect();
}

/// A line written by `change`, in place of the lines `replaced`.
fn new_line(text: String, replaced: Vec<String>, change: &Change, name: &str) -> Line {
    let author = if text.contains("(restored by the operator)") && name == "observations.md" {
        Author::Restore
    } else {
        change.author.clone()
    };
    Line {
        n: 0,
        text,
        written: Change {
            author,
            t: change.t,
        },
        replaced: replaced
            .into_iter()
            .filter(|r| !r.trim().is_empty())
            .collect(),
        moved: Vec::new(),
    }
}

/// What identifies a line across a move.
fn key(text: &str) -> String {
    text.trim().to_string()
}

/// What a blame of `file` reads besides the record: the events log (relative to the
/// creature's root), the review edits, the file's own name.
pub(super) struct BlameInputs {
    pub events: std::path::PathBuf,
    pub events_rel: String,
    pub reviews: HashMap<u64, bool>,
    pub name: String,
}

impl BlameInputs {
    pub(super) fn of(root: &Path, file: &str) -> Self {
        let events = FileKind::Events.resolve(root);
        let events_rel = events
            .strip_prefix(root)
            .unwrap_or(&events)
            .to_string_lossy()
            .into_owned();
        let name = Path::new(file)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Self {
            events,
            events_rel,
            reviews: reviews(root),
            name,
        }
    }
}

/// The versions of `file` in the runner's record, each with who made it.
fn runner_versions(root: &Path, file: &str, index: &TimeIndex) -> Vec<Version> {
    let store = Store::of_creature(root);
    let moments = store.moments();
    let BlameInputs {
        events,
        events_rel,
        reviews,
        name,
    } = BlameInputs::of(root, file);
    let mut out: Vec<Version> = Vec::new();
    let mut current: Option<String> = None;
    let mut prev: Option<&Moment> = None;
    for m in moments.iter().filter(|m| m.after != After::Seen) {
        let hash = if m.full {
            m.docs.get(file).cloned().flatten()
        } else {
            match m.docs.get(file) {
                Some(h) => h.clone(),
                None => current.clone(),
            }
        };
        if hash != current {
            let text = hash
                .as_deref()
                .and_then(|h| store.text(h))
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default();
            let from = prev
                .and_then(|p| p.logs.get(&events_rel).copied())
                .unwrap_or(0);
            let to = m.logs.get(&events_rel).copied().unwrap_or(0);
            // Already there when the record began: who wrote it cannot be known.
            let by = match prev {
                None => Author::Unknown,
                Some(p) => between(
                    p,
                    m,
                    || interval(index, &events, from, to, &name, &reviews),
                    &reviews,
                ),
            };
            out.push(Version { t: m.t, text, by });
            current = hash;
        }
        prev = Some(m);
    }
    out
}

/// Who wrote between two moments `p` and `m` of the runner's record: the dream it counted
/// between them; else, from a sleep's start, that sleep's work (evennia's consolidation
/// that did not end a dream, as a dreamer's); else `by_events`, what the events log says
/// of the stretch.
pub(super) fn between(
    p: &Moment,
    m: &Moment,
    by_events: impl FnOnce() -> Author,
    reviews: &HashMap<u64, bool>,
) -> Author {
    match (p.dreams, m.dreams) {
        (Some(a), Some(b)) if b > a => Author::Dream {
            dream: b,
            edited: reviews.get(&b).copied().unwrap_or(false),
        },
        _ if p.after == After::Asleep => Author::Sleep,
        _ => by_events(),
    }
}

/// Who wrote between two offsets of the events log: the dream consolidated in it, else
/// the wake it is part of (its last tool call that names the file).
pub(super) fn interval(
    index: &TimeIndex,
    events: &Path,
    from: u64,
    to: u64,
    name: &str,
    reviews: &HashMap<u64, bool>,
) -> Author {
    let before = index.dreams_by(from);
    let after = index.dreams_by(to);
    if after > before {
        let dream = after as u64;
        return Author::Dream {
            dream,
            edited: reviews.get(&dream).copied().unwrap_or(false),
        };
    }
    let slept = index.sleeps.iter().any(|s| s.start >= from && s.end <= to);
    let wake = index.wakes.partition_point(|w| w.end <= to) as u64;
    if wake == 0 && slept {
        return Author::Sleep;
    }
    let (tool_call, message) = wake_detail(events, from, to, name);
    Author::Wake {
        wake,
        tool_call,
        message,
    }
}

/// The last tool call between `from` and `to` of the events log whose command names
/// `name`, and the operator's message the wake received (at most 8 MiB read).
fn wake_detail(events: &Path, from: u64, to: u64, name: &str) -> (Option<String>, Option<String>) {
    const MAX: u64 = 8 << 20;
    let from = from.max(to.saturating_sub(MAX));
    let mut call = None;
    let mut message = None;
    let _ = each_line(events, |start, _, _, bytes| {
        if start < from || start >= to {
            return;
        }
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(bytes) else {
            return;
        };
        match v.get("type").and_then(|t| t.as_str()) {
            Some("creature.tool_call") => {
                let input = v.get("input").map(|i| i.to_string()).unwrap_or_default();
                if !name.is_empty() && input.contains(name) {
                    let tool = v.get("tool").and_then(|t| t.as_str()).unwrap_or("tool");
                    call = Some(format!(
                        "{tool} {}",
                        crate::text::sanitize::sanitize_line(&clip(&input, 80))
                    ));
                }
            }
            Some("creature.message") => {
                let source = v.get("source").and_then(|s| s.as_str()).unwrap_or("");
                if source == "operator" || source == "MESSAGES.md" {
                    let text = v.get("text").and_then(|t| t.as_str()).unwrap_or("");
                    message = Some(crate::text::sanitize::sanitize_line(&clip(text, 80)));
                }
            }
            _ => {}
        }
    });
    (call, message)
}

fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// Which dreams were edited by the operator in review (`.sys/dream-diffs.jsonl`).
pub(super) fn reviews(root: &Path) -> HashMap<u64, bool> {
    let mut out = HashMap::new();
    let _ = each_line(&dream_diffs::path(root), |_, _, _, bytes| {
        if let Ok(r) = serde_json::from_slice::<DiffRecord>(bytes)
            && let (Some(d), Some(review)) = (r.dream, r.review)
        {
            *out.entry(d).or_default() |= review.edited;
        }
    });
    out
}

/// The versions of `file` in the watched history and the git history.
fn other_versions(root: &Path, file: &str, sources: &Sources) -> Vec<Version> {
    let mut out = Vec::new();
    if let Some(history) = &sources.history {
        let store = history.versions_of(root);
        // The version read last: the next is read from it when it grew from it.
        let mut last: Option<(String, Vec<u8>)> = None;
        for m in store.moments() {
            if let Some(hash) = m.docs.get(file) {
                let known = last.as_ref().map(|(h, b)| (h.as_str(), b.as_slice()));
                let bytes = hash.as_deref().and_then(|h| store.text_after(h, known));
                let text = bytes
                    .as_deref()
                    .map(|b| String::from_utf8_lossy(b).into_owned())
                    .unwrap_or_default();
                if let (Some(h), Some(b)) = (hash, bytes) {
                    last = Some((h.clone(), b));
                }
                // The first look: what came before cannot be known.
                let by = if out.is_empty() {
                    Author::Unknown
                } else {
                    Author::Seen
                };
                out.push(Version { t: m.t, text, by });
            }
        }
    }
    for commit in git::commits_of(root, file) {
        let text = git::text_at(root, &commit.id, file)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        out.push(Version {
            t: Some(commit.t),
            text,
            by: Author::Commit { commit: commit.id },
        });
    }
    out
}

/// `2026-03-01 10:00`, or blanks.
fn short_time(t: Option<DateTime<Utc>>) -> String {
    t.map_or_else(
        || " ".repeat(16),
        |t| t.format("%Y-%m-%d %H:%M").to_string(),
    )
}

/// The blame as `git blame` prints it: who and when, the line number, the line; then the
/// lines that are gone, and where the record begins.
pub fn write_text(out: &mut dyn std::io::Write, b: &Blame) -> std::io::Result<()> {
    use crate::text::sanitize::sanitize_line;
    let width = b
        .lines
        .iter()
        .map(|l| l.written.author.describe().chars().count())
        .max()
        .unwrap_or(0)
        .min(48);
    for l in &b.lines {
        let who = sanitize_line(&clip(&l.written.author.describe(), 48));
        let moved = if l.moved.is_empty() { "" } else { " ~" };
        writeln!(
            out,
            "{who:<width$} {} {:>4}{moved}) {}",
            short_time(l.written.t),
            l.n,
            sanitize_line(&l.text)
        )?;
        if !l.replaced.is_empty() {
            writeln!(
                out,
                "{:width$}                  replaced: {}",
                "",
                sanitize_line(&l.replaced.join(" / "))
            )?;
        }
    }
    if !b.gone.is_empty() {
        writeln!(out, "\ngone:")?;
        for g in &b.gone {
            writeln!(
                out,
                "  {}  (written: {}, removed: {} {})",
                sanitize_line(&g.text),
                sanitize_line(&g.written.author.describe()),
                sanitize_line(&g.removed.author.describe()),
                short_time(g.removed.t).trim()
            )?;
        }
    }
    match b.since {
        Some(t) => writeln!(
            out,
            "\nrecorded since {}: who wrote what was there then cannot be known",
            short_time(Some(t))
        )?,
        None => writeln!(
            out,
            "\nno record of this file's history: who wrote it cannot be known"
        )?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines appended are blamed as a diff of every line blames them: the lines before
    /// kept as they were, the new ones written by the change (the operator's restores
    /// said so), none gone.
    #[test]
    fn lines_appended_are_blamed_as_a_diff_blames_them() {
        let change = |author: Author| Change { author, t: None };
        let mut texts = vec![String::new()];
        for n in 0..6 {
            let last = texts.last().cloned().unwrap_or_default();
            let more = match n % 3 {
                0 => format!("RED line {n}\n"),
                1 => format!("GRN line {n}\nGRN again {n}\n\n"),
                _ => format!("YLW back (restored by the operator) {n}\r\n"),
            };
            texts.push(format!("{last}{more}"));
        }
        texts.push(format!("{}no newline at the end", texts.last().unwrap()));
        // The unfinished line finished: changed, not appended to.
        texts.push(format!("{} yet\nRED after\n", texts.last().unwrap()));
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        let (mut gone_fast, mut gone_slow) = (Vec::new(), Vec::new());
        for (i, pair) in texts.windows(2).enumerate() {
            let c = change(if i % 2 == 0 {
                Author::Seen
            } else {
                Author::Unknown
            });
            let name = "observations.md";
            match appended(&pair[0], &pair[1]) {
                Some(tail) => fast.extend(appended_lines(tail, &c, name)),
                None => step(&mut fast, &mut gone_fast, &pair[0], &pair[1], &c, name),
            }
            step(
                &mut slow,
                &mut gone_slow,
                &pair[0],
                &pair[1],
                &c,
                "observations.md",
            );
            assert_eq!(fast, slow, "after {i}");
        }
        assert_eq!(gone_fast, gone_slow);
        assert!(fast.iter().any(|l| l.written.author == Author::Restore));
    }
}
