//! Paths on the command line as a newcomer gives them: an empty directory is a garden,
//! creatures one level deeper are pointed at, and no garden at all says where it looked.
//! No terminal is needed: refusals come before the observatory takes the screen.

use crate::common::cli::{bin, copy_dir, fixture, stderr};

#[test]
fn an_empty_directory_is_a_garden_waiting_for_creatures() {
    let home = tempfile::tempdir().unwrap();
    let garden = home.path().join("garden");
    std::fs::create_dir(&garden).unwrap();
    let out = bin(home.path())
        .args(["inspect", "--json"])
        .arg(&garden)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["creatures"], serde_json::json!([]));
    // The observatory accepts it too: what stops it here is only the missing terminal.
    let out = bin(home.path()).arg(&garden).output().unwrap();
    let err = stderr(&out);
    assert_ne!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("needs a terminal"), "{err}");
}

#[test]
fn creatures_one_level_deeper_are_pointed_at() {
    let home = tempfile::tempdir().unwrap();
    let layout = home.path().join("fixtures");
    for name in ["head-ember", "early-pip"] {
        copy_dir(&fixture(name), &layout.join(name).join("creature"));
    }
    std::fs::write(layout.join("README.md"), "fixtures\n").unwrap();
    let hint = format!(
        "creatures found one level deeper: dreamwatch {}/*/creature",
        layout.display()
    );
    let inspect = bin(home.path())
        .arg("inspect")
        .arg(&layout)
        .output()
        .unwrap();
    let observe = bin(home.path()).arg(&layout).output().unwrap();
    for out in [inspect, observe] {
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(&hint), "{err}");
    }
}

#[test]
fn no_path_and_no_default_garden_says_where_it_looked() {
    let home = tempfile::tempdir().unwrap();
    let out = bin(home.path()).output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let looked = home.path().join(".openseed/creatures");
    assert!(err.contains(&looked.display().to_string()), "{err}");
    assert!(err.contains("dreamwatch demo"), "{err}");

    // An orchestrator given by its URL (through a tunnel) is enough: only the missing
    // terminal stops it here.
    let out = bin(home.path())
        .args(["--openseed", "http://127.0.0.1:7770"])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_ne!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("needs a terminal"), "{err}");
}

#[test]
fn needing_a_terminal_is_said_once() {
    let home = tempfile::tempdir().unwrap();
    let out = bin(home.path())
        .arg(fixture("head-ember"))
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(err.contains("needs a terminal"), "{err}");
    assert!(!err.contains("dreamwatch: dreamwatch"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_bad_openseed_url_is_a_usage_error_and_the_flags_exclude_each_other() {
    let home = tempfile::tempdir().unwrap();
    let garden = home.path().join("garden");
    std::fs::create_dir(&garden).unwrap();
    let out = bin(home.path())
        .arg(&garden)
        .args(["--openseed", "ftp://example"])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--openseed") && err.contains("not an http(s) URL"),
        "{err}"
    );
    let out = bin(home.path())
        .arg(&garden)
        .args(["--openseed", "http://127.0.0.1:7770", "--no-openseed"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // A good URL gets as far as the terminal.
    let out = bin(home.path())
        .arg(&garden)
        .args(["--openseed", "127.0.0.1:7770"])
        .output()
        .unwrap();
    assert!(
        stderr(&out).contains("needs a terminal"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_address_that_is_no_orchestrators_is_said_so_before_asking() {
    let home = tempfile::tempdir().unwrap();
    let out = bin(home.path())
        .args(["--openseed", "ftp://x"])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("ftp://x is not an http(s) URL of an orchestrator"),
        "{err}"
    );
    assert!(!err.contains("answered"), "{err}");
}
