//! A genome's files as its `genome.json` declares them (`tabs`): how OpenSeed's dashboard
//! shows a genome it has no page of its own for. Read in its code at 815f9fd:
//! - `GET /api/creatures/:name/files` (`src/host/index.ts:1296`) reads the creature's
//!   `genome.json`; its `tabs` (`[{id, label, file, type, limit?}]`, or none when the file
//!   or the array is missing) come back as they are, with `data[id]` for each: for a
//!   `jsonl` tab the file's last `limit || 10` non-empty lines, each parsed (a line that
//!   is not JSON, or is `null`, `false`, `0` or `""`, left out); for any other the file's
//!   text (`""` when it cannot be read). A name it does not know answers no tabs.
//! - Its dashboard (`dashboard/src/components/CreatureDetail.tsx`, `MindContent.tsx`)
//!   offers a tab per entry after its log, labelled `label` (else `id`): `markdown`
//!   rendered, `jsonl` entries newest first (each its time and a summary, its fields
//!   below), anything else as plain text.
//!
//! [`read_local`] reads the same from a creature directory on this machine, confined to
//! it (a tab's file that leads out of it is not read), with bounds: text past
//! [`TEXT_LIMIT`] is cut (and said so), a `jsonl` file is read from its last
//! [`TAIL_LIMIT`] bytes.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Component, Path, PathBuf};

use serde_json::Value;

use super::OpenSeedError;
use super::client::Client;

/// The most of a text or markdown file read from disk.
pub const TEXT_LIMIT: u64 = 4 << 20;
/// How much of a `jsonl` file's end is read from disk for its last lines.
pub const TAIL_LIMIT: u64 = 4 << 20;
/// The most rows a `jsonl` tab asks for that are read (a larger `limit` is this).
pub const MAX_ROWS: usize = 1000;
/// What the orchestrator reads when a `jsonl` tab gives no `limit`.
const DEFAULT_ROWS: usize = 10;

/// How a tab's file is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TabKind {
    Markdown,
    /// Its lines, newest first.
    Jsonl,
    Text,
}

/// One tab of a genome's `genome.json`, with what its file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tab {
    pub id: String,
    /// Its `label`, else its `id`.
    pub label: String,
    /// The file, relative to the creature's directory, as declared.
    pub file: String,
    pub kind: TabKind,
    pub content: Content,
}

/// What a tab's file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    Text {
        text: String,
        /// Only its first [`TEXT_LIMIT`] bytes were read.
        cut: bool,
    },
    /// A `jsonl` file's last rows, oldest first.
    Rows(Vec<Value>),
    /// Not read, and why (a file outside the creature's directory).
    Refused(String),
}

/// The tabs a genome declares, in order; none when it declares none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GenomeFiles {
    pub tabs: Vec<Tab>,
}

impl GenomeFiles {
    /// The route's answer (`{tabs, data}`) as tabs: a tab with no string `id` is left out
    /// (the dashboard could not show it either).
    pub fn from_answer(answer: &Value) -> Self {
        let data = answer.get("data").and_then(Value::as_object);
        let tabs = declared(answer)
            .into_iter()
            .map(|d| {
                let found = data.and_then(|m| m.get(&d.id));
                let content = match d.kind {
                    TabKind::Jsonl => {
                        Content::Rows(found.and_then(Value::as_array).cloned().unwrap_or_default())
                    }
                    _ => Content::Text {
                        text: found.and_then(Value::as_str).unwrap_or_default().to_owned(),
                        cut: false,
                    },
                };
                d.with(content)
            })
            .collect();
        Self { tabs }
    }
}

/// A tab as `genome.json` declares it, before its file is read.
struct Declared {
    id: String,
    label: String,
    file: String,
    kind: TabKind,
    limit: usize,
}

impl Declared {
    fn with(self, content: Content) -> Tab {
        Tab {
            id: self.id,
            label: self.label,
            file: self.file,
            kind: self.kind,
            content,
        }
    }
}

