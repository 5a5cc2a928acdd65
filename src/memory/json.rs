//! Tolerant JSON for creature lines.
//!
//! OpenSeed cuts logged text at 10,000 UTF-16 units, which can split a surrogate pair and
//! leave a lone `\udXXX` escape in an otherwise valid JSON line. serde_json rejects those,
//! so a line that fails is retried once with every lone surrogate escape replaced by
//! `\ufffd`. Hand-written because no JSON crate offers this repair.

use serde::de::DeserializeOwned;

/// Why a line of a creature's JSON file (or a JSON file) is not a record. Shown as a short
/// reason in the problem list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("not a JSON object")]
    NotAnObject,
    /// serde_json's reason (kept as text: its error type is neither `Clone` nor `Eq`).
    #[error("{0}")]
    Json(String),
    #[error("missing {0:?}")]
    Missing(&'static str),
    /// The line could not be read back from disk.
    #[error("cannot read {path}: {reason}")]
    Unreadable { path: String, reason: String },
}

impl From<serde_json::Error> for LineError {
    fn from(e: serde_json::Error) -> Self {
        Self::Json(e.to_string())
    }
}

/// Parses one JSON line (without its newline), repairing lone surrogate escapes and
/// invalid UTF-8 (shown as U+FFFD).
pub fn parse_line<T: DeserializeOwned>(line: &[u8]) -> Result<T, LineError> {
    // Every creature line is an object; serde would also accept a struct as an array.
    if line.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(LineError::NotAnObject);
    }
    let first = match serde_json::from_slice::<T>(line) {
        Ok(v) => return Ok(v),
        Err(e) => e,
    };
    let text = String::from_utf8_lossy(line);
    let repaired = repair_lone_surrogates(&text);
    match (&text, &repaired) {
        (std::borrow::Cow::Borrowed(_), None) => Err(first.into()),
        _ => {
            let candidate = repaired.as_deref().unwrap_or(&text);
            Ok(serde_json::from_str::<T>(candidate)?)
        }
    }
}

/// Replaces `\uD800`..`\uDFFF` escapes that are not part of a valid pair with `\ufffd`.
/// Returns `None` when there is nothing to repair.
pub fn repair_lone_surrogates(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    memchr::memmem::find(bytes, b"\\u")?;
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut in_string = false;
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !in_string {
            if b == b'"' {
                in_string = true;
            }
            i += 1;
            continue;
        }
        match b {
            b'"' => {
                in_string = false;
                i += 1;
            }
            b'\\' => {
                let unit = (bytes.get(i + 1) == Some(&b'u'))
                    .then(|| hex4(bytes, i + 2))
                    .flatten();
                match unit {
                    Some(0xD800..0xDC00) if is_low_escape(bytes, i + 6) => {
                        i += 12;
                    }
                    Some(0xD800..0xE000) => {
                        out.push_str(&text[copied..i]);
                        out.push_str("\\ufffd");
                        changed = true;
                        i += 6;
                        copied = i;
                    }
                    _ => i += 2,
                }
            }
            _ => i += 1,
        }
    }
    if !changed {
        return None;
    }
    out.push_str(&text[copied.min(text.len())..]);
    Some(out)
}

/// Whether a `\\uDC00`..`\\uDFFF` escape starts at `at`.
fn is_low_escape(bytes: &[u8], at: usize) -> bool {
    bytes.get(at) == Some(&b'\\')
        && bytes.get(at + 1) == Some(&b'u')
        && hex4(bytes, at + 2).is_some_and(|u| (0xDC00..0xE000).contains(&u))
}

fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = bytes.get(at..at + 4)?;
    let s = std::str::from_utf8(digits).ok()?;
    u32::from_str_radix(s, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn lone_high_surrogate_becomes_replacement_char() {
        let v: Value = parse_line(br#"{"content":"cut here \ud83d"}"#).unwrap();
        assert_eq!(v["content"], "cut here \u{fffd}");
    }

    #[test]
    fn lone_low_surrogate_becomes_replacement_char() {
        let v: Value = parse_line(br#"{"content":"\ude00 tail"}"#).unwrap();
        assert_eq!(v["content"], "\u{fffd} tail");
    }

    #[test]
    fn valid_pair_is_kept() {
        let v: Value = parse_line(br#"{"c":"\ud83d\ude00 \ud83d"}"#).unwrap();
        assert_eq!(v["c"], "\u{1F600} \u{fffd}");
    }

    #[test]
    fn escaped_backslash_is_not_an_escape() {
        assert_eq!(repair_lone_surrogates(r#"{"c":"\\ud800"}"#), None);
    }

    #[test]
    fn invalid_utf8_is_lossy() {
        let v: Value = parse_line(b"{\"c\":\"a\xffb\"}").unwrap();
        assert_eq!(v["c"], "a\u{fffd}b");
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(parse_line::<Value>(b"{not json").is_err());
        assert!(parse_line::<Value>(b"").is_err());
    }
}
