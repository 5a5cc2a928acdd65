//! The control socket of a hosted creature: `DIR/.sys/control.sock`, serving the
//! [`crate::control::protocol`] (one JSON command per line, one reply line each).
//!
//! Who may command the runner: the socket is created with mode 0600, so only the
//! runner's user can connect; but the creature's commands run as that user too, and
//! Landlock (up to ABI 8) cannot keep a process from connecting to a Unix socket by its
//! path. So each command must also carry the operator's token: 32 random bytes, written
//! at bind (mode 0600) to `.sys/control.token`, which the creature's sandbox does not let
//! it read (`runner::sandbox`: nothing under `.sys/` is readable to it). The observatory's
//! control client reads the token beside the socket, so local, headless and far runners
//! (the far side's `inspect --follow --wire` runs the same client there) work unchanged.
//! A command without the token, or with another, is refused and never reaches the runner.

use std::io::{self, Read, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio::task::JoinHandle;

use crate::control::protocol::{ControlCommand, MAX_LINE, Reply, TOKEN_FIELD};
use crate::control::{ControlSender, socket_path, token_path};

/// A bound control socket and the token its commands must carry.
#[derive(Debug)]
pub struct Bound {
    listener: std::os::unix::net::UnixListener,
    token: String,
}

/// What the socket answers a command without the operator's token.
pub const NO_TOKEN: &str = "refused: a command on this socket must carry the operator's token \
(from .sys/control.token, which the creature's commands cannot read)";

/// Writes a fresh token, then binds the socket, replacing stale ones; works outside an
/// async runtime, so the socket exists as soon as the runner is open. The caller holds
/// the creature's lock, so any socket or token file already there is stale.
pub fn bind(dir: &Path) -> io::Result<Bound> {
    let token = new_token()?;
    let token_file = token_path(dir);
    remove_stale(&token_file)?;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&token_file)?;
    file.write_all(token.as_bytes())?;
    file.sync_all()?;
    let path = socket_path(dir);
    remove_stale(&path)?;
    let listener = std::os::unix::net::UnixListener::bind(&path)?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
    listener.set_nonblocking(true)?;
    Ok(Bound { listener, token })
}

/// Removes the socket and the token of the runner in `dir` (when it stops).
pub fn unbind(dir: &Path) {
    let _ = std::fs::remove_file(socket_path(dir));
    let _ = std::fs::remove_file(token_path(dir));
}

