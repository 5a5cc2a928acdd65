//! The control socket of a hosted creature: `DIR/.sys/control.sock`, serving the
//! [`crate::control::protocol`] (one JSON command per line, one reply line each). The
//! socket is created with mode 0600, so only the runner's user can drive the creature.

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio::task::JoinHandle;

use crate::control::protocol::{ControlCommand, MAX_LINE, Reply};
use crate::control::{ControlSender, socket_path};

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
    commands: ControlSender,
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

/// Answers each line once the runner has handled its command.
async fn handle(stream: UnixStream, commands: ControlSender) {
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
                Ok(cmd) => match commands.ask(cmd).await {
                    Ok(answer) => Reply::answered(answer),
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
