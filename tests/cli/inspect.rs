//! `dreamwatch inspect` as a user runs it: text, JSON schema, bad paths, --follow.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

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
    // empty directory is a garden waiting for creatures: tests/cli/paths.rs.)
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

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Runs `inspect --json` on `root`, killing it when it has not finished after a minute
/// (a hang is the failure under test, not a slow machine).
fn inspect_json_or_hang(root: &Path) -> Value {
    let mut child = bin()
        .args(["inspect", "--json"])
        .arg(root)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut out).unwrap();
        let _ = tx.send(out);
    });
    let Ok(out) = rx.recv_timeout(Duration::from_secs(60)) else {
        child.kill().unwrap();
        child.wait().unwrap();
        panic!("inspect hung on {}", root.display());
    };
    assert!(child.wait().unwrap().success());
    serde_json::from_slice(&out).unwrap()
}

fn problem_files(v: &Value) -> Vec<String> {
    v["creatures"][0]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["file"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn files_linked_to_dev_zero_are_problems_not_hangs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("zeroes");
    std::fs::create_dir_all(root.join(".self")).unwrap();
    std::fs::create_dir_all(root.join(".sys")).unwrap();
    let files = [
        "BIRTH.json",
        "PURPOSE.md",
        ".self/observations.md",
        ".self/diary.md",
        ".self/rules.md",
        ".sys/sleep.json",
        ".self/dreams.jsonl",
        ".sys/events.jsonl",
    ];
    for file in files {
        std::os::unix::fs::symlink("/dev/zero", root.join(file)).unwrap();
    }
    let v = inspect_json_or_hang(&root);
    let problems = problem_files(&v);
    for file in files {
        assert!(problems.iter().any(|p| p == file), "{file}: {problems:?}");
    }
    assert!(v.to_string().contains("not a regular file"), "{v}");
}

#[test]
fn fifos_are_problems_not_hangs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("pipes");
    std::fs::create_dir_all(root.join(".self")).unwrap();
    std::fs::create_dir_all(root.join(".sys")).unwrap();
    let files = [
        "BIRTH.json",
        "PURPOSE.md",
        ".self/observations.md",
        ".self/priorities.md",
        ".self/diary.md",
        ".self/rules.md",
        ".self/briefing.md",
        ".sys/sleep.json",
        ".sys/runner.json",
        ".self/dreams.jsonl",
        ".self/conversation.jsonl",
        ".self/memory.jsonl",
        ".self/creator-log.jsonl",
        ".sys/events.jsonl",
        ".sys/iterations.jsonl",
    ];
    for file in files {
        mkfifo(&root.join(file));
    }
    let v = inspect_json_or_hang(&root);
    let problems = problem_files(&v);
    for file in files {
        assert!(problems.iter().any(|p| p == file), "{file}: {problems:?}");
    }
}

/// Appends `first` and then `rest` to `path` in two writes; until the second, the file's
/// modification time is an hour ahead, so the unfinished line is never idle (shown only
/// after a file is left alone for a while).
fn append_in_two_writes(path: &Path, first: &str, rest: &str) {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    f.write_all(first.as_bytes()).unwrap();
    f.set_modified(std::time::SystemTime::now() + Duration::from_secs(3600))
        .unwrap();
    // Several poll ticks pass with the line unfinished.
    std::thread::sleep(Duration::from_millis(600));
    f.write_all(rest.as_bytes()).unwrap();
}

#[test]
fn follow_reports_a_line_written_in_two_parts_once_whole() {
    let garden = garden_with(&["head-ember"]);
    let root = garden.path().join("head-ember");
    let mut child = bin()
        .args(["inspect", "--follow", "--poll-ms", "100"])
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
    let mut seen: Vec<Value> = Vec::new();
    let mut next = |want: &str| -> Value {
        loop {
            let line = rx
                .recv_timeout(Duration::from_secs(15))
                .unwrap_or_else(|_| panic!("no {want} event after {seen:?}"));
            let v: Value = serde_json::from_str(&line).unwrap();
            seen.push(v.clone());
            if v["event"] == want {
                return v;
            }
        }
    };
    next("creature_added");

    append_in_two_writes(
        &root.join(".self/observations.md"),
        "YLW 13:00 follow-partial-mar",
        "ker-whole\n",
    );
    let o = next("observation");
    assert_eq!(o["text"], "follow-partial-marker-whole");

    append_in_two_writes(
        &root.join(".self/dreams.jsonl"),
        "{\"t\":\"2026-11-22T17:51:00.000Z\",\"actions\":4,\"reflection\":\"split",
        " dream\",\"priority\":\"p\",\"observations\":1,\"deep\":false}\n",
    );
    assert_eq!(next("dream")["reflection"], "split dream");

    append_in_two_writes(
        &root.join(".self/conversation.jsonl"),
        "{\"t\":\"2026-11-22T17:52:00.000Z\",\"role\":\"us",
        "er\",\"content\":\"hello\"}\n",
    );
    let said = next("conversation");
    assert_eq!(said["role"], "user");
    assert_eq!(
        (&said["text"], &said["text_cut"]),
        (&json!("hello"), &json!(false))
    );

    append_in_two_writes(
        &root.join(".sys/events.jsonl"),
        "{\"t\":\"2026-11-22T17:53:00.000Z\",\"type\":\"creature.too",
        "l_call\",\"tool\":\"bash\"}\n",
    );
    assert_eq!(next("fatigue")["to"], 1);
    child.kill().unwrap();
    child.wait().unwrap();
    let observations: Vec<&Value> = seen
        .iter()
        .filter(|v| v["event"] == "observation")
        .collect();
    assert_eq!(observations.len(), 1, "{seen:?}");
    assert!(
        !seen.iter().any(|v| v["event"] == "problem"),
        "a half line was read as a bad line: {seen:?}"
    );
}

