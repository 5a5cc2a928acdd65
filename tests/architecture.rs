//! The layers of ARCHITECTURE.md, checked on the source: a module may use only modules of
//! lower layers (siblings never use each other), and only the composition root knows clap.
//! Every `crate::x` path in `src/` counts, in code and in its unit tests; comments don't.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Top-level modules by layer, lowest first. Keep in step with ARCHITECTURE.md.
const LAYERS: &[&[&str]] = &[
    &["text", "tail", "logging"],
    &["memory"],
    &[
        "llm", "watch", "search", "control", "openseed", "remote", "history",
    ],
    &["runner", "ui", "inspect"],
    &["app"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`src/ui/draw/x.rs` -> `ui`).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// The code of a file without its `//` comments (doc comments included).
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().map(|line| match line.find("//") {
        Some(at) if !line[..at].contains('"') => &line[..at],
        _ => line,
    })
}

/// `x` for every `crate::x` in `line`, and each `x` of `use crate::{x, y::z}`.
fn crate_modules(line: &str, out: &mut BTreeSet<String>) {
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or("");
            for item in inner.split(',') {
                let name = item.trim().split("::").next().unwrap_or("").trim();
                if !name.is_empty() {
                    out.insert(name.to_string());
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
}

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let mut wrong = Vec::new();
    for file in &files {
        let module = module_of(&src, file);
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(own) = layer_of(&module) else {
            wrong.push(format!(
                "{}: module {module} is in no layer of LAYERS",
                file.strip_prefix(&src).unwrap().display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        let mut used = BTreeSet::new();
        code_lines(&text).for_each(|l| crate_modules(l, &mut used));
        for other in used.iter().filter(|m| **m != module) {
            match layer_of(other) {
                Some(layer) if layer < own => {}
                _ => wrong.push(format!(
                    "{}: {module} (layer {own}) uses crate::{other}",
                    file.strip_prefix(&src).unwrap().display()
                )),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn only_the_composition_root_knows_the_command_line_parser() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let wrong: Vec<String> = files
        .iter()
        .filter(|f| !matches!(module_of(&src, f).as_str(), "app" | "main"))
        .filter(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            code_lines(&text).any(|l| l.contains("clap::") || l.contains("use clap"))
        })
        .map(|f| f.strip_prefix(&src).unwrap().display().to_string())
        .collect();
    assert!(wrong.is_empty(), "clap used outside src/app: {wrong:?}");
}

#[test]
fn the_checker_sees_paths_groups_and_ignores_comments() {
    let mut used = BTreeSet::new();
    crate_modules(
        "use crate::{memory::status::Status, text, ui::x}; let _ = crate::llm::f();",
        &mut used,
    );
    let names: Vec<&str> = used.iter().map(String::as_str).collect();
    assert_eq!(names, ["llm", "memory", "text", "ui"]);
    let lines: Vec<&str> = code_lines("/// see crate::ui\nlet x = 1; // crate::app").collect();
    assert_eq!(lines, ["", "let x = 1; "]);
}