fn remove_stale(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// 32 bytes from the kernel's random source, in hex.
fn new_token() -> io::Result<String> {
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(crate::text::hex(&bytes))
}

/// Compares in time independent of where the two differ.
fn same_token(given: &str, token: &str) -> bool {
    given.len() == token.len()
        && given
            .bytes()
            .zip(token.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// The command of a request line, if it carries the token.
fn command_of(line: &[u8], token: &str) -> Result<ControlCommand, String> {
    let mut value: Value = serde_json::from_slice(line).map_err(|e| e.to_string())?;
    let given = value
        .as_object_mut()
        .and_then(|o| o.remove(TOKEN_FIELD))
        .and_then(|t| t.as_str().map(str::to_owned));
    match given {
        Some(given) if same_token(&given, token) => {
            serde_json::from_value(value).map_err(|e| e.to_string())
        }
        _ => Err(NO_TOKEN.to_string()),
    }
}

/// Serves a bound socket until the task is aborted (inside a tokio runtime).
pub fn serve(bound: Bound, commands: ControlSender) -> io::Result<JoinHandle<()>> {
    let listener = UnixListener::from_std(bound.listener)?;
    let token: Arc<str> = bound.token.into();
    Ok(tokio::spawn(async move {
        loop {
            match listener.accept().await {
                Ok((stream, _)) => {
                    tokio::spawn(handle(stream, commands.clone(), token.clone()));
                }
                Err(e) => {
                    tracing::warn!(error = %e, "control socket accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    }))
}

/// Answers each line once the runner has handled its command.
async fn handle(stream: UnixStream, commands: ControlSender, token: Arc<str>) {
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    loop {
        let mut line = Vec::new();
        let n = match (&mut reader)
            .take(MAX_LINE)
            .read_until(b'\n', &mut line)
            .await
        {
            Ok(n) => n,
            Err(_) => return,
        };
        if n == 0 {
            return;
        }
        let complete = line.last() == Some(&b'\n');
        let reply = if !complete && n as u64 >= MAX_LINE {
            Reply::refused("line too long")
        } else {
            match command_of(&line, &token) {
                Ok(cmd) => match commands.ask(cmd).await {
                    Ok(answer) => Reply::answered(answer),
                    Err(_) => Reply::refused("the runner is shutting down"),
                },
                Err(e) => Reply::refused(e),
            }
        };
        if write.write_all(reply.to_line().as_bytes()).await.is_err() || !complete {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::send_command;

    #[tokio::test]
    async fn commands_round_trip_and_bad_lines_get_errors() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".sys")).unwrap();
        // A stale socket file and token are replaced.
        std::fs::write(socket_path(dir.path()), b"stale").unwrap();
        std::fs::write(token_path(dir.path()), b"stale").unwrap();
        let (tx, mut requests) = ControlSender::channel();
        let (seen, mut rx) = tokio::sync::mpsc::unbounded_channel();
        // A runner that answers a force sleep and nothing else.
        tokio::spawn(async move {
            while let Some(req) = requests.recv().await {
                let answer = (req.command == ControlCommand::ForceSleep)
                    .then_some(crate::control::Answer::Dreaming);
                seen.send(req.command).unwrap();
                (req.answer)(answer);
            }
        });
        let server = serve(bind(dir.path()).unwrap(), tx).unwrap();
        let mode = std::fs::metadata(socket_path(dir.path()))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(
            send_command(dir.path(), &ControlCommand::Pause)
                .await
                .unwrap(),
            None
        );
        send_command(dir.path(), &ControlCommand::Message { text: "hi".into() })
            .await
            .unwrap();
        // The reply waits for the runner's answer, and carries it.
        assert_eq!(
            send_command(dir.path(), &ControlCommand::ForceSleep)
                .await
                .unwrap(),
            Some(crate::control::Answer::Dreaming)
        );
        assert_eq!(rx.recv().await, Some(ControlCommand::Pause));
        assert_eq!(
            rx.recv().await,
            Some(ControlCommand::Message { text: "hi".into() })
        );
        assert_eq!(rx.recv().await, Some(ControlCommand::ForceSleep));
        // Raw protocol: several lines on one connection, one bad, two without the token.
        let token = std::fs::read_to_string(token_path(dir.path())).unwrap();
        assert_eq!(token.len(), 64);
        let mode = std::fs::metadata(token_path(dir.path()))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let mut s = UnixStream::connect(socket_path(dir.path())).await.unwrap();
        let lines = format!(
            "{{\"cmd\":\"apply_proposal\"}}\n{{\"cmd\":\"pause\",\"token\":\"{}\"}}\n\
             {{\"cmd\":\"wake\",\"token\":\"{token}\"}}\n{{\"cmd\":\"dance\",\"token\":\"{token}\"}}\n",
            "0".repeat(64)
        );
        s.write_all(lines.as_bytes()).await.unwrap();
        let mut r = BufReader::new(s);
        for _ in 0..2 {
            let mut refused = String::new();
            r.read_line(&mut refused).await.unwrap();
            assert!(refused.contains("operator's token"), "{refused}");
        }
        let mut a = String::new();
        r.read_line(&mut a).await.unwrap();
        let mut b = String::new();
        r.read_line(&mut b).await.unwrap();
        assert_eq!(a, "{\"ok\":true}\n");
        assert!(b.starts_with("{\"error\":\"unknown variant `dance`"), "{b}");
        // Only the command with the token reached the runner.
        assert_eq!(rx.recv().await, Some(ControlCommand::Wake));
        unbind(dir.path());
        assert!(!token_path(dir.path()).exists());
        server.abort();
    }
}
