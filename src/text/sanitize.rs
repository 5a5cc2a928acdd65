//! Makes untrusted creature text safe to put on a terminal.
//!
//! Nothing that reaches the screen can move the cursor, change colours or reorder text:
//! - ESC is shown as `^[` (so `\x1b[31m` becomes `^[[31m`), the other C0 controls as
//!   `^@`..`^_` and DEL as `^?`;
//! - C1 controls (U+0080..U+009F, such as CSI U+009B), bidi embeddings, overrides and
//!   isolates (U+202A..U+202E, U+2066..U+2069) and the line and paragraph separators
//!   (U+2028, U+2029) are shown as `<U+XXXX>`;
//! - a tab is expanded with spaces to the next multiple of [`TAB_STOP`] columns;
//! - `\r\n` becomes `\n`; a lone `\r` is shown as `^M`.

use unicode_width::UnicodeWidthChar;

/// Tab stops are every this many columns.
pub const TAB_STOP: usize = 4;

/// Sanitizes text that may span lines: newlines are kept for the caller to split on.
pub fn sanitize(s: &str) -> String {
    sanitize_with(s, false)
}

/// Sanitizes text for a one-line display: a newline (or `\r\n`) is shown as `^J`.
pub fn sanitize_line(s: &str) -> String {
    sanitize_with(s, true)
}

/// A serialised JSON text made inert for a terminal without changing what it says: every
/// character a terminal may obey that JSON leaves raw (DEL, the C1 controls such as CSI
/// U+009B, bidi embeddings, overrides and isolates, the line and paragraph separators;
/// the C0 controls are escaped by any JSON writer) is written as its `\uXXXX` escape, so
/// a JSON reader reads the same value back.
pub fn inert_json(json: &str) -> String {
    if json.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return json.to_owned();
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if c < ' ' || c == '\x7f' || is_shown_as_code_point(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

fn sanitize_with(s: &str, one_line: bool) -> String {
    let plain_ascii = s
        .bytes()
        .all(|b| (0x20..0x7f).contains(&b) || (b == b'\n' && !one_line));
    if plain_ascii || !s.chars().any(|c| needs_care(c, one_line)) {
        return s.to_owned();
    }
    let mut out = Out {
        text: String::with_capacity(s.len() + 16),
        column: 0,
    };
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' if one_line => out.push_str("^J"),
            '\n' => {
                out.text.push('\n');
                out.column = 0;
            }
            '\t' => {
                let pad = TAB_STOP - out.column % TAB_STOP;
                out.push_str(&" ".repeat(pad));
            }
            '\0'..='\x1f' => {
                out.push_str("^");
                out.push_char(char::from(c as u8 + b'@'));
            }
            '\x7f' => out.push_str("^?"),
            c if is_shown_as_code_point(c) => out.push_str(&format!("<U+{:04X}>", u32::from(c))),
            c => out.push_char(c),
        }
    }
    out.text
}

/// Output text plus the display column of its last line, for tab expansion.
struct Out {
    text: String,
    column: usize,
}

impl Out {
    fn push_str(&mut self, s: &str) {
        self.text.push_str(s);
        self.column += s.chars().filter_map(UnicodeWidthChar::width).sum::<usize>();
    }

    fn push_char(&mut self, c: char) {
        self.text.push(c);
        self.column += c.width().unwrap_or(0);
    }
}

fn needs_care(c: char, one_line: bool) -> bool {
    match c {
        '\n' => one_line,
        '\0'..='\x1f' | '\x7f' => true,
        c => is_shown_as_code_point(c),
    }
}