/// The tabs of a `genome.json` (or of the route's answer: the same array).
fn declared(genome: &Value) -> Vec<Declared> {
    let Some(tabs) = genome.get("tabs").and_then(Value::as_array) else {
        return Vec::new();
    };
    tabs.iter()
        .filter_map(|t| {
            let id = t.get("id")?.as_str()?.to_owned();
            let text = |k| t.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
            let kind = match text("type") {
                Some("jsonl") => TabKind::Jsonl,
                Some("markdown") => TabKind::Markdown,
                _ => TabKind::Text,
            };
            // `tab.limit || 10`: a missing, zero or odd limit is ten.
            let limit = t
                .get("limit")
                .and_then(Value::as_u64)
                .filter(|n| *n > 0)
                .map_or(DEFAULT_ROWS, |n| usize::try_from(n).unwrap_or(MAX_ROWS))
                .min(MAX_ROWS);
            Some(Declared {
                label: text("label").unwrap_or(&id).to_owned(),
                file: text("file").unwrap_or_default().to_owned(),
                id,
                kind,
                limit,
            })
        })
        .collect()
}

impl Client {
    /// The creature's files as its genome's tabs declare them.
    pub async fn files(&self, creature: &str) -> Result<GenomeFiles, OpenSeedError> {
        let answer: Value = self
            .send(
                reqwest::Method::GET,
                &["api", "creatures", creature, "files"],
                Some(creature),
                None,
            )
            .await?;
        Ok(GenomeFiles::from_answer(&answer))
    }
}

/// Reads the tabs the `genome.json` in `dir` (a creature's directory) declares, and their
/// files, as the orchestrator would; none when there is no `genome.json` or it declares
/// no tabs. Blocking: run it off the UI thread.
pub fn read_local(dir: &Path) -> Result<GenomeFiles, String> {
    let genome = match read_head(&dir.join("genome.json"), TEXT_LIMIT) {
        Ok((bytes, _)) => serde_json::from_slice::<Value>(&bytes)
            .map_err(|e| format!("its genome.json is not JSON: {e}"))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(GenomeFiles::default()),
        Err(e) => return Err(format!("cannot read its genome.json: {e}")),
    };
    let root = dir
        .canonicalize()
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let tabs = declared(&genome)
        .into_iter()
        .map(|d| {
            let content = match inside(&root, &d.file) {
                Err(why) => Content::Refused(why),
                Ok(path) => match d.kind {
                    TabKind::Jsonl => Content::Rows(last_rows(&path, d.limit)),
                    _ => match read_head(&path, TEXT_LIMIT) {
                        Ok((bytes, cut)) => Content::Text {
                            text: String::from_utf8_lossy(&bytes).into_owned(),
                            cut,
                        },
                        Err(_) => Content::Text {
                            text: String::new(),
                            cut: false,
                        },
                    },
                },
            };
            d.with(content)
        })
        .collect();
    Ok(GenomeFiles { tabs })
}

/// `file` under `root`, if it stays there (no absolute path, no `..` out, no link out).
fn inside(root: &Path, file: &str) -> Result<PathBuf, String> {
    let relative = Path::new(file);
    if file.is_empty()
        || relative
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(format!(
            "{file:?} is not a path inside the creature's directory: not read"
        ));
    }
    let path = root.join(relative);
    match path.canonicalize() {
        Ok(real) if !real.starts_with(root) => Err(format!(
            "{file:?} leads out of the creature's directory: not read"
        )),
        // A file that is not there reads as empty, as the orchestrator reads it.
        _ => Ok(path),
    }
}

/// The first `limit` bytes of `path`, and whether there was more.
fn read_head(path: &Path, limit: u64) -> std::io::Result<(Vec<u8>, bool)> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    let cut = bytes.len() as u64 > limit;
    bytes.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    Ok((bytes, cut))
}

