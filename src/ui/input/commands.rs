//! The operator's own key commands, `[[commands]]` in the config file: a key, what it is
//! (for help and hints), a shell command line with `{dir}`, `{name}` and `{host}`
//! filled in for the selected creature, run with the terminal (`foreground = true`) or in
//! the background, its last line of output said in the status line. They are bound in
//! the keymap ([`super::keymap::Keymap::add_commands`]) like every other key.

use serde::Deserialize;

/// One `[[commands]]` entry.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct UserCommand {
    /// The key, as `[keys]` names keys: `t`, `ctrl-g`, `f5`.
    pub key: String,
    /// What it does, for help and the hint bar.
    pub description: String,
    /// A line for `sh -c`, with `{dir}`, `{name}`, `{host}`.
    pub command: String,
    /// Run with the terminal handed over (else in the background).
    #[serde(default)]
    pub foreground: bool,
}

/// What the placeholders stand for.
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    /// The creature's directory (for a creature on another machine, its copy here).
    pub dir: &'a str,
    pub name: &'a str,
    /// The machine it lives on; empty for a creature of this machine.
    pub host: &'a str,
}

/// `line` with `{dir}`, `{name}` and `{host}` replaced by their values, each quoted for
/// the shell (so that a name with spaces or `;` stays one word). Anything else in braces
/// (`${HOME}`, `{}`) is left as written. Fails on a value the shell cannot be given (a NUL).
pub fn expand(line: &str, place: Place<'_>) -> Result<String, String> {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let found = [
            ("{dir}", place.dir),
            ("{name}", place.name),
            ("{host}", place.host),
        ]
        .into_iter()
        .find(|(token, _)| after.starts_with(token));
        match found {
            Some((token, value)) => {
                let quoted = shlex::try_quote(value)
                    .map_err(|e| format!("{}: {e}", &token[1..token.len() - 1]))?;
                out.push_str(&quoted);
                rest = &after[token.len()..];
            }
            None => {
                out.push('{');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place<'a>(dir: &'a str, name: &'a str, host: &'a str) -> Place<'a> {
        Place { dir, name, host }
    }

    #[test]
    fn placeholders_are_quoted_and_the_rest_is_left_as_written() {
        let p = place("/g/my garden/pip", "pip; rm -rf ~", "");
        assert_eq!(
            expand("cd {dir} && echo {name} on {host} ${HOME} {} {other}", p).unwrap(),
            "cd '/g/my garden/pip' && echo 'pip; rm -rf ~' on '' ${HOME} {} {other}"
        );
        assert_eq!(
            expand(
                "tail {dir}/.sys/events.jsonl",
                place("/g/pip", "pip", "far")
            )
            .unwrap(),
            "tail /g/pip/.sys/events.jsonl"
        );
        assert_eq!(expand("{", p).unwrap(), "{");
    }

    #[test]
    fn a_value_the_shell_cannot_take_is_refused() {
        let e = expand("echo {name}", place("/g", "bad\0name", "")).unwrap_err();
        assert!(e.starts_with("name: "), "{e}");
    }

    #[test]
    fn entries_are_read_with_foreground_off_by_default() {
        let c: UserCommand =
            toml::from_str("key = \"t\"\ndescription = \"tig\"\ncommand = \"tig -C {dir}\"\n")
                .unwrap();
        assert!(!c.foreground);
        assert!(toml::from_str::<UserCommand>("key = \"t\"\ncommand = \"x\"\n").is_err());
        assert!(
            toml::from_str::<UserCommand>(
                "key = \"t\"\ndescription = \"d\"\ncommand = \"x\"\nforground = true\n"
            )
            .is_err()
        );
    }
}
