//! `dreamwatch demo --dir DIR` plants its creatures only where `run` would: a new or empty
//! directory, or an earlier demo's garden. Everything is checked before anything is made.

use crate::common::cli::{bin, copy_dir, fixture, snapshot, stderr};

fn demo(home: &std::path::Path, dir: &std::path::Path, headless: bool) -> std::process::Output {
    let mut cmd = bin(home);
    cmd.arg("demo");
    if headless {
        cmd.arg("--headless");
    }
    cmd.args(["--max-sleeps", "1", "--speed", "100000", "--dir"])
        .arg(dir)
        .output()
        .unwrap()
}

#[test]
fn a_creature_is_not_a_garden() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("ember");
    copy_dir(&fixture("head-ember"), &dir);
    let before = snapshot(&dir);
    let out = demo(home.path(), &dir, true);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is a creature, not a garden"), "{err}");
    assert_eq!(snapshot(&dir), before, "the creature was written to");
}

#[test]
fn a_project_directory_is_refused_untouched() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("project");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("README.md"), "# a project\n").unwrap();
    let before = snapshot(&dir);
    let out = demo(home.path(), &dir, true);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("holds other things (README.md, src)"), "{err}");
    assert_eq!(snapshot(&dir), before, "the project was written to");
}

#[test]
fn without_a_terminal_nothing_is_created() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("garden");
    let out = demo(home.path(), &dir, false);
    let err = stderr(&out);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("needs a terminal"), "{err}");
    assert!(!dir.exists(), "the garden was created before the refusal");
}

#[test]
fn an_earlier_demo_garden_is_resumed() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("garden");
    for round in 0..2 {
        let out = demo(home.path(), &dir, true);
        let err = stderr(&out);
        assert!(out.status.success(), "round {round}: {err}");
        assert!(err.contains("the garden is kept in"), "{err}");
    }
    for name in ["sprout", "fern", "moss"] {
        assert!(dir.join(name).join("BIRTH.json").is_file(), "{name}");
    }
    // After the demo, inspect says what the observatory says: the runner is gone, and
    // what the files say is as it left them.
    let out = bin(home.path())
        .args(["inspect"])
        .arg(dir.join("fern"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("stopped · runner gone (its files are as the runner left them)"),
        "{text}"
    );
}