/// The last `n` non-empty lines of `path` that are JSON and not `null`, `false`, `0` or
/// `""` (JavaScript's falsy values, which the orchestrator filters out).
fn last_rows(path: &Path, n: usize) -> Vec<Value> {
    let Ok(mut file) = std::fs::File::open(path) else {
        return Vec::new();
    };
    let len = file.metadata().map_or(0, |m| m.len());
    let start = len.saturating_sub(TAIL_LIMIT);
    let mut bytes = Vec::new();
    if file.seek(SeekFrom::Start(start)).is_err() || file.read_to_end(&mut bytes).is_err() {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut lines: Vec<&str> = text.trim().split('\n').filter(|l| !l.is_empty()).collect();
    if start > 0 && !lines.is_empty() {
        // The first line read may be the end of a longer one.
        lines.remove(0);
    }
    let from = lines.len().saturating_sub(n);
    lines[from..]
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(truthy)
        .collect()
}

fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use serde_json::json;

    fn by_id(files: &GenomeFiles) -> BTreeMap<&str, &Tab> {
        files.tabs.iter().map(|t| (t.id.as_str(), t)).collect()
    }

    #[test]
    fn the_answer_becomes_tabs() {
        let answer = json!({
            "tabs": [
                {"id": "purpose", "label": "purpose", "file": "PURPOSE.md", "type": "markdown"},
                {"id": "dreams", "file": ".self/dreams.jsonl", "type": "jsonl", "limit": 10},
                {"id": "rules", "label": "rules", "file": ".self/rules.md", "type": "text"},
                {"label": "no id"}
            ],
            "data": {"purpose": "# Be", "dreams": [{"t": "x", "reflection": "deep"}], "rules": ""}
        });
        let files = GenomeFiles::from_answer(&answer);
        assert_eq!(files.tabs.len(), 3);
        assert_eq!(files.tabs[1].label, "dreams");
        assert_eq!(files.tabs[1].kind, TabKind::Jsonl);
        assert_eq!(
            files.tabs[1].content,
            Content::Rows(vec![json!({"t": "x", "reflection": "deep"})])
        );
        assert_eq!(by_id(&files)["purpose"].kind, TabKind::Markdown);
        assert!(
            GenomeFiles::from_answer(&json!({"tabs": [], "data": {}}))
                .tabs
                .is_empty()
        );
    }

    #[test]
    fn read_from_disk_as_the_orchestrator_reads_and_never_out_of_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let c = dir.path().join("finch");
        std::fs::create_dir_all(c.join(".self")).unwrap();
        std::fs::write(dir.path().join("secret"), "no").unwrap();
        std::fs::write(
            c.join("genome.json"),
            json!({"tabs": [
                {"id": "p", "file": "PURPOSE.md", "type": "markdown"},
                {"id": "log", "file": ".self/log.jsonl", "type": "jsonl", "limit": 2},
                {"id": "up", "file": "../secret"},
                {"id": "abs", "file": "/etc/passwd"},
                {"id": "gone", "file": "nothing.md"}
            ]})
            .to_string(),
        )
        .unwrap();
        std::fs::write(c.join("PURPOSE.md"), "# Purpose\n").unwrap();
        std::fs::write(
            c.join(".self/log.jsonl"),
            "{\"n\":1}\n{\"n\":2}\nnot json\nnull\n{\"n\":3}\n\n",
        )
        .unwrap();
        let files = read_local(&c).unwrap();
        let t = by_id(&files);
        assert_eq!(
            t["p"].content,
            Content::Text {
                text: "# Purpose\n".into(),
                cut: false
            }
        );
        // The last two lines are `null` and `{"n":3}`: one row, as the orchestrator's.
        assert_eq!(t["log"].content, Content::Rows(vec![json!({"n": 3})]));
        assert!(matches!(t["up"].content, Content::Refused(_)));
        assert!(matches!(t["abs"].content, Content::Refused(_)));
        assert_eq!(
            t["gone"].content,
            Content::Text {
                text: String::new(),
                cut: false
            }
        );
        assert!(read_local(dir.path()).unwrap().tabs.is_empty());
    }
}
