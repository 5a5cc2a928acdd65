//! Notifications when a creature needs a person (failing, stalled, a dream held for
//! review, past a budget, a message to its creator): decided in [`need`] from what each
//! look at the garden finds, told to the terminal ([`osc`]: OSC 9, OSC 777 or the bell,
//! written by the loop between frames) and to the `[notify]` command hook ([`hook`]: the
//! notice as JSON on its stdin, rate-limited, run off the UI thread by the runtime).

pub mod config;
pub mod hook;
pub mod need;
pub mod osc;

use std::time::Duration;

use config::{HookCommand, NotifyConfig, TerminalMode};
use hook::{Payload, RateLimit, Verdict};
use need::{Fact, Needs, Notice};
use osc::Way;

/// The title of a terminal notification.
pub const TITLE: &str = "dreamwatch";

/// One run of the hook, for the runtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookRun {
    pub command: HookCommand,
    pub payload: Payload,
    pub timeout: Duration,
}

/// Notifications: what needs a person, and what is still to be told.
#[derive(Debug)]
pub struct Notifier {
    needs: Needs,
    limit: RateLimit,
    way: Option<Way>,
    tmux: bool,
    hook: Option<HookCommand>,
    timeout: Duration,
    /// Told at all (the toggle): while off, notices are decided but not told.
    pub enabled: bool,
    terminal: Vec<Vec<u8>>,
    runs: Vec<HookRun>,
}

impl Notifier {
    /// From `[notify]`, in the terminal the environment (`var`) describes.
    pub fn new(config: &NotifyConfig, var: impl Fn(&str) -> Option<String>) -> Self {
        Self {
            needs: Needs::new(config.stalled_after()),
            limit: RateLimit::new(config.per_minute()),
            way: osc::way(config.terminal, &var),
            tmux: var("TMUX").is_some_and(|v| !v.is_empty()),
            hook: config.hook().cloned(),
            timeout: config.timeout(),
            enabled: true,
            terminal: Vec::new(),
            runs: Vec::new(),
        }
    }

    /// Nothing told (tests, screenshots): the decisions are still made.
    pub fn silent() -> Self {
        let config = NotifyConfig {
            terminal: TerminalMode::Off,
            ..NotifyConfig::default()
        };
        Self::new(&config, |_| None)
    }

    /// Whether notices reach anything (the terminal or a hook).
    pub fn tells(&self) -> bool {
        self.way.is_some() || self.hook.is_some()
    }

    /// How the terminal is told, in words (for the toggle's status).
    pub fn describe(&self) -> String {
        let terminal = match self.way {
            Some(Way::Osc9) => "the terminal (OSC 9)",
            Some(Way::Osc777) => "the terminal (OSC 777)",
            Some(Way::Bell) => "the terminal's bell",
            None => "",
        };
        let hook = if self.hook.is_some() {
            "the [notify] command"
        } else {
            ""
        };
        match (terminal.is_empty(), hook.is_empty()) {
            (false, false) => format!("{terminal} and {hook}"),
            (false, true) => terminal.to_string(),
            (true, false) => hook.to_string(),
            (true, true) => "nothing ([notify] terminal is off and no command is set)".into(),
        }
    }

    pub fn known(&self) -> impl Iterator<Item = &std::path::Path> {
        self.needs.known()
    }

    /// Takes in a fact; the notices it gave (queued to be told when enabled) and what
    /// the status line should say of the hook's rate limit, if anything.
    pub fn handle(&mut self, fact: Fact) -> (Vec<Notice>, Option<String>) {
        let notices = self.needs.handle(fact);
        let mut said = None;
        if !self.enabled {
            return (notices, said);
        }
        for notice in &notices {
            let dropped = match self.limit.admit(notice) {
                Verdict::Run { dropped } => dropped,
                Verdict::Dropped { first } => {
                    if first {
                        said = Some(format!(
                            "notify: at most {} notices a minute per creature and kind: more are dropped (the hook's next JSON counts them)",
                            self.limit.per_minute()
                        ));
                    }
                    continue;
                }
            };
            if let Some(way) = self.way {
                self.terminal
                    .push(osc::sequence(way, TITLE, &notice.text, self.tmux));
            }
            if let Some(command) = self.hook.clone() {
                self.runs.push(HookRun {
                    command,
                    payload: Payload::of(notice, dropped),
                    timeout: self.timeout,
                });
            }
        }
        (notices, said)
    }

    /// The terminal's sequences still to be written (the loop writes them between frames).
    pub fn take_terminal(&mut self) -> Vec<Vec<u8>> {
        std::mem::take(&mut self.terminal)
    }

    /// The hook's runs still to be started.
    pub fn take_runs(&mut self) -> Vec<HookRun> {
        std::mem::take(&mut self.runs)
    }
}
