//! Text for the screen: sanitizing untrusted creature text, syntax highlighting, markdown,
//! wrapping, rendering a screen buffer to SVG, and decoding server-sent events.

pub mod ascii;
pub mod highlight;
pub mod markdown;
pub mod sanitize;
pub mod sse;
pub mod svg;
pub mod wrap;

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
}
