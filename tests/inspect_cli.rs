//! `dreamwatch inspect` as a user runs it: text, JSON schema, bad paths, --follow.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dreamwatch"))
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/fixtures/openseed")
        .join(name)
        .join("creature")
}

/// A copy of a fixture creature in a temp garden (so nothing writes to the shared files).
fn garden_with(names: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in names {
        copy_dir(&fixture(name), &dir.path().join(name));
    }
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn json_schema_on_a_garden() {
    let garden = garden_with(&["head-ember", "early-pip"]);
    let out = bin()
        .args(["inspect", "--json"])
        .arg(garden.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let creatures = v["creatures"].as_array().unwrap();
    assert_eq!(creatures.len(), 2);
    let ember = creatures.iter().find(|c| c["name"] == "ember").unwrap();
    for key in [
        "name",
        "path",
        "status",
        "fatigue",
        "dreams",
        "deep_sleeps",
        "observations",
        "last_dream",
        "conversation",
        "problems",
    ] {
        assert!(ember.get(key).is_some(), "missing {key}");
    }
    assert_eq!(ember["dreams"], 11);
    assert_eq!(ember["deep_sleeps"], 2);
    assert_eq!(ember["fatigue"], 3);
    assert_eq!(ember["status"], "stopped");
    assert_eq!(
        ember["observations"],
        serde_json::json!({"red": 10, "ylw": 9, "grn": 14, "other": 2})
    );
    assert_eq!(
        ember["conversation"],
        serde_json::json!({"entries": 113, "bad_lines": 0, "counting": false})
    );
    assert_eq!(ember["last_dream"]["deep"], false);
    let pip = creatures.iter().find(|c| c["name"] == "pip").unwrap();
    assert_eq!(pip["observations"]["red"], 25);
}

#[test]
fn text_summary_is_inert() {
    let garden = garden_with(&["head-ember"]);
    let root = garden.path().join("head-ember");
    std::fs::write(
        root.join("BIRTH.json"),
        "{\"name\":\"evil\\u001b]0;pwned\\u0007\\u001b[2J\"}",
    )
    .unwrap();
    let out = bin().arg("inspect").arg(&root).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    assert!(text.contains("evil^[]0;pwned"), "{text}");
    assert!(
        text.contains("dreams        11 (2 deep, every 5; next deep in 4)"),
        "{text}"
    );
}

#[test]
fn bad_paths_exit_2_with_a_message() {
    let out = bin()
        .args(["inspect", "/definitely/not/here"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/definitely/not/here"));
    // Not a creature, and not a garden: it holds things, none of them creatures. (An
    // empty directory is a garden waiting for creatures: tests/paths_cli.rs.)
    let empty = tempfile::tempdir().unwrap();
    std::fs::write(empty.path().join("notes.txt"), "not a creature").unwrap();
    let out = bin().arg("inspect").arg(empty.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("neither a creature"));
}

#[test]
fn unreadable_files_are_problems() {
    let garden = garden_with(&["head-ember"]);
    let root = garden.path().join("head-ember");
    // A directory where a log should be: reading it fails.
    std::fs::create_dir(root.join(".self/memory.jsonl.tmp")).unwrap();
    std::fs::remove_file(root.join(".self/memory.jsonl")).unwrap();
    std::fs::rename(
        root.join(".self/memory.jsonl.tmp"),
        root.join(".self/memory.jsonl"),
    )
    .unwrap();
    std::fs::write(
        root.join(".self/dreams.jsonl"),
        b"\x00\xff garbage\n{\"t\":\"2026-03-01T10:00:00Z\"}\n",
    )
    .unwrap();
    let out = bin()
        .args(["inspect", "--json"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = &v["creatures"][0];
    assert_eq!(c["dreams"], 1);
    let problems = c["problems"].as_array().unwrap();
    assert!(
        problems.iter().any(|p| p["file"] == ".self/memory.jsonl"),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p["file"] == ".self/dreams.jsonl" && p["line"] == 1),
        "{problems:?}"
    );
}

#[test]
fn follow_prints_one_line_per_change() {
    let garden = garden_with(&["head-ember"]);
    let root = garden.path().join("head-ember");
    let mut child = bin()
        .args(["inspect", "--follow", "--poll-ms", "200"])
        .arg(garden.path())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let next = |want: &str| -> Value {
        loop {
            let line = rx
                .recv_timeout(Duration::from_secs(15))
                .unwrap_or_else(|_| panic!("no {want} event"));
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["event"] == want {
                return v;
            }
        }
    };
    let added = next("creature_added");
    assert_eq!(added["creature"], "ember");

    let mut obs = std::fs::OpenOptions::new()
        .append(true)
        .open(root.join(".self/observations.md"))
        .unwrap();
    obs.write_all(b"YLW 18:00 followed live\n").unwrap();
    let o = next("observation");
    assert_eq!(
        (o["priority"].as_str(), o["text"].as_str()),
        (Some("ylw"), Some("followed live"))
    );

    let mut events = std::fs::OpenOptions::new()
        .append(true)
        .open(root.join(".sys/events.jsonl"))
        .unwrap();
    events.write_all(b"{\"t\":\"2026-11-22T17:50:00.000Z\",\"type\":\"creature.tool_call\",\"tool\":\"bash\"}\n").unwrap();
    let f = next("fatigue");
    assert_eq!((f["from"].as_u64(), f["to"].as_u64()), (Some(3), Some(4)));

    let mut dreams = std::fs::OpenOptions::new()
        .append(true)
        .open(root.join(".self/dreams.jsonl"))
        .unwrap();
    dreams.write_all(b"{\"t\":\"2026-11-22T17:51:00.000Z\",\"actions\":4,\"reflection\":\"r\",\"priority\":\"p\",\"observations\":1,\"deep\":false}\n").unwrap();
    assert_eq!(next("dream")["reflection"], "r");
    assert_eq!(next("fatigue")["to"], 0);

    std::fs::remove_dir_all(&root).unwrap();
    assert_eq!(next("creature_removed")["creature"], "ember");
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn observatory_bad_path_exits_2_before_taking_the_terminal() {
    let out = bin()
        .arg("/definitely/not/here")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/definitely/not/here"));
    assert!(out.stdout.is_empty(), "nothing drawn");
}

#[test]
fn creatures_are_listed_in_natural_order() {
    let garden = tempfile::tempdir().unwrap();
    for name in ["c10", "c2", "c1"] {
        std::fs::create_dir_all(garden.path().join(name).join(".self")).unwrap();
    }
    let out = bin()
        .args(["inspect", "--json"])
        .arg(garden.path())
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = v["creatures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["c1", "c2", "c10"]);
}

#[test]
fn text_output_sanitises_paths_and_indents_multiline_reflections() {
    let garden = tempfile::tempdir().unwrap();
    let name = "evil\u{1b}]0;title\u{7}\u{1b}]52;c;aGVsbG8=\u{7}\u{1b}c";
    let root = garden.path().join(name);
    std::fs::create_dir_all(root.join(".self")).unwrap();
    std::fs::write(
        root.join(".self/dreams.jsonl"),
        "{\"t\":\"2026-03-01T10:00:00Z\",\"reflection\":\"first line\\nsecond \\u001b[2J line\",\"priority\":\"p\",\"deep\":false}\n",
    )
    .unwrap();
    let out = bin().arg("inspect").arg(garden.path()).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    assert!(
        text.contains("evil^[]0;title^G^[]52;c;aGVsbG8=^G^[c"),
        "{text}"
    );
    assert!(
        text.contains("    reflection  first line\n                second ^[[2J line\n"),
        "{text}"
    );
    assert!(!text.contains("^J"), "{text}");
}
