//! The tool calls of one conversation line, counted without building it: only `content`
//! and each block's `type` are decoded (the rest is skipped as it is scanned). The count
//! is [`ConversationEntry::tool_calls`]'s; a line this reader cannot settle (a duplicate
//! key, a lone surrogate to repair, a block `type` that is not a string) is parsed in full.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::conversation::ConversationEntry;
use super::fast_json::Content as Found;

/// The tool calls of a conversation line; `None` when it is not a valid entry.
pub fn count(line: &[u8]) -> Option<usize> {
    if let Some(calls) = super::fast_json::content_calls(line) {
        return Some(calls);
    }
    decoded(line)
}

/// [`count`] for a line whose `content` [`conversation_fields`] already found: the line
/// is not walked again where that value settles the count.
///
/// [`conversation_fields`]: super::fast_json::conversation_fields
pub fn count_found(content: Found, line: &[u8]) -> Option<usize> {
    let settled = match content {
        Found::Absent => Some(0),
        Found::Text(raw) => super::fast_json::text_calls(raw),
        // A value the walk read whole: an array is walked for its blocks, anything
        // else holds none.
        Found::Value(value) if value.starts_with(b"[") => super::fast_json::array_calls(value),
        Found::Value(_) => Some(0),
        Found::Unsettled => None,
    };
    settled.or_else(|| decoded(line))
}

/// The count read by a decoder: serde's quick read, else the full parse.
fn decoded(line: &[u8]) -> Option<usize> {
    let quick = by_serde(line);
    match quick {
        Some(n) => Some(n),
        None => ConversationEntry::parse(line).ok().map(|e| e.tool_calls()),
    }
}

/// The count read with serde, `content` and each block's `type` decoded.
fn by_serde(line: &[u8]) -> Option<usize> {
    std::str::from_utf8(line)
        .ok()
        .and_then(|text| serde_json::from_str::<Line>(text).ok())
        .and_then(|l| l.content.map_or(Some(0), |c| c.0))
}

#[derive(Deserialize)]
struct Line {
    #[serde(default)]
    content: Option<Content>,
}

/// `content`'s calls: `None` when only the full parse can say.
struct Content(Option<usize>);

/// A block's kind, when `type` is a string (the last one, as a JSON object keeps it).
struct Kind(Option<String>);

/// Counts the calls of a content string: a block array's JSON as text, or plain text.
fn in_text(text: &str) -> Option<usize> {
    if !text.trim_start().starts_with("[{") {
        return Some(0);
    }
    if let Some(calls) = super::fast_json::array_calls(text.as_bytes()) {
        return Some(calls);
    }
    match serde_json::from_str::<Vec<Kind>>(text) {
        Ok(kinds) => Some(calls(&kinds)),
        // Cut short by the logger: counted by its type tags, as the full parse does.
        Err(e) if e.is_eof() => Some(
            ["\"type\":\"tool_use\"", "\"type\":\"tool-result\""]
                .iter()
                .map(|needle| memchr::memmem::find_iter(text.as_bytes(), needle).count())
                .sum(),
        ),
        Err(_) => None,
    }
}

