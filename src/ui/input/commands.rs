//! The operator's own key commands, `[[commands]]` in the config file: a key, what it is
//! (for help and hints), a shell command line with `{dir}`, `{name}` and `{host}`
//! filled in for the selected creature, run with the terminal (`foreground = true`) or in
//! the background, its last line of output said in the status line. They are bound in
//! the keymap ([`super::keymap::Keymap::add_commands`]) like every other key.
//!
//! A creature's name and directory are the creature's to choose, so their values never
//! become part of the line the shell parses: they travel in environment variables
//! (`DREAMWATCH_DIR`, `DREAMWATCH_NAME`, `DREAMWATCH_HOST`), and each placeholder becomes a
//! reference to its variable, quoted for where it stands ([`expand`]). A placeholder inside
//! single quotes cannot be filled in: such a command is refused when the config is read.

use serde::Deserialize;

/// One `[[commands]]` entry.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct UserCommand {
    /// The key, as `[keys]` names keys: `t`, `ctrl-g`, `f5`.
    pub key: String,
    /// What it does, for help and the hint bar.
    pub description: String,
    /// A line for `sh -c`, with `{dir}`, `{name}`, `{host}` (never inside single quotes).
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

/// The placeholders and the environment variables that carry their values.
const PLACEHOLDERS: [(&str, &str); 3] = [
    ("{dir}", "DREAMWATCH_DIR"),
    ("{name}", "DREAMWATCH_NAME"),
    ("{host}", "DREAMWATCH_HOST"),
];

/// Where a placeholder stands in the line, as the shell reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quoting {
    Unquoted,
    Double,
    Single,
}

/// `line` with each placeholder replaced by a reference to the variable that carries its
/// value, `"${DREAMWATCH_DIR}"` unquoted and `${DREAMWATCH_DIR}` inside double quotes, so
/// the value is never part of the line the shell parses: a name such as `$(touch x)` or
/// `"; rm -rf ~; "` stays text wherever the placeholder stands. A placeholder inside
/// single quotes, where no variable is expanded, is refused (the error names it).
/// Anything else in braces (`${HOME}`, `{}`) is left as written.
fn rewrite(line: &str) -> Result<String, String> {
    let mut out = String::with_capacity(line.len() + 32);
    let mut quoting = Quoting::Unquoted;
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if c == '{'
            && let Some((token, var)) = PLACEHOLDERS.iter().find(|(t, _)| rest.starts_with(t))
        {
            match quoting {
                Quoting::Unquoted => out.push_str(&format!("\"${{{var}}}\"")),
                Quoting::Double => out.push_str(&format!("${{{var}}}")),
                Quoting::Single => {
                    return Err(format!(
                        "{token} inside single quotes cannot be filled in: write it \
                         unquoted or inside double quotes"
                    ));
                }
            }
            rest = &rest[token.len()..];
            continue;
        }
        let mut taken = c.len_utf8();
        match (quoting, c) {
            // A backslash keeps the next character as it is (outside single quotes).
            (Quoting::Unquoted | Quoting::Double, '\\') => {
                taken += rest[1..].chars().next().map_or(0, char::len_utf8);
            }
            (Quoting::Unquoted, '\'') => quoting = Quoting::Single,
            (Quoting::Unquoted, '"') => quoting = Quoting::Double,
            (Quoting::Single, '\'') | (Quoting::Double, '"') => quoting = Quoting::Unquoted,
            _ => {}
        }
        out.push_str(&rest[..taken]);
        rest = &rest[taken..];
    }
    Ok(out)
}

/// Whether `line` can be filled in (see [`expand`]); why not.
pub fn check(line: &str) -> Result<(), String> {
    rewrite(line).map(drop)
}

