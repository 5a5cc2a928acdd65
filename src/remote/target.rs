//! Where a far garden is (`ssh://[USER@]HOST[:PORT]/PATH`) and the commands that reach
//! it: the system's OpenSSH client (so `~/.ssh/config`, agents, jump hosts and
//! ControlMaster apply), or, for tests, `dreamwatch` started here directly.

use std::path::PathBuf;

/// The version whose binary is brought to a far side, and its cache directory there.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What the far side prints when it has no dreamwatch to run (then its system).
pub const NEEDS_BINARY: &str = "dreamwatch-needs-binary";

/// Why an `ssh://` address is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    #[error("{0}: not an ssh://HOST/PATH address")]
    NotSsh(String),
    #[error("{0}: no host")]
    NoHost(String),
    #[error("{0}: no path after the host (ssh://HOST/PATH, ssh://HOST/~/PATH)")]
    NoPath(String),
    #[error("{0}: the port is not a number")]
    BadPort(String),
    #[error("DREAMWATCH_SSH={0:?} cannot be read as a shell would (an unclosed quote?)")]
    BadSsh(String),
}

/// How to reach a far garden.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    Ssh {
        /// The ssh program and options (`DREAMWATCH_SSH`, else `ssh`).
        ssh: Vec<String>,
        /// `[USER@]HOST` as given.
        host: String,
        port: Option<u16>,
        /// The far path: absolute, or `~/...` (the far user's home).
        path: String,
        /// The binary copied to a far side that has none: this one when `None`.
        bring: Option<PathBuf>,
    },
    /// `program inspect --follow --wire PATH` started here (tests, benchmarks).
    Local { program: PathBuf, path: PathBuf },
}

/// The ssh client and its options as `value` gives them, split as a shell would
/// (`ssh -F "/path with spaces/config"`); `ssh` when it is unset or blank.
pub fn ssh_command(value: Option<&str>) -> Result<Vec<String>, TargetError> {
    let Some(value) = value.filter(|v| !v.trim().is_empty()) else {
        return Ok(vec!["ssh".into()]);
    };
    match shlex::split(value) {
        Some(words) if !words.is_empty() => Ok(words),
        _ => Err(TargetError::BadSsh(value.into())),
    }
}

/// Whether a command-line argument names a far garden.
pub fn is_ssh(arg: &str) -> bool {
    arg.starts_with("ssh://")
}

impl Transport {
    /// Reads `ssh://[USER@]HOST[:PORT]/PATH`; `ssh` is the client and its options.
    pub fn parse(url: &str, ssh: Vec<String>) -> Result<Self, TargetError> {
        let rest = url
            .strip_prefix("ssh://")
            .ok_or_else(|| TargetError::NotSsh(url.into()))?;
        let (authority, path) = rest
            .split_once('/')
            .ok_or_else(|| TargetError::NoPath(url.into()))?;
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) => (
                h,
                Some(p.parse().map_err(|_| TargetError::BadPort(url.into()))?),
            ),
            None => (authority, None),
        };
        if host.is_empty() || host.ends_with('@') || host.starts_with('-') {
            return Err(TargetError::NoHost(url.into()));
        }
        let path = if path.starts_with("~/") || path == "~" {
            path.to_string()
        } else {
            format!("/{path}")
        };
        if path == "/" {
            return Err(TargetError::NoPath(url.into()));
        }
        Ok(Self::Ssh {
            ssh,
            host: host.to_string(),
            port,
            path,
            bring: None,
        })
    }

    /// The ssh client from `DREAMWATCH_SSH`, else `ssh`.
    pub fn ssh_from_env() -> Result<Vec<String>, TargetError> {
        ssh_command(std::env::var("DREAMWATCH_SSH").ok().as_deref())
    }

    /// The host, for the screen.
    pub fn label(&self) -> String {
        match self {
            Self::Ssh { host, .. } => host.rsplit('@').next().unwrap_or(host).to_string(),
            Self::Local { .. } => "local".into(),
        }
    }

    /// Where, for messages: `ssh://host/path` or the local path.
    pub fn describe(&self) -> String {
        match self {
            Self::Ssh { host, path, .. } => {
                format!("ssh://{host}/{}", path.trim_start_matches('/'))
            }
            Self::Local { path, .. } => path.display().to_string(),
        }
    }

    /// The command that starts the far side: `inspect --follow --wire PATH` with the
    /// far side's dreamwatch (the cached one of this version, else the one on its PATH),
    /// or a line saying it has none, with its system.
    pub fn follow_command(&self, shared: &[String]) -> tokio::process::Command {
        match self {
            Self::Local { program, path } => {
                let mut c = tokio::process::Command::new(program);
                c.args(["inspect", "--follow", "--wire", "--"]).arg(path);
                c
            }
            Self::Ssh { path, .. } => {
                let script = format!(
                    "{CACHE}; p={}; \
                     if [ -x \"$c\" ]; then exec \"$c\" inspect --follow --wire -- \"$p\"; fi; \
                     if command -v dreamwatch >/dev/null 2>&1; then exec dreamwatch inspect --follow --wire -- \"$p\"; fi; \
                     echo \"{NEEDS_BINARY} $(uname -s) $(uname -m)\"",
                    far_path(path)
                );
                self.ssh_command(&script, shared)
            }
        }
    }

    /// The binary a far side without dreamwatch is given: this one, unless another is
    /// named.
    pub fn binary(&self) -> std::io::Result<PathBuf> {
        match self {
            Self::Ssh {
                bring: Some(path), ..
            } => Ok(path.clone()),
            _ => std::env::current_exe(),
        }
    }

    /// The command that copies a binary (on its stdin) into the far side's cache.
    pub fn install_command(&self, shared: &[String]) -> Option<tokio::process::Command> {
        match self {
            Self::Local { .. } => None,
            Self::Ssh { .. } => Some(self.ssh_command(
                &format!(
                    "set -e; {CACHE}; mkdir -p \"$d\"; t=\"$d/dreamwatch.$$\"; cat > \"$t\"; \
                 chmod 755 \"$t\"; mv -f \"$t\" \"$c\""
                ),
                shared,
            )),
        }
    }

    /// `ssh [options] -o BatchMode=yes -T [-p PORT] -- HOST 'sh -c SCRIPT'`.
    /// What reaches its host (ssh's command and options, the host, the port): `None` for
    /// the local transport.
    pub fn host_key(&self) -> Option<super::mux::HostKey> {
        match self {
            Self::Ssh {
                ssh, host, port, ..
            } => Some((ssh.clone(), host.clone(), *port)),
            Self::Local { .. } => None,
        }
    }

    fn ssh_command(&self, script: &str, shared: &[String]) -> tokio::process::Command {
        let Self::Ssh {
            ssh, host, port, ..
        } = self
        else {
            return tokio::process::Command::new("false");
        };
        let (program, options) = ssh
            .split_first()
            .map_or(("ssh", &[][..]), |(p, o)| (p.as_str(), o));
        let mut c = tokio::process::Command::new(program);
        c.args(options)
            .args(shared)
            .args(["-o", "BatchMode=yes", "-T"]);
        if let Some(port) = port {
            c.arg("-p").arg(port.to_string());
        }
        c.arg("--")
            .arg(host)
            .arg(format!("sh -c {}", quote(script)));
        c
    }
}

