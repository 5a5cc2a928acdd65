//! The layers of ARCHITECTURE.md, checked on the source: a module may use only modules of
//! lower layers (siblings never use each other), and only the composition root knows clap.
//! Every `crate::x` path in `src/` counts, in code and in its unit tests; comments don't.
//! A genome's folder (`src/genomes/<name>/`) is a plug-in: its `memory` part sits with
//! the memory model, its `runner` part with the runner, its `ui` part with the
//! observatory; no genome uses another, and outside the genomes only the composition
//! root's registry and the command line name one.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Top-level modules by layer, lowest first. Keep in step with ARCHITECTURE.md.
const LAYERS: &[&[&str]] = &[
    &["text", "tail", "logging"],
    &["memory"],
    &[
        "llm",
        "watch",
        "search",
        "control",
        "openseed",
        "remote",
        "history",
        "telemetry",
    ],
    &["recorder"],
    &["runner", "ui", "inspect"],
    &["genomes"],
    &["app"],
];

/// The genomes' folders and the layer each part of a genome sits in (the part's own
/// layer: it may use what that layer may, and its own genome's lower parts).
const GENOME_PARTS: &[(&str, &str)] = &[("memory", "memory"), ("runner", "runner"), ("ui", "ui")];

/// The registry: the one file outside `src/genomes/` that reaches into a genome.
const REGISTRY: &str = "app/genomes.rs";
/// The command line, whose list of genome names (`--genome`) may name them.
const COMMAND_LINE: &str = "app/cli.rs";

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

/// For a file of a genome (`genomes/<name>/<part>/...`): the genome and the part (`""` for
/// the genome's own `mod.rs`).
fn genome_part(src: &Path, file: &Path) -> Option<(String, String)> {
    let rel = file.strip_prefix(src).ok()?;
    let mut parts = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned());
    if parts.next()? != "genomes" {
        return None;
    }
    let genome = parts.next()?.trim_end_matches(".rs").to_string();
    let part = parts
        .next()
        .map(|p| p.trim_end_matches(".rs").to_string())
        .unwrap_or_default();
    Some((genome, part))
}

/// `genome::part` for every `crate::genomes::genome::part` in `line`.
fn genome_paths(line: &str, out: &mut BTreeSet<(String, String)>) {
    let mut rest = line;
    while let Some(at) = rest.find("crate::genomes::") {
        rest = &rest[at + "crate::genomes::".len()..];
        let path: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let mut names = path.split("::");
        let genome = names.next().unwrap_or("").to_string();
        // A part is a module (lowercase); `dreamer::NAME` is the genome's own item.
        let part = names
            .next()
            .filter(|p| p.starts_with(|c: char| c.is_ascii_lowercase()))
            .unwrap_or("")
            .to_string();
        out.insert((genome, part));
    }
}

#[test]
fn a_genome_is_a_plug_in() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let mut wrong = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap().display().to_string();
        let text = std::fs::read_to_string(file).unwrap();
        let mut genomes = BTreeSet::new();
        code_lines(&text).for_each(|l| genome_paths(l, &mut genomes));
        match genome_part(&src, file) {
            Some((genome, part)) => {
                let mut modules = BTreeSet::new();
                code_lines(&text).for_each(|l| crate_modules(l, &mut modules));
                let own = GENOME_PARTS
                    .iter()
                    .find(|(p, _)| *p == part)
                    .map(|(_, l)| *l);
                for other in modules.iter().filter(|m| *m != "genomes") {
                    let allowed = match own {
                        Some(layer) => other == layer || layer_of(other) < layer_of(layer),
                        // The genome's own `mod.rs` and files beside its parts.
                        None => layer_of(other) < layer_of("genomes"),
                    };
                    if !allowed {
                        wrong.push(format!(
                            "{rel}: the {part:?} part of {genome} uses crate::{other}"
                        ));
                    }
                }
                for (g, p) in &genomes {
                    if *g != genome {
                        wrong.push(format!("{rel}: genome {genome} uses genome {g}"));
                    } else if own.is_some() && !p.is_empty() && *p != part && p != "memory" {
                        wrong.push(format!(
                            "{rel}: the {part:?} part of {genome} uses its {p:?} part"
                        ));
                    }
                }
            }
            None if !genomes.is_empty() && rel != REGISTRY => wrong.push(format!(
                "{rel}: reaches into a genome (crate::genomes::...): plug it in through its \
                 layer's seam, or list it in the registry ({REGISTRY})"
            )),
            None => {}
        }
    }
    assert!(
        wrong.is_empty(),
        "genomes as plug-ins:\n{}",
        wrong.join("\n")
    );
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
                // Checked by `a_genome_is_a_plug_in`.
                _ if other == "genomes" => {}
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

/// The genomes: the folders under `src/genomes/`.
fn genome_names(src: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(src.join("genomes"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `line` without its string literals.
fn without_strings(line: &str) -> String {
    let mut out = String::new();
    let mut in_string = false;
    let mut escaped = false;
    for c in line.chars() {
        match (in_string, c) {
            (true, '\\') if !escaped => escaped = true,
            (true, '"') if !escaped => in_string = false,
            (true, _) => escaped = false,
            (false, '"') => in_string = true,
            (false, c) => out.push(c),
        }
    }
    out
}

/// How many identifier segments of `code` are a genome's name: `EvenniaUi`,
/// `evennia::memory` and `DREAMER_VIEWS` each name one.
fn named_genomes(code: &str, genomes: &[String]) -> usize {
    let mut n = 0;
    for word in code.split(|c: char| !c.is_ascii_alphanumeric() && c != '_') {
        let mut segments = Vec::new();
        for part in word.split('_').filter(|p| !p.is_empty()) {
            // Camel case: a capital starts a segment unless the part is all capitals.
            if part.chars().all(|c| !c.is_ascii_lowercase()) {
                segments.push(part.to_ascii_lowercase());
                continue;
            }
            let mut current = String::new();
            for c in part.chars() {
                if c.is_ascii_uppercase() && !current.is_empty() {
                    segments.push(std::mem::take(&mut current).to_ascii_lowercase());
                }
                current.push(c);
            }
            segments.push(current.to_ascii_lowercase());
        }
        n += segments.iter().filter(|s| genomes.contains(s)).count();
    }
    n
}

#[test]
fn outside_its_folder_no_genome_is_named() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let genomes = genome_names(&src);
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let mut counted = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap().display().to_string();
        if rel.starts_with("genomes/") || rel == REGISTRY || rel == COMMAND_LINE {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        // Unit tests at the end of a file do not count.
        let code = text.split("\n#[cfg(test)]").next().unwrap_or("");
        let n: usize = code_lines(code)
            .map(|l| named_genomes(&without_strings(l), &genomes))
            .sum();
        if n > 0 {
            counted.push((rel, n));
        }
    }
    assert!(
        counted.is_empty(),
        "files naming a genome outside its folder, the registry and the command line (a \
         genome is known through the registry's plug-ins only):\n{}",
        counted
            .iter()
            .map(|(f, n)| format!("    {f}: {n} names"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn genome_names_are_counted_in_identifiers_not_in_strings() {
    let g = vec!["evennia".to_string(), "dreamer".to_string()];
    assert_eq!(named_genomes("let x: EvenniaUi = DREAMER_VIEWS;", &g), 2);
    assert_eq!(
        named_genomes(&without_strings(r#"f("evennia \" dreamer")"#), &g),
        0
    );
    assert_eq!(
        named_genomes("crate::genomes::evennia::memory::of(c)", &g),
        1
    );
    assert_eq!(named_genomes("let dreamers = 1;", &g), 0);
}
