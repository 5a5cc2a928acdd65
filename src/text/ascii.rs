//! The screen in ASCII, for a terminal whose locale is not UTF-8 (`LANG=C`): each glyph the
//! observatory draws has an ASCII stand-in, anything else becomes `?`. Written by hand:
//! the stand-ins are chosen for these glyphs' meaning on this screen (a transliteration
//! crate would spell `☾` as a word that does not fit its cell).

/// Whether the locale the environment names (`LC_ALL`, else `LC_CTYPE`, else `LANG`, as
/// C's `setlocale` reads them) is not a UTF-8 one, so glyphs would show as garbage.
pub fn locale_wants_ascii(var: impl Fn(&str) -> Option<String>) -> bool {
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|name| var(name).filter(|v| !v.is_empty()));
    match locale {
        // No locale at all: the C locale.
        None => true,
        Some(l) => {
            let l = l.to_ascii_lowercase();
            !(l.contains("utf-8") || l.contains("utf8"))
        }
    }
}

/// The ASCII stand-in of `c` (itself when ASCII).
pub fn fold(c: char) -> char {
    if c.is_ascii() {
        return c;
    }
    match c {
        '─' | '━' | '╌' | '┄' => '-',
        '│' | '┃' | '‖' | '▏' | '▕' | '╎' | '┆' => '|',
        '┌' | '┐' | '└' | '┘' | '├' | '┤' | '┬' | '┴' | '┼' | '╭' | '╮' | '╯' | '╰' => {
            '+'
        }
        '●' | '✱' | '✦' | '✧' | '⋆' | '•' => '*',
        '◐' | '◑' => 'o',
        '○' | '◯' => 'o',
        '☾' | '☽' => 'z',
        '◆' | '◇' | '♦' => '#',
        '█' | '▇' | '▆' => '#',
        '▅' | '▄' => '=',
        '▃' | '▂' => '-',
        '▁' => '_',
        '░' | '▒' | '▓' => '.',
        '·' | '…' => '.',
        '⚠' | '⚡' => '!',
        '→' | '▶' | '▸' | '»' => '>',
        '←' | '◀' | '◂' | '«' => '<',
        '↑' | '▴' | '▲' => '^',
        '↓' | '▾' | '▼' => 'v',
        '↻' | '⟳' | '◷' => '@',
        '✗' | '×' | '✕' => 'x',
        '✓' | '✔' => 'v',
        '≈' => '~',
        '‘' | '’' => '\'',
        '“' | '”' => '"',
        '–' | '—' => '-',
        _ => '?',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_c_or_posix_locale_wants_ascii_and_utf8_does_not() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(locale_wants_ascii(env(&[("LANG", "C")])));
        assert!(locale_wants_ascii(env(&[])));
        assert!(locale_wants_ascii(env(&[
            ("LANG", "en_US.UTF-8"),
            ("LC_ALL", "POSIX")
        ])));
        assert!(!locale_wants_ascii(env(&[("LANG", "en_US.UTF-8")])));
        assert!(!locale_wants_ascii(env(&[
            ("LC_CTYPE", "C.utf8"),
            ("LANG", "C")
        ])));
    }

    #[test]
    fn glyphs_fold_to_their_meaning() {
        let folded: String = "┌─ ● ember ☾11 ⚠ █░░▏ → moss … 日"
            .chars()
            .map(fold)
            .collect();
        assert_eq!(folded, "+- * ember z11 ! #..| > moss . ?");
    }
}
