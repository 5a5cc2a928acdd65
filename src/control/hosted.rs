//! The handle on a creature that dreamwatch hosts in-process: commands go in over a
//! channel, the runner's status comes back over another.

use std::path::PathBuf;

use serde::Serialize;
use tokio::sync::{mpsc, oneshot, watch};

use super::protocol::{Answer, ControlCommand};
use crate::memory::cycle::Cycle;
use crate::memory::identity::BrainKind;
use crate::memory::status::Status;

/// What the runner tells the observatory about its creature, beyond the files.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostStatus {
    pub status: Status,
    pub fatigue: u64,
    /// Provider label, e.g. `rehearsal (offline demo brain)`.
    pub brain: String,
    pub brain_kind: BrainKind,
    /// The last fault (LLM error, failed write), shown until the next success.
    pub last_error: Option<String>,
}

/// The observatory's handle on a creature that dreamwatch hosts in-process.
#[derive(Debug, Clone)]
pub struct HostedCreature {
    pub dir: PathBuf,
    pub control: ControlSender,
    pub status: watch::Receiver<HostStatus>,
    /// The constants the runner lives by, for the observatory's gauges and cadence.
    pub cycle: Cycle,
}

/// Where a command's answer goes: called once the runner has handled the command, with
/// what it has to say (`None`: accepted, nothing more); dropped uncalled if the runner
/// stops first.
pub type AnswerFn = Box<dyn FnOnce(Option<Answer>) + Send>;

/// One command for a hosted runner, and where its answer goes.
pub struct ControlRequest {
    pub command: ControlCommand,
    pub answer: AnswerFn,
}

/// The runner has stopped: it takes no more commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the runner has stopped")]
pub struct RunnerStopped;

/// The sending end of a runner's command channel.
#[derive(Debug, Clone)]
pub struct ControlSender(mpsc::UnboundedSender<ControlRequest>);

impl ControlSender {
    /// A command channel: the runner keeps the receiver.
    pub fn channel() -> (Self, mpsc::UnboundedReceiver<ControlRequest>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (Self(tx), rx)
    }

    /// Sends `command`; `answer` is called with the runner's answer (synchronously, from
    /// the runner's task: keep it short).
    pub fn send(
        &self,
        command: ControlCommand,
        answer: impl FnOnce(Option<Answer>) + Send + 'static,
    ) -> Result<(), RunnerStopped> {
        self.0
            .send(ControlRequest {
                command,
                answer: Box::new(answer),
            })
            .map_err(|_| RunnerStopped)
    }

    /// Sends `command` and waits until the runner has handled it.
    pub async fn ask(&self, command: ControlCommand) -> Result<Option<Answer>, RunnerStopped> {
        let (tx, rx) = oneshot::channel();
        self.send(command, move |a| {
            let _ = tx.send(a);
        })?;
        rx.await.map_err(|_| RunnerStopped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn ask_waits_for_the_answer_and_a_gone_runner_is_an_error() {
        let (tx, mut rx) = ControlSender::channel();
        let runner = tokio::spawn(async move {
            let req = rx.recv().await.unwrap();
            assert_eq!(req.command, ControlCommand::ForceSleep);
            (req.answer)(Some(Answer::Dreaming));
            // Dropped unanswered: the runner stopped meanwhile.
            let _unanswered = rx.recv().await.unwrap();
        });
        assert_eq!(
            tx.ask(ControlCommand::ForceSleep).await,
            Ok(Some(Answer::Dreaming))
        );
        assert_eq!(tx.ask(ControlCommand::Wake).await, Err(RunnerStopped));
        runner.await.unwrap();
        assert_eq!(tx.ask(ControlCommand::Wake).await, Err(RunnerStopped));
    }
}
