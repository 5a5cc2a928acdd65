//! Handing the terminal to another program: what the update asks for ([`Foreground`]),
//! how `$EDITOR`/`$PAGER` become a command line (pure, given the variables' values), and
//! what the state does once the terminal is back ([`App::on_handed_back`]). The runtime
//! (`ui::runtime::handover`) leaves the screen, runs the program, and comes back.

use std::path::PathBuf;

use crate::ui::prepare::inert;
use crate::ui::state::App;

/// The program to hand the terminal to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Program {
    /// `$EDITOR` (else `vi`) on a file, at a line when one is known.
    Editor { file: PathBuf, line: Option<usize> },
    /// `$PAGER` (else `less`) on a file, at a line when one is known.
    Pager { file: PathBuf, line: Option<usize> },
    /// A command line run by `sh -c` (its placeholders already quoted).
    Shell(String),
}

/// A program to run in the foreground, with the terminal, in `dir`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Foreground {
    pub program: Program,
    pub dir: PathBuf,
    /// What it is, for the status line afterwards: "editing observations.md".
    pub what: String,
}

/// How a hand-over ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandBack {
    /// The program ran and exited with status 0.
    Done,
    /// The program ran and failed: its exit code, or the signal that ended it.
    Failed(String),
    /// The program could not be started (not found, not executable, bad `$EDITOR`).
    NotRun(String),
}

/// Programs known to take `+LINE` before the file to open it at that line.
const TAKES_PLUS_LINE: &[&str] = &[
    "vi",
    "vim",
    "nvim",
    "view",
    "nano",
    "emacs",
    "emacsclient",
    "micro",
    "kak",
    "less",
    "more",
    "most",
    "mg",
    "joe",
    "ne",
];

impl Program {
    /// The environment variable that names the program, and its fallback.
    pub fn variable(&self) -> Option<(&'static str, &'static str)> {
        match self {
            Program::Editor { .. } => Some(("EDITOR", "vi")),
            Program::Pager { .. } => Some(("PAGER", "less")),
            Program::Shell(_) => None,
        }
    }

    /// The argv to run, given the value of [`Program::variable`] (`None` or blank: the
    /// fallback). `$EDITOR` may hold arguments (`code -w`, `emacs -nw`): it is split as a
    /// shell would, but not run by one.
    pub fn argv(&self, value: Option<&str>) -> Result<Vec<String>, String> {
        let (file, line, fallback, name) = match self {
            Program::Shell(line) => return Ok(vec!["sh".into(), "-c".into(), line.clone()]),
            Program::Editor { file, line } => (file, line, "vi", "EDITOR"),
            Program::Pager { file, line } => (file, line, "less", "PAGER"),
        };
        let value = value.map(str::trim).filter(|v| !v.is_empty());
        let mut argv = match value {
            Some(v) => shlex::split(v)
                .filter(|a| !a.is_empty())
                .ok_or_else(|| format!("${name} cannot be read as a command: {}", inert(v)))?,
            None => vec![fallback.to_string()],
        };
        let takes_line = argv
            .first()
            .and_then(|p| std::path::Path::new(p).file_name())
            .and_then(|p| p.to_str())
            .is_some_and(|p| TAKES_PLUS_LINE.contains(&p));
        if let Some(line) = line.filter(|_| takes_line) {
            argv.push(format!("+{line}"));
        }
        argv.push(file.display().to_string());
        Ok(argv)
    }
}

impl App {
    /// The terminal is back after `fg` ran: the whole screen is drawn again, and the
    /// status line says how it ended.
    pub fn on_handed_back(&mut self, fg: &Foreground, ended: HandBack) {
        self.dirty = true;
        let what = &fg.what;
        match ended {
            HandBack::Done => self.set_notice(format!("back from {what}"), false),
            HandBack::Failed(how) => self.set_notice(format!("{what}: {how}"), true),
            HandBack::NotRun(why) => self.set_notice(format!("{what}: not run: {why}"), true),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn editor(line: Option<usize>) -> Program {
        Program::Editor {
            file: PathBuf::from("/g/sprout/observations.md"),
            line,
        }
    }

    #[test]
    fn the_editor_falls_back_to_vi_and_opens_at_the_line() {
        assert_eq!(
            editor(Some(12)).argv(None).unwrap(),
            ["vi", "+12", "/g/sprout/observations.md"]
        );
        assert_eq!(
            editor(None).argv(Some("  ")).unwrap(),
            ["vi", "/g/sprout/observations.md"]
        );
    }

    #[test]
    fn an_editor_with_arguments_is_split_and_unknown_ones_get_no_line() {
        assert_eq!(
            editor(Some(3)).argv(Some("code -w")).unwrap(),
            ["code", "-w", "/g/sprout/observations.md"]
        );
        assert_eq!(
            editor(Some(3))
                .argv(Some("/usr/bin/nvim -u 'my init.vim'"))
                .unwrap(),
            [
                "/usr/bin/nvim",
                "-u",
                "my init.vim",
                "+3",
                "/g/sprout/observations.md"
            ]
        );
        assert!(editor(None).argv(Some("vim 'unclosed")).is_err());
    }

    #[test]
    fn the_pager_falls_back_to_less_and_shell_lines_go_to_sh() {
        let pager = Program::Pager {
            file: PathBuf::from("log.jsonl"),
            line: Some(40),
        };
        assert_eq!(pager.argv(None).unwrap(), ["less", "+40", "log.jsonl"]);
        assert_eq!(pager.variable(), Some(("PAGER", "less")));
        let shell = Program::Shell("tig -C '/g/a b'".into());
        assert_eq!(
            shell.argv(Some("ignored")).unwrap(),
            ["sh", "-c", "tig -C '/g/a b'"]
        );
    }
}
