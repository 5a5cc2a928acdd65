//! The seams the composition root keeps: clap only in `app`, the observatory and the
//! runner never importing each other, `control` below both, nothing importing `app`.
//! Checked on the source text: every `crate::<module>` path and every `clap` mention.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The top-level module a file belongs to: `src/ui/state/mod.rs` -> `ui`.
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

#[test]
fn modules_import_only_what_lies_below_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // (importer, what it must not name)
    let forbidden = [
        ("ui", "crate::runner"),
        ("runner", "crate::ui"),
        ("control", "crate::runner"),
        ("control", "crate::ui"),
        ("llm", "crate::ui"),
        ("memory", "crate::control"),
    ];
    let mut problems = Vec::new();
    for file in sources(&src) {
        let module = module_of(&src, &file);
        let text = std::fs::read_to_string(&file).unwrap();
        if module != "app" && module != "main" && text.contains("crate::app") {
            problems.push(format!("{}: imports app", file.display()));
        }
        if module != "app" && text.contains("clap") {
            problems.push(format!("{}: knows clap", file.display()));
        }
        for (importer, path) in forbidden {
            if module == importer && text.contains(path) {
                problems.push(format!("{}: names {path}", file.display()));
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