/// The line `sh -c` runs for `line` at `place`: the values set (and exported) as
/// `DREAMWATCH_DIR`, `DREAMWATCH_NAME` and `DREAMWATCH_HOST`, each quoted for the shell,
/// then `line` with its placeholders `{dir}`, `{name}` and `{host}` replaced by references
/// to them (see [`rewrite`]). Fails on a placeholder inside single quotes and on a value
/// the shell cannot be given (a NUL).
pub fn expand(line: &str, place: Place<'_>) -> Result<String, String> {
    let body = rewrite(line)?;
    let mut out = String::with_capacity(body.len() + 128);
    for ((token, var), value) in PLACEHOLDERS.iter().zip([place.dir, place.name, place.host]) {
        let quoted =
            shlex::try_quote(value).map_err(|e| format!("{}: {e}", &token[1..token.len() - 1]))?;
        out.push_str(&format!("{var}={quoted}\n"));
    }
    out.push_str("export DREAMWATCH_DIR DREAMWATCH_NAME DREAMWATCH_HOST\n");
    out.push_str(&body);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `line` filled in for `place` with `sh -c` in a new directory: its output, and
    /// the files in that directory afterwards.
    fn run(line: &str, place: Place<'_>) -> (String, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        let line = expand(line, place).unwrap();
        let out = std::process::Command::new("sh")
            .args(["-c", &line])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{line}: {out:?}");
        let mut files: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        (String::from_utf8(out.stdout).unwrap(), files)
    }

    #[test]
    fn placeholders_become_variables_and_the_rest_is_left_as_written() {
        assert_eq!(
            rewrite("cd {dir} && echo \"{name} on {host}\" ${HOME} {} {other} \\{name}").unwrap(),
            "cd \"${DREAMWATCH_DIR}\" && echo \"${DREAMWATCH_NAME} on ${DREAMWATCH_HOST}\" \
             ${HOME} {} {other} \\{name}"
        );
        assert_eq!(rewrite("{").unwrap(), "{");
        assert_eq!(
            rewrite("echo \"it's\" {name}").unwrap(),
            "echo \"it's\" \"${DREAMWATCH_NAME}\""
        );
        let e = rewrite("echo '{name}'").unwrap_err();
        assert!(e.contains("single quotes"), "{e}");
        assert!(check("echo 'a' \"{name}\"").is_ok());
    }

    #[test]
    fn hostile_names_and_directories_stay_text_wherever_the_placeholder_stands() {
        let names = [
            "$(touch pwned)",
            "`touch pwned`",
            "\"; touch pwned; \"",
            "'; touch pwned; '",
            "pip; touch pwned",
            "$HOME and ${PATH}",
            "a\"b",
            "new\nline",
        ];
        let lines = [
            "echo {name}",
            "echo \"{name}\"",
            "echo \"name: {name}\"",
            "printf '%s\\n' {name}",
            "echo \"$(echo \"{name}\")\"",
        ];
        for name in names {
            for line in lines {
                let dir = format!("/g/{name}");
                let place = Place {
                    dir: &dir,
                    name,
                    host: name,
                };
                let (out, files) = run(line, place);
                assert!(files.is_empty(), "{line} with {name:?} made {files:?}");
                assert!(
                    out.contains(name.split('\n').next().unwrap()),
                    "{line}: {out:?}"
                );
            }
            let dir = format!("/g/{name}");
            let place = Place {
                dir: &dir,
                name,
                host: "",
            };
            let (out, _) = run("printf '%s|' \"{dir}\" {name} \"[{host}]\"", place);
            assert_eq!(out, format!("{dir}|{name}|[]|"));
            // The values are in the environment too, for scripts.
            let (out, _) = run("printf '%s' \"$DREAMWATCH_NAME\"", place);
            assert_eq!(out, name);
        }
    }

    #[test]
    fn a_value_the_shell_cannot_take_is_refused() {
        let place = Place {
            dir: "/g",
            name: "bad\0name",
            host: "",
        };
        let e = expand("echo {name}", place).unwrap_err();
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
