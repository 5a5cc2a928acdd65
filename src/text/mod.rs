//! Text for the screen: sanitizing untrusted creature text, syntax highlighting, markdown,
//! wrapping, rendering a screen buffer to SVG, and decoding server-sent events.

pub mod highlight;
pub mod markdown;
pub mod sanitize;
pub mod sse;
pub mod svg;
pub mod wrap;