fn calls(kinds: &[Kind]) -> usize {
    kinds
        .iter()
        .filter(|k| {
            matches!(
                k.0.as_deref(),
                Some("tool_use" | "tool-call" | "tool-result")
            )
        })
        .count()
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Content;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Content, E> {
                Ok(Content(in_text(s)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content, A::Error> {
                let mut kinds = Vec::new();
                while let Some(k) = seq.next_element::<Kind>()? {
                    kinds.push(k);
                }
                Ok(Content(Some(calls(&kinds))))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Content, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Content(Some(0)))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Content, E> {
                Ok(Content(Some(0)))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Content, E> {
                Ok(Content(Some(0)))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Content, E> {
                Ok(Content(Some(0)))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Content, E> {
                Ok(Content(Some(0)))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Content, E> {
                Ok(Content(Some(0)))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Kind;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Kind, A::Error> {
                let mut kind = None;
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    if key == "type" {
                        // Not a string: the full parse decides (it reads it as no type).
                        kind = Some(map.next_value::<String>()?);
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(Kind(kind))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Kind, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Kind(None))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Kind, E> {
                Ok(Kind(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Kind, E> {
                Ok(Kind(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Kind, E> {
                Ok(Kind(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Kind, E> {
                Ok(Kind(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Kind, E> {
                Ok(Kind(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Kind, E> {
                Ok(Kind(None))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The count is the full parse's, line by line.
    #[test]
    fn counts_what_the_full_parse_counts() {
        let lines: &[&str] = &[
            r#"{"role":"user","content":"hello"}"#,
            r#"{"role":"user","content":null}"#,
            r#"{"role":"user"}"#,
            r#"{"role":"user","content":{"a":1}}"#,
            r#"{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"tool_use","id":"1","name":"bash","input":{"c":"ls"}},{"type":"tool-call","toolName":"x"}]}"#,
            r#"{"role":"assistant","content":[{"type":"tool-result","toolCallId":"1","output":{"value":"x"}}, 3, "s", [1], {"type":7}]}"#,
            r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"1","content":"ok"}]}"#,
            r#"{"role":"assistant","content":"[{\"type\":\"tool_use\",\"id\":\"1\",\"name\":\"bash\",\"input\":{}}]"}"#,
            r#"{"role":"assistant","content":"  [{\"type\":\"tool_use\",\"id\":\"1\",\"name\":\"bash\",\"input\":{\"cmd\":\"ls -la"}"#,
            r#"{"role":"assistant","content":"[{\"type\":\"text\",\"text\":\"\ud83d\"},{\"type\":\"tool_use\"}]"}"#,
            r#"{"role":"assistant","content":[{"type":"tool_use","type":"text"}]}"#,
            r#"{"role":"assistant","content":"[{ not json"}"#,
            r#"not json"#,
        ];
        for line in lines {
            if let Some(fast) = super::super::fast_json::content_calls(line.as_bytes()) {
                assert_eq!(Some(fast), by_serde(line.as_bytes()), "{line}");
            }
            let full = ConversationEntry::parse(line.as_bytes())
                .ok()
                .map(|e| e.tool_calls());
            assert_eq!(count(line.as_bytes()), full, "{line}");
        }
    }

    fn block() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        prop_oneof![
            Just(r#"{"type":"tool_use","id":"1","input":{"a":[1,{"type":"text"}]}}"#.to_string()),
            Just(r#"{"type":"tool-call"}"#.to_string()),
            Just(r#"{"type":"tool-result","output":"x"}"#.to_string()),
            Just(r#"{"type":"text","text":"[{\"type\":\"tool_use\"}]"}"#.to_string()),
            Just(r#"{"type":"tool_use","type":"text"}"#.to_string()),
            Just(r#"{"type":"text","type":"tool_use"}"#.to_string()),
            Just(r#"{"ty\u0070e":"tool_use"}"#.to_string()),
            Just(r#"{"type":"tool\u005fuse"}"#.to_string()),
            Just(r#"{"type":7}"#.to_string()),
            Just(r#"{}"#.to_string()),
            Just(r#""s""#.to_string()),
            Just("3".to_string()),
            Just("[1,{\"type\":\"tool_use\"}]".to_string()),
            Just("null".to_string()),
        ]
    }

    fn content() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        prop_oneof![
            proptest::collection::vec(block(), 0..6).prop_map(|b| format!("[{}]", b.join(","))),
            Just(r#""plain text""#.to_string()),
            Just(r#""  [{\"type\":\"tool_use\"}]""#.to_string()),
            Just(r#""\n[{\"type\":\"tool_use\"}]""#.to_string()),
            Just(r#""\u000b[{\"type\":\"tool_use\"}]""#.to_string()),
            Just(r#""\u00a0[{\"type\":\"tool_use\"}]""#.to_string()),
            Just(r#""caf\u00e9 [{\"type\":\"tool_use\"}]""#.to_string()),
            Just("null".to_string()),
            Just(r#"{"type":"tool_use"}"#.to_string()),
            Just("[".to_string()),
            // Blocks written as JSON text, as OpenSeed writes them.
            proptest::collection::vec(block(), 1..5).prop_map(|b| {
                serde_json::to_string(&format!("[{}]", b.join(","))).unwrap_or_default()
            }),
        ]
    }

    proptest::proptest! {
        /// Where the scan settles a count, it is serde's.
        #[test]
        fn the_scan_counts_what_serde_counts(
            first in content(),
            second in proptest::option::of(content()),
            key in proptest::sample::select(vec!["content", "con\\u0074ent", "other"]),
        ) {
            let mut line = format!(r#"{{"role":"assistant","{key}":{first}"#);
            if let Some(second) = second {
                line.push_str(&format!(r#","content":{second}"#));
            }
            line.push('}');
            if let Some(fast) = super::super::fast_json::content_calls(line.as_bytes()) {
                proptest::prop_assert_eq!(Some(fast), by_serde(line.as_bytes()), "{}", line);
            }
            // The count, whichever way it is read, is the full parse's.
            let full = ConversationEntry::parse(line.as_bytes()).ok().map(|e| e.tool_calls());
            if full.is_some() {
                proptest::prop_assert_eq!(count(line.as_bytes()), full, "{}", line);
                // And so from the content the fields' walk found.
                if let Some(fields) = super::super::fast_json::conversation_fields(line.as_bytes()) {
                    proptest::prop_assert_eq!(count_found(fields.content, line.as_bytes()), full, "{}", line);
                }
            }
        }
    }
}
