//! One OpenSSH connection per host: the far side's session, the copy of this binary, a
//! reconnection and every garden on the same host go through one master connection
//! (`ControlMaster`), whose socket sits in a private directory of this process. Only
//! where the user's own ssh configuration says nothing of `ControlMaster` or
//! `ControlPath` for that host (`ssh -G HOST` tells): theirs is left alone. The masters
//! stay up for [`PERSIST`] after their last session (a reconnection finds them), and
//! [`stop_all`] ends them when the observatory goes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

/// How long a master outlives its last session (a reconnection within it is at once; an
/// observatory killed without a word leaves nothing after it).
pub const PERSIST: Duration = Duration::from_secs(30);

/// What reaches one host: the ssh command and its options, the host, the port.
pub type HostKey = (Vec<String>, String, Option<u16>);

/// The private directory of this process's masters' sockets, and the hosts with one.
struct Masters {
    dir: tempfile::TempDir,
    hosts: BTreeSet<HostKey>,
}

fn masters() -> &'static Mutex<Option<Masters>> {
    static MASTERS: OnceLock<Mutex<Option<Masters>>> = OnceLock::new();
    MASTERS.get_or_init(|| Mutex::new(None))
}

/// What was decided for each host: the options its connections take (empty: none).
type Decided = BTreeMap<HostKey, Arc<tokio::sync::Mutex<Option<Vec<String>>>>>;

fn decided() -> &'static Mutex<Decided> {
    static DECIDED: OnceLock<Mutex<Decided>> = OnceLock::new();
    DECIDED.get_or_init(|| Mutex::new(BTreeMap::new()))
}

/// The options that share one master connection to `host`, or none when the user's
/// configuration sets its own (or `ssh -G` cannot tell: another program than ssh). The
/// first caller for a host starts its master (within `limit`) while the others wait for
/// it, so that two gardens on one host do not race to be the master; other hosts wait
/// for nothing.
pub async fn options_for(key: &HostKey, limit: Duration) -> Vec<String> {
    let slot = decided()
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .entry(key.clone())
        .or_default()
        .clone();
    let mut slot = slot.lock().await;
    if let Some(options) = slot.as_ref() {
        return options.clone();
    }
    let options = if shares_nothing_yet(key).await {
        register(key)
    } else {
        Vec::new()
    };
    if !options.is_empty() {
        start_master(key, &options, limit).await;
    }
    *slot = Some(options.clone());
    options
}

/// Notes `key` among the hosts with a master; its options (none without a directory).
fn register(key: &HostKey) -> Vec<String> {
    let mut guard = masters().lock().unwrap_or_else(PoisonError::into_inner);
    if guard.is_none() {
        match private_dir() {
            Ok(dir) => {
                *guard = Some(Masters {
                    dir,
                    hosts: BTreeSet::new(),
                });
            }
            Err(e) => {
                tracing::warn!("no private directory for ssh's shared connections: {e}");
                return Vec::new();
            }
        }
    }
    let Some(m) = guard.as_mut() else {
        return Vec::new();
    };
    m.hosts.insert(key.clone());
    shared(&m.dir.path().join(socket_name(key)))
}

/// The socket of `key`'s master: one a host as the user named it (not ssh's `%C`, which
/// two names of one machine share: their masters, started at once, would race for one
/// socket, and the losers stay as plain connections that nothing ends).
fn socket_name(key: &HostKey) -> String {
    use sha2::{Digest, Sha256};
    let (ssh, host, port) = key;
    let mut digest = Sha256::new();
    for word in ssh.iter().chain([host]) {
        digest.update(word.as_bytes());
        digest.update([0]);
    }
    digest.update(port.map_or(0, u32::from).to_le_bytes());
    crate::text::hex(&digest.finalize()[..10])
}

/// Starts the host's master in the background (`ssh -f -N`, its output to nowhere:
/// nothing of it holds a pipe of ours) and waits until it is up, or fails, or `limit`
/// passes (a host that does not answer: its connections try by themselves later).
async fn start_master(key: &HostKey, options: &[String], limit: Duration) {
    let (ssh, host, port) = key;
    let Some((program, first)) = ssh.split_first() else {
        return;
    };
    let mut c = tokio::process::Command::new(program);
    c.args(first)
        .args(options)
        .args(["-o", "BatchMode=yes", "-f", "-N"]);
    if let Some(port) = port {
        c.arg("-p").arg(port.to_string());
    }
    let status = c
        .arg("--")
        .arg(host)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .status();
    match tokio::time::timeout(limit, status).await {
        Ok(Ok(s)) if s.success() => {}
        Ok(Ok(s)) => tracing::debug!("ssh's shared connection to {host}: {s}"),
        Ok(Err(e)) => tracing::debug!("ssh's shared connection to {host}: {e}"),
        Err(_) => tracing::debug!("ssh's shared connection to {host}: no answer"),
    }
}

