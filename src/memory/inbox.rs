//! What of `MESSAGES.md` a creature has been given, tracked by content rather than by
//! byte offset: a person's editor (or any other process) may rewrite the file whole, by a
//! temporary file and a rename, and an offset means nothing in the new file.
//!
//! The file is read as blocks: a heading line is a block of its own, and every other run
//! of non-blank lines is one (line ends and trailing spaces normalised). [`Delivered`]
//! counts the blocks already given, by a hash of their text; what a read finds beyond
//! those counts is new. So:
//! - a file rewritten with the same blocks (moved, re-wrapped around them, saved again)
//!   delivers nothing;
//! - a new paragraph is delivered once, and so is a new copy of a paragraph already there
//!   (two "thanks" are two messages);
//! - an edited paragraph is a new block: it is delivered again, whole, as the creator's
//!   newer word, and the paragraphs around it are not;
//! - a heading with nothing new under it is no message (it is counted, not delivered);
//! - counts never go down: a paragraph deleted and later typed again word for word is not
//!   delivered again.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// One block of the inbox.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Block {
    text: String,
    heading: bool,
}

fn is_heading(line: &str) -> bool {
    let hashes = line.bytes().take_while(|b| *b == b'#').count();
    (1..=6).contains(&hashes)
        && line[hashes..]
            .chars()
            .next()
            .is_none_or(char::is_whitespace)
}

/// The blocks of `text`, in order.
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut para: Vec<&str> = Vec::new();
    let flush = |para: &mut Vec<&str>, out: &mut Vec<Block>| {
        if !para.is_empty() {
            out.push(Block {
                text: para.join("\n"),
                heading: false,
            });
            para.clear();
        }
    };
    for line in text.lines().map(str::trim_end) {
        if line.is_empty() {
            flush(&mut para, &mut out);
        } else if is_heading(line.trim_start()) {
            flush(&mut para, &mut out);
            out.push(Block {
                text: line.to_string(),
                heading: true,
            });
        } else {
            para.push(line);
        }
    }
    flush(&mut para, &mut out);
    out
}

/// A stable name for a block's text (the first 8 bytes of its SHA-256, in hex): stored in
/// `.sys/inbox.json`, so it must not change between builds, which rules out std's hasher.
fn key(text: &str) -> String {
    crate::text::hex(&Sha256::digest(text.as_bytes())[..8])
}

/// How many copies of each block have been delivered.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delivered {
    blocks: BTreeMap<String, u32>,
}

impl Delivered {
    /// Counts every block of `text` as delivered, on top of what already is: a message the
    /// runner hands to the creature itself and appends to the file.
    pub fn mark(&mut self, text: &str) {
        for b in blocks(text) {
            let n = self.blocks.entry(key(&b.text)).or_default();
            *n = n.saturating_add(1);
        }
    }

