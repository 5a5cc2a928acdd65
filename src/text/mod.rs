//! Text for the screen: sanitizing untrusted creature text, syntax highlighting, markdown,
//! wrapping, rendering a screen buffer to SVG, and decoding server-sent events.

pub mod ascii;
pub mod highlight;
pub mod markdown;
pub mod sanitize;
pub mod sse;
pub mod svg;
pub mod wrap;

/// `bytes` in lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `bytes` as text, what is not UTF-8 replaced as [`String::from_utf8_lossy`] does; valid
/// text is checked by [`std::str::from_utf8`] first, whose check goes a word at a time
/// (the lossy one goes a byte at a time: several times slower on the megabytes a far
/// garden's snapshot brings).
pub fn lossy(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// [`lossy`] of bytes owned: valid text is not copied.
pub fn lossy_owned(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// `n` and its noun in the right number: `count(1, "dream", "dreams")` is `1 dream`,
/// `count(0, "copy", "copies")` is `0 copies`.
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_say_one_or_many() {
        assert_eq!(super::count(1u64, "dream", "dreams"), "1 dream");
        assert_eq!(super::count(0u64, "dream", "dreams"), "0 dreams");
        assert_eq!(super::count(2u32, "copy", "copies"), "2 copies");
    }

    #[test]
    fn text_not_utf8_is_replaced_as_the_lossy_conversion_replaces_it() {
        for bytes in [
            &b"plain"[..],
            "caf\u{e9} \u{1f600}".as_bytes(),
            b"cut \xf0\x9f",
            b"\xff\xfe ok",
            b"",
        ] {
            let want = String::from_utf8_lossy(bytes);
            assert_eq!(super::lossy(bytes), want);
            assert_eq!(super::lossy_owned(bytes.to_vec()), want);
        }
    }
}