/// `-o` options naming the master's socket at `path`.
fn shared(path: &std::path::Path) -> Vec<String> {
    [
        "ControlMaster=auto".to_string(),
        format!("ControlPath={}", path.display()),
        format!("ControlPersist={}", PERSIST.as_secs()),
    ]
    .into_iter()
    .flat_map(|o| ["-o".to_string(), o])
    .collect()
}

/// Whether `ssh -G` says the user's configuration leaves `ControlMaster` and
/// `ControlPath` at their defaults for this host.
async fn shares_nothing_yet(key: &HostKey) -> bool {
    let (ssh, host, port) = key;
    let Some((program, options)) = ssh.split_first() else {
        return false;
    };
    let mut c = tokio::process::Command::new(program);
    c.args(options).arg("-G");
    if let Some(port) = port {
        c.arg("-p").arg(port.to_string());
    }
    let out = c
        .arg("--")
        .arg(host)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .output();
    let Ok(Ok(out)) = tokio::time::timeout(Duration::from_secs(10), out).await else {
        return false;
    };
    out.status.success() && defaults_in(&String::from_utf8_lossy(&out.stdout))
}

/// In `ssh -G`'s output: `controlmaster false` and `controlpath` unset.
fn defaults_in(config: &str) -> bool {
    let value = |key: &str| {
        config.lines().find_map(|l| {
            let (k, v) = l.split_once(' ')?;
            k.eq_ignore_ascii_case(key)
                .then(|| v.trim().to_ascii_lowercase())
        })
    };
    value("controlmaster").as_deref() == Some("false")
        && value("controlpath").is_none_or(|p| p == "none")
}

/// A directory only this user can enter, for the sockets: short enough for a socket's
/// path (a socket's name is 20 characters), under `$XDG_RUNTIME_DIR` when there is one.
fn private_dir() -> std::io::Result<tempfile::TempDir> {
    let base = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|d| d.is_dir() && d.as_os_str().len() < 40)
        .unwrap_or_else(std::env::temp_dir);
    tempfile::Builder::new().prefix("dwssh").tempdir_in(base)
}

/// Ends every master this process started (`ssh -O exit`) and removes their directory.
pub fn stop_all() {
    let taken = masters()
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    let Some(m) = taken else {
        return;
    };
    for key in &m.hosts {
        let (ssh, host, port) = key;
        let Some((program, options)) = ssh.split_first() else {
            continue;
        };
        let path = m.dir.path().join(socket_name(key));
        let mut c = std::process::Command::new(program);
        c.args(options)
            .arg("-o")
            .arg(format!("ControlPath={}", path.display()));
        if let Some(port) = port {
            c.arg("-p").arg(port.to_string());
        }
        // Only the local socket is spoken to: no network, no password asked.
        let _ = c
            .args(["-O", "exit", "--"])
            .arg(host)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_configuration_that_says_nothing_of_sharing_gets_ours() {
        let default = "user me\nhostname box\ncontrolmaster false\ncontrolpersist no\n";
        assert!(defaults_in(default));
        assert!(defaults_in(&format!("{default}controlpath none\n")));
        assert!(!defaults_in("controlmaster auto\n"));
        assert!(!defaults_in("controlmaster true\n"));
        assert!(!defaults_in(
            "controlmaster false\ncontrolpath ~/.ssh/cm-%C\n"
        ));
        assert!(
            !defaults_in("not ssh's output\n"),
            "cannot tell: left alone"
        );
    }

    #[test]
    fn each_host_as_named_has_a_socket_of_its_own() {
        let key = |ssh: &[&str], host: &str, port| -> HostKey {
            (
                ssh.iter().map(|w| w.to_string()).collect(),
                host.into(),
                port,
            )
        };
        let names = [
            key(&["ssh"], "dw1", None),
            key(&["ssh"], "dw2", None),
            key(&["ssh"], "dw1", Some(22)),
            key(&["ssh", "-F", "cfg"], "dw1", None),
            key(&["ssh", "-F"], "cfgdw1", None),
        ]
        .map(|k| socket_name(&k));
        let distinct: std::collections::BTreeSet<_> = names.iter().collect();
        assert_eq!(distinct.len(), names.len(), "{names:?}");
        assert_eq!(socket_name(&key(&["ssh"], "dw1", None)), names[0]);
        assert!(names.iter().all(|n| n.len() == 20));
    }

    #[test]
    fn the_options_name_a_master_that_outlives_its_sessions_a_little() {
        let o = shared(std::path::Path::new(
            "/run/user/1/dwsshX/5d41402abc4b2a76b971",
        ));
        assert_eq!(
            o,
            [
                "-o",
                "ControlMaster=auto",
                "-o",
                "ControlPath=/run/user/1/dwsshX/5d41402abc4b2a76b971",
                "-o",
                "ControlPersist=30"
            ]
        );
    }
}
