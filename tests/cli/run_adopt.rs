//! `dreamwatch run` on a creature it did not create: refused unless `--adopt` is given,
//! and adopted under the name its BIRTH.json gives it.

use crate::common::cli::{bin, copy_dir, fixture, snapshot, stderr};

#[test]
fn an_openseed_creature_is_refused_and_left_untouched() {
    for name in ["head-ember", "early-pip"] {
        let home = tempfile::tempdir().unwrap();
        let dir = home.path().join("creature");
        copy_dir(&fixture(name), &dir);
        let before = snapshot(&dir);
        // With the rehearsal brain, and with a real one before it asks for a key.
        for provider in ["rehearsal", "anthropic"] {
            let out = bin(home.path())
                .args([
                    "run",
                    "--headless",
                    "--max-dreams",
                    "1",
                    "--provider",
                    provider,
                ])
                .arg(&dir)
                .output()
                .unwrap();
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{name}: {err}");
            assert!(err.contains("--adopt"), "{name}: {err}");
            assert!(err.contains("not created by dreamwatch"), "{name}: {err}");
            assert_eq!(
                snapshot(&dir),
                before,
                "{name}: the creature was written to"
            );
        }
    }
}

#[test]
fn adopt_takes_it_over_under_its_own_name() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("creature");
    copy_dir(&fixture("head-ember"), &dir);
    let birth = std::fs::read(dir.join("BIRTH.json")).unwrap();
    let out = bin(home.path())
        .args(["run", "--adopt", "--provider", "rehearsal", "--headless"])
        .args(["--max-dreams", "1", "--speed", "100000"])
        .arg(&dir)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("hosting ember in"), "{err}");
    assert!(!err.contains("hosting creature"), "{err}");
    assert_eq!(std::fs::read(dir.join("BIRTH.json")).unwrap(), birth);
}

#[test]
fn a_creature_dreamwatch_created_is_resumed_without_adopt() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("sprout");
    for _ in 0..2 {
        let out = bin(home.path())
            .args(["run", "--provider", "rehearsal", "--headless"])
            .args(["--max-dreams", "1", "--speed", "100000"])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
}
