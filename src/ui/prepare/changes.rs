//! What a dream changed, prepared for the dreams view's detail pane: from the runner's
//! record (`.sys/dream-diffs.jsonl`) or the watched history, with what cannot be known
//! said where nothing was recorded; and what a dream held for review would change.

use chrono::{DateTime, Utc};
use ratatui::style::{Modifier, Style};

use super::inert;
use crate::memory::dream_diff::{FileChanges, LineChanges, ObsLine, ObservationChanges};
use crate::memory::dream_diffs::{DiffRecord, DreamRecords};
use crate::memory::observations::{ObsItem, Priority, parse_item};
use crate::text::count;
use crate::ui::theme::Theme;

/// Lines of prose (diary, briefing) shown per file; the rest are counted.
const PROSE_LINES: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// A file's name and counts.
    File,
    Added(Option<Priority>),
    Pruned(Option<Priority>),
    /// Moved, given another priority, a copy added or removed: nothing lost.
    Changed,
    /// What is known and what is not.
    Note,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ChangeLine {
    pub mark: Mark,
    /// Inert.
    pub text: String,
}

/// What a dream changed, ready to draw.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DreamChanges {
    pub lines: Vec<ChangeLine>,
    /// The observations it pruned: their line in `lines`, and their text as it was in
    /// the file (for a restore; never drawn).
    pub pruned: Vec<(usize, String)>,
}

/// Where the changes of a dream come from.
pub enum Source<'a> {
    /// The runner's record, read for dream `number`.
    Runner {
        read: std::io::Result<DreamRecords>,
        number: u64,
    },
    /// What the watched history saw near the dream's time.
    Watched {
        records: Vec<&'a DiffRecord>,
        dream_t: Option<DateTime<Utc>>,
        /// When the history of this creature begins; `None`: no history is kept, and
        /// nothing is said.
        since: Option<DateTime<Utc>>,
    },
}

/// What a dream changed.
pub fn prepare(source: Source<'_>) -> DreamChanges {
    let mut out = DreamChanges::default();
    match source {
        Source::Runner { read, number } => match read {
            Err(e) => note(
                &mut out,
                &format!("the runner's record could not be read: {e}"),
            ),
            Ok(r) => {
                if r.records.is_empty() {
                    match r.first {
                        Some(first) if number < first => note(
                            &mut out,
                            &format!(
                                "recorded from dream #{first} on: what this older dream changed was not recorded"
                            ),
                        ),
                        _ => note(
                            &mut out,
                            "the runner recorded no change to the memory files",
                        ),
                    }
                }
                records(&mut out, r.records.iter());
                if r.bad > 0 {
                    note(
                        &mut out,
                        &format!(
                            "{} in the record skipped",
                            count(r.bad as u64, "unreadable line", "unreadable lines")
                        ),
                    );
                }
            }
        },
        // The watched history is off: nothing to say.
        Source::Watched { since: None, .. } => {}
        Source::Watched {
            records: seen,
            dream_t,
            since: Some(since),
        } => {
            let unknown = match dream_t {
                _ if !seen.is_empty() => None,
                Some(t) if t < since => Some(format!(
                    "dreamwatch was not watching when this dream ran (its history of this creature begins {}): what it pruned or rewrote cannot be known; what it added may still be in observations.md under its date",
                    since.format("%Y-%m-%d %H:%M")
                )),
                _ => None,
            };
            if let Some(u) = unknown {
                note(&mut out, &u);
            } else if seen.is_empty() {
                note(
                    &mut out,
                    "dreamwatch saw no change to the memory files near this dream",
                );
            }
            for r in &seen {
                if let (Some(since), Some(t)) = (r.since, r.t) {
                    note(
                        &mut out,
                        &format!(
                            "{} changed while nothing watched, between {} and {}: by this dream, another, or the creature awake",
                            r.file,
                            since.format("%m-%d %H:%M"),
                            t.format("%m-%d %H:%M")
                        ),
                    );
                }
            }
            records(&mut out, seen.into_iter());
        }
    }
    out
}

