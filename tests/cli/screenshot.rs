//! `dreamwatch screenshot` run from any directory, not only the repository root.

use crate::common::cli::{bin, stderr};

#[test]
fn screenshots_are_drawn_outside_the_repository() {
    let home = tempfile::tempdir().unwrap();
    let out = bin(home.path())
        .current_dir(home.path())
        .env_remove("DREAMWATCH_FIXTURES")
        .args(["screenshot", "--out", "shots"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(home.path().join("shots/observations.svg").is_file());
    assert!(home.path().join("shots/evennia-journal.svg").is_file());
    assert!(home.path().join("shots/emergence-relations.svg").is_file());
}
