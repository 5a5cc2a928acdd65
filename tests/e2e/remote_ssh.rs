//! A garden on another machine through a real `sshd` on 127.0.0.1: the test starts its
//! own (a free port, a host key and an authorized key made by ssh-keygen in a temp dir,
//! its own client config given with `-F`), and the near side reaches it through the
//! system's ssh client exactly as a user's would. The far side has no dreamwatch: the
//! binary is brought along and cached by version. A dropped connection is said and
//! resumed; dropping the connection leaves nothing running on the far side.
//!
//! The observatory itself is driven over it too: the real binary in tmux on
//! `ssh://HOST/PATH`, with the test's client config through `DREAMWATCH_SSH`.
//!
//! Skipped, with one line saying why, only where `sshd` or `ssh-keygen` is not installed
//! or sshd cannot start (`.ci/run` installs openssh-server), or tmux is missing (not
//! under CI).

use std::io::Write;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::support::{DEADLINE, Pane, tmux_available};
use dreamwatch::remote::{Ask, Transport, Update, connect};
use tokio::sync::mpsc;

const BIN: &str = env!("CARGO_BIN_EXE_dreamwatch");

/// An sshd of the test's own, and the client config that reaches it as `dwtest`.
struct Sshd {
    dir: tempfile::TempDir,
    child: Option<Child>,
    program: PathBuf,
    port: u16,
    config: PathBuf,
}

impl Sshd {
    /// Starts one, or says why it cannot (the test is then skipped).
    fn start() -> Result<Self, String> {
        let sshd = ["/usr/sbin/sshd", "/usr/local/sbin/sshd", "/sbin/sshd"]
            .into_iter()
            .map(PathBuf::from)
            .find(|p| p.is_file())
            .ok_or("sshd is not installed (openssh-server)")?;
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let d = dir.path();
        for key in ["hostkey", "id"] {
            let made = Command::new("ssh-keygen")
                .args(["-q", "-t", "ed25519", "-N", "", "-f"])
                .arg(d.join(key))
                .status()
                .map_err(|e| format!("ssh-keygen: {e}"))?;
            if !made.success() {
                return Err("ssh-keygen failed".into());
            }
        }
        std::fs::copy(d.join("id.pub"), d.join("authorized_keys")).map_err(|e| e.to_string())?;
        // sshd refuses to start without its privilege separation directory.
        let _ = std::fs::create_dir_all("/run/sshd");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let user = std::env::var("USER")
            .ok()
            .or_else(|| {
                let out = Command::new("id").arg("-un").output().ok()?;
                Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
            })
            .unwrap_or_else(|| "root".into());
        let server = d.join("sshd_config");
        std::fs::write(
            &server,
            format!(
                "Port {port}\nListenAddress 127.0.0.1\nHostKey {d}/hostkey\nPidFile {d}/sshd.pid\n\
                 AuthorizedKeysFile {d}/authorized_keys\nStrictModes no\nUsePAM no\n\
                 PasswordAuthentication no\nKbdInteractiveAuthentication no\nPubkeyAuthentication yes\n\
                 PermitRootLogin prohibit-password\nSetEnv XDG_CACHE_HOME={d}/far-cache\nLogLevel ERROR\n",
                d = d.display()
            ),
        )
        .map_err(|e| e.to_string())?;
        let config = d.join("ssh_config");
        std::fs::write(
            &config,
            format!(
                "Host dwtest\n  HostName 127.0.0.1\n  Port {port}\n  User {user}\n  IdentityFile {d}/id\n\
                 \x20 IdentitiesOnly yes\n  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n  LogLevel ERROR\n",
                d = d.display()
            ),
        )
        .map_err(|e| e.to_string())?;
        let mut me = Self {
            dir,
            child: None,
            program: sshd,
            port,
            config,
        };
        me.child = Some(me.spawn()?);
        Ok(me)
    }

