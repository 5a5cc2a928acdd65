//! `--help`, the README and the reference in `docs/` point only to files the repository
//! has, and the README stays short.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Top-level folders of the repository: a path starting with one is a file of ours.
const REPO_DIRS: [&str; 7] = [
    "docs/",
    "src/",
    "tests/",
    "benches/",
    "screenshots/",
    "themes/",
    "examples/",
];
/// Names of a creature's or a user's files, which the repository need not have.
const NOT_OURS: [&str; 3] = ["MESSAGES.md", "priorities.md", "briefing.md"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The names of every file in the repository (not `target/` or `.git/`).
fn file_names(dir: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == "target" || name == ".git" {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            file_names(&entry.path(), out);
        } else {
            out.insert(name);
        }
    }
}

/// The paths `text` names: words starting with a folder of the repository, and bare
/// `NAME.md` / `NAME.toml` file names.
fn named_paths(text: &str) -> BTreeSet<String> {
    text.split(|c: char| c.is_whitespace() || "`()[],;:'\"|".contains(c))
        .map(|w| w.trim_end_matches(['.', '*']))
        .filter(|w| {
            REPO_DIRS.iter().any(|d| w.starts_with(d))
                || (!w.contains('/') && (w.ends_with(".md") || w.ends_with(".toml")))
        })
        .filter(|w| !w.contains(['<', '*', '{']))
        .map(str::to_string)
        .collect()
}

fn missing(text: &str) -> Vec<String> {
    let mut names = BTreeSet::new();
    file_names(&root(), &mut names);
    named_paths(text)
        .into_iter()
        .filter(|p| {
            if p.contains('/') {
                !root().join(p).exists()
            } else {
                !names.contains(p) && !NOT_OURS.contains(&p.as_str())
            }
        })
        .collect()
}

#[test]
fn help_names_only_files_the_repository_has() {
    let mut text = String::new();
    for command in [&[][..], &["inspect"], &["run"], &["demo"], &["screenshot"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_dreamwatch"))
            .args(command)
            .arg("--help")
            .output()
            .unwrap();
        assert!(out.status.success());
        text.push_str(&String::from_utf8_lossy(&out.stdout));
    }
    assert!(
        text.contains("tests/fixtures/openseed"),
        "the check sees paths"
    );
    assert_eq!(missing(&text), Vec::<String>::new());
}

#[test]
fn the_readme_names_only_files_the_repository_has() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(text.contains("config.sample.toml"), "the check sees paths");
    assert_eq!(missing(&text), Vec::<String>::new());
}

/// The README is read in one sitting; the reference is in `docs/`.
const README_MAX_LINES: usize = 300;

/// The relative link targets of a markdown text (`[text](target)`), without their `#anchor`;
/// web links and links within the page are left out.
fn relative_links(text: &str) -> Vec<String> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')').map(|(target, _)| target))
        .filter(|t| !t.starts_with('#') && !t.contains("://") && !t.starts_with("mailto:"))
        .map(|t| t.split('#').next().unwrap_or(t).to_string())
        .collect()
}

/// README.md and every `docs/*.md`.
fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn every_relative_link_of_the_readme_and_docs_points_to_a_file() {
    let mut broken = Vec::new();
    let mut seen = 0;
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let dir = file.parent().unwrap();
        for link in relative_links(&text) {
            seen += 1;
            if !dir.join(&link).exists() {
                broken.push(format!("{}: {link}", file.display()));
            }
        }
    }
    assert!(seen > 20, "the check sees links ({seen})");
    assert_eq!(broken, Vec::<String>::new());
}

#[test]
fn the_readme_is_short() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(
        lines < README_MAX_LINES,
        "README.md has {lines} lines: keep it under {README_MAX_LINES}, the reference goes in docs/"
    );
}

#[test]
fn links_are_found_and_anchors_dropped() {
    let text = "see [a](docs/a.md#x), [b](https://e.org), [c](#here), ![d](../s/d.png)";
    assert_eq!(relative_links(text), ["docs/a.md", "../s/d.png"]);
}
