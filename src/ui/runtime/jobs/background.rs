//! User commands run in the background: `sh -c LINE` in the creature's directory, with no
//! terminal (stdin empty, its own process group, so that it never reads keys or gets the
//! terminal's signals), to its end; its last line of output is what the status line says.

use std::path::Path;
use std::process::Stdio;

use tokio::io::{AsyncRead, AsyncReadExt};

use crate::ui::prepare::inert;
use crate::ui::update::Outcome;

/// Longest last line kept (the status line shows one row anyway).
const LINE_MAX: usize = 512;

/// Runs `line` and says how it ended, about `what`.
pub async fn run(line: &str, dir: &Path, what: &str) -> Outcome {
    let child = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return (format!("{what}: not run: {e}"), true).into(),
    };
    let (out, err) = match (child.stdout.take(), child.stderr.take()) {
        (Some(out), Some(err)) => tokio::join!(last_line(out), last_line(err)),
        _ => (None, None),
    };
    let status = child.wait().await;
    match status {
        Ok(s) if s.success() => {
            let said = out.or(err).unwrap_or_else(|| "done".into());
            (format!("{what}: {said}"), false).into()
        }
        Ok(s) => {
            let how = s.code().map_or_else(
                || "ended by a signal".into(),
                |c| format!("exited with status {c}"),
            );
            let said = err.or(out).map(|l| format!(": {l}")).unwrap_or_default();
            (format!("{what}: {how}{said}"), true).into()
        }
        Err(e) => (format!("{what}: {e}"), true).into(),
    }
}

/// The last line of `reader` that is not blank, inert and cut to [`LINE_MAX`] bytes; read to
/// the end in bounded memory.
async fn last_line(mut reader: impl AsyncRead + Unpin) -> Option<String> {
    let mut buf = [0u8; 8192];
    let mut current: Vec<u8> = Vec::new();
    let mut last: Option<Vec<u8>> = None;
    loop {
        let n = match reader.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        for &b in &buf[..n] {
            if b == b'\n' {
                if current.iter().any(|c| !c.is_ascii_whitespace()) {
                    last = Some(std::mem::take(&mut current));
                }
                current.clear();
            } else if current.len() < LINE_MAX {
                current.push(b);
            }
        }
    }
    if current.iter().any(|c| !c.is_ascii_whitespace()) {
        last = Some(current);
    }
    last.map(|l| inert(String::from_utf8_lossy(&l).trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn said(line: &str) -> Outcome {
        let dir = tempfile::tempdir().unwrap();
        run(line, dir.path(), "count").await
    }

    #[tokio::test]
    async fn the_last_line_of_output_is_said() {
        let o = said("echo one; echo two; echo; echo '  '").await;
        assert_eq!((o.text.as_str(), o.error), ("count: two", false));
        let o = said("true").await;
        assert_eq!((o.text.as_str(), o.error), ("count: done", false));
        let o = said("echo only on stderr >&2").await;
        assert_eq!(o.text, "count: only on stderr");
    }

    #[tokio::test]
    async fn a_failure_says_its_status_and_its_last_error_line() {
        let o = said("echo partial; echo 'no such thing' >&2; exit 3").await;
        assert_eq!(
            (o.text.as_str(), o.error),
            ("count: exited with status 3: no such thing", true)
        );
        let o = said("no-such-command-here").await;
        assert!(o.error);
        assert!(
            o.text.starts_with("count: exited with status 127: "),
            "{}",
            o.text
        );
    }

    #[tokio::test]
    async fn output_is_made_inert_and_bounded() {
        let o = said("printf 'evil \\033]2;title\\007 %0600d\\n' 0").await;
        assert!(
            o.text.starts_with("count: evil ^[]2;title^G 000"),
            "{}",
            o.text
        );
        assert!(!o.text.contains('\u{1b}'));
        assert!(o.text.len() < LINE_MAX + 40, "{}", o.text.len());
    }
}
