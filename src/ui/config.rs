//! The observatory's part of the config file (see `config.sample.toml`): theme, polling,
//! read-only, key bindings, user commands, notifications. Every setting is optional; key bindings patch the defaults one action at
//! a time. The file is read once, by the composition root (`app`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;

use super::input::commands::UserCommand;
use super::input::keymap::KeyNames;
use super::notify::config::NotifyConfig;
use crate::llm::prices::Price;

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Theme name: built in (dark, light, high-contrast) or `themes/<name>.toml`.
    pub theme: Option<String>,
    /// Polling interval of the fallback watcher, in milliseconds.
    pub poll_ms: Option<u64>,
    /// Refuse every action that writes or acts (as `--read-only` does).
    pub read_only: Option<bool>,
    /// Ring the terminal bell when a creature that is not selected gets a RED
    /// observation, an error or a dream.
    pub bell: Option<bool>,
    /// The bound of the watched history in MiB (default 64; 0 keeps none).
    pub history_mib: Option<u64>,
    /// Action name -> key or keys, e.g. `force_sleep = "z"` or `quit = ["q", "ctrl-c"]`.
    #[serde(default)]
    pub keys: BTreeMap<String, KeyNames>,
    /// `"provider/model" = { input, output, cache_read, cache_write }` in dollars per
    /// million tokens: added over the built-in price table (`src/llm/prices.toml`).
    #[serde(default)]
    pub prices: BTreeMap<String, Price>,
    /// `[[commands]]`: the operator's own keys (`key`, `description`, `command`,
    /// `foreground`).
    #[serde(default)]
    pub commands: Vec<UserCommand>,
    /// `[notify]`: notifications when a creature needs a person.
    #[serde(default)]
    pub notify: NotifyConfig,
}

/// `<config dir>/dreamwatch`, where config.toml and themes/ live.
pub fn config_dir() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|d| d.config_dir().join("dreamwatch"))
}
