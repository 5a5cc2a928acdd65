//! End to end in tmux: a conversation larger than the size read tail first is counted in
//! the background once the real loop has drawn its first frame (the loop lets the count
//! go: were it never let go, the head would never be counted and Recall would keep
//! numbering from the tail).

use crate::support::{Pane, tmux_available};

#[test]
fn a_large_conversation_is_counted_once_the_first_frame_is_out() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big");
    std::fs::create_dir_all(big.join(".self")).unwrap();
    let filler = "x".repeat(1000);
    let lines = 12_000;
    let log: String = (1..=lines)
        .map(|i| {
            format!(
                "{{\"t\":\"2026-11-22T17:00:00.000Z\",\"role\":\"user\",\"content\":\"entry {i} {filler}\"}}\n"
            )
        })
        .collect();
    assert!(log.len() as u64 > dreamwatch::memory::streams::DEFER_ABOVE);
    std::fs::write(big.join(".self/conversation.jsonl"), log).unwrap();
    let pane = Pane::start(&[&big]);
    pane.wait_text("Observations");
    pane.keys(&["4"]);
    // Numbered from the whole log's start: the head was counted.
    let screen = pane.wait_text(&format!("#{lines}"));
    assert!(!screen.contains("counting the log"), "{screen}");
    assert!(screen.contains(&format!("entry {lines} ")), "{screen}");
}