/// What a dream held for review would change: its records against the files as they
/// are now ([`crate::memory::proposal::Proposal::changes`]).
pub fn proposed(records: &[DiffRecord]) -> DreamChanges {
    let mut out = DreamChanges::default();
    if records.is_empty() {
        note(
            &mut out,
            "it changes nothing in observations.md, priorities.md, rules.md, briefing.md or diary.md",
        );
    }
    self::records(&mut out, records.iter());
    out
}

/// A change line's style: added lines in their priority's colour, pruned ones too and
/// crossed out.
pub fn style(mark: Mark, theme: &Theme) -> Style {
    let of = |p: Option<Priority>| match p {
        Some(Priority::Red) => theme.red,
        Some(Priority::Ylw) => theme.ylw,
        Some(Priority::Grn) => theme.grn,
        None => theme.prose,
    };
    match mark {
        Mark::File => theme.header,
        Mark::Added(p) => of(p),
        Mark::Pruned(p) => of(p).add_modifier(Modifier::CROSSED_OUT),
        Mark::Changed => theme.base,
        Mark::Note => theme.muted,
    }
}

fn note(out: &mut DreamChanges, text: &str) {
    push(out, Mark::Note, text.to_string());
}

fn push(out: &mut DreamChanges, mark: Mark, text: String) {
    out.lines.push(ChangeLine {
        mark,
        text: inert(&text),
    });
}

fn records<'a>(out: &mut DreamChanges, records: impl Iterator<Item = &'a DiffRecord>) {
    for r in records {
        match &r.changes {
            FileChanges::Observations(o) => observations(out, &r.file, o),
            FileChanges::Lines(l) => lines(out, &r.file, l),
        }
    }
}

fn priority_of(line: &str) -> Option<Priority> {
    match parse_item(line) {
        Some(ObsItem::Observation(o)) => Some(o.priority),
        _ => None,
    }
}

fn observations(out: &mut DreamChanges, file: &str, o: &ObservationChanges) {
    let mut head = format!("{file}:");
    for (n, what) in [
        (o.added.len(), "added"),
        (o.pruned.len(), "pruned"),
        (o.moved.len(), "moved"),
        (o.reprioritised.len(), "reprioritised"),
        (o.duplicated.len(), "duplicated"),
        (o.deduplicated.len(), "copies removed"),
    ] {
        let what = if n == 1 && what == "copies removed" {
            "copy removed"
        } else {
            what
        };
        if n > 0 {
            head.push_str(&format!(" {n} {what},"));
        }
    }
    push(out, Mark::File, head.trim_end_matches(',').to_string());
    // Pruned first, the weightiest priority first: what could be missed.
    let mut pruned: Vec<_> = o.pruned.iter().collect();
    pruned.sort_by_key(|l| {
        let p = priority_of(&l.text);
        (p.is_none(), p)
    });
    for l in pruned {
        out.pruned.push((out.lines.len(), l.text.clone()));
        push(
            out,
            Mark::Pruned(priority_of(&l.text)),
            format!("- {}", l.text),
        );
    }
    for l in &o.added {
        push(
            out,
            Mark::Added(priority_of(&l.text)),
            format!("+ {}", l.text),
        );
    }
    let under = |u: &Option<String>| u.clone().unwrap_or_else(|| "(no date)".into());
    for m in &o.moved {
        push(
            out,
            Mark::Changed,
            format!("> {} (from {} to {})", m.text, under(&m.from), under(&m.to)),
        );
    }
    for r in &o.reprioritised {
        push(
            out,
            Mark::Changed,
            format!("~ {} (was {})", r.after, r.before),
        );
    }
    for (text, n) in copies(&o.duplicated) {
        push(
            out,
            Mark::Changed,
            format!("= {text} (again, {n}x: already in the file)"),
        );
    }
    for (text, n) in copies(&o.deduplicated) {
        push(
            out,
            Mark::Changed,
            format!(
                "= {text} ({} removed: still in the file)",
                count(n as u64, "copy", "copies")
            ),
        );
    }
}

