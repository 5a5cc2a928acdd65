//! Why a creature is failing, in words: the runner's last error with the cause first and
//! the URL after it, and when its runner tries again.

use chrono::{DateTime, TimeDelta, Utc};

use crate::memory::events::Event;
use crate::text::sanitize::sanitize_line;

/// The latest error of a failing creature, ready for the header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What went wrong, in words, inert.
    pub words: String,
    /// When the runner tries again (`None`: it waits for a person, or does not say).
    pub retry_at: Option<DateTime<Utc>>,
}

impl Failure {
    /// The failure an error event says.
    pub fn of(event: &Event) -> Option<Self> {
        let error = event.str("error")?;
        let retry_at = match (event.t, event.f64("retryIn")) {
            (Some(t), Some(ms)) if ms.is_finite() && ms >= 0.0 => {
                Some(t + TimeDelta::milliseconds(ms as i64))
            }
            _ => None,
        };
        Some(Self {
            words: in_words(error),
            retry_at,
        })
    }

    /// What the header says of it at `now`: `failing: connection refused at URL · retry in 8s`.
    pub fn said(&self, now: DateTime<Utc>) -> String {
        let next = match self.retry_at {
            Some(at) if at > now => {
                // Rounded up: never "retry in 0s" while it is still to come.
                let secs = ((at - now).num_milliseconds() + 999) / 1000;
                format!(" · retry in {}", crate::ui::draw::fmt::duration(secs))
            }
            Some(_) => " · retrying".to_string(),
            None => String::new(),
        };
        format!("failing: {}{next}", self.words)
    }
}

/// An error as a runner records it, in words: without the `model call failed: ` every
/// model error starts with, a connection's cause before its URL.
pub fn in_words(error: &str) -> String {
    let error = sanitize_line(error);
    let error = error.trim();
    let error = error.strip_prefix("model call failed: ").unwrap_or(error);
    if let Some(rest) = error.strip_prefix("cannot connect to ")
        && let Some((url, cause)) = rest.split_once(": ")
    {
        return format!("{cause} at {url}");
    }
    error.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_connection_reads_cause_first_with_the_next_try() {
        let e = Event::parse(
            br#"{"t":"2026-03-09T10:00:00Z","type":"creature.error","error":"model call failed: cannot connect to http://127.0.0.1:9/v1/messages: connection refused","retryIn":8000}"#,
        )
        .unwrap();
        let f = Failure::of(&e).unwrap();
        let t = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
        assert_eq!(
            f.said(t("2026-03-09T10:00:00Z")),
            "failing: connection refused at http://127.0.0.1:9/v1/messages · retry in 8s"
        );
        assert_eq!(
            f.said(t("2026-03-09T10:00:09Z")),
            "failing: connection refused at http://127.0.0.1:9/v1/messages · retrying"
        );
        assert_eq!(
            in_words(
                "the model refused the key (401): check OPENAI_API_KEY · wake to try again\u{1b}[2J"
            ),
            "the model refused the key (401): check OPENAI_API_KEY · wake to try again^[[2J"
        );
    }
}
