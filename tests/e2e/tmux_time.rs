//! End to end in tmux: the time cursor on a dreamer of five dreams (its runner's record
//! written by hand, [`crate::common::life`]): `t` enters it at the last dream, `{` steps
//! back by dream and the observations are as they were, Esc comes back to now.

use crate::common::life;
use crate::support::{Pane, tmux_available};

#[test]
fn the_time_cursor_steps_back_by_dream_and_esc_returns_to_now() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sprout = dir.path().join("sprout");
    life::dreamer(&sprout, "sprout", 5);
    let pane = Pane::start(&[&sprout]);
    pane.wait_text(&life::observation(5));
    pane.keys(&["t"]);
    pane.wait_text("as of dream 5 · 11-22 12:06");
    pane.keys(&["{", "{"]);
    let screen = pane.wait_text("as of dream 3 ·");
    assert!(screen.contains(&life::observation(3)), "{screen}");
    pane.wait_for("dream 4's observation gone", |s| {
        !s.contains(&life::observation(4))
    });
    pane.keys(&["Escape"]);
    let screen = pane.wait_for("back to now", |s| !s.contains("as of dream"));
    pane.wait_text(&life::observation(5));
    assert!(screen.contains("Observations"), "{screen}");
}
