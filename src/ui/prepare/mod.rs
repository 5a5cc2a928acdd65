//! Text from creatures, made inert and styled once when it arrives, never while drawing:
//! every string goes through [`crate::text::sanitize`] here, then into [`DocLine`]s.
//!
//! [`DocLine`]: super::doc::DocLine

pub mod changes;
pub mod items;

use crate::text::sanitize::sanitize_line;

/// A one-line string from a creature, inert.
pub fn inert(s: &str) -> String {
    sanitize_line(s)
}
