//! The flight recorder's work for the observatory, run off the UI thread: a memory line's
//! blame (as of a moment) and two creatures' comparison. Plain functions: the runtime
//! runs them on a blocking thread, the test harness in place.

use std::path::Path;

use chrono::{DateTime, Utc};

use crate::history::History;
use crate::memory::moments::is_document;
use crate::recorder::blame::{self, Blame};
use crate::recorder::compare::{self, Comparison};
use crate::recorder::entries;
use crate::recorder::{Sources, resolve};
use crate::ui::popups::blame::{BlameAsk, Blamed, FileBlame};
use crate::ui::popups::compare::CompareAsk;
use crate::ui::update::{Outcome, Recorded};

/// The outcome of `recorded`: nothing said in the status line, the popup shows it.
pub fn outcome(recorded: Recorded) -> Outcome {
    Outcome {
        recorded: Some(Box::new(recorded)),
        ..Outcome::from((String::new(), false))
    }
}

/// The documents of `.self/` (and `PURPOSE.md`) whose lines blame reads: where a line
/// of the side panel is looked for.
fn documents(root: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root.join(".self"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| is_document(n))
                .map(|n| format!(".self/{n}"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out.push("PURPOSE.md".into());
    out
}

/// Letters and digits only, lowercased: a line as rendered and as written compare so.
fn bare(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The line of `b` that shows `text` (a rendered line: markdown marks gone, maybe one
/// row of a wrapped line).
fn find_text(b: &Blame, text: &str) -> Option<usize> {
    let want = bare(text);
    if want.is_empty() {
        return None;
    }
    b.lines
        .iter()
        .find(|l| bare(&l.text) == want)
        .or_else(|| {
            b.lines.iter().find(|l| {
                let have = bare(&l.text);
                !have.is_empty() && (have.contains(&want) || want.contains(&have))
            })
        })
        .map(|l| l.n)
}

/// Blames the line `ask` names.
pub fn blame(
    ask: &BlameAsk,
    history: Option<History>,
    now: DateTime<Utc>,
) -> Result<Blamed, String> {
    let root = ask.creature.as_path();
    let sources = Sources { history };
    let past = match ask.at {
        Some(at) => Some(resolve(root, at, &sources, now).map_err(|e| e.to_string())?),
        None => None,
    };
    let until = past.as_ref().and_then(|p| p.t);
    let blame_doc = |file: &str| {
        blame::blame_until(root, file, &sources, until).map_err(|e| format!("{file}: {e}"))
    };
    let (file, blamed, line) = match &ask.file {
        Some(file) if !is_document(file.rsplit('/').next().unwrap_or_default()) => {
            let len = past.as_ref().and_then(|p| p.logs.get(file).copied());
            let log =
                entries::blame_log_until(root, file, len).map_err(|e| format!("{file}: {e}"))?;
            (file.clone(), FileBlame::Log(log), ask.line)
        }
        Some(file) => {
            let b = blame_doc(file)?;
            let line = match ask.line {
                // The line is known only of the file as it is now.
                Some(n) if ask.at.is_none() => Some(n),
                _ => ask
                    .text
                    .as_deref()
                    .and_then(|t| find_text(&b, t))
                    .or(ask.line),
            };
            (file.clone(), FileBlame::Doc(b), line)
        }
        None => {
            let text = ask.text.as_deref().unwrap_or_default();
            let mut found = None;
            for file in documents(root) {
                let Ok(b) = blame_doc(&file) else { continue };
                if let Some(n) = find_text(&b, text) {
                    found = Some((file, FileBlame::Doc(b), Some(n)));
                    break;
                }
            }
            found.ok_or_else(|| {
                "that line is in none of the memory files blame reads (a heading, or a figure the panel adds)"
                    .to_string()
            })?
        }
    };
    // Asked of the past: the file now says what became of the line since.
    let later = match (&blamed, until) {
        (FileBlame::Doc(_), Some(_)) => blame::blame(root, &file, &sources).ok(),
        _ => None,
    };
    Ok(Blamed {
        file,
        blame: blamed,
        line,
        now: later,
    })
}

/// Compares the two creatures `ask` names, now and after each dream both dreamt.
pub fn compare(
    ask: &CompareAsk,
    history: Option<History>,
    now: DateTime<Utc>,
) -> Result<Comparison, String> {
    compare::compare(&ask.a, &ask.b, &Sources { history }, now).map_err(|e| e.to_string())
}
