//! A hit inside a line of a JSON-lines file (the conversation, the dreams), cut down to
//! the text of the JSON string it is in, unescaped: what a person reads, not `\"` and
//! `\n` and the keys around it. Written by hand: the window around a hit is a fragment
//! of a line (possibly cut mid-string), which no JSON parser reads.

/// The parts of a hit's window, as [`super::preview::preview`] takes them.
#[derive(Debug, PartialEq, Eq)]
pub struct Window {
    pub before: Vec<u8>,
    pub matched: Vec<u8>,
    pub after: Vec<u8>,
    /// `before` starts where the string starts.
    pub whole_start: bool,
    /// `after` ends where the string ends.
    pub whole_end: bool,
}

/// The window cut to the JSON string the match lies in, its escapes undone; `None` when
/// the match is not inside one string (it spans a quote, or lies between values), and
/// the window is shown as it is.
pub fn string_window(
    before: &[u8],
    matched: &[u8],
    after: &[u8],
    whole_start: bool,
) -> Option<Window> {
    if unescaped_quote(matched).is_some() || ends_in_escape(before) || ends_in_escape(matched) {
        return None;
    }
    let (start, opened) = match last_unescaped_quote(before) {
        // Where the window starts at the line's start, the quote before the match opens a
        // string only if an odd number of quotes precede it.
        Some(q) if whole_start => (q + 1, quotes(before) % 2 == 1),
        // Cut mid-line: a quote after `:`, `[` or `,` opens a value.
        Some(q) => (q + 1, opens_value(&before[..q])),
        // No quote before the match in the window: it started inside the string.
        None => (0, !whole_start),
    };
    if !opened {
        return None;
    }
    let end = unescaped_quote(after);
    // A key is not what a person searched the text for.
    let key = end
        .is_some_and(|e| after[e + 1..].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b':'));
    if key {
        return None;
    }
    let after = &after[..end.unwrap_or(after.len())];
    Some(Window {
        before: unescape(&before[start..]),
        matched: unescape(matched),
        after: unescape(after),
        whole_start: start > 0 || whole_start,
        whole_end: end.is_some(),
    })
}

/// Whether `bytes` ends in an odd run of backslashes (an escape cut in two).
fn ends_in_escape(bytes: &[u8]) -> bool {
    bytes.iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}

/// Whether the quote ending `before` follows `:`, `[` or `,` (spaces aside).
fn opens_value(before: &[u8]) -> bool {
    matches!(
        before.iter().rev().find(|b| !b.is_ascii_whitespace()),
        Some(b':' | b'[' | b',')
    )
}

/// The unescaped quotes of `bytes`, counted.
fn quotes(bytes: &[u8]) -> usize {
    let mut n = 0;
    let mut escaped = false;
    for &b in bytes {
        match b {
            _ if escaped => escaped = false,
            b'\\' => escaped = true,
            b'"' => n += 1,
            _ => {}
        }
    }
    n
}

fn unescaped_quote(bytes: &[u8]) -> Option<usize> {
    let mut escaped = false;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            _ if escaped => escaped = false,
            b'\\' => escaped = true,
            b'"' => return Some(i),
            _ => {}
        }
    }
    None
}

fn last_unescaped_quote(bytes: &[u8]) -> Option<usize> {
    (0..bytes.len())
        .rev()
        .find(|&i| bytes[i] == b'"' && !ends_in_escape(&bytes[..i]))
}

/// JSON string escapes undone; line breaks and tabs become spaces (a preview is one
/// line). A `\u` escape cut short or a lone surrogate becomes U+FFFD; control
/// characters stay as they are, for the preview to make inert.
fn unescape(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b != b'\\' || i + 1 >= bytes.len() {
            out.push(b);
            i += 1;
            continue;
        }
        i += 2;
        match bytes[i - 1] {
            b'n' | b'r' | b't' => out.push(b' '),
            b'b' => out.push(0x08),
            b'f' => out.push(0x0c),
            b'u' => {
                let (c, used) = unicode_escape(&bytes[i..]);
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                i += used;
            }
            other => out.push(other),
        }
    }
    out
}

/// The character of a `\u` escape whose hex digits start `rest` (a surrogate pair takes
/// the next escape too), and the bytes it used.
fn unicode_escape(rest: &[u8]) -> (char, usize) {
    let hex = |b: &[u8]| -> Option<u32> {
        let digits = std::str::from_utf8(b.get(..4)?).ok()?;
        u32::from_str_radix(digits, 16).ok()
    };
    let Some(high) = hex(rest) else {
        return (char::REPLACEMENT_CHARACTER, 0);
    };
    if (0xD800..0xDC00).contains(&high)
        && rest.get(4..6) == Some(b"\\u")
        && let Some(low @ 0xDC00..0xE000) = rest.get(6..).and_then(hex)
    {
        let c = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
        return (char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER), 10);
    }
    (
        char::from_u32(high).unwrap_or(char::REPLACEMENT_CHARACTER),
        4,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(line: &str, needle: &str) -> Option<(String, String, String, bool, bool)> {
        let at = line.find(needle).unwrap();
        let w = string_window(
            &line.as_bytes()[..at],
            needle.as_bytes(),
            &line.as_bytes()[at + needle.len()..],
            true,
        )?;
        let s = |b: Vec<u8>| String::from_utf8(b).unwrap();
        Some((
            s(w.before),
            s(w.matched),
            s(w.after),
            w.whole_start,
            w.whole_end,
        ))
    }

    #[test]
    fn a_hit_in_a_message_reads_as_its_text() {
        let line = r#"{"t":"2026-11-22T17:59:00.000Z","role":"user","content":"say \"hi\"\nto the lookup table\u00e9"}"#;
        let (before, matched, after, start, end) = window(line, "lookup").unwrap();
        assert_eq!(before, "say \"hi\" to the ");
        assert_eq!(matched, "lookup");
        assert_eq!(after, " tableé");
        assert!(start && end);
    }

    #[test]
    fn a_hit_in_a_key_or_between_values_is_left_as_it_is() {
        let line = r#"{"role":"user","content":"x"}"#;
        assert_eq!(window(line, ":\"user\""), None, "spans quotes");
        assert_eq!(window(line, "role"), None, "a key");
    }

    #[test]
    fn a_window_cut_mid_line_finds_the_string_by_its_opening() {
        let w = string_window(br#"ad","content":"the big "#, b"cat", br#" sat"}"#, false).unwrap();
        assert_eq!(w.before, b"the big ");
        assert_eq!(w.after, b" sat");
        assert!(w.whole_start && w.whole_end);
        let w = string_window(b"deep inside the ", b"cat", b" and on", false).unwrap();
        assert_eq!(w.before, b"deep inside the ");
        assert!(!w.whole_start && !w.whole_end);
    }

    #[test]
    fn escapes_are_undone_and_control_characters_kept_for_the_preview() {
        assert_eq!(unescape(br#"a\u001b[2Jb\\c\/d"#), b"a\x1b[2Jb\\c/d");
        assert_eq!(
            String::from_utf8(unescape(br#"\ud83d\ude00 \u12"#)).unwrap(),
            "😀 \u{fffd}12"
        );
        assert_eq!(unescape(br#"\ud800x"#), "\u{fffd}x".as_bytes());
    }
}
