//! The keymap: defaults in code, patched by the bindings a config file names.

use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;

use super::action::Action;
use super::commands::UserCommand;
use super::keys::KeyChord;
use crate::ui::focus::{MainView, Mode};

/// Ctrl with this key quits in every mode, whatever the config binds (it cannot be
/// rebound): the way out that no keys config can take away.
pub const QUIT_ALWAYS: char = 'c';

/// Action -> keys, plus the reverse index per mode used to dispatch key presses. Two
/// actions share a key in a mode only when they are [`Action::exclusive`] (views of
/// different genomes: `1` shows the observations of a dreamer, the journal of an evennia
/// creature).
#[derive(Debug, Clone)]
pub struct Keymap {
    bindings: BTreeMap<Action, Vec<KeyChord>>,
    index: HashMap<(Mode, KeyChord), Vec<Action>>,
    /// The config's `[[commands]]` that were bound: `Action::User(i)` is the `i`th.
    commands: Vec<UserCommand>,
}

/// One or several key names, as a config file writes them: `"s"` or `["s", "f5"]`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum KeyNames {
    One(String),
    Many(Vec<String>),
}

impl KeyNames {
    fn names(&self) -> Vec<&str> {
        match self {
            KeyNames::One(s) => vec![s.as_str()],
            KeyNames::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

impl Default for Keymap {
    fn default() -> Self {
        let bindings = Action::ALL
            .iter()
            .map(|&a| {
                let keys = a
                    .spec()
                    .keys
                    .iter()
                    .filter_map(|name| name.parse().ok())
                    .collect();
                (a, keys)
            })
            .collect();
        let mut map = Self {
            bindings,
            index: HashMap::new(),
            commands: Vec::new(),
        };
        map.reindex();
        map
    }
}

impl Keymap {
    /// Applies a config patch: each named action gets exactly the keys given (an empty
    /// list unbinds it); a key taken from another action in the same mode leaves it.
    /// A binding with a key that cannot be read keeps the action's keys, and Ctrl-C
    /// stays with quit whatever the patch says ([`QUIT_ALWAYS`]), so that a typo never
    /// leaves the operator without a way out. Returns one warning per bad name or key;
    /// the rest of the patch still applies.
    pub fn patch(&mut self, patch: &BTreeMap<String, KeyNames>) -> Vec<String> {
        let mut warnings = Vec::new();
        for (name, names) in patch {
            let action: Action = match toml::Value::String(name.clone()).try_into::<Action>() {
                Ok(a) => a,
                Err(_) => {
                    warnings.push(format!("keys: unknown action {name:?}"));
                    continue;
                }
            };
            let parsed: Result<Vec<KeyChord>, String> =
                names.names().iter().map(|key| key.parse()).collect();
            let mut keys = match parsed {
                Ok(keys) => keys,
                Err(e) => {
                    warnings.push(format!(
                        "keys.{name}: {e}: it keeps its keys ({})",
                        self.label(action)
                    ));
                    continue;
                }
            };
            let quit_always = KeyChord::ctrl(QUIT_ALWAYS);
            if action == Action::Quit {
                if !keys.contains(&quit_always) {
                    keys.push(quit_always);
                }
            } else if keys.contains(&quit_always) {
                keys.retain(|k| *k != quit_always);
                warnings.push(format!("keys.{name}: {quit_always} always quits"));
            }
            for (&other, other_keys) in &mut self.bindings {
                if other == action
                    || !shares_mode(other, action)
                    || Action::exclusive(other, action)
                {
                    continue;
                }
                other_keys.retain(|k| !keys.contains(k));
            }
            self.bindings.insert(action, keys);
        }
        self.reindex();
        warnings
    }

    /// Binds the config's `[[commands]]` (after [`Keymap::patch`]) on the normal screen. A
    /// command whose key cannot be read, whose line cannot be filled in (a placeholder
    /// inside single quotes), or whose key is already one of the normal screen or of the
    /// garden list, or of an earlier command, is refused with a warning; the others are
    /// bound.
    pub fn add_commands(&mut self, commands: &[UserCommand]) -> Vec<String> {
        let mut warnings = Vec::new();
        for (n, c) in commands.iter().enumerate() {
            let what = format!("commands[{n}] ({:?})", c.description);
            let key: KeyChord = match c.key.parse() {
                Ok(k) => k,
                Err(e) => {
                    warnings.push(format!("{what}: {e}: not bound"));
                    continue;
                }
            };
            if let Err(e) = super::commands::check(&c.command) {
                warnings.push(format!("{what}: {e}: not bound"));
                continue;
            }
            let taken = [Mode::Normal, Mode::Garden]
                .iter()
                .find_map(|&m| self.index.get(&(m, key)).and_then(|a| a.first()));
            if let Some(&taken) = taken {
                let by = match self.command(taken) {
                    Some(other) => format!("the command {:?}", other.description),
                    None => format!("{} (keys.{})", taken.spec().hint, name_of(taken)),
                };
                warnings.push(format!("{what}: {key} is already {by}'s key: not bound"));
                continue;
            }
            let Ok(i) = u8::try_from(self.commands.len()) else {
                warnings.push(format!("{what}: more than 256 commands: not bound"));
                continue;
            };
            self.commands.push(c.clone());
            self.bindings.insert(Action::User(i), vec![key]);
            self.reindex();
        }
        warnings
    }

    /// The user command an action runs, if it is one.
    pub fn command(&self, action: Action) -> Option<&UserCommand> {
        match action {
            Action::User(i) => self.commands.get(usize::from(i)),
            _ => None,
        }
    }

    /// The user commands' actions, in the config's order.
    pub fn user_actions(&self) -> impl Iterator<Item = Action> {
        (0..self.commands.len())
            .filter_map(|i| u8::try_from(i).ok())
            .map(Action::User)
    }

    fn reindex(&mut self) {
        self.index.clear();
        for (&action, keys) in &self.bindings {
            for &mode in action.modes() {
                for &k in keys {
                    self.index.entry((mode, k)).or_default().push(action);
                }
            }
        }
    }

    /// The action bound to `key` in `mode` for a creature that offers `views` (a view
    /// it lacks is never its key's action).
    pub fn action(&self, mode: Mode, key: KeyChord, views: &[MainView]) -> Option<Action> {
        self.index
            .get(&(mode, key))?
            .iter()
            .copied()
            .find(|a| !a.shows_a_view() || a.view_in(views).is_some())
    }

    /// The action for `key` on the screen as it is: on the normal screen with the garden
    /// focused, the garden's keys first ([`Mode::Garden`]), then, while the time cursor
    /// is on (`past`), its keys ([`Mode::Past`]), then the normal screen's.
    pub fn lookup(
        &self,
        mode: Mode,
        (garden_focused, past): (bool, bool),
        key: KeyChord,
        views: &[MainView],
    ) -> Option<Action> {
        let layer = |on: bool, layer: Mode| {
            (mode == Mode::Normal && on)
                .then(|| self.action(layer, key, views))
                .flatten()
        };
        layer(garden_focused, Mode::Garden)
            .or_else(|| layer(past, Mode::Past))
            .or_else(|| self.action(mode, key, views))
    }

    /// Whether every key of the normal screen's `action` does a garden action while the
    /// garden is focused (then the hint bar does not offer it there).
    pub fn shadowed_in_garden(&self, action: Action, views: &[MainView]) -> bool {
        let keys = self.keys(action);
        !keys.is_empty()
            && action.modes().contains(&Mode::Normal)
            && keys
                .iter()
                .all(|k| self.action(Mode::Garden, *k, views).is_some())
    }

    /// The keys bound to `action` (possibly none).
    pub fn keys(&self, action: Action) -> &[KeyChord] {
        self.bindings.get(&action).map_or(&[], Vec::as_slice)
    }

    /// The first key bound to `action`, as notices and the hint bar name it.
    pub fn first(&self, action: Action) -> Option<KeyChord> {
        self.keys(action).first().copied()
    }

    /// `text` with `{}` replaced by the first key of `action`, for notices that name a key;
    /// empty when the action is unbound, so that no notice names a key that does not do it.
    pub fn mention(&self, action: Action, text: &str) -> String {
        self.first(action)
            .map(|k| text.replace("{}", &k.to_string()))
            .unwrap_or_default()
    }

    /// The keys of `action` joined for display: `k/↑`.
    pub fn label(&self, action: Action) -> String {
        self.keys(action)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// The name the config file gives a built-in action (`force_sleep`).
fn name_of(action: Action) -> String {
    match toml::Value::try_from(action) {
        Ok(toml::Value::String(name)) => name,
        _ => format!("{action:?}"),
    }
}

fn shares_mode(a: Action, b: Action) -> bool {
    a.modes().iter().any(|m| b.modes().contains(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patch(pairs: &[(&str, KeyNames)]) -> BTreeMap<String, KeyNames> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn defaults_have_no_conflicts_within_a_mode() {
        let map = Keymap::default();
        let mut seen: HashMap<(Mode, KeyChord), Vec<Action>> = HashMap::new();
        for a in Action::ALL {
            assert!(!map.keys(a).is_empty(), "{a:?} has no default key");
            for &m in a.modes() {
                for &k in map.keys(a) {
                    let others = seen.entry((m, k)).or_default();
                    for &prev in others.iter() {
                        assert!(
                            Action::exclusive(prev, a),
                            "{k} bound to {prev:?} and {a:?} in {m:?}"
                        );
                    }
                    others.push(a);
                }
            }
        }
    }

    #[test]
    fn lookup_by_mode() {
        let map = Keymap::default();
        let views = crate::ui::focus::test_views::OBSERVATIONS_FIRST;
        assert_eq!(
            map.action(Mode::Normal, KeyChord::plain('s'), views),
            Some(Action::ForceSleep)
        );
        assert_eq!(map.action(Mode::Message, KeyChord::plain('s'), views), None);
        assert_eq!(
            map.action(Mode::Message, KeyChord::ctrl('s'), views),
            Some(Action::SendMessage)
        );
        assert_eq!(map.label(Action::Up), "k/↑");
    }

    #[test]
    fn patch_replaces_only_named_bindings_and_steals_keys() {
        let mut map = Keymap::default();
        let warnings = map.patch(&patch(&[
            ("force_sleep", KeyNames::One("z".into())),
            ("wake", KeyNames::Many(vec!["q".into(), "f5".into()])),
            ("no_such_action", KeyNames::One("x".into())),
            ("pause_resume", KeyNames::One("ctrl-".into())),
        ]));
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert_eq!(map.label(Action::ForceSleep), "z");
        let views = crate::ui::focus::test_views::OBSERVATIONS_FIRST;
        assert_eq!(map.action(Mode::Normal, KeyChord::plain('s'), views), None);
        assert_eq!(
            map.action(Mode::Normal, KeyChord::plain('q'), views),
            Some(Action::Wake)
        );
        assert_eq!(map.label(Action::Quit), "Ctrl-C");
        assert_eq!(map.label(Action::Message), "m");
        // A key that cannot be read leaves the binding as it was.
        assert_eq!(map.label(Action::PauseResume), "p");
    }

    fn command(key: &str, description: &str) -> UserCommand {
        UserCommand {
            key: key.into(),
            description: description.into(),
            command: "true".into(),
            foreground: false,
        }
    }

    #[test]
    fn user_commands_are_bound_unless_their_key_is_taken() {
        let mut map = Keymap::default();
        map.patch(&patch(&[("force_sleep", KeyNames::One("z".into()))]));
        let warnings = map.add_commands(&[
            command("i", "tig"),
            command("p", "pause twice"),
            command("s", "s is free once sleep moved"),
            command("i", "tig again"),
            command("/", "the garden's filter"),
            command("ctrl-c", "no way out"),
            command("nosuchkey", "typo"),
        ]);
        let views = crate::ui::focus::test_views::OBSERVATIONS_FIRST;
        assert_eq!(
            map.action(Mode::Normal, KeyChord::plain('i'), views),
            Some(Action::User(0))
        );
        assert_eq!(
            map.action(Mode::Normal, KeyChord::plain('s'), views),
            Some(Action::User(1))
        );
        assert_eq!(
            map.command(Action::User(1)).unwrap().description,
            "s is free once sleep moved"
        );
        assert_eq!(map.user_actions().count(), 2);
        assert_eq!(
            warnings,
            [
                "commands[1] (\"pause twice\"): p is already pause (keys.pause_resume)'s key: not bound",
                "commands[3] (\"tig again\"): i is already the command \"tig\"'s key: not bound",
                "commands[4] (\"the garden's filter\"): / is already search (keys.search)'s key: not bound",
                "commands[5] (\"no way out\"): Ctrl-C is already quit (keys.quit)'s key: not bound",
                "commands[6] (\"typo\"): unknown key \"nosuchkey\": not bound",
            ]
        );
        // Not in the message box: a command key types there.
        assert_eq!(map.action(Mode::Message, KeyChord::plain('i'), views), None);
    }

    #[test]
    fn notices_mention_the_bound_key_or_none() {
        let mut map = Keymap::default();
        assert_eq!(map.mention(Action::Cancel, ", {} closes"), ", Esc closes");
        map.patch(&patch(&[("cancel", KeyNames::Many(Vec::new()))]));
        assert_eq!(map.mention(Action::Cancel, ", {} closes"), "");
    }

    /// The table cannot hold a half-declared action: every one has a description, a hint,
    /// a default key that parses, and help order keeps each group together.
    #[test]
    fn every_action_is_fully_declared() {
        let mut groups = Vec::new();
        for a in Action::ALL {
            let spec = a.spec();
            assert!(!spec.description.is_empty(), "{a:?} has no description");
            assert!(!spec.hint.is_empty(), "{a:?} has no hint");
            assert!(!spec.keys.is_empty(), "{a:?} has no default key");
            for key in spec.keys {
                assert!(key.parse::<KeyChord>().is_ok(), "{a:?}: {key}");
            }
            if groups.last() != Some(&spec.group) {
                assert!(!groups.contains(&spec.group), "{:?} split", spec.group);
                groups.push(spec.group);
            }
        }
    }
}
