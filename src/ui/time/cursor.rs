//! Where the time cursor goes: a step by event, wake, dream or RED observation from where
//! it stands, a moment typed in the jump prompt, the next moment of a play. Pure but for
//! reading a line or two of the events log around the cursor.

use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use chrono::{DateTime, Utc};

use crate::recorder::At;
use crate::recorder::index::{TimeIndex, line_time};

/// What one step of the cursor passes over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Event,
    Wake,
    Dream,
    Red,
}

impl Step {
    /// What it is called in a notice ("no dream after this").
    pub fn noun(self) -> &'static str {
        match self {
            Step::Event => "event",
            Step::Wake => "wake",
            Step::Dream => "dream",
            Step::Red => "RED observation",
        }
    }
}

/// Where the cursor stands: the moment it names, and what resolving it found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub at: At,
    /// The events log's length then.
    pub offset: u64,
    pub t: Option<DateTime<Utc>>,
    /// Dreams consolidated by then.
    pub dreams: usize,
}

/// The play speeds, real time of the life scaled.
pub const SPEEDS: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];

/// The speed after `speed` (after the fastest: the slowest).
pub fn faster(speed: u32) -> u32 {
    SPEEDS
        .iter()
        .copied()
        .find(|s| *s > speed)
        .unwrap_or(SPEEDS[0])
}

/// The moment one `step` from `from`, forward or back; `None` when the life has none.
pub fn step(
    index: &TimeIndex,
    events: &Path,
    from: &Position,
    step: Step,
    forward: bool,
) -> Option<At> {
    match step {
        Step::Event if forward => line_after(events, from.offset, index.bytes)
            .ok()
            .flatten()
            .map(At::Time),
        Step::Event => line_before(events, from.offset)
            .ok()
            .flatten()
            .map(At::Time),
        Step::Wake => {
            let n = if forward {
                index.wakes.iter().position(|w| w.end > from.offset)? + 1
            } else {
                index.wakes.iter().rposition(|w| w.end < from.offset)? + 1
            };
            Some(At::Wake(n as u64))
        }
        Step::Dream => {
            let n = if forward {
                from.dreams + 1
            } else if matches!(from.at, At::Dream(_)) {
                from.dreams.checked_sub(1)?
            } else {
                from.dreams
            };
            (1..=index.dreams.len())
                .contains(&n)
                .then_some(At::Dream(n as u64))
        }
        Step::Red => {
            let dreams = index.red.iter().filter_map(|r| r.dream);
            let here = from.dreams as u64;
            let at_dream = matches!(from.at, At::Dream(_));
            let n = if forward {
                dreams.filter(|d| *d > here).min()?
            } else {
                dreams
                    .filter(|d| *d < here || (!at_dream && *d == here))
                    .max()?
            };
            Some(At::Dream(n))
        }
    }
}

/// Where `at` stands by the index alone (a time: the events log searched by halves): the
/// cursor stands there, and steps from there, while the past is built; the build then
/// places it exactly (the runner's record may cut the log a little elsewhere).
pub fn estimate(index: &TimeIndex, events: &Path, at: At) -> Position {
    let (offset, t) = match at {
        At::Dream(n) => {
            let d = index.dreams.get((n as usize).saturating_sub(1));
            // Dreams from the events log are placed by offset, else (a dreams log) by time.
            let from_events = index.dreams_by(index.bytes) > 0;
            let next = d.and_then(|d| {
                index.wakes.iter().find(|w| match (w.t, d.t) {
                    _ if from_events => w.start >= d.end,
                    (Some(wt), Some(dt)) => wt > dt,
                    _ => false,
                })
            });
            (next.map_or(index.bytes, |w| w.start), d.and_then(|d| d.t))
        }
        At::Wake(n) => index
            .wakes
            .get((n as usize).saturating_sub(1))
            .map_or((index.bytes, None), |w| (w.end, w.t)),
        At::Time(t) => (
            crate::recorder::cut::offset_at(events, t)
                .unwrap_or(index.bytes)
                .min(index.bytes),
            Some(t),
        ),
    };
    let dreams = match at {
        At::Dream(n) => n as usize,
        At::Wake(_) | At::Time(_) => index.dreams_by(offset),
    };
    Position {
        at,
        offset,
        t,
        dreams,
    }
}

