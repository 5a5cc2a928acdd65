//! The socket client: one command to a runner in another process, and its reply.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;

use super::protocol::{Answer, ControlCommand, MAX_LINE, Reply, TOKEN_FIELD};

/// How long a runner has to answer, connection included.
const TIMEOUT: Duration = Duration::from_secs(5);

/// The control socket of the creature in `dir` (where the on-disk contract puts it).
pub fn socket_path(dir: &Path) -> PathBuf {
    crate::memory::layout::control_socket(dir)
}

/// The operator's token of the runner hosting the creature in `dir`: each command on its
/// socket carries it (see `runner::socket`).
pub fn token_path(dir: &Path) -> PathBuf {
    dir.join(crate::memory::layout::SYS_DIR)
        .join("control.token")
}

/// The token of the runner in `dir`; `None` where it wrote none (a runner that predates
/// tokens).
fn read_token(dir: &Path) -> Result<Option<String>, ControlError> {
    let path = token_path(dir);
    match std::fs::read_to_string(&path) {
        Ok(token) => Ok(Some(token.trim().to_string())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ControlError::Token { path, source }),
    }
}

/// Why a command did not reach a runner, or was refused by it.
#[derive(Debug, thiserror::Error)]
pub enum ControlError {
    #[error("no runner is listening on {}: {source}", path.display())]
    NotListening {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("the runner's reply is not JSON ({source}): {reply:?}")]
    BadReply {
        reply: String,
        source: serde_json::Error,
    },
    #[error("{0}")]
    Refused(String),
    #[error("the runner on {} did not answer in time", path.display())]
    Timeout { path: PathBuf },
    #[error("cannot read the runner's control token {}: {source}", path.display())]
    Token {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Sends one command to the runner hosting the creature in `dir` and waits for its reply:
/// what became of the command, when the runner says.
pub async fn send_command(
    dir: &Path,
    cmd: &ControlCommand,
) -> Result<Option<Answer>, ControlError> {
    let path = socket_path(dir);
    let token = read_token(dir)?;
    let talk = async {
        let stream =
            UnixStream::connect(&path)
                .await
                .map_err(|source| ControlError::NotListening {
                    path: path.clone(),
                    source,
                })?;
        let (read, mut write) = stream.into_split();
        let mut request = serde_json::to_value(cmd).map_err(std::io::Error::other)?;
        if let (Some(fields), Some(token)) = (request.as_object_mut(), token) {
            fields.insert(TOKEN_FIELD.into(), token.into());
        }
        let mut line = request.to_string();
        line.push('\n');
        write.write_all(line.as_bytes()).await?;
        let mut reply = String::new();
        BufReader::new(read.take(MAX_LINE))
            .read_line(&mut reply)
            .await?;
        let answer: Reply = serde_json::from_str(&reply)
            .map_err(|source| ControlError::BadReply { reply, source })?;
        if answer.ok {
            Ok(answer.answer)
        } else {
            Err(ControlError::Refused(answer.error.unwrap_or_else(|| {
                "the runner refused the command".to_string()
            })))
        }
    };
    tokio::time::timeout(TIMEOUT, talk)
        .await
        .map_err(|_| ControlError::Timeout { path: path.clone() })?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn no_runner_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let e = send_command(dir.path(), &ControlCommand::Wake)
            .await
            .unwrap_err()
            .to_string();
        assert!(e.contains("no runner is listening"), "{e}");
    }

    #[tokio::test]
    async fn a_refusal_carries_the_runners_words() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".sys")).unwrap();
        let listener = tokio::net::UnixListener::bind(socket_path(dir.path())).unwrap();
        let server = tokio::spawn(async move {
            let (mut stream, _) = listener.accept().await.unwrap();
            let mut buf = [0u8; 64];
            let _ = stream.read(&mut buf).await.unwrap();
            stream
                .write_all(Reply::refused("not now").to_line().as_bytes())
                .await
                .unwrap();
        });
        let e = send_command(dir.path(), &ControlCommand::Pause)
            .await
            .unwrap_err();
        assert!(
            matches!(&e, ControlError::Refused(why) if why == "not now"),
            "{e}"
        );
        server.await.unwrap();
    }
}
