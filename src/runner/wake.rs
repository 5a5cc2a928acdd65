//! The texts the runner puts in the creature's context: wake-up messages, notes, the
//! creator's messages.

use chrono::{DateTime, Utc};

use crate::memory::time::format_time;

/// The full wake-up message after a sleep that consolidated, or a restart: the headline,
/// the genome's recap (ending with where the full history is), and the inbox.
pub fn wake_message(headline: &str, recap: &str, inbox: Option<&str>) -> String {
    format!("{headline}\n{recap}{}", inbox_text(inbox))
}

/// The short message after a nap or a plain pause (no dream).
pub fn nap_message(now: DateTime<Utc>, slept_s: f64, inbox: Option<&str>) -> String {
    let mut out = format!(
        "[{}] You slept for {}s. You're awake now. Continue where you left off.\n",
        format_time(now),
        slept_s.round()
    );
    if let Some(text) = inbox.filter(|t| !t.trim().is_empty()) {
        out.push('\n');
        out.push_str(&inbox_text(Some(text)));
    }
    out
}

/// The very first message of a creature's life; `history` says where its memory will be.
pub fn birth_message(now: DateTime<Utc>, history: &str, inbox: Option<&str>) -> String {
    format!(
        "[{}] You just came to life. Your purpose is in PURPOSE.md and in your instructions. \
         Look around, decide what to do, and act.\n\n{history}\n{}",
        format_time(now),
        inbox_text(inbox)
    )
}

fn inbox_text(inbox: Option<&str>) -> String {
    match inbox.map(str::trim).filter(|t| !t.is_empty()) {
        Some(text) => format!(
            "\nNew in MESSAGES.md from your creator (they cannot read your replies; act on it):\n---\n{text}\n---\n"
        ),
        None => "Nothing new in MESSAGES.md.\n".into(),
    }
}

/// A message the operator sent while the creature was awake.
pub fn creator_message(text: &str) -> String {
    format!(
        "[MESSAGE FROM YOUR CREATOR, also appended to MESSAGES.md. Your creator cannot hear \
         you or read your replies: take it in and carry on.]\n\n{}",
        text.trim()
    )
}

/// A message from another creature of the garden, as the creature is given it.
pub fn creature_message(from: &str, text: &str) -> String {
    format!(
        "[MESSAGE FROM {from}, a creature of your garden, also appended to MESSAGES.md. \
         Answer with send_message{{to: \"{from}\"}} if you wish.]\n\n{}",
        text.trim()
    )
}

/// A garden message's section in the recipient's `MESSAGES.md`.
pub fn inbox_entry(from: &str, text: &str) -> String {
    format!("From {from}: {}", text.trim())
}

/// Heads the context after a trim, unless the genome says more
/// ([`crate::runner::genome::Genome::trim_note`]).
pub fn trim_note(dropped: usize) -> String {
    format!(
        "[Earlier context ({dropped} messages) was trimmed; every message is still in \
         .self/conversation.jsonl. Search it with rg.]"
    )
}

pub const FATIGUE_WARNING: &str = "[SYSTEM] You've been active for a while. Start wrapping up \
your current task: you'll need to rest soon for memory consolidation.";

pub fn exhausted(actions: u64) -> String {
    format!(
        "[SYSTEM] You're exhausted: {actions} tool calls since your last dream. Sleeping now for \
         memory consolidation."
    )
}

pub const OPERATOR_SLEEP: &str =
    "[SYSTEM] Your operator is putting you to sleep now for memory consolidation.";

/// A guardrail puts the creature to sleep (`detail`: what tripped).
pub fn guardrail_sleep(detail: &str) -> String {
    format!(
        "[SYSTEM] A guardrail is putting you to sleep now for memory consolidation: {detail}. \
         You will stay asleep until a person wakes you."
    )
}

pub const CONTINUE: &str = "Continue. Use your tools to take action.";

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn wake_message_is_headline_recap_inbox() {
        let m = wake_message("[t] You woke up.", "recap\n", Some("please be brief\n"));
        assert!(m.starts_with("[t] You woke up.\nrecap\n\nNew in MESSAGES.md from your creator"));
        assert!(m.contains("---\nplease be brief\n---"));
    }

    #[test]
    fn empty_inbox_is_said() {
        let now = Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap();
        assert!(
            nap_message(now, 12.4, None)
                .starts_with("[2026-03-01T10:00:00.000Z] You slept for 12s.")
        );
        assert!(!nap_message(now, 12.0, Some("  ")).contains("MESSAGES"));
        assert!(
            birth_message(now, "history", None).contains("history\nNothing new in MESSAGES.md.")
        );
    }
}
