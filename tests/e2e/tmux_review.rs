//! End to end in tmux: dreams reviewed before they apply (`demo --genome dreamer
//! --review-dreams`), the real binary hosting the rehearsal creature on a real terminal.
//! Its first dream is held (`review_timeout = "never"`, so it waits however slow the
//! machine is); the garden marks it, `D` shows what it would change, and `a` applies it,
//! `x` twice rejects it, `e` edits it in `$EDITOR` (a script here) before `a` applies the
//! edit. What is written is checked on disk.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::support::{DEADLINE, Pane, tmux_available};
use dreamwatch::memory::proposal::{self, Proposal};

/// The memory files a dream of the dreamer writes.
const MEMORY: [&str; 4] = [
    ".self/observations.md",
    ".self/dreams.jsonl",
    ".self/priorities.md",
    ".self/diary.md",
];

/// The observation the editor script adds to the dream.
const EDITED: &str = "RED 12:00 edited by the operator";

/// A demo garden hosting the dreamer, its dreams held until decided.
struct Demo {
    pane: Pane,
    sprout: PathBuf,
    _dir: tempfile::TempDir,
}

impl Demo {
    /// Starts the demo (with these variables set) and waits for its first dream to be
    /// held and marked in the garden.
    fn start(env: &[(&str, &Path)], dir: tempfile::TempDir) -> Self {
        let config = dir.path().join("config.toml");
        std::fs::write(&config, "[runner]\nreview_timeout = \"never\"\n").unwrap();
        let garden = dir.path().join("garden");
        // Fast enough for the first sleep to come at once, slow enough that the rest
        // after a decided dream (five creature minutes) outlasts a look at the screen.
        let args = [
            Path::new("--config"),
            &config,
            Path::new("demo"),
            Path::new("--genome"),
            Path::new("dreamer"),
            Path::new("--review-dreams"),
            Path::new("--speed"),
            Path::new("20"),
            Path::new("--dir"),
            &garden,
        ];
        let pane = Pane::start_with(env, &args);
        pane.wait_text("◷ review (never)");
        pane.wait_text("sprout: dream #1 awaiting review: D shows it");
        let sprout = garden.join("sprout");
        assert!(proposal::path(&sprout).exists(), "held on disk");
        Self {
            pane,
            sprout,
            _dir: dir,
        }
    }

    fn memory(&self) -> Vec<String> {
        MEMORY
            .iter()
            .map(|f| std::fs::read_to_string(self.sprout.join(f)).unwrap_or_default())
            .collect()
    }

    /// The memory files as `p` would leave them.
    fn proposed(&self, p: &Proposal) -> Vec<String> {
        self.memory()
            .into_iter()
            .zip(MEMORY)
            .map(|(now, f)| {
                p.files
                    .iter()
                    .find(|pf| pf.path == f)
                    .map_or(now.clone(), |pf| pf.after(&now))
            })
            .collect()
    }

    fn held(&self) -> Proposal {
        Proposal::read(&self.sprout).unwrap().expect("a dream held")
    }

    /// Waits until `said` is in the status line and the garden no longer marks a dream
    /// held (the creature rests a while before it can dream again).
    fn wait_decided(&self, said: &str) -> String {
        self.pane
            .wait_for(said, |s| s.contains(said) && !s.contains("◷"))
    }
}

