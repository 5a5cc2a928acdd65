//! `--headless` progress: one line per event, creature text made inert for the terminal.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use super::activity::clip;
use crate::memory::events::{CreatureEvent, EventKind};

/// Shows control characters as `^X` (ESC as `^[`), so creature text cannot drive the terminal.
pub fn inert(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' => out.push(' '),
            c if (c as u32) < 0x20 => {
                out.push('^');
                out.push(char::from(b'@' + c as u8));
            }
            '\u{7f}' => out.push_str("^?"),
            c if ('\u{80}'..='\u{9f}').contains(&c) => {
                out.push_str(&format!("<U+{:04X}>", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

/// The first line of `s`, clipped and inert.
fn first_line(s: &str, max: usize) -> String {
    inert(&clip(s.lines().next().unwrap_or("").trim(), max))
}

/// The first line of `s`, inert, cut after a whole word when longer than `max` characters.
fn whole_words(s: &str, max: usize) -> String {
    let line = s.lines().next().unwrap_or("").trim();
    if line.chars().count() <= max {
        return inert(line);
    }
    let cut = clip(line, max);
    let words = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{}…", inert(words.trim_end()))
}

/// One line for an event of `.sys/events.jsonl`; `None` for events not worth a line.
pub fn line(
    name: &str,
    t: DateTime<Utc>,
    kind: &EventKind,
    fields: &Map<String, Value>,
) -> Option<String> {
    let s = |v: &Option<String>| v.clone().unwrap_or_default();
    let what = match CreatureEvent::from_fields(kind, fields)? {
        CreatureEvent::Boot(_) => "boot".to_string(),
        CreatureEvent::Thought(e) => format!("thought  {}", first_line(&s(&e.text), 100)),
        CreatureEvent::ToolCall(e) => format!(
            "tool     {} {} {}ms  {}",
            s(&e.tool),
            if e.ok == Some(true) { "ok  " } else { "FAIL" },
            e.ms.unwrap_or_default(),
            first_line(&s(&e.input), 80)
        ),
        CreatureEvent::Sleep(e) => format!(
            "sleep    {}s after {} actions: {}",
            e.seconds.unwrap_or_default(),
            e.actions.unwrap_or_default(),
            first_line(&s(&e.text), 80)
        ),
        CreatureEvent::Dream(e) => format!(
            "dream    {}{} observations; priority: {}",
            if e.deep == Some(true) { "(deep) " } else { "" },
            e.observations.unwrap_or_default(),
            first_line(&s(&e.priority), 80)
        ),
        CreatureEvent::Wake(e) => format!("wake     {}", first_line(&s(&e.source), 20)),
        CreatureEvent::Message(e) => format!(
            "message  from {}: {}",
            first_line(&s(&e.from.or(e.source)), 20),
            first_line(&s(&e.text), 80)
        ),
        CreatureEvent::MessageSent(e) => format!(
            "sent     to {} ({}): {}",
            first_line(&s(&e.to), 20),
            first_line(&s(&e.delivery), 20),
            first_line(&s(&e.text), 80)
        ),
        CreatureEvent::Error(e) => {
            let next = match (e.retry_in, e.retries) {
                (Some(ms), Some(n)) => format!(" (try {n} failed; next in {:.0}s)", ms / 1000.0),
                (Some(ms), None) => format!(" (next try in {:.0}s)", ms / 1000.0),
                _ => String::new(),
            };
            format!("error    {}{next}", whole_words(&s(&e.error), 300))
        }
        CreatureEvent::Pause(e) => format!("paused   by {}", first_line(&s(&e.source), 20)),
        CreatureEvent::Resume(e) => format!("resumed  by {}", first_line(&s(&e.source), 20)),
    };
    Some(format!("{} {}  {what}", t.format("%H:%M:%S"), inert(name)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn escape_sequences_are_inert() {
        assert_eq!(inert("\x1b[31mred\x07"), "^[[31mred^G");
        assert_eq!(inert("a\u{9b}b"), "a<U+009B>b");
    }

    #[test]
    fn lines_for_events() {
        let t = DateTime::parse_from_rfc3339("2026-03-01T10:00:05Z")
            .unwrap()
            .with_timezone(&Utc);
        let f = json!({"tool": "bash", "input": "ls\nrm x", "ok": false, "ms": 12});
        let l = line("sprout", t, &EventKind::ToolCall, f.as_object().unwrap()).unwrap();
        assert_eq!(l, "10:00:05 sprout  tool     bash FAIL 12ms  ls");
        let f = json!({"deep": true, "observations": 3, "priority": "p"});
        assert!(
            line("s", t, &EventKind::Dream, f.as_object().unwrap())
                .unwrap()
                .contains("dream    (deep) 3 observations")
        );
        assert!(line("s", t, &EventKind::HostSpawn, &Map::new()).is_none());
    }

    #[test]
    fn errors_are_whole_words_with_the_next_try() {
        let t = DateTime::parse_from_rfc3339("2026-03-01T10:00:05Z")
            .unwrap()
            .with_timezone(&Utc);
        let error = format!(
            "model call failed: connection refused {}",
            "again ".repeat(80)
        );
        let f = json!({"error": error, "retryIn": 4000.0, "retries": 2});
        let l = line("s", t, &EventKind::Error, f.as_object().unwrap()).unwrap();
        assert!(l.ends_with("again… (try 2 failed; next in 4s)"), "{l}");
        let f = json!({"error": "model call failed: timeout", "retryIn": 2000.0, "retries": 1});
        let l = line("s", t, &EventKind::Error, f.as_object().unwrap()).unwrap();
        assert!(
            l.ends_with("error    model call failed: timeout (try 1 failed; next in 2s)"),
            "{l}"
        );
    }
}