    /// The blocks of `text` not delivered yet, in file order and joined by blank lines,
    /// and counts them as delivered. `None` when nothing but headings is new. Where a
    /// block occurs more often than it was delivered, its last copies are the new ones.
    pub fn take_new(&mut self, text: &str) -> Option<String> {
        let mut copies: BTreeMap<String, u32> = BTreeMap::new();
        let mut new = Vec::new();
        for b in blocks(text) {
            let k = key(&b.text);
            let given = self.blocks.get(&k).copied().unwrap_or(0);
            let copy = copies.entry(k).or_default();
            if *copy >= given {
                new.push(b);
            }
            *copy += 1;
        }
        for (k, n) in copies {
            let given = self.blocks.entry(k).or_default();
            *given = (*given).max(n);
        }
        if new.iter().all(|b| b.heading) {
            return None;
        }
        let texts: Vec<&str> = new.iter().map(|b| b.text.as_str()).collect();
        Some(texts.join("\n\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INBOX: &str = "# Messages\n\nWrite below.\n\n## 2026-03-01 10:00 UTC\n\nbe brief\n";

    fn delivered(text: &str) -> Delivered {
        let mut d = Delivered::default();
        d.take_new(text);
        d
    }

    #[test]
    fn blocks_are_headings_alone_and_paragraphs_normalised() {
        let b = blocks("# T\r\nfirst  \nsecond\n\n\n  ## indented heading\n#tag text\n");
        let texts: Vec<&str> = b.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(
            texts,
            ["# T", "first\nsecond", "  ## indented heading", "#tag text"]
        );
        assert_eq!(
            b.iter().map(|b| b.heading).collect::<Vec<_>>(),
            [true, false, true, false]
        );
    }

    #[test]
    fn a_rewrite_with_the_same_blocks_delivers_nothing() {
        let mut d = delivered(INBOX);
        let rewritten =
            "# Messages\r\n\r\nWrite below.   \n\n\n\n## 2026-03-01 10:00 UTC\nbe brief";
        assert_eq!(d.take_new(rewritten), None);
        assert_eq!(d.take_new(INBOX), None);
        // Moved around: still nothing new.
        assert_eq!(d.take_new("be brief\n\nWrite below.\n"), None);
    }

    #[test]
    fn a_new_section_is_delivered_once() {
        let mut d = delivered(INBOX);
        let more = format!("{INBOX}\n## 2026-03-02 08:00 UTC\n\nnow look at the logs\n");
        assert_eq!(
            d.take_new(&more).as_deref(),
            Some("## 2026-03-02 08:00 UTC\n\nnow look at the logs")
        );
        assert_eq!(d.take_new(&more), None);
    }

    #[test]
    fn an_edited_paragraph_is_delivered_again_alone() {
        let mut d = delivered(INBOX);
        let edited = INBOX.replace("be brief", "be brief, and kind");
        assert_eq!(d.take_new(&edited).as_deref(), Some("be brief, and kind"));
        assert_eq!(d.take_new(&edited), None);
    }

    #[test]
    fn a_second_copy_is_a_second_message_and_the_later_one_is_new() {
        let mut d = delivered("thanks\n");
        assert_eq!(
            d.take_new("thanks\n\nmore\n\nthanks\n").as_deref(),
            Some("more\n\nthanks")
        );
        assert_eq!(d.take_new("thanks\n\nthanks\n"), None);
    }

    #[test]
    fn a_lone_new_heading_is_no_message() {
        let mut d = delivered(INBOX);
        assert_eq!(d.take_new(&format!("{INBOX}\n## 2026-03-03\n")), None);
        // Its body, when it comes, is.
        assert_eq!(
            d.take_new(&format!("{INBOX}\n## 2026-03-03\n\nhello\n"))
                .as_deref(),
            Some("hello")
        );
    }

    #[test]
    fn marked_messages_are_not_delivered_again_from_the_file() {
        let mut d = delivered(INBOX);
        d.mark("## 2026-03-01 11:00 UTC\n\nsent directly");
        let file = format!("{INBOX}\n## 2026-03-01 11:00 UTC\n\nsent directly\n");
        assert_eq!(d.take_new(&file), None);
        // Marked before it reached the file, the file without it changes nothing.
        d.mark("## 2026-03-01 12:00 UTC\n\nnot on disk yet");
        assert_eq!(d.take_new(INBOX), None);
        assert_eq!(
            d.take_new(&format!(
                "{file}\n## 2026-03-01 12:00 UTC\n\nnot on disk yet\n"
            )),
            None
        );
    }

    #[test]
    fn the_ledger_is_stored_as_hashes_and_counts() {
        let d = delivered("thanks\n\nthanks\n");
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(json, format!("{{\"blocks\":{{\"{}\":2}}}}", key("thanks")));
        assert_eq!(serde_json::from_str::<Delivered>(&json).unwrap(), d);
        assert_eq!(key("thanks").len(), 16);
    }
}