fn is_shown_as_code_point(c: char) -> bool {
    matches!(
        c,
        '\u{80}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn plain_text_is_unchanged() {
        assert_eq!(sanitize("hello, wörld 🦀\nnext"), "hello, wörld 🦀\nnext");
    }

    #[test]
    fn escape_sequences_are_inert() {
        assert_eq!(sanitize("\x1b[31mred\x1b[0m"), "^[[31mred^[[0m");
        assert_eq!(sanitize("\x1b]0;title\x07"), "^[]0;title^G");
    }

    #[test]
    fn c0_controls_and_del_use_caret_notation() {
        assert_eq!(sanitize("\0\x01\x08\x1f\x7f"), "^@^A^H^_^?");
    }

    #[test]
    fn c1_controls_are_shown_as_code_points() {
        assert_eq!(sanitize("a\u{9b}31mb\u{85}"), "a<U+009B>31mb<U+0085>");
    }

    #[test]
    fn bidi_controls_are_shown() {
        assert_eq!(
            sanitize("x\u{202e}evil\u{202c}\u{2066}y\u{2069}"),
            "x<U+202E>evil<U+202C><U+2066>y<U+2069>"
        );
    }

    #[test]
    fn tabs_expand_to_the_next_stop() {
        assert_eq!(sanitize("\tx"), "    x");
        assert_eq!(sanitize("ab\tx"), "ab  x");
        assert_eq!(sanitize("abcd\tx"), "abcd    x");
        assert_eq!(sanitize("ab\ncd\tx"), "ab\ncd  x");
        // Wide characters count two columns.
        assert_eq!(sanitize("界\tx"), "界  x");
        // A caret escape counts as the two columns it takes.
        assert_eq!(sanitize("\x1b\tx"), "^[  x");
    }

    #[test]
    fn carriage_returns() {
        assert_eq!(sanitize("a\r\nb"), "a\nb");
        assert_eq!(sanitize("50%\r100%"), "50%^M100%");
        assert_eq!(sanitize("a\r"), "a^M");
    }

    #[test]
    fn one_line_shows_newlines() {
        assert_eq!(sanitize_line("a\nb\r\nc"), "a^Jb^Jc");
        assert_eq!(sanitize_line("\x1b[1m\n"), "^[[1m^J");
        assert_eq!(sanitize_line("plain"), "plain");
    }

    fn is_forbidden(c: char) -> bool {
        matches!(c, '\0'..='\x1f' | '\x7f'..='\u{9f}') || is_shown_as_code_point(c)
    }

    proptest! {
        #[test]
        fn output_has_no_controls(s in any::<String>()) {
            let multi = sanitize(&s);
            prop_assert!(!multi.chars().any(|c| c != '\n' && is_forbidden(c)));
            prop_assert_eq!(multi.matches('\n').count(), s.matches('\n').count());
            let one = sanitize_line(&s);
            prop_assert!(!one.chars().any(is_forbidden));
        }

        #[test]
        fn control_heavy_output_has_no_controls(
            s in proptest::collection::vec(
                prop_oneof![
                    (0u32..0x20).prop_map(|c| char::from_u32(c).unwrap_or('a')),
                    (0x7fu32..0xa0).prop_map(|c| char::from_u32(c).unwrap_or('a')),
                    Just('\u{202e}'), Just('\u{2067}'), Just('a'), Just('界'),
                ],
                0..64,
            ).prop_map(|v| v.into_iter().collect::<String>())
        ) {
            prop_assert!(!sanitize(&s).chars().any(|c| c != '\n' && is_forbidden(c)));
            prop_assert!(!sanitize_line(&s).chars().any(is_forbidden));
        }
    }

    #[test]
    fn json_is_made_inert_and_reads_back_the_same() {
        let value = serde_json::json!({"name": "a\u{9b}31mb\u{7f}\u{202e}c\u{1b}[2J\u{2028}é🦀"});
        let line = inert_json(&value.to_string());
        assert!(
            line.is_ascii() || !line.chars().any(|c| c.is_control()),
            "{line}"
        );
        assert!(
            !line
                .chars()
                .any(|c| c.is_control() || is_shown_as_code_point(c)),
            "{line}"
        );
        assert!(line.contains("\\u009b") && line.contains("é🦀"), "{line}");
        let back: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(back, value);
    }
}