/// Counts of one are singular: `1 entry, 1 bad line`, not `1 entries, 1 bad lines`.
#[test]
fn text_counts_of_one_are_singular() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("single");
    std::fs::create_dir_all(root.join(".self")).unwrap();
    std::fs::write(
        root.join(".self/conversation.jsonl"),
        "{\"t\":\"2026-11-22T17:00:00.000Z\",\"role\":\"user\",\"content\":\"hello\"}\nnot json\n",
    )
    .unwrap();
    let out = bin().arg("inspect").arg(&root).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1 entry, 1 bad line\n"), "{text}");
}

/// An evennia creature beside a dreamer: `genome` for both, the evennia figures for one.
#[test]
fn json_reports_the_genome_and_the_evennia_figures() {
    let garden = garden_with(&["head-ember"]);
    let sable =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/evennia/sable/creature");
    copy_dir(&sable, &garden.path().join("sable"));
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
    let ember = creatures.iter().find(|c| c["name"] == "ember").unwrap();
    assert_eq!(ember["genome"], "dreamer");
    assert_eq!(ember["evennia"], Value::Null);
    let sable = creatures.iter().find(|c| c["name"] == "sable").unwrap();
    assert_eq!(sable["genome"], "evennia");
    let e = &sable["evennia"];
    assert_eq!(e["journal"]["entries"], 34);
    assert_eq!(e["journal"]["pruned"], 2);
    assert_eq!(
        e["journal"]["by_method"],
        serde_json::json!({"heuristic": 8, "llm": 26})
    );
    assert_eq!(
        (&e["cumulative_importance"], &e["threshold"]),
        (&Value::from(49), &Value::from(150))
    );
    assert_eq!(e["reflections"]["count"], 1);
    assert_eq!(
        e["reflections"]["last"]["insights"],
        serde_json::json!(["j25", "j26"])
    );
    assert_eq!(
        e["semantic"],
        serde_json::json!({"memories": 12, "forgotten": 2, "links": 7, "orphan_links": 1, "bad_lines": 0})
    );
    assert_eq!(
        e["entities"]["by_state"],
        serde_json::json!({"stranger": 0, "acquaintance": 2, "friend": 1, "ally": 1, "none": 1})
    );
    assert_eq!(
        (&e["mode"], &e["phase"]),
        (&Value::from("sleep"), &Value::from("compacting"))
    );
    assert_eq!(e["wake_deferred"], true);
    assert_eq!(
        e["compactions"],
        serde_json::json!({"sleep": 1, "emergency": 1, "other": 0})
    );
    assert_eq!(e["working_memory"]["conversations"], 2);

    let text = bin()
        .arg("inspect")
        .arg(garden.path().join("sable"))
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("mode          asleep · compacting · wake deferred"),
        "{text}"
    );
    assert!(
        text.contains("importance    49 / 150 toward the next reflection"),
        "{text}"
    );
    assert!(!text.contains("fatigue"), "{text}");
}

