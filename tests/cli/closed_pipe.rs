//! A headless runner whose reader goes away (`dreamwatch run --headless | head -2`) ends
//! as a normal end: no panic, exit 0, the creature stopped cleanly.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use crate::common::cli::{bin, stderr};

fn stops_when_the_reader_goes(args: &[&str]) {
    let home = tempfile::tempdir().unwrap();
    let mut child = bin(home.path())
        .args(args)
        .current_dir(home.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..2 {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "no progress line");
    }
    drop(out);
    let done = child.wait_with_output().unwrap();
    let err = stderr(&done);
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("ended badly"), "{err}");
    assert_eq!(done.status.code(), Some(0), "{err}");
    assert!(err.contains("stopped after"), "{err}");
}

#[test]
fn run_headless_into_a_closed_pipe_stops_cleanly() {
    stops_when_the_reader_goes(&[
        "run",
        "--headless",
        "--provider",
        "rehearsal",
        "--speed",
        "1000",
        "sprout",
    ]);
}

#[test]
fn demo_headless_into_a_closed_pipe_stops_cleanly() {
    stops_when_the_reader_goes(&["demo", "--headless", "--dir", "garden"]);
}