/// Waits until `pred` holds for the file at `path` (the runner writes it after answering).
fn wait_file(path: &Path, what: &str, pred: impl Fn(Option<&str>) -> bool) {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(path).ok();
        if pred(text.as_deref()) {
            return;
        }
        assert!(
            start.elapsed() < DEADLINE,
            "timed out waiting for {what}: {text:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// A script for `$EDITOR` that adds [`EDITED`] at the end of the dream's observations
/// (just before the next file's header) in the file it was given.
fn editor(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join("editor.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n\
             awk 'obs && /^=== / {{ print \"{EDITED}\"; obs = 0 }}\n\
             /^=== \\.self\\/observations\\.md / {{ obs = 1 }}\n\
             {{ print }}\n\
             END {{ if (obs) print \"{EDITED}\" }}' \"$1\" > \"$1.new\" && cat \"$1.new\" > \"$1\" && rm \"$1.new\"\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

#[test]
fn a_held_dream_is_shown_and_applied() {
    if !tmux_available() {
        return;
    }
    let demo = Demo::start(&[], tempfile::tempdir().unwrap());
    let p = demo.held();
    let expected = demo.proposed(&p);
    assert_ne!(expected, demo.memory(), "the dream changes something");
    let pane = &demo.pane;
    // Nothing of it is written while it waits.
    assert!(!demo.sprout.join(".self/dreams.jsonl").exists());
    pane.keys(&["D"]);
    let shows = [
        "What it would change",
        "sprout: a dream awaiting review",
        "dream #1 · held since",
        "never applies itself: it waits for you",
        "observations.md:",
        "a apply",
        "x reject",
        "e edit",
    ];
    // A capture may catch a frame half written: wait for the whole popup and its hints.
    let screen = pane.wait_for("the review popup and its keys", |s| {
        shows.iter().all(|shown| s.contains(shown))
    });
    for shown in shows {
        assert!(screen.contains(shown), "{shown}: {screen}");
    }
    pane.keys(&["a"]);
    demo.wait_decided("sprout's dream is applied: it wakes with it");
    assert!(!proposal::path(&demo.sprout).exists());
    assert_eq!(demo.memory(), expected, "written as proposed");
    // The Dreams view has it.
    pane.keys(&["2"]);
    pane.wait_text("1 dreams · 0 deep");
}

#[test]
fn a_held_dream_edited_in_the_editor_is_applied_as_edited() {
    if !tmux_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = editor(dir.path());
    let demo = Demo::start(&[("EDITOR", &script)], dir);
    let pane = &demo.pane;
    pane.keys(&["D"]);
    pane.wait_text("What it would change");
    pane.keys(&["e"]);
    pane.wait_text("sprout's edited dream is held for review");
    // The runner holds it as edited.
    wait_file(&proposal::path(&demo.sprout), "the edit held", |t| {
        t.is_some_and(|t| t.contains(EDITED))
    });
    let held = demo.held();
    assert!(held.edited);
    let expected = demo.proposed(&held);
    // The popup shows the edit.
    // Judged on a settled frame (two captures alike), never a half-written one.
    let settled = pane.wait_for("a settled frame", |s| s == pane.capture());
    if !settled.contains("What it would change") {
        pane.keys(&["D"]);
    }
    pane.wait_text("never applies itself: it waits for you · edited by the");
    // The added line comes last in what it would change: a page down.
    pane.keys(&["NPage"]);
    pane.wait_text(&format!("+ {EDITED}"));
    pane.keys(&["a"]);
    demo.wait_decided("sprout's dream is applied: it wakes with it");
    let observations = demo.sprout.join(".self/observations.md");
    let written = std::fs::read_to_string(&observations).unwrap();
    assert!(written.contains(EDITED), "{written}");
    assert_eq!(demo.memory(), expected, "written as edited");
}

#[test]
fn a_held_dream_rejected_after_asking_writes_nothing() {
    if !tmux_available() {
        return;
    }
    let demo = Demo::start(&[], tempfile::tempdir().unwrap());
    let before = demo.memory();
    let pane = &demo.pane;
    pane.keys(&["D"]);
    pane.wait_text("What it would change");
    pane.keys(&["x"]);
    pane.wait_text("x again rejects it");
    // Still held until asked twice.
    assert!(proposal::path(&demo.sprout).exists());
    pane.keys(&["x"]);
    demo.wait_decided("sprout's dream is rejected: nothing of it was written");
    assert!(!proposal::path(&demo.sprout).exists());
    assert_eq!(demo.memory(), before, "the memory files are untouched");
}