    fn spawn(&self) -> Result<Child, String> {
        let mut child = Command::new(&self.program)
            .args(["-D", "-e", "-f"])
            .arg(self.dir.path().join("sshd_config"))
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("sshd: {e}"))?;
        for _ in 0..200 {
            if TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return Ok(child);
            }
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!("sshd exited at once ({status})"));
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        let _ = child.kill();
        Err("sshd did not listen".into())
    }

    fn transport(&self, path: &Path) -> Transport {
        let url = format!("ssh://dwtest{}", path.display());
        let ssh = vec!["ssh".into(), "-F".into(), self.config.display().to_string()];
        match Transport::parse(&url, ssh).unwrap() {
            Transport::Ssh {
                ssh,
                host,
                port,
                path,
                ..
            } => Transport::Ssh {
                ssh,
                host,
                port,
                path,
                // The test binary is not dreamwatch: bring the built one.
                bring: Some(PathBuf::from(BIN)),
            },
            other => other,
        }
    }

    /// Stops the server and every session it runs (a dropped connection): sshd's
    /// sessions outlive its listener, so they are ended first.
    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            for pid in children_of(child.id()) {
                // SAFETY: a signal to a process this test's sshd started.
                unsafe { libc::kill(pid as i32, libc::SIGKILL) };
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        self.stop();
    }
}

async fn next(rx: &mut mpsc::UnboundedReceiver<(PathBuf, Update)>) -> Update {
    tokio::time::timeout(Duration::from_secs(60), rx.recv())
        .await
        .expect("an update")
        .expect("the connection task is alive")
        .1
}

async fn eventually(what: &str, check: impl Fn() -> bool) {
    for _ in 0..1200 {
        if check() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("never: {what}");
}

/// The processes whose parent is `parent`.
fn children_of(parent: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            let ppid: u32 = stat
                .rsplit(')')
                .next()?
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()?;
            (ppid == parent).then_some(pid)
        })
        .collect()
}

