//! Handing the terminal to a program and taking it back: the keys stop being read, the
//! screen is put back as it was before the observatory (cooked mode, main screen), the
//! program runs with the terminal as its stdin, stdout and stderr, and once it exits
//! the observatory takes the terminal again and draws it whole. Everything else keeps
//! running meanwhile (the watcher, hosted creatures): what it reports waits in the
//! loop's channels.

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{ExitStatus, Stdio};

use crossterm::event::EventStream;

use super::terminal::{Term, restore, resume};
use crate::ui::prepare::inert;
use crate::ui::update::{Foreground, HandBack};

/// Runs `fg` with the terminal. Takes the key stream (dropped before the program starts,
/// so that no key meant for it is read here) and returns a new one. Fails only when the
/// terminal cannot be taken back.
pub async fn hand_over(
    terminal: &mut Term,
    events: EventStream,
    fg: &Foreground,
) -> std::io::Result<(EventStream, HandBack)> {
    let value = fg
        .program
        .variable()
        .and_then(|(name, _)| std::env::var(name).ok());
    let argv = match fg.program.argv(value.as_deref()) {
        Ok(argv) => argv,
        Err(why) => return Ok((events, HandBack::NotRun(why))),
    };
    drop(events);
    restore();
    let ended = run(&argv, &fg.dir).await;
    resume(terminal)?;
    Ok((EventStream::new(), ended))
}

/// Suspends the observatory as a shell's Ctrl-Z suspends any program: the terminal is
/// put back, the process stops itself (SIGTSTP, so the shell's job control takes over),
/// and once continued (`fg`, SIGCONT) takes the terminal again, forgetting what was on
/// screen so that the next frame is drawn whole. Everything in the process stops
/// meanwhile, hosted creatures too. Takes the key stream and returns a new one, as
/// [`hand_over`] does.
pub fn suspend(terminal: &mut Term, events: EventStream) -> std::io::Result<EventStream> {
    drop(events);
    restore();
    // SAFETY: raise(3) sends a signal to this process; it touches no memory of ours.
    // SIGTSTP's default action stops the process until SIGCONT, where raise returns.
    unsafe { libc::raise(libc::SIGTSTP) };
    resume(terminal)?;
    Ok(EventStream::new())
}

/// Runs `argv` in `dir` with this process's stdin, stdout and stderr, to its end.
pub async fn run(argv: &[String], dir: &Path) -> HandBack {
    let Some((program, args)) = argv.split_first() else {
        return HandBack::NotRun("no program given".into());
    };
    let status = tokio::process::Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::inherit())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .status()
        .await;
    match status {
        Ok(status) if status.success() => HandBack::Done,
        Ok(status) => HandBack::Failed(describe(status)),
        Err(e) => HandBack::NotRun(format!("{}: {e}", inert(program))),
    }
}

/// How a program that failed ended, in words.
fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => format!("ended by signal {signal}"),
        (None, None) => "ended".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(ToString::to_string).collect()
    }

    #[tokio::test]
    async fn a_program_that_runs_fails_or_is_missing_is_told_apart() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(run(&argv(&["true"]), dir.path()).await, HandBack::Done);
        assert_eq!(
            run(&argv(&["sh", "-c", "exit 3"]), dir.path()).await,
            HandBack::Failed("exited with status 3".into())
        );
        assert_eq!(
            run(&argv(&["sh", "-c", "kill -TERM $$"]), dir.path()).await,
            HandBack::Failed("ended by signal 15".into())
        );
        let missing = run(&argv(&["no-such-editor-here"]), dir.path()).await;
        assert!(
            matches!(&missing, HandBack::NotRun(why) if why.starts_with("no-such-editor-here: ")),
            "{missing:?}"
        );
        assert!(matches!(run(&[], dir.path()).await, HandBack::NotRun(_)));
    }

    #[tokio::test]
    async fn the_program_runs_in_the_directory_given() {
        let dir = tempfile::tempdir().unwrap();
        let ended = run(&argv(&["sh", "-c", "pwd > here"]), dir.path()).await;
        assert_eq!(ended, HandBack::Done);
        let here = std::fs::read_to_string(dir.path().join("here")).unwrap();
        assert_eq!(
            std::fs::canonicalize(here.trim()).unwrap(),
            std::fs::canonicalize(dir.path()).unwrap()
        );
    }
}