/// Shell lines setting `d` (the cache directory of this version on the far side) and
/// `c` (the binary in it).
const CACHE: &str = concat!(
    "d=\"${XDG_CACHE_HOME:-$HOME/.cache}/dreamwatch/",
    env!("CARGO_PKG_VERSION"),
    "\"; c=\"$d/dreamwatch\""
);

/// The far path as a shell word: `~/x` becomes `"$HOME"/'x'`.
fn far_path(path: &str) -> String {
    match path.strip_prefix('~') {
        Some(rest) => format!("\"$HOME\"{}", quote(rest)),
        None => quote(path),
    }
}

/// A single-quoted shell word.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ssh(url: &str) -> Result<Transport, TargetError> {
        Transport::parse(url, vec!["ssh".into()])
    }

    #[test]
    fn the_ssh_command_is_split_as_a_shell_would() {
        assert_eq!(ssh_command(None).unwrap(), ["ssh"]);
        assert_eq!(ssh_command(Some("  ")).unwrap(), ["ssh"]);
        assert_eq!(
            ssh_command(Some(
                r#"ssh -F "/home/a b/ssh config" -o 'ProxyCommand=nc -X 5 %h %p' -p\ 22"#
            ))
            .unwrap(),
            [
                "ssh",
                "-F",
                "/home/a b/ssh config",
                "-o",
                "ProxyCommand=nc -X 5 %h %p",
                "-p 22"
            ]
        );
        assert_eq!(
            ssh_command(Some("ssh -F 'unclosed")),
            Err(TargetError::BadSsh("ssh -F 'unclosed".into()))
        );
    }

    #[test]
    fn addresses_are_read_with_user_port_and_home() {
        let t = ssh("ssh://me@box:2222/srv/garden").unwrap();
        assert_eq!(
            t,
            Transport::Ssh {
                ssh: vec!["ssh".into()],
                host: "me@box".into(),
                port: Some(2222),
                path: "/srv/garden".into(),
                bring: None,
            }
        );
        assert_eq!(t.label(), "box");
        let Transport::Ssh { path, .. } = ssh("ssh://box/~/g").unwrap() else {
            unreachable!()
        };
        assert_eq!(path, "~/g");
        assert_eq!(far_path(&path), "\"$HOME\"'/g'");
        assert!(matches!(ssh("ssh://box"), Err(TargetError::NoPath(_))));
        assert!(matches!(ssh("ssh://box/"), Err(TargetError::NoPath(_))));
        assert!(matches!(ssh("ssh:///x"), Err(TargetError::NoHost(_))));
        assert!(matches!(
            ssh("ssh://-oProxyCommand=x/y"),
            Err(TargetError::NoHost(_))
        ));
        assert!(matches!(ssh("ssh://b:x/y"), Err(TargetError::BadPort(_))));
    }

    #[test]
    fn a_far_path_is_one_shell_word_whatever_it_holds() {
        assert_eq!(quote("it's $HOME"), "'it'\\''s $HOME'");
        let cmd = ssh("ssh://box/g'; rm -rf ~").unwrap().follow_command(&[]);
        let args: Vec<String> = cmd
            .as_std()
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(&args[..5], ["-o", "BatchMode=yes", "-T", "--", "box"]);
        assert!(args[5].starts_with("sh -c '"), "{}", args[5]);
    }
}
