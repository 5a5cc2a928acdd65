//! What the dreams list needs of a `dreams.jsonl` line, read without decoding its
//! reflection (most of the line): a long life's file holds thousands of dreams, all read
//! before the first frame. A line this reader is not sure of is left to the full parser
//! ([`Dream::parse`](super::dreams::Dream::parse)), which decides; on every line it
//! accepts, the two agree.

use std::borrow::Cow;

use chrono::{DateTime, Utc};

use super::fast_json::{Raw, each_field};
use super::time::parse_time;

/// A dream's fields but its reflection.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct DreamFields {
    pub t: Option<DateTime<Utc>>,
    pub actions: u64,
    pub priority: String,
    pub observations: u64,
    pub deep: bool,
}

/// The fields of `line`; `None` when the full parser must decide (not an object, a field
/// of an unexpected type or repeated, an escaped key, a string that does not decode).
pub fn dream_fields(line: &[u8]) -> Option<DreamFields> {
    let mut f = DreamFields::default();
    let mut seen = [false; 6];
    each_field(line, |key, value| {
        let slot = match key {
            b"t" => 0,
            b"actions" => 1,
            b"reflection" => 2,
            b"priority" => 3,
            b"observations" => 4,
            b"deep" => 5,
            // The full parser would decode an escaped key: it might be one of the above.
            _ if key.contains(&b'\\') => return None,
            _ => return Some(()),
        };
        if std::mem::replace(&mut seen[slot], true) {
            return None;
        }
        match (slot, value) {
            // Any value is taken for the time; only a string that parses is one.
            (0, Raw::Str(quoted)) => f.t = parse_time(&decode(quoted)?),
            (0, _) => f.t = None,
            (1, Raw::Number(n)) => f.actions = whole(n)?,
            (2, Raw::Str(_)) => {}
            (3, Raw::Str(quoted)) => f.priority = decode(quoted)?.into_owned(),
            (4, Raw::Number(n)) => f.observations = whole(n)?,
            (5, Raw::True) => f.deep = true,
            (5, Raw::False) => f.deep = false,
            _ => return None,
        }
        Some(())
    })?;
    Some(f)
}

/// A JSON string (with its quotes) decoded; `None` for what serde_json would refuse
/// (invalid UTF-8, a lone surrogate escape).
fn decode(quoted: &[u8]) -> Option<Cow<'_, str>> {
    let inner = quoted.get(1..quoted.len().checked_sub(1)?)?;
    if memchr::memchr(b'\\', inner).is_some() {
        return match super::fast_json::unescape(inner).map(String::from_utf8) {
            Some(Ok(text)) => Some(Cow::Owned(text)),
            _ => serde_json::from_slice(quoted).ok().map(Cow::Owned),
        };
    }
    std::str::from_utf8(inner).ok().map(Cow::Borrowed)
}

/// A number as a `u64` field takes it: digits only (no sign, fraction or exponent).
fn whole(n: &[u8]) -> Option<u64> {
    std::str::from_utf8(n).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::dreams::Dream;
    use proptest::prelude::*;

    /// What the full parser makes of `line`, as these fields.
    fn full(line: &str) -> Option<DreamFields> {
        Dream::parse(line.as_bytes()).ok().map(|d| DreamFields {
            t: d.t,
            actions: d.actions,
            priority: d.priority,
            observations: d.observations,
            deep: d.deep,
        })
    }

    #[test]
    fn reads_a_dream_but_its_reflection() {
        let line = r#"{"t": "2026-03-01T00:01:27.639Z", "actions": 44, "reflection": "a \u6771 \"b\"", "priority": "caf\u00e9", "observations": 3, "deep": true, "extra": [1, {"x": null}]}"#;
        let f = dream_fields(line.as_bytes()).expect("read");
        assert_eq!(Some(f.clone()), full(line));
        assert_eq!(f.priority, "café");
        assert!(f.deep);
        assert_eq!(dream_fields(b"{}"), Some(DreamFields::default()));
    }

    #[test]
    fn leaves_to_the_full_parser_what_it_is_unsure_of() {
        for line in [
            r#"{"actions": -1}"#,
            r#"{"actions": 1.0}"#,
            r#"{"actions": 1e3}"#,
            r#"{"actions": 99999999999999999999}"#,
            r#"{"deep": null}"#,
            r#"{"reflection": 5}"#,
            r#"{"priority": "\ud800"}"#,
            r#"{"\u0074": "2026-03-01T00:00:00Z"}"#,
            r#"{"t": "a", "t": "b"}"#,
            r#"[1]"#,
            r#"{"t": "x"} trailing"#,
        ] {
            assert_eq!(dream_fields(line.as_bytes()), None, "{line}");
        }
        // Not a string: no time, as the full parser says.
        let line = r#"{"t": 5, "actions": 2}"#;
        assert_eq!(dream_fields(line.as_bytes()), full(line));
    }

    fn fragment() -> impl Strategy<Value = String> {
        prop_oneof![
            Just(r#""t": "2026-03-01T10:00:00Z""#.to_string()),
            Just(r#""t": "2026-03-01T10:00:00\u005a""#.to_string()),
            Just(r#""t": null"#.to_string()),
            Just(r#""t": 7"#.to_string()),
            Just(r#""actions": 12"#.to_string()),
            Just(r#""actions": -3"#.to_string()),
            Just(r#""actions": 0.5"#.to_string()),
            Just(r#""observations": 4"#.to_string()),
            Just(r#""reflection": "r \ud83d\ude00 \ud800 \n""#.to_string()),
            Just(r#""reflection": null"#.to_string()),
            Just(r#""priority": "p \u00e9 \"q\"""#.to_string()),
            Just(r#""priority": "\udc00""#.to_string()),
            Just(r#""priority": 3"#.to_string()),
            Just(r#""deep": true"#.to_string()),
            Just(r#""deep": false"#.to_string()),
            Just(r#""deep": "yes""#.to_string()),
            Just(r#""other": {"a": [1, 2]}"#.to_string()),
            Just(r#""d\u0065ep": true"#.to_string()),
            Just("\"bad\": \u{1}".to_string()),
        ]
    }

    proptest! {
        #[test]
        fn agrees_with_the_full_parser(parts in proptest::collection::vec(fragment(), 0..8)) {
            let line = format!("{{{}}}", parts.join(", "));
            if let Some(fields) = dream_fields(line.as_bytes()) {
                prop_assert_eq!(Some(fields), full(&line), "line {}", line);
            }
        }
    }
}