/// Copies of one line counted, in first-seen order.
fn copies(lines: &[ObsLine]) -> Vec<(&str, usize)> {
    let mut out: Vec<(&str, usize)> = Vec::new();
    for l in lines {
        match out.iter_mut().find(|(t, _)| *t == l.text) {
            Some((_, n)) => *n += 1,
            None => out.push((&l.text, 1)),
        }
    }
    out
}

fn lines(out: &mut DreamChanges, file: &str, l: &LineChanges) {
    let verb = if l.removed.is_empty() {
        "written"
    } else {
        "rewritten"
    };
    push(
        out,
        Mark::File,
        format!(
            "{file} {verb}: {} removed, {} added",
            count(l.removed.len() as u64, "line", "lines"),
            l.added.len()
        ),
    );
    let prose = matches!(file, "diary.md" | "briefing.md");
    for (sign, list, mark) in [
        ("-", &l.removed, Mark::Pruned(None)),
        ("+", &l.added, Mark::Added(None)),
    ] {
        let shown = if prose {
            PROSE_LINES.min(list.len())
        } else {
            list.len()
        };
        for line in &list[..shown] {
            push(out, mark, format!("{sign} {line}"));
        }
        if shown < list.len() {
            let more = count((list.len() - shown) as u64, "more line", "more lines");
            note(out, &format!("... {more}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(file: &str, o: ObservationChanges) -> DiffRecord {
        DiffRecord {
            review: None,
            dream: Some(3),
            t: None,
            file: file.into(),
            since: None,
            changes: FileChanges::Observations(o),
        }
    }

    #[test]
    fn pruned_red_first_then_added_and_the_rest() {
        let l = |t: &str| ObsLine {
            text: t.into(),
            under: Some("2026-03-01".into()),
        };
        let r = obs(
            "observations.md",
            ObservationChanges {
                pruned: vec![l("GRN 10:00 a"), l("RED 10:01 b\u{1b}[31m")],
                added: vec![l("YLW 11:00 c")],
                ..Default::default()
            },
        );
        let out = prepare(Source::Runner {
            read: Ok(DreamRecords {
                records: vec![r],
                bad: 1,
                first: Some(1),
            }),
            number: 3,
        });
        let text: Vec<&str> = out.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            text,
            [
                "observations.md: 1 added, 2 pruned",
                "- RED 10:01 b^[[31m",
                "- GRN 10:00 a",
                "+ YLW 11:00 c",
                "1 unreadable line in the record skipped"
            ]
        );
        assert_eq!(out.lines[1].mark, Mark::Pruned(Some(Priority::Red)));
        // The raw text is kept for a restore; only the drawn line is inert.
        assert_eq!(
            out.pruned,
            [
                (1, "RED 10:01 b\u{1b}[31m".to_string()),
                (2, "GRN 10:00 a".to_string())
            ]
        );
    }

    #[test]
    fn what_cannot_be_known_is_said() {
        let older = prepare(Source::Runner {
            read: Ok(DreamRecords {
                records: vec![],
                bad: 0,
                first: Some(5),
            }),
            number: 2,
        });
        assert!(older.lines[0].text.contains("was not recorded"));
        let t = chrono::DateTime::parse_from_rfc3339("2026-03-01T10:00:00Z")
            .unwrap()
            .to_utc();
        let before_watching = prepare(Source::Watched {
            records: vec![],
            dream_t: Some(t),
            since: Some(t + chrono::Duration::hours(1)),
        });
        assert!(before_watching.lines[0].text.contains("cannot be known"));
        let off = prepare(Source::Watched {
            records: vec![],
            dream_t: Some(t),
            since: None,
        });
        assert_eq!(off, DreamChanges::default());
    }
}