/// Processes whose command line names `needle` (the far side of this test's garden).
fn far_sides(needle: &str) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let cmd = std::fs::read(e.path().join("cmdline")).ok()?;
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            (cmd.contains("--wire") && cmd.contains(needle) && !cmd.contains("ssh ")).then_some(pid)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_far_garden_over_real_ssh_is_mirrored_acted_on_resumed_and_left_clean() {
    let mut sshd = match Sshd::start() {
        Ok(s) => s,
        Err(why) => {
            eprintln!("skipped: no sshd on 127.0.0.1 for the end-to-end test: {why}");
            return;
        }
    };
    let garden = sshd.dir.path().join("far-garden");
    let sprout = garden.join("sprout");
    std::fs::create_dir_all(sprout.join(".self")).unwrap();
    std::fs::write(sprout.join("BIRTH.json"), r#"{"name":"sprout"}"#).unwrap();
    std::fs::write(
        sprout.join(".self/observations.md"),
        "RED 10:00 seen over ssh\n",
    )
    .unwrap();
    let mirror = sshd.dir.path().join("mirror");
    std::fs::create_dir_all(&mirror).unwrap();

    let (tx, mut rx) = mpsc::unbounded_channel();
    let remote = connect(sshd.transport(&garden), mirror.clone(), tx);
    let up = next(&mut rx).await;
    assert_eq!(up, Update::Up, "{up:?}");
    // The far side had no dreamwatch: this one was brought and cached by version.
    let cached = sshd
        .dir
        .path()
        .join("far-cache/dreamwatch")
        .join(env!("CARGO_PKG_VERSION"))
        .join("dreamwatch");
    assert!(cached.is_file(), "{}", cached.display());
    let obs = mirror.join("sprout/.self/observations.md");
    assert_eq!(
        std::fs::read_to_string(&obs).unwrap(),
        "RED 10:00 seen over ssh\n"
    );

    // An append there arrives here.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(sprout.join(".self/observations.md"))
        .unwrap();
    f.write_all(b"YLW 10:01 appended there\n").unwrap();
    eventually("the append", || {
        std::fs::read_to_string(&obs).is_ok_and(|t| t.ends_with("appended there\n"))
    })
    .await;

    // A message through the same connection lands in the far MESSAGES.md.
    let said = tokio::time::timeout(
        Duration::from_secs(60),
        remote.ask(Ask::Message {
            id: "sprout".into(),
            text: "hello through ssh".into(),
        }),
    )
    .await
    .unwrap()
    .unwrap();
    assert!(said.ok, "{said:?}");
    let inbox = std::fs::read_to_string(sprout.join("MESSAGES.md")).unwrap();
    assert!(inbox.contains("hello through ssh"), "{inbox}");

    // The server goes away: said, and the far side is gone with its session.
    sshd.stop();
    let Update::Down { .. } = next(&mut rx).await else {
        panic!("down")
    };
    let needle = garden.display().to_string();
    eventually("the far side ends with its session", || {
        far_sides(&needle).is_empty()
    })
    .await;
    // Meanwhile, there: a line written. The server comes back; the copy resumes.
    f.write_all(b"GRN 10:02 written while away\n").unwrap();
    sshd.child = Some(sshd.spawn().unwrap());
    loop {
        match next(&mut rx).await {
            Update::Up => break,
            Update::Down { .. } => continue,
            other => panic!("{other:?}"),
        }
    }
    assert!(
        std::fs::read_to_string(&obs)
            .unwrap()
            .ends_with("written while away\n")
    );

    // The observatory goes: nothing is left running there.
    assert!(!far_sides(&needle).is_empty(), "a far side while connected");
    drop(remote);
    eventually("nothing left on the far side", || {
        far_sides(&needle).is_empty()
    })
    .await;
}

/// Waits (bounded by the harness's deadline) until `check` holds.
fn wait_until(what: &str, check: impl Fn() -> bool) {
    let start = std::time::Instant::now();
    while !check() {
        assert!(start.elapsed() < DEADLINE, "never: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_observatory_in_tmux_follows_and_messages_a_far_garden_and_leaves_nothing_there() {
    let sshd = match Sshd::start() {
        Ok(s) => s,
        Err(why) => {
            eprintln!("skipped: no sshd on 127.0.0.1 for the end-to-end test: {why}");
            return;
        }
    };
    if !tmux_available() {
        return;
    }
    let garden = sshd.dir.path().join("tmux-garden");
    let sprout = garden.join("sprout");
    std::fs::create_dir_all(sprout.join(".self")).unwrap();
    std::fs::write(sprout.join("BIRTH.json"), r#"{"name":"sprout"}"#).unwrap();
    let observations = sprout.join(".self/observations.md");
    std::fs::write(&observations, "RED 10:00 first seen over ssh\n").unwrap();

    // The client config's path as a shell would quote it (DREAMWATCH_SSH is split so).
    let ssh = format!("'ssh -F \"{}\"'", sshd.config.display());
    let url = format!("ssh://dwtest{}", garden.display());
    let pane = Pane::start_with(&[("DREAMWATCH_SSH", Path::new(&ssh))], &[Path::new(&url)]);
    pane.wait_for("the far creature and its observation", |s| {
        s.contains("sprout@dwtest") && s.contains("first seen over ssh")
    });

    // A line appended there appears here.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&observations)
        .unwrap();
    f.write_all(b"YLW 10:01 appended on the far side\n")
        .unwrap();
    pane.wait_text("appended on the far side");

    // `m` writes to it there, through the same connection.
    pane.keys(&["m"]);
    pane.wait_text("Message to sprout@dwtest");
    pane.type_text("hello through tmux and ssh");
    pane.keys(&["C-s"]);
    wait_until("the message in the far MESSAGES.md", || {
        std::fs::read_to_string(sprout.join("MESSAGES.md"))
            .is_ok_and(|t| t.contains("hello through tmux and ssh"))
    });

    // `q` leaves nothing running there.
    let needle = garden.display().to_string();
    assert!(!far_sides(&needle).is_empty(), "a far side while connected");
    pane.keys(&["q"]);
    pane.wait_text("EXITED 0");
    wait_until("nothing left on the far side", || {
        far_sides(&needle).is_empty()
    });
}

/// The sockets of the observatory's shared ssh connections under `runtime`.
fn masters_under(runtime: &Path) -> Vec<PathBuf> {
    let Ok(dirs) = std::fs::read_dir(runtime) else {
        return Vec::new();
    };
    dirs.flatten()
        .filter(|d| d.file_name().to_string_lossy().starts_with("dwssh"))
        .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten())
        .map(|e| e.path())
        .collect()
}

#[test]
fn hosts_connect_in_parallel_each_over_one_shared_connection_a_dead_one_delaying_nothing() {
    let sshd = match Sshd::start() {
        Ok(s) => s,
        Err(why) => {
            eprintln!("skipped: no sshd on 127.0.0.1 for the end-to-end test: {why}");
            return;
        }
    };
    if !tmux_available() {
        return;
    }
    let d = sshd.dir.path();
    // A host that never answers: its connection hangs until the hello limit (30 s).
    let mut config = std::fs::read_to_string(&sshd.config).unwrap();
    config.push_str("Host dwdead\n  HostName 127.0.0.1\n  ProxyCommand sleep 45\n");
    // Another name of the same machine (ssh's `%C` is the same for both).
    let config = config.replacen("Host dwtest\n", "Host dwtest dwtwin\n", 1);
    std::fs::write(&sshd.config, config).unwrap();
    // The live host has this dreamwatch already (nothing to bring): it answers at once.
    let cache = d
        .join("far-cache/dreamwatch")
        .join(env!("CARGO_PKG_VERSION"));
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::copy(BIN, cache.join("dreamwatch")).unwrap();
    let mut urls = vec!["ssh://dwdead/nowhere".to_string()];
    for (host, garden, name) in [
        ("dwtest", "g1", "sprout"),
        ("dwtest", "g2", "moss"),
        ("dwtwin", "g3", "fern"),
    ] {
        let c = d.join(garden).join(name);
        std::fs::create_dir_all(c.join(".self")).unwrap();
        std::fs::write(c.join("BIRTH.json"), format!(r#"{{"name":"{name}"}}"#)).unwrap();
        urls.push(format!("ssh://{host}{}", d.join(garden).display()));
    }
    let runtime = d.join("rt");
    std::fs::create_dir_all(&runtime).unwrap();
    let ssh = format!("'ssh -F \"{}\"'", sshd.config.display());
    let args: Vec<&Path> = urls.iter().map(Path::new).collect();
    let started = std::time::Instant::now();
    let pane = Pane::start_with(
        &[
            ("DREAMWATCH_SSH", Path::new(&ssh)),
            ("XDG_RUNTIME_DIR", &runtime),
        ],
        &args,
    );
    pane.wait_for("the live gardens' creatures", |s| {
        s.contains("sprout@dwtest") && s.contains("moss@dwtest") && s.contains("fern@dwtwin")
    });
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "the live host's rows waited for the dead one ({:?})",
        started.elapsed()
    );
    // One master connection a host as named: dwtest's serves both its gardens, dwtwin
    // (the same machine) has its own; none to the dead one.
    let sockets = masters_under(&runtime);
    assert_eq!(sockets.len(), 2, "{sockets:?}");
    let sshd_pid = sshd.child.as_ref().map(Child::id).unwrap();
    assert_eq!(
        children_of(sshd_pid).len(),
        2,
        "a connection to sshd a name"
    );

    // `q` ends the master and the far sides with it.
    pane.keys(&["q"]);
    pane.wait_text("EXITED 0");
    wait_until("no master left", || masters_under(&runtime).is_empty());
    wait_until("no connection left", || children_of(sshd_pid).is_empty());
    let needle = d.display().to_string();
    wait_until("nothing left on the far side", || {
        far_sides(&needle).is_empty()
    });
}
