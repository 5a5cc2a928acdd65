//! Escapes that must not reach a terminal from the command line (issue 26): `--json`,
//! `--follow` and `--follow --wire` write every character a terminal may obey as a JSON
//! escape, piped or not, and error lines echo the user's own `--config` or `--openseed`
//! inert.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

use crate::common::cli::{bin, copy_dir, fixture, stderr};

/// What a terminal may obey: ESC, CSI as one C1 character, DEL, a bidi override.
const HOSTILE: &str = "ember\u{1b}[2J\u{9b}31m\u{7f}\u{202e}";

fn raw(text: &str) -> bool {
    text.chars()
        .any(|c| matches!(c, '\u{1b}' | '\u{7f}' | '\u{80}'..='\u{9f}' | '\u{202a}'..='\u{202e}'))
}

/// A garden of one creature named [`HOSTILE`].
fn garden() -> tempfile::TempDir {
    let garden = tempfile::tempdir().unwrap();
    let root = garden.path().join("ember");
    copy_dir(&fixture("head-ember"), &root);
    let birth = root.join("BIRTH.json");
    let mut json: Value = serde_json::from_slice(&std::fs::read(&birth).unwrap()).unwrap();
    json["name"] = HOSTILE.into();
    std::fs::write(&birth, json.to_string()).unwrap();
    garden
}

#[test]
fn json_piped_is_inert_and_says_the_same() {
    let garden = garden();
    let home = tempfile::tempdir().unwrap();
    let out = bin(home.path())
        .args(["inspect", "--json"])
        .arg(garden.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!raw(&text), "{text:?}");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["creatures"][0]["name"], HOSTILE);
}

/// The first line of `inspect ARGS` on the garden that holds `want`.
fn first_line(args: &[&str], want: &str) -> String {
    let garden = garden();
    let home = tempfile::tempdir().unwrap();
    let mut child = bin(home.path())
        .args(args)
        .arg(garden.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
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
    let line = loop {
        let line = rx.recv_timeout(Duration::from_secs(15)).unwrap();
        if line.contains(want) {
            break line;
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    line
}

#[test]
fn follow_lines_are_inert_and_say_the_same() {
    let line = first_line(
        &["inspect", "--follow", "--poll-ms", "200"],
        "creature_added",
    );
    assert!(!raw(&line), "{line:?}");
    let v: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["creature"], HOSTILE);
}

#[test]
fn wire_lines_are_inert_and_say_the_same() {
    // The creature's BIRTH.json, as a wire line, holds the name.
    let line = first_line(
        &["inspect", "--follow", "--wire", "--poll-ms", "200"],
        "\\u009b",
    );
    assert!(!raw(&line), "{line:?}");
    assert!(serde_json::from_str::<Value>(&line).is_ok(), "{line}");
}

#[test]
fn errors_echo_the_users_config_and_url_inert() {
    let garden = garden();
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("bad\u{1b}[31m\u{9b}2J.toml");
    std::fs::write(&config, "[observatory\nnot toml\u{1b}[2J").unwrap();
    let out = bin(home.path())
        .arg("--config")
        .arg(&config)
        .args(["inspect"])
        .arg(garden.path())
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(err.contains("bad"), "{err}");
    assert!(!raw(&err), "{err:?}");

    let missing = home.path().join("gone\u{1b}]0;title\u{7}.toml");
    let out = bin(home.path())
        .arg("--config")
        .arg(&missing)
        .arg("inspect")
        .arg(garden.path())
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(!raw(&err) && !err.contains('\u{7}'), "{err:?}");

    let out = bin(home.path())
        .args(["--openseed", "http://\u{1b}[2J\u{9b}host:1"])
        .arg(garden.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("--openseed"), "{err}");
    assert!(!raw(&err), "{err:?}");
}
