//! `[notify]` in the config file: how the terminal is told, the command hook, its rate
//! limit and timeout, and when an awake creature counts as stalled.

use serde::Deserialize;

/// How a notice reaches the terminal the observatory runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TerminalMode {
    /// OSC 9 or OSC 777 where the terminal is known to show them, else the bell.
    #[default]
    Auto,
    /// `ESC ] 9 ; text BEL` (iTerm2, WezTerm, kitty, Ghostty, ConEmu).
    Osc9,
    /// `ESC ] 777 ; notify ; title ; body BEL` (VTE terminals, foot, urxvt).
    Osc777,
    /// The bell alone.
    Bell,
    /// Nothing is written to the terminal.
    Off,
}

/// The hook: an argument list run as it is, or a line for `sh -c`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum HookCommand {
    Argv(Vec<String>),
    Shell(String),
}

/// `[notify]`, every key optional.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotifyConfig {
    /// `auto` (default), `osc9`, `osc777`, `bell` or `off`.
    #[serde(default)]
    pub terminal: TerminalMode,
    /// Run for each notice, with the notice as JSON on its stdin.
    pub command: Option<HookCommand>,
    /// The hook runs at most this often per creature and kind, per minute (default 4).
    pub per_minute: Option<u32>,
    /// A hook still running after this many seconds is killed (default 10).
    pub timeout_s: Option<u64>,
    /// Awake, not paused, and nothing written for this many seconds: stalled (default
    /// 600).
    pub stalled_after_s: Option<u64>,
}

/// Defaults of the keys left out.
pub const PER_MINUTE: u32 = 4;
pub const TIMEOUT_S: u64 = 10;

impl NotifyConfig {
    pub fn per_minute(&self) -> u32 {
        self.per_minute.unwrap_or(PER_MINUTE)
    }

    pub fn timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.timeout_s.unwrap_or(TIMEOUT_S).max(1))
    }

    pub fn stalled_after(&self) -> chrono::Duration {
        self.stalled_after_s
            .and_then(|s| i64::try_from(s.max(1)).ok())
            .map_or(super::need::STALLED_AFTER, chrono::Duration::seconds)
    }

    /// A hook with an empty argument list or line is none.
    pub fn hook(&self) -> Option<&HookCommand> {
        self.command.as_ref().filter(|c| match c {
            HookCommand::Argv(argv) => argv.first().is_some_and(|p| !p.is_empty()),
            HookCommand::Shell(line) => !line.trim().is_empty(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_is_a_list_or_a_line_and_the_rest_has_defaults() {
        let c: NotifyConfig =
            toml::from_str("terminal = \"osc777\"\ncommand = [\"ntfy\", \"publish\", \"t\"]\n")
                .unwrap();
        assert_eq!(c.terminal, TerminalMode::Osc777);
        assert!(matches!(c.hook(), Some(HookCommand::Argv(a)) if a.len() == 3));
        assert_eq!(c.per_minute(), PER_MINUTE);
        assert_eq!(c.stalled_after(), super::super::need::STALLED_AFTER);
        let c: NotifyConfig =
            toml::from_str("command = \"notify-send hi\"\nper_minute = 1\nstalled_after_s = 60\n")
                .unwrap();
        assert!(matches!(c.hook(), Some(HookCommand::Shell(_))));
        assert_eq!(c.stalled_after(), chrono::Duration::seconds(60));
        assert_eq!(c.terminal, TerminalMode::Auto);
        let empty: NotifyConfig = toml::from_str("command = []").unwrap();
        assert!(empty.hook().is_none());
        assert!(toml::from_str::<NotifyConfig>("terminal = \"loud\"").is_err());
        assert!(toml::from_str::<NotifyConfig>("comand = \"x\"").is_err());
    }
}
