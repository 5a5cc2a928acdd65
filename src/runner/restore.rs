//! Rebuilding a creature from disk at start: a creature never starts from zero.
//!
//! Logs are read from the end and only as far as needed: the conversation's last lines,
//! and the events after the last dream (the activity a dream has not consolidated yet).

use std::io;
use std::path::Path;

use crate::memory::conversation::ConversationEntry;
use crate::memory::events::{Event, EventKind};
use crate::memory::identity::SleepFile;
use crate::memory::iterations::Iteration;
use crate::memory::write::{SeedPaths, read_optional};

use super::activity::Activity;
use super::config::RunnerConfig;
use super::disk::{read_inbox, read_inbox_state};
use super::engine::input::Restored;
use super::genome::{Genome, GenomeFiles};

/// Most of a log read back at start.
const MAX_TAIL_BYTES: u64 = 16 * 1024 * 1024;
/// A longer line of a log is skipped at start (and said), never held.
pub const MAX_RESTORED_LINE: usize = 4 << 20;

/// Lines of `path` from the end backwards, while `keep` says so (at most `max_bytes`,
/// lines over [`MAX_RESTORED_LINE`] skipped: their count is the third value).
/// Returns them oldest first, and whether the start of the file was reached.
pub fn read_back(
    path: &Path,
    max_bytes: u64,
    keep: impl FnMut(&[u8]) -> bool,
) -> io::Result<(Vec<Vec<u8>>, bool, u64)> {
    // A FIFO or a device in a log's place is an error, never a hang at start.
    let back = crate::tail::read_back(path, max_bytes, MAX_RESTORED_LINE, keep)?;
    Ok((back.lines, back.whole, back.oversized))
}

/// Says how many lines of `file` were too long to be read.
fn oversized(file: &str, n: u64, errors: &mut Vec<String>) {
    if n > 0 {
        errors.push(format!(
            "{file}: {} over {} MiB skipped",
            crate::text::count(n, "line", "lines"),
            MAX_RESTORED_LINE >> 20
        ));
    }
}

fn text(path: &Path, errors: &mut Vec<String>) -> Option<String> {
    match read_optional(path) {
        Ok(b) => b.map(|b| String::from_utf8_lossy(&b).into_owned()),
        Err(e) => {
            errors.push(format!("{}: {e}", path.display()));
            None
        }
    }
}

