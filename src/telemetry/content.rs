//! Content capture: off by default, as the conventions ask. When on, a creature's text
//! (a tool's command and output, a memory line) goes into attributes made inert (no
//! control characters or escapes) and capped.

/// Whether and how much of a creature's text goes into spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capture {
    pub on: bool,
    /// The most characters of one text kept.
    pub cap: usize,
}

/// The default cap of one captured text, in characters.
pub const DEFAULT_CAP: usize = 2048;

impl Default for Capture {
    fn default() -> Self {
        Self {
            on: false,
            cap: DEFAULT_CAP,
        }
    }
}

impl Capture {
    /// `text` as an attribute may carry it; `None` while capture is off.
    pub fn text(&self, text: &str) -> Option<String> {
        if !self.on {
            return None;
        }
        let inert = crate::text::sanitize::sanitize(text);
        let mut chars = inert.char_indices();
        match chars.nth(self.cap) {
            Some((at, _)) => Some(format!("{}…", &inert[..at])),
            None => Some(inert),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_by_default_and_inert_and_capped_when_on() {
        assert_eq!(Capture::default().text("secret"), None);
        let on = Capture { on: true, cap: 5 };
        assert_eq!(on.text("abc").as_deref(), Some("abc"));
        assert_eq!(on.text("abcdefgh").as_deref(), Some("abcde…"));
        let escaped = on.text("\u{1b}[31mred").unwrap_or_default();
        assert!(!escaped.contains('\u{1b}'), "{escaped:?}");
    }
}