/// The time of the next event after `offset` (none at the index's `end`).
pub fn next_event(events: &Path, offset: u64, end: u64) -> Option<DateTime<Utc>> {
    line_after(events, offset, end).ok().flatten()
}

/// What the jump prompt reads: a dream's number (`12`), `dream:N`, `wake:N` or a time.
pub fn parse_jump(text: &str) -> Result<At, String> {
    let text = text.trim();
    if let Ok(n) = text.parse::<u64>() {
        return (n > 0)
            .then_some(At::Dream(n))
            .ok_or_else(|| "dreams count from 1".to_string());
    }
    text.parse::<At>().map_err(|e| e.to_string())
}

/// The time of the first line after `offset` with one (the next event), before `end`.
fn line_after(path: &Path, offset: u64, end: u64) -> io::Result<Option<DateTime<Utc>>> {
    let mut file = crate::tail::open_regular(path)?;
    file.seek(SeekFrom::Start(offset))?;
    let mut buf = vec![0u8; 64 << 10];
    let n = file.take(end.saturating_sub(offset)).read(&mut buf)?;
    Ok(buf[..n].split(|b| *b == b'\n').find_map(line_time))
}

/// The time of the last line with one that ends before the line ending at `offset` (the
/// event before the cursor's last).
fn line_before(path: &Path, offset: u64) -> io::Result<Option<DateTime<Utc>>> {
    let mut file = crate::tail::open_regular(path)?;
    let from = offset.saturating_sub(64 << 10);
    file.seek(SeekFrom::Start(from))?;
    let mut buf = Vec::new();
    file.take(offset - from).read_to_end(&mut buf)?;
    let text = buf.strip_suffix(b"\n").unwrap_or(&buf);
    let mut lines = text.rsplit(|b| *b == b'\n');
    // The cursor's own last line is passed over.
    let last = lines.next().and_then(line_time);
    Ok(lines
        .filter_map(line_time)
        .find(|t| last.is_none_or(|l| *t < l)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::time::parse_time;

    fn life() -> (tempfile::TempDir, TimeIndex, std::path::PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join(".sys")).unwrap();
        let lines = [
            r#"{"t":"2026-03-01T10:00:00Z","type":"creature.wake"}"#,
            r#"{"t":"2026-03-01T10:01:00Z","type":"creature.tool_call"}"#,
            r#"{"t":"2026-03-01T10:02:00Z","type":"creature.sleep"}"#,
            r#"{"t":"2026-03-01T10:03:00Z","type":"creature.dream"}"#,
            r#"{"t":"2026-03-01T10:04:00Z","type":"creature.wake"}"#,
        ];
        let path = tmp.path().join(".sys/events.jsonl");
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let index = TimeIndex::build(tmp.path()).unwrap();
        (tmp, index, path)
    }

    #[test]
    fn steps_go_by_event_wake_and_dream() {
        let (_tmp, index, path) = life();
        let first = index.wakes[0];
        let here = Position {
            at: At::Wake(1),
            offset: first.end,
            t: first.t,
            dreams: 0,
        };
        let t = |s| At::Time(parse_time(s).unwrap());
        assert_eq!(
            step(&index, &path, &here, Step::Event, true),
            Some(t("2026-03-01T10:01:00Z"))
        );
        assert_eq!(step(&index, &path, &here, Step::Event, false), None);
        assert_eq!(
            step(&index, &path, &here, Step::Wake, true),
            Some(At::Wake(2))
        );
        assert_eq!(step(&index, &path, &here, Step::Wake, false), None);
        assert_eq!(
            step(&index, &path, &here, Step::Dream, true),
            Some(At::Dream(1))
        );
        assert_eq!(step(&index, &path, &here, Step::Dream, false), None);
        let later = Position {
            at: t("2026-03-01T10:02:00Z"),
            offset: index.sleeps[0].end,
            t: index.sleeps[0].t,
            dreams: 0,
        };
        assert_eq!(
            step(&index, &path, &later, Step::Event, false),
            Some(t("2026-03-01T10:01:00Z"))
        );
    }

    #[test]
    fn the_prompt_reads_a_number_as_a_dream() {
        assert_eq!(parse_jump(" 12 "), Ok(At::Dream(12)));
        assert_eq!(parse_jump("wake:3"), Ok(At::Wake(3)));
        assert!(parse_jump("0").is_err());
        assert!(parse_jump("soon").is_err());
        assert_eq!(faster(64), 1);
        assert_eq!(faster(4), 8);
    }
}
