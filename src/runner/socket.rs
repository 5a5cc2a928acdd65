//! The control socket of a hosted creature: `DIR/.sys/control.sock`.
//!
//! Protocol: newline-delimited JSON over a Unix stream socket. Each request line is a
//! [`ControlCommand`] in its serde form, and gets one reply line:
//!
//! ```text
//! -> {"cmd":"pause"}
//! <- {"ok":true}
//! -> {"cmd":"message","text":"Please keep the summary short."}
//! <- {"ok":true}
//! -> {"cmd":"dance"}
//! <- {"ok":false,"error":"unknown variant `dance`, expected one of ..."}
//! ```
//!
//! Commands: `pause`, `resume`, `force_sleep`, `wake`, `message` (with `text`). `ok` means
//! the runner accepted the command; its effect shows in the creature's files and status.
//! A connection may send any number of lines. Lines longer than 64 KiB are refused. The
//! socket is created with mode 0600, so only the runner's user can drive the creature.

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

use super::control::ControlCommand;

const MAX_LINE: u64 = 64 * 1024;
const TIMEOUT: Duration = Duration::from_secs(5);

pub fn socket_path(dir: &Path) -> PathBuf {
    crate::memory::layout::control_socket(dir)
}

/// Binds the socket, replacing a stale one; works outside an async runtime, so the socket
/// exists as soon as the runner is open. The caller holds the creature's lock, so any
/// socket file already there is stale.
pub fn bind(dir: &Path) -> io::Result<std::os::unix::net::UnixListener> {
    let path = socket_path(dir);
    match std::fs::remove_file(&path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let listener = std::os::unix::net::UnixListener::bind(&path)?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
    listener.set_nonblocking(true)?;
    Ok(listener)
}

/// Serves a bound socket until the task is aborted (inside a tokio runtime).
pub fn serve(
    listener: std::os::unix::net::UnixListener,
    commands: UnboundedSender<ControlCommand>,
) -> io::Result<JoinHandle<()>> {
    let listener = UnixListener::from_std(listener)?;
    Ok(tokio::spawn(async move {
        loop {
            match listener.accept().await {
                Ok((stream, _)) => {
                    tokio::spawn(handle(stream, commands.clone()));
                }
                Err(e) => {
                    tracing::warn!(error = %e, "control socket accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    }))
}

async fn handle(stream: UnixStream, commands: UnboundedSender<ControlCommand>) {
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
            json!({"ok": false, "error": "line too long"})
        } else {
            match serde_json::from_slice::<ControlCommand>(&line) {
                Ok(cmd) => match commands.send(cmd) {
                    Ok(()) => json!({"ok": true}),
                    Err(_) => json!({"ok": false, "error": "the runner is shutting down"}),
                },
                Err(e) => json!({"ok": false, "error": e.to_string()}),
            }
        };
        let mut out = reply.to_string();
        out.push('\n');
        if write.write_all(out.as_bytes()).await.is_err() || !complete {
            return;
        }
    }
}

/// Sends one command to the runner hosting the creature in `dir` and waits for its reply.
pub async fn send_command(dir: &Path, cmd: &ControlCommand) -> Result<(), String> {
    let path = socket_path(dir);
    let talk = async {
        let stream = UnixStream::connect(&path)
            .await
            .map_err(|e| format!("no runner is listening on {}: {e}", path.display()))?;
        let (read, mut write) = stream.into_split();
        let mut line = serde_json::to_string(cmd).map_err(|e| e.to_string())?;
        line.push('\n');
        write
            .write_all(line.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        let mut reply = String::new();
        BufReader::new(read.take(MAX_LINE))
            .read_line(&mut reply)
            .await
            .map_err(|e| e.to_string())?;
        let v: serde_json::Value = serde_json::from_str(&reply)
            .map_err(|e| format!("the runner's reply is not JSON ({e}): {reply:?}"))?;
        match v.get("ok").and_then(serde_json::Value::as_bool) {
            Some(true) => Ok(()),
            _ => Err(v
                .get("error")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("the runner refused the command")
                .to_string()),
        }
    };
    tokio::time::timeout(TIMEOUT, talk)
        .await
        .map_err(|_| format!("the runner on {} did not answer in time", path.display()))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn commands_round_trip_and_bad_lines_get_errors() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".sys")).unwrap();
        // A stale socket file is replaced.
        std::fs::write(socket_path(dir.path()), b"stale").unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let server = serve(bind(dir.path()).unwrap(), tx).unwrap();
        let mode = std::fs::metadata(socket_path(dir.path()))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        send_command(dir.path(), &ControlCommand::Pause)
            .await
            .unwrap();
        send_command(dir.path(), &ControlCommand::Message { text: "hi".into() })
            .await
            .unwrap();
        assert_eq!(rx.recv().await, Some(ControlCommand::Pause));
        assert_eq!(
            rx.recv().await,
            Some(ControlCommand::Message { text: "hi".into() })
        );
        // Raw protocol: several lines on one connection, one bad.
        let mut s = UnixStream::connect(socket_path(dir.path())).await.unwrap();
        s.write_all(b"{\"cmd\":\"wake\"}\n{\"cmd\":\"dance\"}\n")
            .await
            .unwrap();
        let mut r = BufReader::new(s);
        let mut a = String::new();
        r.read_line(&mut a).await.unwrap();
        let mut b = String::new();
        r.read_line(&mut b).await.unwrap();
        assert_eq!(a, "{\"ok\":true}\n");
        assert!(b.starts_with("{\"error\":\"unknown variant `dance`"), "{b}");
        assert_eq!(rx.recv().await, Some(ControlCommand::Wake));
        server.abort();
    }

    #[tokio::test]
    async fn no_runner_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let e = send_command(dir.path(), &ControlCommand::Wake)
            .await
            .unwrap_err();
        assert!(e.contains("no runner is listening"), "{e}");
    }
}
