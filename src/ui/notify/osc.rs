//! Telling the terminal: OSC 9 (`ESC ] 9 ; text BEL`: iTerm2, WezTerm, kitty, Ghostty,
//! ConEmu), OSC 777 (`ESC ] 777 ; notify ; title ; body BEL`: VTE terminals such as GNOME
//! Terminal and Ptyxis, foot, urxvt with its notify extension), or the bell. Inside tmux
//! the sequence is wrapped for its passthrough (`ESC P tmux; ... ESC \`, each ESC
//! doubled), which tmux 3.3 and later pass on only with `set -g allow-passthrough on`;
//! the bell needs no wrapping. The text is made inert (no control characters), has no
//! `;` for OSC 777 (its field separator) and is capped at [`TEXT_MAX`] characters.

use super::config::TerminalMode;
use crate::text::sanitize::sanitize_line;

/// The most characters of a notice's text sent (terminals show a line or two).
pub const TEXT_MAX: usize = 200;

/// What is written: a sequence, or the bell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    Osc9,
    Osc777,
    Bell,
}

/// The way `mode` comes to in the terminal the environment describes (`var` reads a
/// variable); `None`: nothing is written.
pub fn way(mode: TerminalMode, var: impl Fn(&str) -> Option<String>) -> Option<Way> {
    match mode {
        TerminalMode::Off => None,
        TerminalMode::Osc9 => Some(Way::Osc9),
        TerminalMode::Osc777 => Some(Way::Osc777),
        TerminalMode::Bell => Some(Way::Bell),
        TerminalMode::Auto => Some(detect(var)),
    }
}

/// The terminal's way, from what it sets in the environment. Inside tmux, `TERM` and
/// `TERM_PROGRAM` are tmux's, but the variables the outer terminal set when tmux was
/// started are still there.
fn detect(var: impl Fn(&str) -> Option<String>) -> Way {
    let set = |name: &str| var(name).is_some_and(|v| !v.is_empty());
    let program = var("TERM_PROGRAM").unwrap_or_default();
    let term = var("TERM").unwrap_or_default();
    match program.as_str() {
        "iTerm.app" | "WezTerm" | "ghostty" => return Way::Osc9,
        _ => {}
    }
    if set("ITERM_SESSION_ID")
        || var("LC_TERMINAL").as_deref() == Some("iTerm2")
        || set("WEZTERM_EXECUTABLE")
        || set("KITTY_WINDOW_ID")
        || term == "xterm-kitty"
        || term == "xterm-ghostty"
        || set("ConEmuANSI")
    {
        return Way::Osc9;
    }
    if set("VTE_VERSION") || term.starts_with("foot") || term.starts_with("rxvt-unicode") {
        return Way::Osc777;
    }
    Way::Bell
}

/// One line of `text`, inert, without `;` when `no_semicolons`, at most [`TEXT_MAX`]
/// characters.
fn clean(text: &str, no_semicolons: bool) -> String {
    let line = sanitize_line(text);
    let line = if no_semicolons {
        line.replace(';', ",")
    } else {
        line
    };
    match line.char_indices().nth(TEXT_MAX) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}

/// The bytes that tell the terminal `text` (under `title` where the way has one).
pub fn sequence(way: Way, title: &str, text: &str, tmux: bool) -> Vec<u8> {
    let seq = match way {
        Way::Bell => return b"\x07".to_vec(),
        Way::Osc9 => format!("\x1b]9;{}: {}\x07", clean(title, false), clean(text, false)),
        Way::Osc777 => format!(
            "\x1b]777;notify;{};{}\x07",
            clean(title, true),
            clean(text, true)
        ),
    };
    if !tmux {
        return seq.into_bytes();
    }
    let mut out = b"\x1bPtmux;".to_vec();
    out.extend_from_slice(seq.replace('\x1b', "\x1b\x1b").as_bytes());
    out.extend_from_slice(b"\x1b\\");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        }
    }

    #[test]
    fn auto_reads_the_terminal_from_the_environment() {
        let auto = |pairs: &[(&str, &str)]| way(TerminalMode::Auto, env(pairs));
        assert_eq!(auto(&[("TERM_PROGRAM", "iTerm.app")]), Some(Way::Osc9));
        assert_eq!(auto(&[("TERM_PROGRAM", "WezTerm")]), Some(Way::Osc9));
        assert_eq!(auto(&[("TERM", "xterm-kitty")]), Some(Way::Osc9));
        assert_eq!(
            auto(&[("TERM", "xterm-256color"), ("VTE_VERSION", "7600")]),
            Some(Way::Osc777)
        );
        assert_eq!(auto(&[("TERM", "foot")]), Some(Way::Osc777));
        assert_eq!(auto(&[("TERM", "xterm-256color")]), Some(Way::Bell));
        // In tmux started from WezTerm: its variable is still there.
        assert_eq!(
            auto(&[
                ("TERM_PROGRAM", "tmux"),
                ("WEZTERM_EXECUTABLE", "/usr/bin/wezterm")
            ]),
            Some(Way::Osc9)
        );
        assert_eq!(
            way(TerminalMode::Off, env(&[("TERM_PROGRAM", "WezTerm")])),
            None
        );
        assert_eq!(way(TerminalMode::Osc777, env(&[])), Some(Way::Osc777));
    }

    #[test]
    fn the_sequences_and_their_tmux_wrapping() {
        assert_eq!(
            sequence(Way::Osc9, "dreamwatch", "sprout is failing", false),
            b"\x1b]9;dreamwatch: sprout is failing\x07"
        );
        assert_eq!(
            sequence(Way::Osc777, "dreamwatch; x", "a; b", false),
            b"\x1b]777;notify;dreamwatch, x;a, b\x07"
        );
        assert_eq!(
            sequence(Way::Osc9, "d", "hi", true),
            b"\x1bPtmux;\x1b\x1b]9;d: hi\x07\x1b\\"
        );
        assert_eq!(sequence(Way::Bell, "d", "hi", true), b"\x07");
    }

    #[test]
    fn creature_text_is_inert_and_capped() {
        let hostile = "x\x1b]0;owned\x07\u{9b}31m\ny";
        let seq = sequence(Way::Osc9, "d", hostile, false);
        let inner = &seq[4..seq.len() - 1];
        assert!(
            !inner.iter().any(|b| *b < 0x20 || *b == 0x7f),
            "{:?}",
            String::from_utf8_lossy(&seq)
        );
        assert!(!String::from_utf8_lossy(inner).contains('\u{9b}'));
        let long = sequence(Way::Osc9, "d", &"é".repeat(1000), false);
        let text = String::from_utf8(long).unwrap();
        assert_eq!(text.chars().filter(|c| *c == 'é').count(), TEXT_MAX);
    }
}