/// The emergence garden: each creature's figures of every file (the next calendar event is
/// whatever comes after the real clock: the daily walk makes sure there is one).
#[test]
fn json_reports_the_emergence_figures() {
    let garden = tempfile::tempdir().unwrap();
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/emergence");
    for name in ["wren", "ivy"] {
        copy_dir(
            &fixtures.join(name).join("creature"),
            &garden.path().join(name),
        );
    }
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
    let wren = creatures.iter().find(|c| c["name"] == "wren").unwrap();
    assert_eq!(wren["genome"], "emergence");
    assert_eq!(wren["evennia"], Value::Null);
    let e = &wren["emergence"];
    assert_eq!(
        e["soul"],
        serde_json::json!({"entries": 3, "added": 4, "removed": 1, "bad_lines": 0})
    );
    assert_eq!(
        e["memories"],
        serde_json::json!({"current": 4, "archived": 34, "copied": 2, "neural_links": 2, "bad_lines": 0})
    );
    assert_eq!(
        e["summaries"],
        serde_json::json!({"memories": 2, "conversations": 2, "watermark": "d10", "bad_lines": 0})
    );
    assert_eq!(e["diary"]["entries"], 3);
    assert_eq!(e["diary"]["last_date"], "2026-11-24");
    assert_eq!(
        (&e["todos"]["open"], &e["todos"]["done"]),
        (&Value::from(3), &Value::from(2))
    );
    assert_eq!(e["calendar"]["events"], 4);
    assert_eq!(e["calendar"]["recurring"], 3);
    assert!(e["calendar"]["next"]["at"].is_string(), "{e}");
    assert_eq!(
        e["relations"]["by_type"],
        serde_json::json!({"ally": 1, "mentor": 1, "rival": 1})
    );
    assert_eq!(
        e["dialogues"],
        serde_json::json!({"lines": 14, "partners": 2, "lines_with_other_partners": 0, "archived": 10, "live": 4, "unsummarised": 4, "bad_lines": 0})
    );
    let ivy = creatures.iter().find(|c| c["name"] == "ivy").unwrap();
    assert_eq!(ivy["emergence"]["memories"]["neural_links"], 1);

    let text = bin()
        .arg("inspect")
        .arg(garden.path().join("wren"))
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("genome        emergence"), "{text}");
    assert!(
        text.contains("memories      4 long-term, 34 archived, 2 copied by neural link"),
        "{text}"
    );
    assert!(
        text.contains("dialogues     14 lines (10 archived, 4 not yet summarised)"),
        "{text}"
    );
}

/// `--follow` on an evennia creature: a line of its mode file and of its journal each give
/// an `evennia` line with that file's figures.
#[test]
fn follow_reports_evennia_changes() {
    let garden = tempfile::tempdir().unwrap();
    let root = garden.path().join("sable");
    copy_dir(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/evennia/sable/creature"),
        &root,
    );
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
    let next = |event: &str, file: &str| -> Value {
        loop {
            let line = rx
                .recv_timeout(Duration::from_secs(15))
                .unwrap_or_else(|_| panic!("no {event} {file}"));
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["event"] == event && (file.is_empty() || v["file"] == file) {
                return v;
            }
        }
    };
    let added = next("creature_added", "");
    assert_eq!(added["summary"]["evennia"]["cumulative_importance"], 49);
    let append = |rel: &str, line: &str| {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(root.join(rel))
            .unwrap();
        writeln!(f, "{line}").unwrap();
    };
    append(
        ".sys/mode.jsonl",
        r#"{"t":"2026-11-22T17:45:00.000Z","op":"phase","phase":"dreaming"}"#,
    );
    let mode = next("evennia", ".sys/mode.jsonl");
    assert_eq!(
        (&mode["creature"], &mode["phase"]),
        (&Value::from("sable"), &Value::from("dreaming"))
    );
    assert_eq!(mode["wake_deferred"], false);
    append(
        ".self/journal.jsonl",
        r#"{"t":"2026-11-22T17:46:00.000Z","op":"add","id":"j37","text":"x","importance":7}"#,
    );
    let journal = next("evennia", ".self/journal.jsonl");
    assert_eq!(journal["cumulative_importance"], 56);
    assert_eq!(journal["journal"]["entries"], 35);
    child.kill().unwrap();
    child.wait().unwrap();
}

/// A garden of thousands of empty creatures (issue 26): `inspect --json` opens one at a
/// time, and an empty creature keeps nothing per file it has not written; its peak RSS
/// (the kernel's, from wait4) stays far below what 5,000 creature models held at once
/// cost (about 80 MiB before).
#[test]
fn a_garden_of_empty_creatures_costs_little() {
    let garden = tempfile::tempdir().unwrap();
    for i in 0..5_000 {
        std::fs::create_dir_all(garden.path().join(format!("c{i}/.self"))).unwrap();
    }
    #[allow(clippy::zombie_processes)] // reaped by wait4 below, for its rusage
    let child = bin()
        .args(["inspect", "--json"])
        .arg(garden.path())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let pid = i32::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: zeroed rusage is a valid value of the plain C struct wait4 fills in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, with pointers to live locals.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    let mib = usage.ru_maxrss / 1024;
    assert!(
        mib < 40,
        "inspect --json on 5,000 empty creatures: peak RSS {mib} MiB"
    );
}
