//! Copying text to the operator's clipboard with OSC 52: the terminal is asked to set its
//! clipboard to base64 text. Creature text only ever reaches the terminal encoded so.
//! Whether it works is the terminal's choice (many ask to allow it; tmux needs
//! `set-clipboard on`, or `allow-passthrough on` for the wrapped copy sent inside tmux).

use std::io::Write;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

/// More than this is not sent: terminals cap OSC 52 (xterm at about 100 kB of base64).
pub const MAX_BYTES: usize = 74_000;

/// The escape sequence that sets the clipboard to `text`; inside tmux, also the same
/// sequence wrapped for tmux's passthrough, for a tmux that passes it to the terminal.
pub fn osc52(text: &str, tmux: bool) -> Vec<u8> {
    let seq = format!("\x1b]52;c;{}\x07", STANDARD.encode(text));
    let mut out = seq.clone().into_bytes();
    if tmux {
        // Passthrough: DCS tmux; <the sequence, each ESC doubled> ST.
        out.extend_from_slice(b"\x1bPtmux;");
        out.extend_from_slice(seq.replace('\x1b', "\x1b\x1b").as_bytes());
        out.extend_from_slice(b"\x1b\\");
    }
    out
}

/// Sends `text` to the clipboard through `out`; returns what the status line says.
pub fn copy(out: &mut impl Write, text: &str, tmux: bool) -> (String, bool) {
    if text.len() > MAX_BYTES {
        return (
            format!(
                "not copied: {} bytes, more than terminals take in OSC 52 ({MAX_BYTES})",
                text.len()
            ),
            true,
        );
    }
    let sent = out.write_all(&osc52(text, tmux)).and_then(|()| out.flush());
    match sent {
        Ok(()) => {
            let chars = text.chars().count();
            let tmux_note = if tmux {
                "; in tmux: set-clipboard on"
            } else {
                ""
            };
            (
                format!(
                    "sent {chars} characters to the clipboard with OSC 52 (the terminal must allow it{tmux_note})"
                ),
                false,
            )
        }
        Err(e) => (format!("not copied: {e}"), true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_goes_as_base64_only() {
        let hostile = "RED \x1b]0;owned\x07 line";
        let seq = osc52(hostile, false);
        assert_eq!(seq, b"\x1b]52;c;UkVEIBtdMDtvd25lZAcgbGluZQ==\x07".to_vec());
        // Nothing of the text but its base64 reaches the terminal.
        assert!(!seq.windows(5).any(|w| w == b"owned"));
    }

    #[test]
    fn inside_tmux_a_wrapped_copy_follows() {
        let seq = String::from_utf8(osc52("hi", true)).unwrap();
        assert_eq!(
            seq,
            "\x1b]52;c;aGk=\x07\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\"
        );
    }

    #[test]
    fn the_status_says_what_was_sent_and_too_much_is_refused() {
        let mut out = Vec::new();
        let (said, error) = copy(&mut out, "héllo", false);
        assert!(!error);
        assert_eq!(
            said,
            "sent 5 characters to the clipboard with OSC 52 (the terminal must allow it)"
        );
        assert!(!out.is_empty());
        let mut out = Vec::new();
        let (said, error) = copy(&mut out, &"x".repeat(MAX_BYTES + 1), true);
        assert!(error, "{said}");
        assert!(out.is_empty());
    }
}
