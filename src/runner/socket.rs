//! The control socket of a hosted creature: `DIR/.sys/control.sock`, serving the
//! [`crate::control::protocol`] (one JSON command per line, one reply line each). The
//! socket is created with mode 0600, so only the runner's user can drive the creature.

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

use crate::control::protocol::{ControlCommand, MAX_LINE, Reply};
use crate::control::socket_path;

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
            Reply::refused("line too long")
        } else {
            match serde_json::from_slice::<ControlCommand>(&line) {
                Ok(cmd) => match commands.send(cmd) {
                    Ok(()) => Reply::accepted(),
                    Err(_) => Reply::refused("the runner is shutting down"),
                },
                Err(e) => Reply::refused(e.to_string()),
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
}
