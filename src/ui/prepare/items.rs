//! Documents of items (entries, reflections, memories) whose items can be found by the
//! lines of the files they were folded from (for search hits and the keys that open and
//! copy), and what the genomes' views that show them share: text lines, the clock.

use chrono::{DateTime, Utc};

use crate::memory::layout::FileKind;
use crate::text::sanitize::sanitize;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::Anchor;

/// One item of a document (an entry, a reflection, a memory): where it starts in the
/// document, and which lines of which file it was folded from.
#[derive(Debug, Clone, PartialEq)]
pub struct DocItem {
    pub at: usize,
    pub file: FileKind,
    pub lines: Vec<u64>,
}

/// A document of items.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ItemDoc {
    pub lines: Vec<DocLine>,
    pub items: Vec<DocItem>,
}

impl ItemDoc {
    /// Starts an item at the current end of the document.
    pub fn item(&mut self, file: FileKind, lines: &[u64]) {
        self.items.push(DocItem {
            at: self.lines.len(),
            file,
            lines: lines.to_vec(),
        });
    }

    /// The document line where the item folded from `line` (0-based) of `file` starts.
    pub fn find(&self, file: FileKind, line: u64) -> Option<usize> {
        self.items
            .iter()
            .find(|i| i.file == file && i.lines.contains(&line))
            .map(|i| i.at)
    }
}

/// Newest first, new items arrive at the top: a reader scrolled down stays on what they
/// read.
pub fn keep_place(anchor: Anchor, old: &ItemDoc, new: &ItemDoc) -> Anchor {
    match anchor {
        Anchor::Line(top) if top > 0 && new.lines.len() > old.lines.len() => {
            Anchor::Line(top + new.lines.len() - old.lines.len())
        }
        other => other,
    }
}

/// Text from a creature as inert lines (empty lines dropped).
pub fn text_lines(text: &str) -> Vec<String> {
    sanitize(text.trim())
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// `HH:MM`, or `--:--` without a time.
pub fn clock(t: Option<DateTime<Utc>>) -> String {
    t.map_or_else(|| "--:--".into(), |t| t.format("%H:%M").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_found_by_any_of_their_lines() {
        let mut doc = ItemDoc::default();
        doc.item(FileKind::Observations, &[0, 4]);
        doc.lines.push(DocLine::hard(Default::default()));
        doc.item(FileKind::Dreams, &[0]);
        assert_eq!(doc.find(FileKind::Observations, 4), Some(0));
        assert_eq!(doc.find(FileKind::Dreams, 0), Some(1));
        assert_eq!(doc.find(FileKind::Observations, 1), None);
    }
}
