//! A creature directory's git history (OpenSeed commits its creatures' directories), read
//! by the system's `git`: no library to build, and the repository is read exactly as the
//! user's own `git log` reads it. Without `git`, or outside a repository, there is none.

use std::path::Path;
use std::process::{Command, Stdio};

use chrono::{DateTime, Utc};

/// A commit: its id and when it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    pub id: String,
    pub t: DateTime<Utc>,
}

fn git(root: &Path, args: &[&str]) -> Option<Vec<u8>> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["-c", "core.quotepath=off", "-c", "core.fsmonitor=false"])
        .args(args)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status.success().then_some(out.stdout)
}

/// Whether `root` is inside a git work tree with at least one commit.
pub fn has_history(root: &Path) -> bool {
    git(root, &["rev-parse", "--verify", "-q", "HEAD"]).is_some()
}

/// The last commit made at or before `t` (of HEAD's history).
pub fn commit_at(root: &Path, t: DateTime<Utc>) -> Option<Commit> {
    let before = format!("--before={}", t.timestamp());
    let out = git(root, &["log", "-1", "--format=%H %ct", &before, "HEAD"])?;
    parse_commit(&String::from_utf8_lossy(&out))
}

/// Every commit of HEAD touching `path` (relative to `root`), oldest first.
pub fn commits_of(root: &Path, path: &str) -> Vec<Commit> {
    git(
        root,
        &["log", "--reverse", "--format=%H %ct", "HEAD", "--", path],
    )
    .map(|out| {
        String::from_utf8_lossy(&out)
            .lines()
            .filter_map(parse_commit)
            .collect()
    })
    .unwrap_or_default()
}

fn parse_commit(line: &str) -> Option<Commit> {
    let (id, secs) = line.trim().split_once(' ')?;
    let t = DateTime::from_timestamp(secs.trim().parse().ok()?, 0)?;
    Some(Commit { id: id.into(), t })
}

/// The paths of `commit`'s tree under the directories `under` (relative to `root`).
pub fn files_at(root: &Path, commit: &str, under: &[&str]) -> Vec<String> {
    let mut args = vec!["ls-tree", "-r", "--name-only", commit, "--"];
    args.extend_from_slice(under);
    git(root, &args)
        .map(|out| {
            String::from_utf8_lossy(&out)
                .lines()
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The text of `path` (relative to `root`) as `commit` has it; `None` when it has none.
pub fn text_at(root: &Path, commit: &str, path: &str) -> Option<Vec<u8>> {
    git(root, &["show", &format!("{commit}:./{path}")])
}