/// Everything the engine and the genome need to go on where the creature left off.
pub fn restore<G: Genome>(
    paths: &SeedPaths,
    cfg: &RunnerConfig,
    files: &mut G::Files,
) -> Restored<G::Restored> {
    let mut r = Restored::default();
    let errors = &mut r.errors;
    r.purpose = text(&paths.purpose(), errors)
        .unwrap_or_default()
        .trim()
        .to_string();
    let genome = files.restore(paths);
    errors.extend(genome.errors);
    r.genome = genome.state;
    let last_dream_t = genome.last_consolidated;
    r.guardrail = crate::memory::guardrail::read(&paths.root).filter(|g| g.held());

    match text(&paths.sleep(), errors).map(|t| SleepFile::parse(t.as_bytes())) {
        Some(Ok(s)) => r.sleep_until = s.wake_at,
        Some(Err(e)) => errors.push(format!("sleep.json: {e}")),
        None => {}
    }
    if r.sleep_until.is_some() {
        let mut first = true;
        if let Ok((last, _, _)) = read_back(&paths.iterations(), MAX_TAIL_BYTES, |_| {
            std::mem::take(&mut first)
        }) {
            r.sleep_started = last
                .first()
                .and_then(|l| Iteration::parse(l).ok())
                .and_then(|i| i.sleep_started_at);
        }
    }

    // Events since the last consolidation: the activity to consolidate, and whether a sleep
    // began without a pause or a wake after it (the runner stopped during the sleep work).
    let mut bad_events = 0;
    let read = read_back(&paths.events(), MAX_TAIL_BYTES, |line| {
        match Event::parse(line) {
            Ok(e) => {
                e.kind != G::CONSOLIDATION_EVENT
                    && !(last_dream_t.is_some() && e.t.is_some() && e.t < last_dream_t)
            }
            Err(_) => true,
        }
    });
    let events: Vec<Event> = match read {
        Ok((lines, _, long)) => {
            oversized("events.jsonl", long, errors);
            lines
                .iter()
                .filter_map(|l| Event::parse(l).map_err(|_| bad_events += 1).ok())
                .collect()
        }
        Err(e) => {
            errors.push(format!("events.jsonl: {e}"));
            Vec::new()
        }
    };
    if bad_events > 0 {
        errors.push(format!("events.jsonl: {bad_events} bad line(s) skipped"));
    }
    let last_mark = events
        .iter()
        .rev()
        .find(|e| matches!(e.kind, EventKind::Sleep | EventKind::Wake | EventKind::Boot));
    if r.sleep_until.is_none() {
        r.interrupted_sleep_s = last_mark
            .filter(|e| e.kind == EventKind::Sleep)
            .and_then(|e| e.f64("seconds"));
    }
    r.activity = Activity::from_events(&events);

    // The conversation's last lines: enough for KEEP_RECENT_MESSAGES messages.
    let want = cfg.cycle.keep_recent_messages.saturating_mul(4).max(100);
    let mut n = 0;
    match read_back(&paths.conversation(), MAX_TAIL_BYTES, |_| {
        n += 1;
        n <= want
    }) {
        Ok((lines, whole, long)) => {
            oversized("conversation.jsonl", long, errors);
            let mut bad = 0;
            for l in &lines {
                match ConversationEntry::parse(l) {
                    Ok(e) => r.conversation.push((e.role, e.content)),
                    Err(_) => bad += 1,
                }
            }
            if bad > 0 {
                errors.push(format!("conversation.jsonl: {bad} bad line(s) skipped"));
            }
            r.whole_log = whole;
            r.fresh = whole && lines.is_empty() && !genome.lived;
        }
        Err(e) => errors.push(format!("conversation.jsonl: {e}")),
    }

    match read_inbox_state(paths) {
        Ok((delivered, migrated)) => {
            r.inbox_delivered = delivered;
            r.inbox_migrated = migrated;
        }
        Err(e) => errors.push(e.to_string()),
    }
    match read_inbox(paths) {
        Ok(i) => r.inbox = Some(i),
        Err(e) => errors.push(e.to_string()),
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_back_refuses_a_fifo_instead_of_hanging() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("log");
        let made = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .unwrap();
        assert!(made.success());
        assert!(read_back(&p, 1024, |_| true).is_err());
    }

    #[test]
    fn read_back_across_chunks_and_a_missing_final_newline() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("log");
        let mut body = String::new();
        for i in 0..20_000 {
            body.push_str(&format!("line {i}\n"));
        }
        body.push_str("last");
        std::fs::write(&p, &body).unwrap();
        let mut n = 0;
        let (lines, whole, _) = read_back(&p, u64::MAX, |_| {
            n += 1;
            n <= 3
        })
        .unwrap();
        assert_eq!(
            lines,
            vec![
                b"line 19998".to_vec(),
                b"line 19999".to_vec(),
                b"last".to_vec()
            ]
        );
        assert!(!whole);
        let (all, whole, _) = read_back(&p, u64::MAX, |_| true).unwrap();
        assert_eq!(all.len(), 20_001);
        assert_eq!(all[0], b"line 0");
        assert!(whole);
        let (capped, whole, _) = read_back(&p, 100, |_| true).unwrap();
        assert!(!whole);
        assert!(capped.len() < 20);
        assert_eq!(
            read_back(&dir.path().join("none"), 10, |_| true).unwrap(),
            (Vec::new(), true, 0)
        );
    }
}
